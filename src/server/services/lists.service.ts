import type { Kysely } from 'kysely';
import { NAME_MAX_LENGTH, NAME_PATTERN } from '../../api/constants.ts';
import type { List, ListCreate, ListUpdate } from '../../api/schemas/list.ts';
import { hashPassword } from '../auth/keys.ts';
import { listLimit, type Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { AccountRow } from '../repositories/accounts.repository.ts';
import type { CostMeter } from '../http/charged-run.ts';
import { badRequest, forbidden, notFound } from '../http/http-error.ts';
import { JsonText } from '../http/json-text.ts';
import { withoutFields } from '../http/spec-only.ts';
import {
  selectAdministratorListLimits,
  setAdministratorListLimits,
} from '../repositories/administrators.repository.ts';
import {
  LIST_DEFAULTS,
  pickSettings,
  settingsOf,
  toCountedList,
  toList,
  type ListRow,
  type ListSettings,
} from '../repositories/lists.mapper.ts';
import {
  deleteListRow,
  existingListNames,
  findListById,
  findListByName,
  insertList,
  memberCounts,
  memberRefs,
  type MemberRefs,
  selectListSettings,
  selectLists,
  setListSettings,
  updateListRow,
} from '../repositories/lists.repository.ts';
import { deleteListContents } from '../repositories/chunked-deletes.repository.ts';
import { isUniqueViolation } from '../repositories/unique-violation.ts';
import { assertRunnablePatterns } from './saved-patterns.ts';

/** Spec §2.4: the list settings that hold regular expressions (SECURITY.md 31). */
const TABOO_FIELDS = ['taboo_headers', 'taboo_body'] as const;

/**
 * How a read answers a list's members: their ids (spec §2.4 `contacts`), or, by the extension
 * `contacts=count` (LIST_QUERY_EXTENSIONS), their number in `contacts_count` with `contacts` empty.
 */
export type MembersAs = 'ids' | 'count';

/**
 * Spec §4.4 get all; a limit_lists principal sees its own lists only (spec §2.6). SECURITY.md 30:
 * each list is one object and each member id one more (spec §8 rule 1), reserved before they are
 * read: the lists once found, their ids once counted.
 */
export async function getLists(
  db: Kysely<Database>,
  account: Pick<AccountRow, 'id' | 'ccid'>,
  principal: Principal,
  meter: CostMeter,
  membersAs: MembersAs = 'ids',
): Promise<List[] | JsonText> {
  const limit = listLimit(principal);
  const rows = await selectLists(db, account.id, limit && [...limit]);
  await meter.reserveUpTo(rows.length);
  const ids = rows.map((row) => row.id);
  const counts = await memberCounts(db, account.id, ids);
  if (membersAs === 'count')
    return rows.map((row) => toCountedList(row, counts.get(row.id) ?? 0));
  await meter.reserveUpTo(rows.length + sum(counts.values()));
  const members = await memberRefs(db, account, ids);
  const returned = sum([...members.values()].map((member) => member.count));
  const text = (hidden?: readonly string[]) =>
    `[${rows.map((row) => listJson(row, members.get(row.id), hidden)).join(',')}]`;
  return new JsonText(text(), rows.length + returned, (hidden) =>
    new JsonText(text(hidden), rows.length + returned),
  );
}

/** Spec §4.4 get one. A list outside the principal's limit is as absent as an unknown one. */
export async function getList(
  db: Kysely<Database>,
  account: Pick<AccountRow, 'id' | 'ccid'>,
  principal: Principal,
  name: string,
  meter: CostMeter,
  membersAs: MembersAs = 'ids',
): Promise<List | JsonText> {
  const row = await visibleList(db, account.id, principal, name);
  const count = (await memberCounts(db, account.id, [row.id])).get(row.id) ?? 0;
  if (membersAs === 'count') return toCountedList(row, count);
  await meter.reserveUpTo(1 + count);
  return listWithMembers(db, account, row);
}

/** A list as answered: its member ids as the database wrote them (repositories/lists.repository.ts). */
async function listWithMembers(
  db: Kysely<Database>,
  account: Pick<AccountRow, 'id' | 'ccid'>,
  row: ListRow,
): Promise<JsonText> {
  const members = (await memberRefs(db, account, [row.id])).get(row.id);
  const objects = 1 + (members?.count ?? 0);
  return new JsonText(listJson(row, members), objects, (hidden) =>
    new JsonText(listJson(row, members, hidden), objects),
  );
}

/** Spec §4.4 create: at minimum `name`, unique within the account. */
export async function createList(
  db: Kysely<Database>,
  accountId: number,
  principal: Principal,
  input: ListCreate,
  now: Date,
): Promise<List> {
  assertMayWrite(principal, input.name);
  assertRunnablePatterns(input, TABOO_FIELDS);
  if (await findListByName(db, accountId, input.name)) throw nameTaken(input.name);
  const settings: ListSettings = { ...LIST_DEFAULTS, ...pickSettings(input) };
  await checkPostingLists(db, accountId, principal, settings.restrict_post_lists, {
    name: input.name,
  });
  let row: ListRow;
  try {
    row = await insertList(db, {
      account_id: accountId,
      name: input.name,
      created: now.toISOString(),
      settings: JSON.stringify(settings),
      archive_password_hash: (await archivePasswordHash(input.archive_password)) ?? null,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input.name);
    throw error;
  }
  return toList(row, []);
}

/**
 * Spec §4.4 update, answered as get one is (SECURITY.md 30: what is returned is what is charged,
 * member ids included). Their number is reserved before the write, counted outside its
 * transaction, and the ids are read after the commit: a million of them are a heavy read, kept off
 * the writer's connection (SECURITY.md 29). `contacts=count` answers their number instead, for
 * one object.
 */
export async function updateListAnswering(
  db: Kysely<Database>,
  account: Pick<AccountRow, 'id' | 'ccid'>,
  principal: Principal,
  name: string,
  input: ListUpdate,
  meter: CostMeter,
  membersAs: MembersAs,
  /** The write's own transaction, which records it in the audit log (http/audited-write.ts). */
  commit: UnitOfWork = (work) => db.transaction().execute(work),
): Promise<List | JsonText> {
  if (membersAs === 'ids') {
    const found = await writableList(db, account.id, principal, name);
    await meter.reserveUpTo(1 + ((await memberCounts(db, account.id, [found.id])).get(found.id) ?? 0));
  }
  const row = await commit((trx) => updateList(trx, account, principal, name, input));
  if (membersAs === 'count')
    return toCountedList(row, (await memberCounts(db, account.id, [row.id])).get(row.id) ?? 0);
  return listWithMembers(db, account, row);
}

/** Spec §4.4 update (§1 rule 6: only what is supplied changes); `name` renames the list. */
async function updateList(
  db: Kysely<Database>,
  account: Pick<AccountRow, 'id' | 'ccid'>,
  principal: Principal,
  name: string,
  input: ListUpdate,
): Promise<ListRow> {
  const accountId = account.id;
  assertRunnablePatterns(input, TABOO_FIELDS);
  const row = await writableList(db, accountId, principal, name);
  const newName = input.name ?? row.name;
  const renamed = newName !== row.name;
  if (renamed) {
    assertMayWrite(principal, newName);
    if (await findListByName(db, accountId, newName)) throw nameTaken(newName);
  }
  const settings: ListSettings = { ...settingsOf(row), ...pickSettings(input) };
  if (input.restrict_post_lists !== undefined) {
    await checkPostingLists(db, accountId, principal, input.restrict_post_lists, {
      name: newName,
      formerName: row.name,
    });
  }
  if (renamed) {
    settings.restrict_post_lists = renameIn(settings.restrict_post_lists, row.name, newName);
    await followRename(db, accountId, row.id, row.name, newName);
  }
  const passwordHash = await archivePasswordHash(input.archive_password);
  let updated: ListRow;
  try {
    updated = await updateListRow(db, accountId, row.id, {
      name: newName,
      settings: JSON.stringify(settings),
      ...(passwordHash === undefined ? {} : { archive_password_hash: passwordHash }),
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(newName);
    throw error;
  }
  return updated;
}

/**
 * Spec §4.4 delete: memberships and archived messages go with the list, a chunk at a time (they
 * may be a million, SECURITY.md 29: repositories/chunked-deletes.repository.ts), then the list and its name
 * in other lists' posting restrictions in one transaction.
 */
export async function deleteList(
  db: Kysely<Database>,
  accountId: number,
  principal: Principal,
  name: string,
  /** The last step's transaction, which records the delete in the audit log (http/audited-write.ts). */
  commit: UnitOfWork = (work) => db.transaction().execute(work),
): Promise<void> {
  const found = await writableList(db, accountId, principal, name);
  await deleteListContents(db, found.id);
  await commit(async (trx) => {
    // As it is now: renamed meanwhile, its new name is the one other lists hold.
    const row = await findListById(trx, accountId, found.id);
    if (!row) return;
    await deleteListRow(trx, accountId, row.id);
    // Other lists' posting restrictions must keep naming existing lists only.
    for (const other of await selectListSettings(trx, accountId)) {
      const bag = JSON.parse(other.settings) as { restrict_post_lists?: unknown };
      if (Array.isArray(bag.restrict_post_lists) && bag.restrict_post_lists.includes(row.name)) {
        bag.restrict_post_lists = bag.restrict_post_lists.filter((n) => n !== row.name);
        await setListSettings(trx, other.id, JSON.stringify(bag));
      }
    }
  });
}

function isListName(name: string): boolean {
  return name.length <= NAME_MAX_LENGTH && NAME_PATTERN.test(name);
}

async function visibleList(
  db: Kysely<Database>,
  accountId: number,
  principal: Principal,
  name: string,
): Promise<ListRow> {
  const limit = listLimit(principal);
  if (!isListName(name) || (limit && !limit.has(name))) throw notFound('List');
  const row = await findListByName(db, accountId, name);
  if (!row) throw notFound('List');
  return row;
}

/** A write outside the principal's lists is refused before the list is even looked up (no probing). */
async function writableList(
  db: Kysely<Database>,
  accountId: number,
  principal: Principal,
  name: string,
): Promise<ListRow> {
  // A list outside a limited key's lists is as absent as an unknown one (spec §2.6, SECURITY.md 33).
  const limit = listLimit(principal);
  if (!isListName(name) || (limit && !limit.has(name))) throw notFound('List');
  const row = await findListByName(db, accountId, name);
  if (!row) throw notFound('List');
  return row;
}

function assertMayWrite(principal: Principal, name: string): void {
  const limit = listLimit(principal);
  if (limit && !limit.has(name))
    throw forbidden('name: this key is limited to other lists (limit_lists)');
}

/**
 * Spec §2.4 as JSON, its `contacts` the JSON text the database built: a million ids are copied
 * into the answer, never handled one by one on the server's thread (SECURITY.md 29). `hidden`:
 * extension settings left out (`EXTENSIONS=off`).
 */
function listJson(row: ListRow, members: MemberRefs | undefined, hidden: readonly string[] = []): string {
  const { id, name, created } = toList(row, []);
  const head = JSON.stringify({ id, name, created });
  const settings = withoutFields(settingsOf(row), hidden);
  return `${head.slice(0, -1)},"contacts":${members?.json ?? '[]'},${JSON.stringify(settings).slice(1)}`;
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

function nameTaken(name: string) {
  return badRequest(`name: a list named ${name} already exists in this account`);
}

/** Spec §2.4: `restrict_post_lists` names lists of the account (the list itself included). */
async function checkPostingLists(
  db: Kysely<Database>,
  accountId: number,
  principal: Principal,
  names: readonly string[],
  self: { name: string; formerName?: string },
): Promise<void> {
  const others = names.filter((n) => n !== self.name);
  const existing = await existingListNames(db, accountId, others);
  const limit = listLimit(principal);
  // Lists outside a limited principal's reach get the same answer as missing ones.
  const missing = others.filter(
    (n) => !existing.has(n) || n === self.formerName || (limit !== null && !limit.has(n)),
  );
  if (missing.length > 0) {
    throw badRequest(
      `restrict_post_lists: no list named ${[...new Set(missing)].join(', ')} in this account`,
    );
  }
}

/** Spec §2.4: a blank archive password disables password access; otherwise only its hash is kept. */
async function archivePasswordHash(
  password: string | undefined,
): Promise<string | null | undefined> {
  if (password === undefined) return undefined;
  return password.trim() === '' ? null : hashPassword(password);
}

function renameIn(names: string[], from: string, to: string): string[] {
  return names.map((n) => (n === from ? to : n));
}

/** A renamed list keeps its place in other lists' posting restrictions and administrators' limits. */
async function followRename(
  db: Kysely<Database>,
  accountId: number,
  listId: number,
  from: string,
  to: string,
): Promise<void> {
  for (const other of await selectListSettings(db, accountId)) {
    if (other.id === listId) continue;
    const bag = JSON.parse(other.settings) as { restrict_post_lists?: unknown };
    if (Array.isArray(bag.restrict_post_lists) && bag.restrict_post_lists.includes(from)) {
      bag.restrict_post_lists = renameIn(bag.restrict_post_lists as string[], from, to);
      await setListSettings(db, other.id, JSON.stringify(bag));
    }
  }
  for (const administrator of await selectAdministratorListLimits(db, accountId)) {
    const names = JSON.parse(administrator.limit_lists) as string[];
    if (names.includes(from))
      await setAdministratorListLimits(
        db,
        administrator.id,
        JSON.stringify(renameIn(names, from, to)),
      );
  }
}
