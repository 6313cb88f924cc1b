import type { Kysely } from 'kysely';
import { welcomeNewMember } from '../mail/welcome.ts';
import type {
  Membership,
  MembershipCreate,
  MembershipUpdate,
} from '../../api/schemas/membership.ts';
import { listLimit, type Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { badRequest, notFound } from '../http/http-error.ts';
import type { AccountRow } from '../repositories/accounts.repository.ts';
import { findContactByRef, parseServiceId } from '../repositories/contacts.repository.ts';
import { digestToRow, toMembership } from '../repositories/memberships.mapper.ts';
import {
  deleteMembership as deleteMembershipRow,
  findListsByNames,
  findMembershipById,
  insertMemberships,
  membershipExists,
  updateMembershipDigest,
  type MembershipDetailRow,
} from '../repositories/memberships.repository.ts';
import { isListVisible } from './contact-access.ts';
import { contactRef } from './contact-ref.ts';
import { translateUniqueViolation } from './write-conflict.ts';

/**
 * A membership of the account. One on a list outside the key's limit_lists is invisible to it
 * (spec §2.6), for reads and writes alike: 404, as for any membership the key cannot see.
 */
async function findMembership(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  idText: string,
): Promise<MembershipDetailRow> {
  const id = parseServiceId(idText);
  const row = id === null ? undefined : await findMembershipById(db, account.id, id);
  const visible = listLimit(principal);
  if (!row || (visible !== null && !visible.has(row.list_name))) throw notFound('Membership');
  return row;
}

function present(account: AccountRow, row: MembershipDetailRow): Membership {
  return toMembership(row, contactRef(account, { id: row.contact_id, ccid: row.contact_ccid }));
}

export async function getMembership(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  idText: string,
): Promise<Membership> {
  return present(account, await findMembership(db, account, principal, idText));
}

/** Spec §4.3 create: adds a contact (by id) to a list (by name), both of the account. */
export async function createMembership(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  body: MembershipCreate,
  now: Date,
): Promise<Membership> {
  const contact = await findContactByRef(db, account, body.contact);
  if (!contact) throw badRequest(`contact: no contact ${body.contact} in this account`);
  const [list] = await findListsByNames(db, account.id, [body.list]);
  // A list hidden from a list-limited key is as unknown as a missing one (SECURITY.md 33).
  if (!list || !isListVisible(principal, list.name)) throw badRequest(`Unknown list: ${body.list}`);
  const ref = contactRef(account, contact);
  if (await membershipExists(db, contact.id, list.id)) {
    throw badRequest(`Contact ${ref} is already a member of ${list.name}`);
  }
  try {
    const [row] = await insertMemberships(db, [
      {
        account_id: account.id,
        contact_id: contact.id,
        list_id: list.id,
        digest: digestToRow(body.digest ?? null),
      },
    ]);
    await welcomeNewMember(db, account, contact.id, [list.id], now);
    return present(account, {
      ...(row as MembershipDetailRow),
      list_name: list.name,
      contact_ccid: contact.ccid,
    });
  } catch (error) {
    throw translateUniqueViolation(error);
  }
}

/**
 * Spec §4.3 update: only `digest` changes — null (sent empty) keeps the address's setting, 1 forces
 * the daily digest, 0 forces none (§2.3). Absent leaves it as it is (§1 rule 6).
 */
export async function updateMembership(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  idText: string,
  body: MembershipUpdate,
): Promise<Membership> {
  const row = await findMembership(db, account, principal, idText);
  if (body.digest === undefined) return present(account, row);
  const digest = digestToRow(body.digest);
  await updateMembershipDigest(db, account.id, row.id, digest);
  return present(account, { ...row, digest });
}

/** Spec §4.3 delete: removes the contact from the list. */
export async function deleteMembership(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  idText: string,
): Promise<void> {
  const row = await findMembership(db, account, principal, idText);
  await deleteMembershipRow(db, account.id, row.id);
}
