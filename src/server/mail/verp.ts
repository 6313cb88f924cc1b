import { commandAddress } from '../members/links.ts';
import { emailKey } from '../repositories/emails.repository.ts';
import { fromBase32, toBase32 } from '../tokens/base32.ts';
import { expiryDay, readLinkClaim, signLink, type LinkClaim } from '../tokens/signed-link.ts';

/**
 * VERP (issue 26 item 1): each delivery's return path is `<list>-bounces+<token>@<domain>`, the
 * token naming the list and the address it was sent to, signed (tokens/signed-link.ts), so a bounce
 * always says whose delivery failed ("bounced subscriber not found" cannot happen) and a forged one
 * names nobody (SECURITY.md 47). Base32 in lower case: a mail system may fold the local part's case.
 */
export const BOUNCE_LINK_DAYS = 30;

export function verpAddress(
  key: Buffer,
  list: { id: number; address: string },
  recipient: { emailId: number; address: string },
  now: Date,
): string {
  const signed = signLink(
    key,
    { purpose: 'bounce', listId: list.id, emailId: recipient.emailId, expiresDay: expiryDay(now, BOUNCE_LINK_DAYS) },
    emailKey(recipient.address),
  );
  return commandAddress(list.address, `bounces+${toBase32(signed)}`);
}

/** What a VERP token claims (the list and the address row), before its MAC is checked. */
export function readVerpToken(token: string): { bytes: Buffer; claim: LinkClaim } | null {
  const bytes = fromBase32(token);
  const claim = readLinkClaim(bytes, 'bounce');
  return bytes && claim ? { bytes, claim } : null;
}
