import type { Kysely, Updateable } from 'kysely';
import { PAGE_LIMITS } from '../../api/constants.ts';
import type {
  Account,
  AccountCreate,
  AccountDetail,
  AccountQuery,
  AccountUpdate,
} from '../../api/schemas/account.ts';
import type { Principal } from '../auth/principal.ts';
import type { AccountsTable, Database } from '../db/schema.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { CostMeter } from '../http/charged-run.ts';
import { badRequest, forbidden, notFound } from '../http/http-error.ts';
import { assertWithinCaller, type AdministratorPowers } from './administrator-bounds.ts';
import {
  ACCOUNT_DEFAULTS,
  accountSettingsOf,
  pickAccountSettings,
  toAccount,
  toAccountDetail,
} from '../repositories/accounts.mapper.ts';
import {
  countAccounts,
  countContactsWithoutCcid,
  deleteAccountRow,
  findAccountByName,
  findFilteredAccount,
  insertAccount,
  listNamesOfAccounts,
  selectAccounts,
  standardUsersOfAccounts,
  updateAccountRow,
  type AccountFilters,
  type AccountRow,
} from '../repositories/accounts.repository.ts';
import { insertAdministrator } from '../repositories/administrators.repository.ts';
import { deleteAccountContents } from '../repositories/chunked-deletes.repository.ts';
import { isUniqueViolation } from '../repositories/unique-violation.ts';
import { API_PERSON } from '../repositories/users.mapper.ts';
import { usernameTaken } from '../repositories/users.repository.ts';
import { DEFAULT_MAX_CONTACTS } from './provisioning.service.ts';
import { assertRunnablePatterns } from './saved-patterns.ts';
import { pathId } from './path-id.ts';

/** Spec §2.7: the account settings that hold regular expressions (SECURITY.md 31). */
const RESTRICT_FIELDS = ['restrict_contact', 'restrict_contact_subscription'] as const;

/** Spec §4.7 get all: a bare JSON list of the basic fields, filtered and paged. */
export async function getAccounts(
  db: Kysely<Database>,
  query: AccountQuery,
  meter: CostMeter,
): Promise<Account[]> {
  const page = query.page ?? 1;
  const limit = query.limit ?? PAGE_LIMITS.accounts.default;
  const offset = (page - 1) * limit;
  // A page no group can fill: answered without asking the database for an overflowing OFFSET.
  if (offset > 2_147_483_647) return [];
  // SECURITY.md 30: the page's most (its limit, or the accounts past its offset), before it is read.
  await meter.reserveUpTo(Math.min(limit, Math.max(0, (await countAccounts(db)) - offset)));
  const rows = await selectAccounts(db, filtersOf(query), { offset, limit });
  const ids = rows.map((row) => row.id);
  const [lists, users] = await Promise.all([
    listNamesOfAccounts(db, ids),
    standardUsersOfAccounts(db, ids),
  ]);
  return rows.map((row) => toAccount(row, lists.get(row.id) ?? [], users.get(row.id) ?? []));
}

/**
 * Spec §4.7 get one, every §2.7 field; the filters, when given, must match the account too. `own`:
 * the caller's account when an account's own principal asks (operations.ts OWN_ACCOUNT), null
 * for a global one.
 */
export async function getAccount(
  db: Kysely<Database>,
  idText: string,
  query: AccountQuery,
  own: AccountRow | null,
): Promise<AccountDetail> {
  assertOwnAccount(own, idText);
  const id = pathId(idText);
  const row = id === null ? undefined : await findFilteredAccount(db, id, filtersOf(query));
  if (!row) throw notFound('Account');
  return detailOf(db, row);
}

/**
 * Spec §4.7 create. `administrator` names the initial administrator: a person with superadmin in
 * the new account, who sets a password later (PUT /users/:id/ with `password`).
 */
export async function createAccount(
  db: Kysely<Database>,
  principal: Principal,
  input: AccountCreate,
  now: Date,
): Promise<AccountDetail> {
  assertRunnablePatterns(input, RESTRICT_FIELDS);
  // SECURITY.md 32: the first administrator is a superadmin of the new account, so only a caller
  // that is superadmin itself (and not confined to lists or fields) may name one.
  if (input.administrator !== undefined) assertWithinCaller(principal, FIRST_ADMINISTRATOR);
  const settings = { ...ACCOUNT_DEFAULTS, ...pickAccountSettings(input) };
  checkTimezone(settings.timezone);
  if (await findAccountByName(db, input.name)) throw nameTaken(input.name);
  if (input.administrator !== undefined && (await usernameTaken(db, input.administrator))) {
    throw badRequest(`administrator: an administrator named ${input.administrator} already exists`);
  }
  let row: AccountRow;
  try {
    row = await insertAccount(db, {
      name: input.name,
      description: input.description ?? '',
      domain: input.domain ?? null,
      max_contacts: input.max_contacts ?? DEFAULT_MAX_CONTACTS,
      ccid: input.ccid ? 1 : 0,
      settings: JSON.stringify(settings),
      created: now.toISOString(),
    });
    if (input.administrator !== undefined) {
      await insertAdministrator(db, {
        account_id: row.id,
        username: input.administrator,
        api: API_PERSON,
        permissions: JSON.stringify(['superadmin']),
        created: row.created,
      });
    }
  } catch (error) {
    if (isUniqueViolation(error))
      throw badRequest('name or administrator: already taken by another writer');
    throw error;
  }
  return detailOf(db, row);
}

const FIRST_ADMINISTRATOR: AdministratorPowers = {
  permissions: ['superadmin'],
  limitLists: [],
  limitMetadata: [],
};

