import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { registerSqliteFunctions } from '../db/sqlite-functions.ts';
import pg from 'pg';
import {
  loadFirstname,
  messageSubjectPrefix,
  type ContactRecord,
  type LoadLog,
} from './load-log.ts';

/**
 * The end of a load run: the database, read directly, against the clients' log (load-log.ts).
 *
 * - **Lost**: an acknowledged (2xx) write whose effect is not in the database at the end, when no
 *   later acknowledged write of the same client on the same object replaced it: a created contact
 *   that is missing (or lost its address); notes other than those of the contact's last
 *   acknowledged update; a contact whose DELETE was acknowledged still there; an acknowledged
 *   membership missing, or one whose DELETE was acknowledged still there; an acknowledged message
 *   send with no message of its subject.
 * - **Duplicated**: one acknowledged write stored more than once: two contacts with the surname
 *   (unique per create) of one POST, two memberships of one contact in one list, two messages with
 *   the subject (unique per send) of one POST /messages/.
 * - **Phantom** (unacknowledged but present): something the load wrote that no acknowledged write
 *   accounts for: a contact, membership or message whose create was refused with a 4xx or never
 *   made, or notes that only a refused update carried.
 * - **In doubt**: objects touched by a write that got a 5xx, no answer or an answer out of
 *   contract; such a write may or may not have happened, so their final state is not judged. Any
 *   such answer is itself a failure of the run (5xx, network errors), so none are expected.
 * - **Unrecorded**: acknowledged writes without their audit entry (issue 26 item 4), counted by
 *   operation; an entry beyond the acknowledged writes of its operation is a phantom.
 */
export interface Verdict {
  lost: number;
  duplicated: number;
  phantom: number;
  inDoubt: number;
  unrecorded: number;
  /** The first few findings, in words. */
  problems: string[];
}

/** Plain SQL on either database, `?` placeholders; for the verifier and for tests that sabotage. */
export interface LoadDatabase {
  all<T>(text: string, params?: unknown[]): Promise<T[]>;
  run(text: string, params?: unknown[]): Promise<void>;
  close(): Promise<void>;
}

export async function openLoadDatabase(options: {
  dataDir: string;
  databaseUrl?: string;
}): Promise<LoadDatabase> {
  if (!options.databaseUrl) {
    const file = new SqliteDatabase(path.join(options.dataDir, 'listkeeper.db'));
    // It writes contacts behind the server's back (the verifier's own test), through the triggers.
    registerSqliteFunctions(file);
    return {
      all: async <T>(text: string, params: unknown[] = []) =>
        file.prepare(text).all(...params) as T[],
      run: async (text, params = []) => void file.prepare(text).run(...params),
      close: async () => void file.close(),
    };
  }
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  const numbered = (text: string) => {
    let n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
  };
  return {
    all: async <T>(text: string, params: unknown[] = []) =>
      (await client.query(numbered(text), params)).rows as T[],
    run: async (text, params = []) => void (await client.query(numbered(text), params)),
    close: () => client.end(),
  };
}

interface ContactRow {
  id: number;
  surname: string;
  notes: string;
}

