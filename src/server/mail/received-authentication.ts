import * as z from 'zod/mini';

/**
 * What sender verification found when a message came in by SMTP (sender-auth.ts), kept with it
 * (held, then archived: migration 2026-11-29T0900) for the way out (issue 26 item 2): the From
 * domain's DMARC policy decides whether the members' copies go out From the list, and the results
 * go into the ARC set each copy is sealed with. Found once at receipt, so a fan-out asks no DNS.
 */
export const ReceivedAuthentication = z.object({
  /**
   * The Authentication-Results value mailauth wrote (RFC 8601: authserv-id; dkim=…; spf=…;
   * arc=…; dmarc=…): the ARC-Authentication-Results of the list's set (RFC 8617 §4.1.1).
   */
  results: z.string(),
  /** How the ARC sets it came with validated: the `cv=` of the list's seal (RFC 8617 §4.1.3). */
  arc: z.enum(['none', 'pass', 'fail']),
  /**
   * The policy the From domain publishes (its `p`, or its organizational domain's `sp`/`np`, RFC
   * 9989 §4.10); `unknown` when the lookup failed or timed out, or no one domain is the author's.
   */
  dmarc: z.enum(['reject', 'quarantine', 'none', 'unknown']),
});
export type ReceivedAuthentication = z.infer<typeof ReceivedAuthentication>;
export type DmarcPolicy = ReceivedAuthentication['dmarc'];

/** As a column holds it: JSON text. */
export function storedAuthentication(received: ReceivedAuthentication): string {
  return JSON.stringify(received);
}

/** From the column: null when there is none, or it is not what this server writes. */
export function readAuthentication(stored: string | null | undefined): ReceivedAuthentication | null {
  if (!stored) return null;
  try {
    const parsed = ReceivedAuthentication.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
