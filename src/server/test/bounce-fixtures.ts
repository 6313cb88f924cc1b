import fs from 'node:fs';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { saveBounceState } from '../repositories/bounces.repository.ts';

/** Bounces as real mail servers write them (src/server/bounces/fixtures/), for one delivery. */
export const BOUNCE_FIXTURES = [
  'postfix-failed',
  'postfix-delayed',
  'exim-failed',
  'exim-delayed',
  'qmail-failed',
  'exchange-failed',
  'delivered',
  'auto-reply',
] as const;
export type BounceFixture = (typeof BOUNCE_FIXTURES)[number];

/** The fixture's text with the delivery's return path (its VERP address) and recipient filled in. */
export function bounceFixture(
  name: BounceFixture,
  delivery: { returnPath: string; recipient: string },
): string {
  const text = fs.readFileSync(new URL(`../bounces/fixtures/${name}.eml`, import.meta.url), 'utf8');
  return text
    .replaceAll('{{RETURN_PATH}}', delivery.returnPath)
    .replaceAll('{{RECIPIENT}}', delivery.recipient)
    .replace(/\r?\n/g, '\r\n');
}

/**
 * An address's bounce state as the score leaves it (issue 26, extension `bounces.*`), put straight
 * into the table (made or replaced): for the cross-cutting suites, without the mail round trip.
 */
export async function insertBounceState(
  db: Kysely<Database>,
  input: { accountId: number; emailId: number; tag: string; now: Date },
): Promise<void> {
  await saveBounceState(db, {
    email_id: input.emailId,
    account_id: input.accountId,
    score: 2,
    counted_at: input.now.toISOString(),
    last_at: input.now.toISOString(),
    last_kind: 'hard',
    last_status: '5.1.1',
    last_reason: `550 5.1.1 user unknown at ${input.tag}`,
    paused_at: null,
    warnings: 0,
    warned_at: null,
    due_at: null,
    removed_at: null,
  });
}