export async function verifyLoad(
  db: LoadDatabase,
  accountId: number,
  log: LoadLog,
): Promise<Verdict> {
  const mark = [accountId, loadFirstname(log.run)];
  const ofLoad =
    'join contacts c on c.id = x.contact_id where c.account_id = ? and c.firstname = ?';
  const contacts = await db.all<ContactRow>(
    'select id, surname, notes from contacts where account_id = ? and firstname = ?',
    mark,
  );
  const emails = await db.all<{ contact_id: number; email: string }>(
    `select x.contact_id, x.email from emails x ${ofLoad}`,
    mark,
  );
  const memberships = await db.all<{ contact_id: number; name: string }>(
    `select x.contact_id, l.name from memberships x join lists l on l.id = x.list_id ${ofLoad}`,
    mark,
  );
  const messages = await db.all<{ subject: string; n: number | string }>(
    'select subject, count(*) as n from messages where account_id = ? and subject like ? group by subject',
    [accountId, `${messageSubjectPrefix(log.run)}%`],
  );

  const entries = await db.all<{ operation: string; n: number | string }>(
    'select operation, count(*) as n from audit_entries where account_id = ? group by operation',
    [accountId],
  );

  const verdict: Verdict = {
    lost: 0,
    duplicated: 0,
    phantom: 0,
    inDoubt: 0,
    unrecorded: 0,
    problems: [],
  };
  const find = (kind: 'lost' | 'duplicated' | 'phantom', count: number, words: string) => {
    verdict[kind] += count;
    if (verdict.problems.length < 10) verdict.problems.push(`${kind}: ${words}`);
  };
  const byToken = group(contacts, (row) => row.surname);
  const emailsOf = group(emails, (row) => Number(row.contact_id));
  const listsOf = group(memberships, (row) => Number(row.contact_id));

  for (const record of log.contacts.values()) {
    const rows = byToken.get(record.token) ?? [];
    if (rows.length > 1)
      find(
        'duplicated',
        rows.length - 1,
        `${rows.length} contacts for the one create ${record.token}`,
      );
    if (record.create === 'refused') {
      if (rows.length > 0)
        find(
          'phantom',
          rows.length,
          `contact ${record.token} exists though its create was refused`,
        );
      continue;
    }
    if (record.create === 'doubt' || record.doubt) {
      verdict.inDoubt += 1;
      continue;
    }
    const row = rows.find((candidate) => Number(candidate.id) === record.id);
    if (record.deleted) {
      if (rows.length > 0)
        find('lost', 1, `contact ${record.id} is still there after its acknowledged DELETE`);
      continue;
    }
    if (!row) {
      find('lost', 1, `acknowledged contact ${record.id} (${record.token}) is missing`);
      continue;
    }
    checkContact(
      record,
      row,
      emailsOf.get(Number(row.id)) ?? [],
      listsOf.get(Number(row.id)) ?? [],
      find,
    );
  }
  for (const [token, rows] of byToken) {
    if (!log.contacts.has(token))
      find('phantom', rows.length, `contact ${token} was never written by the load`);
  }

  const stored = new Map(messages.map((row) => [row.subject, Number(row.n)]));
  for (const [subject, outcome] of log.messages) {
    const count = stored.get(subject) ?? 0;
    stored.delete(subject);
    if (count > 1) find('duplicated', count - 1, `${count} messages for the one send "${subject}"`);
    if (outcome === 'doubt') verdict.inDoubt += 1;
    else if (outcome === 'acked' && count === 0)
      find('lost', 1, `acknowledged message "${subject}" is missing`);
    else if (outcome === 'refused' && count > 0)
      find('phantom', count, `message "${subject}" exists though its send was refused`);
  }
  for (const [subject, count] of stored)
    find('phantom', count, `message "${subject}" was never sent by the load`);

  const recorded = new Map(entries.map((row) => [row.operation, Number(row.n)]));
  for (const [operation, acknowledged] of log.acknowledgedBy) {
    const count = recorded.get(operation) ?? 0;
    if (count < acknowledged) {
      verdict.unrecorded += acknowledged - count;
      if (verdict.problems.length < 10)
        verdict.problems.push(
          `unrecorded: ${acknowledged - count} of ${acknowledged} acknowledged ${operation} without an audit entry`,
        );
    } else if (count > acknowledged && verdict.inDoubt === 0)
      find(
        'phantom',
        count - acknowledged,
        `${count} ${operation} audit entries for ${acknowledged} acknowledged writes`,
      );
  }
  return verdict;
}

type Find = (kind: 'lost' | 'duplicated' | 'phantom', count: number, words: string) => void;

/** An acknowledged, live contact: its address, its last acknowledged notes, its memberships. */
function checkContact(
  record: ContactRecord,
  row: ContactRow,
  emails: { email: string }[],
  lists: { name: string }[],
  find: Find,
): void {
  if (!emails.some((e) => e.email === record.email))
    find('lost', 1, `contact ${record.id} lost its address ${record.email}`);
  if (row.notes !== record.notes) {
    const kind = record.refusedNotes.has(row.notes) ? 'phantom' : 'lost';
    find(
      kind,
      1,
      `contact ${record.id} has notes "${row.notes}", its last acknowledged update wrote "${record.notes}"`,
    );
  }
  const present = group(lists, (m) => m.name);
  for (const [list, membership] of record.lists) {
    const count = present.get(list)?.length ?? 0;
    present.delete(list);
    if (count > 1)
      find('duplicated', count - 1, `contact ${record.id} is ${count} times on ${list}`);
    if (!membership.removed && count === 0)
      find('lost', 1, `contact ${record.id} is not on ${list} (acknowledged)`);
    if (membership.removed && count > 0)
      find('lost', 1, `contact ${record.id} is still on ${list} after an acknowledged removal`);
  }
  for (const [list, rows] of present)
    find(
      'phantom',
      rows.length,
      `contact ${record.id} is on ${list} without an acknowledged write`,
    );
}

function group<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list) list.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}