/**
 * Spec §4.7 update: any account field (§1 rule 6: only what is supplied changes). An account's own
 * principal (`own`, operations.ts OWN_ACCOUNT) changes its own account's settings, not its name or
 * plan.
 */
export async function updateAccount(
  db: Kysely<Database>,
  idText: string,
  input: AccountUpdate,
  own: AccountRow | null,
): Promise<AccountDetail> {
  assertOwnAccount(own, idText);
  assertRunnablePatterns(input, RESTRICT_FIELDS);
  const row = await accountById(db, idText);
  if (own !== null) assertNoOperatorChange(row, input);
  const settings = { ...accountSettingsOf(row), ...pickAccountSettings(input) };
  checkTimezone(settings.timezone);
  const changes: Updateable<AccountsTable> = { settings: JSON.stringify(settings) };
  if (input.name !== undefined && input.name !== row.name) {
    if (await findAccountByName(db, input.name)) throw nameTaken(input.name);
    changes.name = input.name;
  }
  if (input.description !== undefined) changes.description = input.description;
  if (input.max_contacts !== undefined) changes.max_contacts = input.max_contacts;
  if (input.ccid !== undefined) changes.ccid = input.ccid ? 1 : 0;
  if (changes.ccid === 1 && row.ccid !== 1) await assertEveryContactHasCcid(db, row.id);
  let updated: AccountRow;
  try {
    updated = await updateAccountRow(db, row.id, changes);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input.name ?? row.name);
    throw error;
  }
  return detailOf(db, updated);
}

/**
 * Spec §2.1: once enabled, the ccid "replaces the service identifier in API calls". A contact
 * without one would be unreachable, and its id could equal another contact's ccid (two contacts
 * answering to one name), so ccid is enabled only when every contact has one (issue 16 finding 9);
 * the (account, ccid) unique constraint keeps ccids distinct.
 */
async function assertEveryContactHasCcid(db: Kysely<Database>, accountId: number): Promise<void> {
  const missing = await countContactsWithoutCcid(db, accountId, MISSING_CCIDS_COUNTED + 1);
  if (missing > 0) {
    const many = missing > MISSING_CCIDS_COUNTED ? `more than ${MISSING_CCIDS_COUNTED}` : String(missing);
    // Spec §2.1: the ccid identifies a contact once enabled. (Messages name no spec sections: the
    // dashboard shows them as they are.)
    throw badRequest(
      `ccid: ${many} contact${missing === 1 ? ' has' : 's have'} no ccid; give each contact a ccid before enabling it`,
    );
  }
}

/** How far the contacts without a ccid are counted (SECURITY.md 29: a bounded read). */
export const MISSING_CCIDS_COUNTED = 1000;

/**
 * Spec §4.7 delete: contacts, lists, messages, administrators and keys of the account go with it.
 * The contacts and messages, perhaps a million, a chunk at a time (SECURITY.md 29:
 * repositories/chunked-deletes.repository.ts), then the account in one transaction.
 */
export async function deleteAccount(
  db: Kysely<Database>,
  idText: string,
  /** The last step's transaction, which records the delete in the audit log (http/audited-write.ts). */
  commit: UnitOfWork = (work) => db.transaction().execute(work),
): Promise<void> {
  const row = await accountById(db, idText);
  await deleteAccountContents(db, row.id);
  await commit((trx) => deleteAccountRow(trx, row.id));
}

/**
 * An account's own principal reaches its own account only (SECURITY.md 15); any other id, taken or
 * not, gets the same 403, so that it tells nothing of the group's other accounts (SECURITY.md 33).
 */
function assertOwnAccount(own: AccountRow | null, idText: string): void {
  if (own !== null && pathId(idText) !== own.id)
    throw forbidden('Accounts are managed with a global key: this key reaches its own account only');
}

/**
 * What stays the group's operators' on an account's own settings: its name (how the group knows
 * it) and its plan (max_contacts sets its rate-limit allowance, spec §8 rule 2; ccid). The value
 * it has is no change: a form that sends the account back as read is not refused for it.
 */
function assertNoOperatorChange(row: AccountRow, input: AccountUpdate): void {
  const changed = {
    name: input.name !== undefined && input.name !== row.name,
    max_contacts: input.max_contacts !== undefined && input.max_contacts !== row.max_contacts,
    ccid: input.ccid !== undefined && (input.ccid ? 1 : 0) !== row.ccid,
  };
  const field = (Object.keys(changed) as (keyof typeof changed)[]).find((name) => changed[name]);
  if (field !== undefined)
    throw forbidden(
      `${field}: changed by an operator of the group (a global key with the account permission), not by the account's own administrators`,
    );
}

function filtersOf(query: AccountQuery): AccountFilters {
  return { listname: query.listname, username: query.username, description: query.description };
}

async function accountById(db: Kysely<Database>, idText: string): Promise<AccountRow> {
  const id = pathId(idText);
  const row = id === null ? undefined : await findFilteredAccount(db, id, {});
  if (!row) throw notFound('Account');
  return row;
}

async function detailOf(db: Kysely<Database>, row: AccountRow): Promise<AccountDetail> {
  const [lists, users] = await Promise.all([
    listNamesOfAccounts(db, [row.id]),
    standardUsersOfAccounts(db, [row.id]),
  ]);
  return toAccountDetail(row, lists.get(row.id) ?? [], users.get(row.id) ?? []);
}


function nameTaken(name: string) {
  return badRequest(`name: an account named ${name} already exists`);
}

/** Spec §2.7 `timezone`: an IANA zone the runtime knows (e.g. UTC, Europe/Paris). */
function checkTimezone(timezone: string): void {
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
  } catch {
    throw badRequest(`timezone: ${timezone} is not a known time zone`);
  }
}
