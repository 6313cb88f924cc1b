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
  contact_counts: ContactCountsTable;
  contact_documents: ContactDocumentsTable;
  contact_values: ContactValuesTable;
  document_versions: DocumentVersionsTable;
  emails: EmailsTable;
  held_messages: HeldMessagesTable;
  lists: ListsTable;
  memberships: MembershipsTable;
  messages: MessagesTable;
  message_sources: MessageSourcesTable;
  message_authentication: MessageAuthenticationTable;
  notices: NoticesTable;
  outbox: OutboxTable;
  rate_counters: RateCountersTable;
  server_secrets: ServerSecretsTable;
  member_requests: MemberRequestsTable;
  mail_tokens: MailTokensTable;
  public_throttles: PublicThrottlesTable;
  public_mail_times: PublicMailTimesTable;
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
}

/**
 * One row per contact, added by a trigger with it (migration 0500): the spec §2.1 JSON a caller
 * who sees everything gets, or null until it is rendered; triggers null it whenever its contact's
 * rows change. Served only while `version` is its account's (migration 2026-11-26T0000).
 */
export interface ContactDocumentsTable {
  contact_id: number;
  account_id: number;
  document: string | null;
  /** The account's document version it was rendered with. */
  version: Generated<number>;
}

/**
 * One row per account, added by a trigger with it (migration 2026-11-26T0000): the version of what
 * its contacts' documents show beyond their own rows (list names, custom fields, the ccid
 * setting), raised by triggers when one of those changes.
 */
export interface DocumentVersionsTable {
  account_id: number;
  version: Generated<number>;
  /** The version up to which the background renderer found no document left behind. */
  rendered: Generated<number>;
}

