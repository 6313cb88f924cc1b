import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import { readVerpToken } from '../mail/verp.ts';
import { findEmailForLink } from '../repositories/member-directory.repository.ts';
import { linkHolds, linkKey } from '../tokens/signed-link.ts';
import type { BounceReport } from './report.ts';
import { recordBounce, type BounceEffect, type BounceTarget } from './score.ts';
import type { BounceSettings } from './settings.ts';

/** What became of mail to a list's bounce address, for the listener's outcomes and its logs. */
export type BounceOutcome = {
  action: 'bounce';
  rule:
    | BounceEffect
    /** `<list>-bounces@` without a token: it names nobody. */
    | 'no-token'
    /** A token that is not ours, for this list and an address row of its account, unexpired. */
    | 'forged'
    /** No failure in it: a DSN of success, an auto-reply to the return path. */
    | 'not-a-failure';
};

/** What reading bounces needs: the database, the writes' unit of work, the score's settings. */
export interface BounceSetup {
  db: Kysely<Database>;
  unitOfWork: UnitOfWork;
  settings: BounceSettings;
}

/** One recipient of the message: a list's bounce address, with the VERP token it carried. */
export interface BounceRecipient {
  list: { id: number; account_id: number };
  token: string | null;
}

/**
 * Mail to `<list>-bounces+TOKEN@` (issue 26 item 1). A bounce counts only when its token names a
 * delivery we made (SECURITY.md 47): signed with the installation's key, for this list, and for
 * the address its row still holds (the address is in the MAC), before the token's expiry. Anything
 * else (a forged or altered token, one of another list, the plain `<list>-bounces@`) changes
 * nothing. The report is read (on the inbound pool: `read`) only when a token holds, once. Nothing
 * is ever answered: a reply to a bounce is how loops start.
 */
export async function receiveBounces(
  setup: BounceSetup,
  recipients: readonly BounceRecipient[],
  read: () => Promise<BounceReport>,
  now: Date,
): Promise<BounceOutcome[]> {
  const targets = await Promise.all(
    recipients.map((recipient) => deliveryOf(setup.db, recipient, now)),
  );
  let report: Promise<BounceReport> | null = null;
  const outcomes: BounceOutcome[] = [];
  for (const target of targets) {
    if (typeof target === 'string') {
      outcomes.push({ action: 'bounce', rule: target });
      continue;
    }
    report ??= read();
    const said = await report;
    if (said.kind === null) {
      outcomes.push({ action: 'bounce', rule: 'not-a-failure' });
      continue;
    }
    const kind = said.kind;
    const effect = await setup.unitOfWork((trx) =>
      recordBounce(trx, target, { ...said, kind }, now, setup.settings),
    );
    outcomes.push({ action: 'bounce', rule: effect });
  }
  return outcomes;
}

/**
 * Whether a VERP return path names a delivery of ours (SECURITY.md 42, 47): asked at RCPT TO, so
 * that a forged or expired token is refused there (550: an SMTP 4xx would have the forger's MTA
 * try again for days) and never reaches the pool.
 */
export async function bounceAddressHolds(
  db: Kysely<Database>,
  recipient: BounceRecipient & { token: string },
  now: Date,
): Promise<boolean> {
  return typeof (await deliveryOf(db, recipient, now)) === 'object';
}

/** The delivery a bounce address names, or why it names none. */
async function deliveryOf(
  db: Kysely<Database>,
  { list, token }: BounceRecipient,
  now: Date,
): Promise<BounceTarget | 'no-token' | 'forged'> {
  if (token === null) return 'no-token';
  const read = readVerpToken(token.toLowerCase());
  if (!read || read.claim.listId !== list.id) return 'forged';
  const email = await findEmailForLink(db, read.claim.emailId);
  if (!email || email.account_id !== list.account_id) return 'forged';
  if (!linkHolds(await linkKey(db), read.bytes, email.email_key, now)) return 'forged';
  return { accountId: list.account_id, listId: list.id, emailId: email.id };
}
