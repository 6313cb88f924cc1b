import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { parseCommandLocalPart, type CommandAddress } from '../members/mail-commands.ts';
import { findAccountByDomain, findListByAddress } from '../repositories/mail.repository.ts';

/** A list that receives mail: what the pipeline reads once per message. */
export type ReceivingList = NonNullable<Awaited<ReturnType<typeof findListByAddress>>>;

/**
 * What one SMTP recipient address means to this server. Each kind is one entry of RECIPIENT_KINDS
 * below; an address none of them claims is `unknown`, and the listener refuses it at RCPT
 * (SECURITY.md 35: never a relay).
 */
export type Recipient =
  | { kind: 'list'; list: ReceivingList }
  /**
   * `<list>-bounces@`, or a delivery's VERP return path `<list>-bounces+TOKEN@` (mail/verp.ts):
   * bounces of the list's own mail; `token` names the delivery that bounced.
   */
  | { kind: 'list-bounces'; list: ReceivingList; token: string | null }
  /** `<list>-request@`, `-join@`, `-leave@`, `-confirm+TOKEN@`: a member's command (issue 25). */
  | { kind: 'list-command'; list: ReceivingList; command: CommandAddress }
  /** `postmaster@<an account's domain>` (RFC 5321 §4.5.1: always taken), for its superadmins. */
  | { kind: 'postmaster'; account: { id: number; domain: string } }
  | { kind: 'unknown' };

/** One kind of address: the recipient it names, or null when the address is not of this kind. */
type RecipientKind = (
  db: Kysely<Database>,
  address: { local: string; domain: string },
) => Promise<Recipient | null>;

const BOUNCES = /-bounces(?:\+([a-z2-7]{20,80}))?$/i;

/** RFC 5321 §4.5.1: the local part is "postmaster" in any case; before any list so named. */
const postmaster: RecipientKind = async (db, { local, domain }) => {
  if (local.toLowerCase() !== 'postmaster') return null;
  const account = await findAccountByDomain(db, domain);
  return account?.domain
    ? { kind: 'postmaster', account: { id: account.id, domain: account.domain } }
    : null;
};

const listBounces: RecipientKind = async (db, { local, domain }) => {
  const found = BOUNCES.exec(local);
  if (!found) return null;
  const list = await findListByAddress(db, local.slice(0, found.index), domain);
  return list ? { kind: 'list-bounces', list, token: found[1] ?? null } : null;
};

/** After the lists themselves: a list may be named `x-join`, and then it is that list's address. */
const listCommand: RecipientKind = async (db, { local, domain }) => {
  const parsed = parseCommandLocalPart(local);
  if (!parsed) return null;
  const list = await findListByAddress(db, parsed.list, domain);
  return list ? { kind: 'list-command', list, command: parsed.address } : null;
};

const list: RecipientKind = async (db, { local, domain }) => {
  const found = await findListByAddress(db, local, domain);
  return found ? { kind: 'list', list: found } : null;
};

/** Asked in order; the first that claims an address decides. */
const RECIPIENT_KINDS: readonly RecipientKind[] = [postmaster, listBounces, list, listCommand];

/** What `address` (an SMTP forward-path, `local@domain`) names here. */
export async function resolveRecipient(db: Kysely<Database>, address: string): Promise<Recipient> {
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return { kind: 'unknown' };
  const parts = { local: address.slice(0, at), domain: address.slice(at + 1) };
  for (const kind of RECIPIENT_KINDS) {
    const found = await kind(db, parts);
    if (found) return found;
  }
  return { kind: 'unknown' };
}