/** The number of contacts of each account, kept by triggers (migration 0410). */
export interface ContactCountsTable {
  account_id: number;
  contacts: number;
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

/** Mail the posting policy held for a moderator (migration 2026-11-25T0000). */
export interface HeldMessagesTable {
  id: Generated<number>;
  account_id: number;
  list_id: number;
  subject: Generated<string>;
  from_phrase: Generated<string>;
  from_address: Generated<string>;
  /** Unix seconds. */
  received: number;
  size: number;
  message_id: string;
  rule: string;
  setting: string | null;
  reason: string;
  /** JSON array of {rule, setting, reason}. */
  reasons: Generated<string>;
  /** JSON array of {name, value}. */
  headers: Generated<string>;
  /** The message as received, raw DEFLATE (RFC 1951): the one copy of the source. */
  raw_deflated: Buffer;
  /** Its text, UTF-8, deflated. */
  plain_deflated: Buffer;
  /** The sender's HTML, UTF-8, deflated; null when the message had none. */
  html_deflated: Buffer | null;
  /** 1 when it authenticated for its From domain: only then may a rejection answer it. */
  answerable: Generated<number>;
  /** What sender verification found, JSON (mail/received-authentication.ts); null: nothing checked. */
  received_authentication: string | null;
}

export interface OutboxTable {
  id: Generated<number>;
  account_id: number;
  message_id: number;
  email_id: number;
  address: string;
  /** pending → sending (claimed for `batch`) → sent; `digest` waits for the digest; `failed` gave up. */
  status: Generated<string>;
  created: string;
  attempts: Generated<number>;
  /** Unix ms before which a retry waits. */
  next_attempt: Generated<number>;
  /** The SMTP transaction the row was claimed for (migration 2026-11-25T0100). */
  batch: string | null;
  /** Unix ms until which the worker that claimed the row (`sending`) owns it (2026-11-25T0200). */
  lease_until: Generated<number>;
}

/** A single mail that is not a list post: hold, reject, moderator and welcome notices. */
export interface NoticesTable {
  id: Generated<number>;
  /** Null only for a global administrator's mail (migration 2026-11-29T0710). */
  account_id: number | null;
  kind: string;
  from_address: string;
  to_address: string;
  subject: string;
  body: string;
  /** The list it concerns (its List-Id and X-Loop), if any. */
  list_address: string | null;
  status: Generated<string>;
  attempts: Generated<number>;
  next_attempt: Generated<number>;
  created: string;
  /** As the outbox's: the claiming worker's lease on a `sending` notice. */
  lease_until: Generated<number>;
  /** Where a reply goes, when not to `from_address` (a confirmation's `<list>-confirm+TOKEN@`). */
  reply_to: string | null;
  /** A digest's list and member address: its personal links name them (issue 25). */
  list_id: number | null;
  email_id: number | null;
}

/** The message as received by SMTP (base64), for its attachments on the way out. */
export interface MessageSourcesTable {
  message_id: number;
  raw: string;
}

/**
 * What sender verification found for an archived message that came by SMTP (migration
 * 2026-11-29T0900): JSON (mail/received-authentication.ts), read by the fan-out.
 */
export interface MessageAuthenticationTable {
  message_id: number;
  received: string;
}

/** The installation's keys, made once (migration 2026-11-29T0000). */
export interface ServerSecretsTable {
  name: string;
  /** base64url. */
  value: string;
}

/** A join or leave on its way: waiting for the address (`confirm`) or a moderator (`moderate`). */
export interface MemberRequestsTable {
  id: Generated<number>;
  account_id: number;
  list_id: number;
  kind: 'join' | 'leave';
  /** As the requester typed it; `address_key` is its lower-cased form, the unique key. */
  address: string;
  address_key: string;
  state: 'confirm' | 'moderate';
  source: 'web' | 'mail' | 'one-click';
  created: string;
  /** When the address confirmed (a moderator sees it); null while it has not. */
  confirmed: string | null;
  expires_at: string;
}

/** A random token mailed to an address; only its SHA-256 is kept (SECURITY.md 42). */
export interface MailTokensTable {
  id: Generated<number>;
  token_hash: string;
  purpose: string;
  /** Null only for a global administrator's token. */
  account_id: number | null;
  /** A list's member's token (confirm, archive), or an administrator's (a first password). */
  list_id: number | null;
  administrator_id: number | null;
  address_key: string;
  request_id: number | null;
  created: string;
  expires_at: string;
  used_at: string | null;
}

/** Bounces (issue 26 item 1, migration 2026-11-29T0800): an address's score and pause. */
export interface Database {
  email_bounces: EmailBouncesTable;
  email_bounce_lists: EmailBounceListsTable;
}

/** One address that bounced: Mailman 3's bounce score, kept per address (spec §2.2 `paused`). */
export interface EmailBouncesTable {
  email_id: number;
  account_id: number;
  /** Hard failures counted, at most one a UTC day, started again when stale. */
  score: Generated<number>;
  /** ISO 8601: when the score last counted. */
  counted_at: string | null;
  /** The last bounce of any kind: when, 'hard' or 'temporary', its status (5.1.1) and why. */
  last_at: string;
  last_kind: string;
  last_status: string | null;
  last_reason: string;
  /** When bounces paused the address (the threshold); null while it is not paused by them. */
  paused_at: string | null;
  /** Warnings mailed to the address since, and the last one's time. */
  warnings: Generated<number>;
  warned_at: string | null;
  /** When the timer owes the paused address its next warning, or its removal; null: nothing. */
  due_at: string | null;
  /** When the memberships that bounced were removed (the warnings ran out). */
  removed_at: string | null;
}

/** A list whose delivery to the address failed for the current score. */
export interface EmailBounceListsTable {
  email_id: number;
  list_id: number;
  counted_at: string;
}

/** Rate-limit counters of the public pages (SECURITY.md 43). */
export interface PublicThrottlesTable {
  throttle_key: string;
  /** Unix seconds. */
  window_start: number;
  count: number;
}

/** When the members' side last mailed an address (SECURITY.md 43), by a digest of it. */
export interface PublicMailTimesTable {
  throttle_key: string;
  /** Unix seconds. */
  last_sent: number;
}

export interface RateCountersTable {
  account_id: number;
  window_start: number;
  used: number;
}

// ---------------------------------------------------------------------------------------------
// OAuth 2.0 authorization server (issue #4; spec §4.9, §5.2; migration 2026-11-21T0200-oauth).
// Merged into `Database` above. Every secret is stored as the SHA-256 hex of its value.
// ---------------------------------------------------------------------------------------------

export interface Database {
  oauth_clients: OAuthClientsTable;
  oauth_redirect_uris: OAuthRedirectUrisTable;
  oauth_sessions: OAuthSessionsTable;
  oauth_login_attempts: OAuthLoginAttemptsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_codes: OAuthCodesTable;
  oauth_access_tokens: OAuthAccessTokensTable;
  oauth_refresh_tokens: OAuthRefreshTokensTable;
}

export interface OAuthClientsTable {
  id: Generated<number>;
  /** The public identifier clients send (`client_id`). */
  client_id: string;
  name: string;
  /** null: a public client, which must use PKCE (SECURITY.md 3). */
  secret_hash: string | null;
  /** 1 for the dashboard itself: no consent page (it is the service's own client). */
  first_party: Generated<number>;
  created: string;
}

export interface OAuthRedirectUrisTable {
  id: Generated<number>;
  client_id: number;
  /** Compared as a string with the request's (SECURITY.md 1). */
  redirect_uri: string;
  /** `scheme://host[:port]` of the URI: the origins allowed CORS on the token endpoint. */
  origin: string;
}

export interface OAuthSessionsTable {
  id: Generated<number>;
  /** Hash of the browser's session cookie. */
  session_hash: string;
  /** null: a pre-session (the sign-in form was shown, nobody signed in yet). */
  administrator_id: number | null;
  created: string;
  expires_at: string;
}

export interface OAuthLoginAttemptsTable {
  /** Hash of the lower-cased username and the client's address. */
  throttle_key: string;
  /** Unix seconds at which the throttling window starts. */
  window_start: number;
  attempts: number;
}

export interface OAuthGrantsTable {
  id: Generated<number>;
  client_id: number;
  administrator_id: number;
  /** The login session the consent was given in: signing out revokes its grants. */
  session_id: number | null;
  /** Space-separated scopes the administrator allowed. */
  scope: string;
  created: string;
  /** Absolute end of the refresh tokens' life: fixed at the grant, never extended. */
  expires_at: string;
  revoked_at: string | null;
}

export interface OAuthCodesTable {
  id: Generated<number>;
  code_hash: string;
  grant_id: number;
  redirect_uri: string;
  /** The PKCE S256 challenge, or null when a confidential client sent none. */
  code_challenge: string | null;
  created: string;
  expires_at: string;
  /** Set once, atomically, by the one redemption that wins (SECURITY.md 4). */
  used_at: string | null;
}

export interface OAuthAccessTokensTable {
  id: Generated<number>;
  token_hash: string;
  grant_id: number;
  /** Space-separated scopes of this token (the grant's, or fewer on a narrowed refresh). */
  scope: string;
  created: string;
  expires_at: string;
}

export interface OAuthRefreshTokensTable {
  id: Generated<number>;
  token_hash: string;
  grant_id: number;
  created: string;
  /** Set once, atomically, when the token is rotated; a second use revokes the grant (SECURITY.md 5). */
  used_at: string | null;
}

// ---------------------------------------------------------------------------------------------
// The audit log (issue 26 item 4; migration 2026-11-29T0600-audit). Merged into `Database` above.
// ---------------------------------------------------------------------------------------------

export interface Database {
  audit_entries: AuditEntriesTable;
}

/** One change of an object, append-only (src/server/audit/); never a secret's value. */
export interface AuditEntriesTable {
  id: Generated<number>;
  /** null: the group's (accounts, global administrators). */
  account_id: number | null;
  /** ISO 8601, the server's clock. */
  time: string;
  actor_type: 'administrator' | 'address' | 'system';
  actor_id: number | null;
  actor_name: string | null;
  /** `actor_name` in lower case, for the actor filter. */
  actor_key: string | null;
  /** The IP address the change came from, when known. */
  address: string | null;
  service: 'api' | 'cli' | 'web' | 'mail' | 'system';
  operation: string;
  object_type: string;
  object_id: string | null;
  list_id: number | null;
  list_name: string | null;
  /** JSON array of {field, old?, new?, secret?}. */
  changes: Generated<string>;
  /** JSON object. */
  details: Generated<string>;
}
