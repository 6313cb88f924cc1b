import { expect, it } from 'vitest';
import { describeEachDialect } from './harness.ts';
import { runLoad, type LoadReport } from './load-harness.ts';
import { loadFirstname } from './load-log.ts';

// Issue #10 item 2, small: ten clients for a few seconds, on two server processes sharing
// PostgreSQL and on one on SQLite (`npm run bench -- --load` runs 50 clients for 60 s).
// At least 40 steps a client, so that each kind of write (the rarest is 4 % of the mix) happens.
const SHORT = { clients: 10, seconds: 4, minimumSteps: 40, seedContacts: 300 };

function expectClean(report: LoadReport): void {
  expect(report.crashed, 'servers that died').toEqual([]);
  expect(report.requests).toBeGreaterThanOrEqual(400);
  // Every kind of write of the mix was acknowledged at least once.
  for (const name of [
    'POST /contacts/',
    'PUT /contacts/:id/',
    'DELETE /contacts/:id/',
    'POST /membership/',
    'POST /messages/',
  ]) {
    expect(report.operations.find((op) => op.name === name)?.ok, name).toBeGreaterThan(0);
  }
  expect({
    serverErrors: report.serverErrors,
    network: report.network,
    rateLimited: report.rateLimited,
    clientErrors: report.clientErrors,
    lost: report.lost,
    duplicated: report.duplicated,
    phantom: report.phantom,
    inDoubt: report.inDoubt,
    unrecorded: report.unrecorded,
    problems: report.problems,
  }).toEqual({
    serverErrors: 0,
    network: 0,
    rateLimited: 0,
    clientErrors: 0,
    lost: 0,
    duplicated: 0,
    phantom: 0,
    inDoubt: 0,
    unrecorded: 0,
    problems: [],
  });
}

describeEachDialect('load', (dialect) => {
  it(
    'answers every request of concurrent clients without a 5xx, and keeps every acknowledged write once',
    { timeout: 120_000 },
    async () => {
      expectClean(await runLoad({ dialect, ...SHORT }));
    },
  );

  it(
    'would see a lost, a duplicated and a phantom write, and a write without its audit entry (the verifier is not blind)',
    { timeout: 120_000 },
    async () => {
      const report = await runLoad({
        dialect,
        ...SHORT,
        seconds: 2,
        // Between the run and the check, behind the API's back: one acknowledged contact deleted,
        // another stored twice, and one contact that no client ever wrote.
        beforeVerify: async (db, log, accountId) => {
          const [victim, twin] = [...log.contacts.values()].filter(
            (c) => c.create === 'acked' && !c.deleted && !c.doubt,
          );
          expect(twin, 'two acknowledged contacts to sabotage').toBeDefined();
          await db.run('delete from contacts where id = ?', [victim?.id]);
          await db.run(
            `insert into contacts (account_id, firstname, surname, notes, created)
           select account_id, firstname, surname, notes, created from contacts where id = ?`,
            [twin?.id],
          );
          await db.run(
            "insert into contacts (account_id, firstname, surname, notes, created) values (?, ?, 'never-written', '', '2026-01-01')",
            [accountId, loadFirstname(log.run)],
          );
          await db.run(
            "delete from audit_entries where id = (select max(id) from audit_entries where operation = 'contacts.update')",
          );
        },
      });
      expect({
        lost: report.lost,
        duplicated: report.duplicated,
        phantom: report.phantom,
        unrecorded: report.unrecorded,
      }).toEqual({ lost: 1, duplicated: 1, phantom: 1, unrecorded: 1 });
    },
  );
});
