import type { Generated } from 'kysely';

/**
 * The database as Kysely sees it. Both dialects store the same shapes: booleans as 0/1 integers,
 * arrays and setting bags as JSON text, dates as ISO-8601 text. Rows never leave the repositories:
 * mappers beside them turn rows into API objects.
 */
export interface Database {
  accounts: AccountsTable;
  administrators: AdministratorsTable;
  api_keys: ApiKeysTable;
  custom_fields: CustomFieldsTable;
  contacts: ContactsTable;
  contact_values: ContactValuesTable;
  emails: EmailsTable;
  lists: ListsTable;
  memberships: MembershipsTable;
  messages: MessagesTable;
  outbox: OutboxTable;
  rate_counters: RateCountersTable;
}

export interface AccountsTable {
  id: Generated<number>;
  name: string;
  description: Generated<string>;
  domain: string | null;
  /** The plan: maximum address-book size; the hourly allowance is 3× this (spec §8 rule 2). */
  max_contacts: number;
  ccid: Generated<number>;
  /** JSON of the spec §2.7 additional fields. */
  settings: Generated<string>;
  created: string;
}

export interface AdministratorsTable {
  id: Generated<number>;
  /** null: a global administrator or key of the group (spec §4.8). */
  account_id: number | null;
  username: string | null;
  description: string | null;
  firstname: Generated<string>;
  surname: Generated<string>;
  cidr: string | null;
  custom_image: Generated<number>;
  mfa_type: string | null;
  /** Spec §9: 0 for a person, 2 for an API version 2 key. */
  api: Generated<number>;
  authn_provider: string | null;
  notifications: Generated<string>;
  permissions: Generated<string>;
  limit_metadata: Generated<string>;
  limit_lists: Generated<string>;
  password_hash: string | null;
  created: string;
}

export interface ApiKeysTable {
  id: Generated<number>;
  administrator_id: number;
  /** SHA-256 of the key (hex); the key itself is shown once and never stored. */
  key_hash: string;
  expires_at: string | null;
  created: string;
}

export interface CustomFieldsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  identifier: string | null;
}

export interface ContactsTable {
  id: Generated<number>;
  account_id: number;
  ccid: string | null;
  firstname: Generated<string>;
  surname: Generated<string>;
  notes: Generated<string>;
  created: string;
  /** Lower-cased text of every property (names, notes, ccid, addresses, custom values) for search. */
  search_text: Generated<string>;
}

export interface ContactValuesTable {
  contact_id: number;
  field_id: number;
  value: string;
}

export interface EmailsTable {
  id: Generated<number>;
  account_id: number;
  contact_id: number;
  email: string;
  /** Lower-cased address: the unique key within an account. */
  email_key: string;
  digest: Generated<number>;
  paused: Generated<number>;
  confirmed: Generated<number>;
  ceid: string | null;
}

export interface ListsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  created: string;
  /** JSON of every spec §2.4 setting but the write-only password. */
  settings: Generated<string>;
  archive_password_hash: string | null;
}

export interface MembershipsTable {
  id: Generated<number>;
  account_id: number;
  contact_id: number;
  list_id: number;
  /** null keeps the address's setting (spec §2.3). */
  digest: number | null;
}

export interface MessagesTable {
  id: Generated<number>;
  account_id: number;
  list_id: number;
  subject: Generated<string>;
  from_phrase: Generated<string>;
  from_address: Generated<string>;
  time: number;
  message_id: string;
  thread_id: number;
  parent_id: number | null;
  content_plain: Generated<string>;
  content_html: Generated<string>;
}

export interface OutboxTable {
  id: Generated<number>;
  account_id: number;
  message_id: number;
  email_id: number;
  address: string;
  status: Generated<string>;
  created: string;
}

export interface RateCountersTable {
  account_id: number;
  window_start: number;
  used: number;
}
