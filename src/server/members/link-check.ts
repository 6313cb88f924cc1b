import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import {
  findEmailForLink,
  findMemberOfList,
  type MemberOfList,
} from '../repositories/member-directory.repository.ts';
import { linkHolds, readLinkClaim, type LinkPurpose } from '../tokens/signed-link.ts';
import type { PublicList } from './public-list.ts';

/**
 * The member a delivery's link names (one-click leave, the member's page), when the link is ours,
 * for this list, for the address it was made for, and not expired (SECURITY.md 42); else null,
 * and the caller answers 404 and changes nothing.
 */
export async function memberOfLink(
  db: Kysely<Database>,
  key: Buffer,
  list: PublicList,
  token: string,
  purpose: LinkPurpose,
  now: Date,
): Promise<MemberOfList | null> {
  if (!/^[A-Za-z0-9_-]{20,80}$/.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  const claim = readLinkClaim(bytes, purpose);
  if (!claim || claim.listId !== list.id) return null;
  const email = await findEmailForLink(db, claim.emailId);
  if (!email || email.account_id !== list.accountId) return null;
  if (!linkHolds(key, bytes, email.email_key, now)) return null;
  return (await findMemberOfList(db, list.accountId, list.id, { emailId: email.id })) ?? null;
}
