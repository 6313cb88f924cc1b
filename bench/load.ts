// Load (issue #10 item 2): `npm run bench -- --load [--load-seconds S] [--clients N]`: two server
// processes on one PostgreSQL, then one on SQLite, each under N clients for S seconds of the mixed
// reads and writes of src/server/test/load-client.ts; every acknowledged write is verified.
import { runLoad, type LoadReport } from '../src/server/test/load-harness.ts';
import { postgresAvailable } from '../src/server/test/postgres-cluster.ts';
import { markdownTable } from './markdown-table.ts';
import type { SectionResult } from './section.ts';

export interface LoadSectionOptions {
  seconds: number;
  clients: number;
  progress: (line: string) => void;
}

/** Contacts in the account before the run: reads page and search through a realistic book. */
const SEED_CONTACTS = 10_000;

export async function loadSection(options: LoadSectionOptions): Promise<SectionResult> {
  const parts: string[] = [];
  let ok = true;
  const unavailable = postgresAvailable();
  for (const dialect of ['postgres', 'sqlite'] as const) {
    if (dialect === 'postgres' && unavailable) {
      parts.push(`### PostgreSQL: skipped (${unavailable})`);
      ok = false;
      continue;
    }
    options.progress(`load: ${dialect}, ${options.clients} clients for ${options.seconds} s`);
    const report = await runLoad({
      dialect,
      clients: options.clients,
      seconds: options.seconds,
      seedContacts: SEED_CONTACTS,
      durable: true,
      progress: options.progress,
    });
    const clean =
      report.serverErrors +
        report.network +
        report.lost +
        report.duplicated +
        report.phantom +
        report.inDoubt +
        report.unrecorded ===
        0 && report.crashed.length === 0;
    ok &&= clean;
    parts.push(describe(report, clean));
  }
  return {
    name: 'Load: mixed reads and writes, every acknowledged write verified',
    ok,
    text: parts.join('\n\n'),
  };
}

function describe(report: LoadReport, clean: boolean): string {
  const database =
    report.dialect === 'postgres' ? 'PostgreSQL (fsync on)' : 'SQLite (WAL, synchronous=FULL)';
  const rate = report.requests / report.seconds;
  const summary = [
    `### ${report.servers} server process${report.servers > 1 ? 'es' : ''} on ${database}`,
    '',
    `${report.clients} clients for ${report.seconds.toFixed(1)} s on a ${report.seedContacts.toLocaleString('en')}-contact account: ` +
      `${report.requests} requests (${rate.toFixed(0)}/s), ${report.acknowledged} acknowledged writes. ` +
      `5xx: **${report.serverErrors}**; no answer: **${report.network}**; 429: ${report.rateLimited}; other 4xx: ${report.clientErrors}. ` +
      `Lost: **${report.lost}**, duplicated: **${report.duplicated}**, phantom: **${report.phantom}**, in doubt: ${report.inDoubt}, ` +
      `without their audit entry: **${report.unrecorded}**` +
      `${report.crashed.length ? `; servers died: ${report.crashed.join(', ')}` : ''}: ${clean ? 'PASS' : 'FAIL'}`,
    ...report.problems.map((problem) => `- ${problem}`),
    '',
    markdownTable(
      ['operation', 'requests', '2xx', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms'],
      report.operations.map((op) => [
        op.name,
        op.requests,
        op.ok,
        ms(op.p50),
        ms(op.p90),
        ms(op.p99),
        ms(op.max),
      ]),
    ),
  ];
  return summary.join('\n');
}

function ms(value: number): string {
  return value.toFixed(1);
}
