import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AccountRow } from '../repositories/accounts.repository.ts';
import { settingsOf } from '../repositories/lists.mapper.ts';
import { addressesOfContact, listsWithSettings } from '../repositories/mail.repository.ts';
import { listAddressOf } from './list-address.ts';
import { queueWelcome } from './notices.ts';

/**
 * Spec §2.4 welcome_message: a contact that just became a member of these lists gets each list's
 * welcome message (lists without one send nothing), queued in the caller's transaction.
 */
export async function welcomeNewMember(
  db: Kysely<Database>,
  account: AccountRow,
  contactId: number,
  listIds: readonly number[],
  now: Date,
): Promise<void> {
  const lists = (await listsWithSettings(db, account.id, listIds))
    .map((list) => ({ ...list, settings: settingsOf(list) }))
    .filter((list) => list.settings.welcome_message.trim() !== '');
  if (lists.length === 0) return;
  const addresses = await addressesOfContact(db, contactId);
  for (const list of lists) {
    await queueWelcome(
      db,
      account.id,
      {
        name: list.name,
        address: listAddressOf(list.name, account.domain),
        settings: list.settings,
      },
      addresses,
      now,
    );
  }
}
