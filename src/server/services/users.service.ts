import type { Kysely, Updateable } from 'kysely';
import type {
  Administrator,
  AdministratorCreate,
  AdministratorUpdate,
  RetrievedKey,
} from '../../api/schemas/administrator.ts';
import { welcomeAdministrator, type WelcomeContext } from '../administrators/welcome.ts';
import { hashPassword } from '../auth/keys.ts';
import type { Principal } from '../auth/principal.ts';
import type { AdministratorsTable, Database } from '../db/schema.ts';
import type { CostMeter } from '../http/charged-run.ts';
import { badRequest, notFound } from '../http/http-error.ts';
import {
  insertAdministrator,
  lockAdministratorsOf,
  type AdministratorRow,
} from '../repositories/administrators.repository.ts';
import { isUniqueViolation } from '../repositories/unique-violation.ts';
import { API_KEY_V2, API_PERSON, toAdministrator } from '../repositories/users.mapper.ts';
import {
  countAdministrators,
  deleteAdministratorRow,
  findAdministratorById,
  findAdministratorByUsername,
  selectAdministrators,
  selectKeyExpiries,
  updateAdministratorRow,
  usernameTaken,
} from '../repositories/users.repository.ts';
import { issueKey } from './provisioning.service.ts';
import {
  assertKeepsSuperadmin,
  assertMayGivePassword,
  assertWithinCaller,
  keyExpiryWithinCaller,
  powersOfRow,
} from './administrator-bounds.ts';
import { endWhatNoLongerHolds } from './sign-in-revocation.service.ts';

/**
 * Spec §4.6. `scope` is the account whose administrators the request works on, or null for the
 * group's global administrators (a global key without account_id, spec §4.8 rule 2).
 */
export type UserScope = number | null;

/**
 * Spec §4.6 get all. SECURITY.md 30: every administrator is one object, reserved (counted first)
 * before they are read.
 */
export async function getUsers(
  db: Kysely<Database>,
  scope: UserScope,
  meter: CostMeter,
): Promise<Administrator[]> {
  await meter.reserveUpTo(await countAdministrators(db, scope));
  return withKeyExpiry(db, await selectAdministrators(db, scope));
}

/** Rows → administrators, each with the `key_expiry` extension when it has keys. */
async function withKeyExpiry(
  db: Kysely<Database>,
  rows: AdministratorRow[],
): Promise<Administrator[]> {
  const expiries = await selectKeyExpiries(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toAdministrator(row, expiries.get(row.id)));
}

async function oneWithKeyExpiry(
  db: Kysely<Database>,
  row: AdministratorRow,
): Promise<Administrator> {
  const [administrator] = await withKeyExpiry(db, [row]);
  if (!administrator) throw new Error('withKeyExpiry dropped a row');
  return administrator;
}

/** Spec §4.6 get one: `:id` is the administrator id or the (URL-encoded) username. */
export async function getUser(
  db: Kysely<Database>,
  scope: UserScope,
  idOrUsername: string,
): Promise<Administrator> {
  return oneWithKeyExpiry(db, await findUser(db, scope, idOrUsername));
}

/**
 * Spec §4.6 create: with `username`, a person (api 0); with `description` instead, an API version 2
 * key's entry (api 2, §2.6 and §5.1 rule 2), whose key is then retrieved with get_key. A key's entry
 * has no password: it does not sign in. A person given no password gets the welcome email (spec
 * §2.6 `welcome_email`, default true) with a link to choose one, unless `welcome_email` is false.
 */
