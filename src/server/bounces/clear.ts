import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import {
  deleteBounceState,
  findBounceState,
  lockBounceState,
} from '../repositories/bounces.repository.ts';
import { setEmailPaused } from '../repositories/member-directory.repository.ts';

/**
 * An administrator clears an address's bounces (extension `bounces.clear`, issue 26 item 1): the
 * score, the last bounce and the warnings are forgotten, and a pause that bounces made is lifted
 * (spec §2.2 `paused` false): delivery resumes. A pause the member or an administrator chose stays.
 */
export async function clearBounces(
  db: Kysely<Database>,
  emailId: number,
): Promise<{ cleared: boolean; resumed: boolean }> {
  await lockBounceState(db, emailId);
  const state = await findBounceState(db, emailId);
  if (!state) return { cleared: false, resumed: false };
  const resumed = state.paused_at !== null;
  if (resumed) await setEmailPaused(db, emailId, false);
  await deleteBounceState(db, emailId);
  return { cleared: true, resumed };
}

/**
 * Someone set the address's `paused` (the member's page, spec §4.2 PUT) or changed the address
 * itself: that decides from now on, and bounces start again from nothing (no warning or removal
 * follows a pause a person chose; a new address has bounced nowhere).
 */
export async function forgetBounces(db: Kysely<Database>, emailId: number): Promise<void> {
  await deleteBounceState(db, emailId);
}
