import type { Kysely } from 'kysely';
import { EmailAddress } from '../../api/primitives.ts';
import type { Database } from '../db/schema.ts';
import { listAddressOf } from '../mail/list-address.ts';
import { accountSettingsOf, type AccountSettings } from '../repositories/accounts.mapper.ts';
import { settingsOf, type ListSettings } from '../repositories/lists.mapper.ts';
import { findListByAddress } from '../repositories/mail.repository.ts';
import { findListForLinks } from '../repositories/member-directory.repository.ts';

/** A list as its members meet it: by its address, with its settings and its account's. */
export interface PublicList {
  id: number;
  accountId: number;
  name: string;
  /** `<name>@<the account's domain>`. */
  address: string;
  domain: string;
  settings: ListSettings;
  account: AccountSettings;
  /** The account's settings as stored (restrict_contact is read from it). */
  accountSettingsText: string;
}

/** The list at `address` (`name@domain`, any case), or undefined when there is none. */
export async function findPublicList(
  db: Kysely<Database>,
  address: string,
): Promise<PublicList | undefined> {
  if (!EmailAddress.safeParse(address).success) return undefined;
  const at = address.lastIndexOf('@');
  const found = await findListByAddress(db, address.slice(0, at), address.slice(at + 1));
  return found?.domain ? toPublicList({ ...found, domain: found.domain }) : undefined;
}

/** A list row with its account's domain and settings, as its members meet it. */
export function toPublicList(found: {
  id: number;
  account_id: number;
  name: string;
  settings: string;
  domain: string;
  account_settings: string;
}): PublicList {
  return {
    id: found.id,
    accountId: found.account_id,
    name: found.name,
    address: listAddressOf(found.name, found.domain),
    domain: found.domain.toLowerCase(),
    settings: settingsOf(found),
    account: accountSettingsOf({ settings: found.account_settings }),
    accountSettingsText: found.account_settings,
  };
}

/** The list with this id, for the moderators' queue (its mails still come from its address). */
export async function findPublicListById(
  db: Kysely<Database>,
  listId: number,
): Promise<PublicList | undefined> {
  const found = await findListForLinks(db, listId);
  if (!found) return undefined;
  const domain = (found.domain ?? '').toLowerCase();
  return {
    id: found.id,
    accountId: found.account_id,
    name: found.name,
    address: listAddressOf(found.name, found.domain),
    domain,
    settings: settingsOf(found),
    account: accountSettingsOf({ settings: found.account_settings }),
    accountSettingsText: found.account_settings,
  };
}

/** Spec §2.4 subscriptions / unsubscriptions: the list's, else the account's (§2.7). */
export type Openness = 'open' | 'open+confirm' | 'closed';

export function opennessOf(list: PublicList, kind: 'join' | 'leave'): Openness {
  const setting = kind === 'join' ? 'subscriptions' : 'unsubscriptions';
  const value = list.settings[setting] ?? list.account[setting];
  // A value another server wrote that this one does not know is taken as the safest: closed.
  return value === 'open' || value === 'open+confirm' || value === 'closed' ? value : 'closed';
}

/** The list has something to show strangers: a way to join or leave, or an archive. */
export function hasPublicPage(list: PublicList): boolean {
  return (
    opennessOf(list, 'join') !== 'closed' ||
    opennessOf(list, 'leave') !== 'closed' ||
    list.settings.archive_enabled
  );
}
