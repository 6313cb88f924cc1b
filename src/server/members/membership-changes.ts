import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { findAccountById } from '../repositories/accounts.repository.ts';
import { insertContact } from '../repositories/contacts.repository.ts';
import {
  findMemberOfList,
  markEmailConfirmed,
  type MemberOfList,
} from '../repositories/member-directory.repository.ts';
import { emailKey, insertEmails } from '../repositories/emails.repository.ts';
import { deleteMembership, insertMemberships } from '../repositories/memberships.repository.ts';
import type { PublicList } from './public-list.ts';

/**
 * What joining and leaving change (issue 25), once the workflow has said yes. An address that
 * joins becomes, if the account has none such, a new contact with that one address (spec §2.1),
 * confirmed (§2.2: it answered the confirmation), and its contact a member of the list (§2.3).
 * Memberships belong to contacts: leaving ends the contact's membership of that list only
 * (SECURITY.md 45), whichever of its addresses asked.
 */
export async function joinList(
  db: Kysely<Database>,
  list: PublicList,
  address: string,
  now: Date,
): Promise<{ member: MemberOfList; joined: boolean; newContact: boolean }> {
  const key = emailKey(address);
  let member = await findMemberOfList(db, list.accountId, list.id, { addressKey: key });
  const newContact = !member;
  if (!member) {
    // On a ccid account every contact has one (spec §2.1): a member who joined alone is known by
    // the address it joined with, which is unique in the account as a ccid must be.
    const account = await findAccountById(db, list.accountId);
    const contact = await insertContact(db, {
      account_id: list.accountId,
      ccid: account?.ccid === 1 ? address : null,
      created: now.toISOString(),
    });
    await insertEmails(db, [
      { account_id: list.accountId, contact_id: contact.id, email: address, email_key: key },
    ]);
    member = await findMemberOfList(db, list.accountId, list.id, { addressKey: key });
    if (!member) throw new Error('a new address vanished within its own transaction');
  }
  if (!member.confirmed) await markEmailConfirmed(db, member.emailId);
  if (member.membershipId !== null)
    return { member: { ...member, confirmed: true }, joined: false, newContact };
  const [membership] = await insertMemberships(db, [
    { account_id: list.accountId, contact_id: member.contactId, list_id: list.id, digest: null },
  ]);
  return {
    member: { ...member, confirmed: true, membershipId: membership?.id ?? null },
    joined: true,
    newContact,
  };
}

/** Ends the membership `member` has of the list; false when there was none to end. */
export async function leaveList(
  db: Kysely<Database>,
  list: PublicList,
  member: MemberOfList,
): Promise<boolean> {
  if (member.membershipId === null) return false;
  await deleteMembership(db, list.accountId, member.membershipId);
  return true;
}
