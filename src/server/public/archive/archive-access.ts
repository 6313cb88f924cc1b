import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { PublicList } from '../../members/public-list.ts';
import {
  findEmailForLink,
  findMemberOfList,
} from '../../repositories/member-directory.repository.ts';
import { archivePasswordHash } from '../../repositories/archive.repository.ts';
import { passHolds, readPass } from './archive-pass.ts';

/** How a protected archive may be opened (spec §2.4): by members, by the password, both, or not. */
export interface DoorWays {
  members: boolean;
  password: boolean;
}

/**
 * Who may read the archive now: anyone (not protected), the holder of a pass that still holds, or
 * nobody, who then meets the door. `hadPass`: a pass came and no longer holds (the cookie is
 * ended). Spec §2.4: `archive_memberview` and `archive_password` need `archive_protected`.
 */
export type Access =
  { kind: 'open' } | { kind: 'pass' } | { kind: 'door'; ways: DoorWays; hadPass: boolean };

export async function doorWays(db: Kysely<Database>, list: PublicList): Promise<DoorWays> {
  return {
    members: list.settings.archive_memberview,
    password: (await archivePasswordHash(db, list.id)) !== null,
  };
}

export async function accessOf(
  db: Kysely<Database>,
  linkKey: Buffer,
  list: PublicList,
  passText: string | undefined,
  now: Date,
): Promise<Access> {
  if (!list.settings.archive_protected) return { kind: 'open' };
  if (await passOpens(db, linkKey, list, passText, now)) return { kind: 'pass' };
  return { kind: 'door', ways: await doorWays(db, list), hadPass: passText !== undefined };
}

async function passOpens(
  db: Kysely<Database>,
  linkKey: Buffer,
  list: PublicList,
  passText: string | undefined,
  now: Date,
): Promise<boolean> {
  const pass = readPass(passText, now);
  if (!pass || pass.listId !== list.id) return false;
  if (pass.kind === 'password') {
    const hash = await archivePasswordHash(db, list.id);
    return hash !== null && passHolds(linkKey, pass.bytes, hash);
  }
  if (!list.settings.archive_memberview) return false;
  const email = await findEmailForLink(db, pass.emailId);
  if (!email || email.account_id !== list.accountId) return false;
  if (!passHolds(linkKey, pass.bytes, email.email_key)) return false;
  const member = await findMemberOfList(db, list.accountId, list.id, { emailId: email.id });
  return member?.membershipId != null;
}
