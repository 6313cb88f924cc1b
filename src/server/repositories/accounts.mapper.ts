import {
  ACCOUNT_DETAIL_FIELDS,
  type Account,
  type AccountDetail,
  type AccountUpdate,
} from '../../api/schemas/account.ts';
import type { AccountRow } from './accounts.repository.ts';

/** The spec §2.7 additional fields, stored as JSON in accounts.settings: as written, so checked. */
export type AccountSettings = Required<Pick<AccountUpdate, (typeof ACCOUNT_DETAIL_FIELDS)[number]>>;

/**
 * A new account's settings, and any setting a stored account does not hold yet: open subscriptions,
 * the list manager told of held messages, no address restrictions, UTC.
 */
export const ACCOUNT_DEFAULTS: AccountSettings = {
  confirmation_message: '',
  confirmation_subject: '',
  welcome_message: '',
  send_welcome_message_confirmation: false,
  send_welcome_message_contacts: false,
  timezone: 'UTC',
  custom_image: '',
  notify_approval: 1,
  subscriptions: 'open',
  unsubscriptions: 'open',
  list_delegation: false,
  restrict_contact: [],
  restrict_contact_subscription: [],
  require_list_approval: false,
};

/** Only the known settings are read from or written to the bag. */
export function pickAccountSettings(
  source: Partial<Record<string, unknown>>,
): Partial<AccountSettings> {
  const entries = ACCOUNT_DETAIL_FIELDS.filter((key) => source[key] !== undefined).map((key) => [
    key,
    source[key],
  ]);
  return Object.fromEntries(entries) as Partial<AccountSettings>;
}

export function accountSettingsOf(row: Pick<AccountRow, 'settings'>): AccountSettings {
  return {
    ...ACCOUNT_DEFAULTS,
    ...pickAccountSettings(JSON.parse(row.settings) as Record<string, unknown>),
  };
}

export type AccountUser = { id: number; username: string | null };

/** Row → spec §2.7 basic fields: `lists` are names, `users` the standard users reduced to id and username. */
export function toAccount(row: AccountRow, lists: string[], users: AccountUser[]): Account {
  return { id: row.id, name: row.name, description: row.description, lists, users };
}

/** Row → a single account with every field, and the reference server's plan extensions. */
export function toAccountDetail(
  row: AccountRow,
  lists: string[],
  users: AccountUser[],
): AccountDetail {
  return {
    ...toAccount(row, lists, users),
    ...accountSettingsOf(row),
    max_contacts: row.max_contacts,
    ccid: row.ccid === 1,
  };
}