export async function createUserAdministrator(
  db: Kysely<Database>,
  scope: UserScope,
  principal: Principal,
  input: AdministratorCreate,
  now: Date,
  welcome: WelcomeContext,
): Promise<Administrator> {
  const isKey = input.username === undefined;
  if (isKey && input.password !== undefined) throw badRequest('password: API keys do not sign in');
  assertWithinCaller(principal, {
    permissions: input.permissions ?? [],
    limitLists: input.limit_lists ?? [],
    limitMetadata: input.limit_metadata ?? [],
  });
  if (input.password !== undefined) assertMayGivePassword(principal);
  if (input.username !== undefined && (await usernameTaken(db, input.username)))
    throw usernameInUse();
  let row: AdministratorRow;
  try {
    row = await insertAdministrator(db, {
      account_id: scope,
      username: input.username ?? null,
      description: input.description ?? null,
      firstname: input.firstname ?? '',
      surname: input.surname ?? '',
      cidr: input.cidr ?? null,
      custom_image: input.custom_image ? 1 : 0,
      mfa_type: input.mfa_type ?? null,
      api: isKey ? API_KEY_V2 : API_PERSON,
      notifications: JSON.stringify(input.notifications ?? []),
      permissions: JSON.stringify(input.permissions ?? []),
      limit_metadata: JSON.stringify(input.limit_metadata ?? []),
      limit_lists: JSON.stringify(input.limit_lists ?? []),
      password_hash: input.password === undefined ? null : await hashPassword(input.password),
      created: now.toISOString(),
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw usernameInUse();
    throw error;
  }
  // Given a password, they have what the mail would give them; a key does not sign in.
  const { username } = row;
  if (username !== null && input.password === undefined && input.welcome_email !== false)
    await welcomeAdministrator(db, { ...row, username }, welcome, now);
  return toAdministrator(row);
}

/**
 * Spec §4.6 update (§1 rule 6: only what is supplied changes; `permissions` and `notifications`
 * replace the whole array), or key retrieval when `get_key` is present on the same path.
 */
export async function updateUser(
  db: Kysely<Database>,
  scope: UserScope,
  principal: Principal,
  idText: string,
  input: AdministratorUpdate,
  now: Date,
): Promise<Administrator | RetrievedKey> {
  const row = await findUser(db, scope, idText);
  // SECURITY.md 32: the caller reaches only administrators within what it has itself.
  assertWithinCaller(principal, powersOfRow(row));
  const {
    get_key: getKey,
    expiry_months: expiryMonths,
    welcome_email: _welcomeEmail,
    ...fields
  } = input;
  if (getKey) {
    const others = Object.keys(fields).filter(
      (key) => fields[key as keyof typeof fields] !== undefined,
    );
    if (others.length > 0)
      throw badRequest(
        `get_key: send it alone, or with expiry_months (not with ${others.join(', ')})`,
      );
    // The new key authenticates at once as this administrator, with its permissions.
    const { key, expires_at } = await issueKey(db, row.id, now, expiryMonths, (requested) =>
      keyExpiryWithinCaller(principal, requested),
    );
    return { key, expiry: expires_at };
  }

  const isPerson = row.api === API_PERSON;
  const changes: Updateable<AdministratorsTable> = {};
  if (fields.username !== undefined) {
    if (!isPerson)
      // Spec §9 rule 3.
      throw badRequest('username: is not applicable to API version 2 keys');
    if (await usernameTaken(db, fields.username, row.id)) throw usernameInUse();
    changes.username = fields.username;
  }
  if (fields.password !== undefined) {
    if (!isPerson) throw badRequest('password: API keys do not sign in');
    assertMayGivePassword(principal);
    changes.password_hash = await hashPassword(fields.password);
  }
  if (fields.description !== undefined) {
    if (isPerson) throw versionTwoOnly('description');
    changes.description = fields.description;
  }
  if (fields.firstname !== undefined) changes.firstname = fields.firstname;
  if (fields.surname !== undefined) changes.surname = fields.surname;
  if (fields.cidr !== undefined) changes.cidr = fields.cidr;
  if (fields.custom_image !== undefined) changes.custom_image = fields.custom_image ? 1 : 0;
  if (fields.mfa_type !== undefined) changes.mfa_type = fields.mfa_type;
  if (fields.notifications !== undefined)
    changes.notifications = JSON.stringify(fields.notifications);
  if (fields.permissions !== undefined) changes.permissions = JSON.stringify(fields.permissions);
  if (fields.limit_metadata !== undefined)
    changes.limit_metadata = JSON.stringify(fields.limit_metadata);
  if (fields.limit_lists !== undefined) changes.limit_lists = JSON.stringify(fields.limit_lists);
  if (Object.keys(changes).length === 0) return oneWithKeyExpiry(db, row);
  try {
    // In the route's transaction: the new password or permissions and the end of what they no
    // longer allow commit together.
    if (changes.permissions !== undefined) await lockAdministratorsOf(db, scope);
    const updated = await updateAdministratorRow(db, row.id, changes);
    assertWithinCaller(principal, powersOfRow(updated));
    await assertKeepsSuperadmin(db, scope, row, updated);
    await endWhatNoLongerHolds(db, updated, {
      passwordChanged: changes.password_hash !== undefined,
    }, now);
    return await oneWithKeyExpiry(db, updated);
  } catch (error) {
    if (isUniqueViolation(error) && fields.username !== undefined) throw usernameInUse();
    throw error;
  }
}

/** Spec §4.6 delete; its keys go with it. The key making the request cannot remove itself. */
export async function deleteUser(
  db: Kysely<Database>,
  scope: UserScope,
  principal: Principal,
  idText: string,
): Promise<void> {
  const row = await findUser(db, scope, idText);
  if (row.id === principal.administratorId) {
    throw badRequest('An administrator cannot delete itself: this request is made with its key');
  }
  assertWithinCaller(principal, powersOfRow(row));
  await lockAdministratorsOf(db, scope);
  await deleteAdministratorRow(db, row.id);
  await assertKeepsSuperadmin(db, scope, row, null);
}

async function findUser(
  db: Kysely<Database>,
  scope: UserScope,
  idOrUsername: string,
): Promise<AdministratorRow> {
  let row: AdministratorRow | undefined;
  if (/^\d{1,9}$/.test(idOrUsername))
    row = await findAdministratorById(db, scope, Number(idOrUsername));
  else if (idOrUsername.includes('@'))
    row = await findAdministratorByUsername(db, scope, idOrUsername);
  if (!row) throw notFound('Administrator');
  return row;
}

/**
 * Usernames are unique across the installation (the sign-in page knows no account), so a taken
 * one must be refused; the answer is the same whoever has it and says neither that it exists nor
 * where (SECURITY.md 33): a tenant learns nothing it could not learn from its own list.
 */
function usernameInUse() {
  return badRequest('username: cannot be used; choose another username');
}

function versionTwoOnly(field: string) {
  // Spec §9 rule 3.
  return badRequest(`${field}: applies to API version 2 keys only`);
}
