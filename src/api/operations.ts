/**
 * The operations of API v2, one entry each: what the contract knows of an operation (its method
 * and path, its schemas, the permissions that allow it, and whether it is beyond spec v2 and why).
 * Server, tests and the generated browser tables all read this table.
 *
 * To add an operation (a reference-server extension, say `requests.list`):
 * 1. Its entry below: `extension` (why it exists: the spec-coverage test refuses an operation
 *    beyond spec §4 without one, or on a path a spec operation uses), `method`, `path` (ending in
 *    a slash), `query` for a GET (`NoQuery` when it takes none), `body` for a write, `response`,
 *    and `anyOf` (any one permission allows it; superadmin always does) with `global` for the
 *    group-wide ones. New schemas go in schemas/<resource>.ts, exported (the generated table
 *    imports them by name).
 * 2. Its server entry in src/server/http/operation-policy.ts (scope, envelope, transaction…):
 *    `npx tsc -b` fails until it has one.
 * 3. Its route: `defineRoute(app, deps, 'requests.list', handler)` in
 *    src/server/routes/<resource>.routes.ts, registered in routes/register-routes.ts (the server
 *    refuses to start with an operation of this table unrouted).
 * 4. `npx vitest run src/api/browser-tables.test.ts -u` rewrites the two tables the browser loads
 *    (operation-permissions.ts, client-operations.ts); `tsc` fails on them until it does.
 * 5. The suites that walk every operation then ask for the rest: src/server/test/fixtures.ts
 *    (a valid call of it, for the authorization matrix, permissions, mass-assignment, fuzzing and
 *    EXTENSIONS=off suites), http/operation-policy.test.ts and oauth/scopes.test.ts (its
 *    resource's scope area). A field or query parameter beyond spec v2 on a spec operation is
 *    marked on the entry (`extensionFields`, `extensionQuery`) with its reason beside its schema.
 */
import type * as z from 'zod/mini';
import { PERMISSIONS, type Permission } from './constants.ts';
import { NoQuery, SuccessBody } from './primitives.ts';
import { AccountCollection, AccountCreate, AccountDetail, AccountQuery, AccountUpdate } from './schemas/account.ts';
import {
  Administrator,
  AdministratorCollection,
  AdministratorCreate,
  AdministratorUpdate,
  RetrievedKey,
} from './schemas/administrator.ts';
import { AuditPage, AuditQuery } from './schemas/audit.ts';
import { BounceClearOutcome, BouncePage, BounceQuery } from './schemas/bounce.ts';
import { Caller } from './schemas/caller.ts';
import {
  Contact,
  ContactCreate,
  ContactPage,
  ContactQuery,
  ContactUpdate,
  type CONTACT_QUERY_EXTENSIONS,
} from './schemas/contact.ts';
import { Email, EmailCreate, EmailUpdate } from './schemas/email.ts';
import { CustomField, FieldCollection, FieldCreate, FieldDeleted, FieldUpdate } from './schemas/field.ts';
import { HeldBulk, HeldBulkOutcome, HeldMessageDetail, HeldOutcome, HeldPage, HeldQuery, HeldReject, HeldSource } from './schemas/held.ts';
import { RequestBulk, RequestBulkOutcome, RequestOutcome, RequestPage, RequestQuery, RequestReject } from './schemas/request.ts';
import {
  List,
  ListCollection,
  ListCreate,
  ListQuery,
  ListUpdate,
  type LIST_QUERY_EXTENSIONS,
} from './schemas/list.ts';
import { Membership, MembershipCreate, MembershipUpdate } from './schemas/membership.ts';
import { MessageImage, MessageImageQuery, MessagePage, Message, MessageQuery, MessageSend } from './schemas/message.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * What a client needs to call an operation and read its answer. `path` is relative to /api/2 and
 * ends with a slash (spec §1 rule 1); `:id` and `:name` are path segments. `collection` marks
 * answers whose array key the spec does not name: the client accepts a bare array, `data`, or the
 * object's one array-valued property.
 */
export interface OperationCall {
  readonly method: HttpMethod;
  readonly path: string;
  readonly query?: z.ZodMiniType;
  readonly body?: z.ZodMiniType;
  readonly response: z.ZodMiniType;
  readonly collection?: boolean;
}

/**
 * SECURITY.md 16: the permissions that allow an operation (any one suffices; superadmin allows
 * everything within its scope), deny by default. `global` operations also need a global key (spec
 * §4.7, §4.8). The reference server enforces it; the dashboard shows each person only what it
 * allows them (another server may differ; its 403 still explains).
 */
export interface RouteRule {
  readonly anyOf: readonly Permission[];
  readonly global?: boolean;
  /**
   * On a `global` operation, a reference-server extension (OWN_ACCOUNT says why): a principal of
   * one account holding one of these (superadmin always) may call it on its own account only.
   * `EXTENSIONS=off` leaves it out: account keys are refused as spec §4.7 has it.
   */
  readonly ownAccount?: readonly Permission[];
}

/** The query parameters beyond spec §4, each with its reason beside its schema. */
export type ExtensionQueryParam = keyof typeof CONTACT_QUERY_EXTENSIONS | keyof typeof LIST_QUERY_EXTENSIONS;

/**
 * Fields the reference server adds beyond spec v2 to the objects some operations answer (each
 * operation names its own in `extensionFields`), saying why. Read-only on administrators; the plan
 * fields may also be written on accounts. The dashboard feature-detects each (absent from an
 * answer: the server does not offer it), and `EXTENSIONS=off` leaves them out of answers and
 * refuses them in bodies.
 */
export const EXTENSION_FIELDS = {
  key_expiry:
    "when an administrator's API keys stop working, so the administrators page can warn before they do",
  max_contacts:
    "the plan's maximum address-book size, which sets the hourly rate-limit allowance (spec §8 rule 2)",
  ccid: 'whether custom contact identifiers are enabled for the account (spec §2.1)',
  contacts_count:
    "a list's number of members, answered instead of their ids when asked (`contacts=count`, LIST_QUERY_EXTENSIONS)",
  munge_from_always:
    "a list setting: every post goes out From the list, its author in Reply-To (or Cc), not only posts whose domain publishes DMARC p=reject or p=quarantine (issue 26 item 2), for lists whose members' servers refuse mail From a domain that did not send it",
} as const;

export type ExtensionField = keyof typeof EXTENSION_FIELDS;

/**
 * One operation: in a section of spec §4.1–4.7, or an `extension` the reference server adds beyond
 * spec v2, with the reason it exists. The dashboard feature-detects an extension: a server without
 * it answers 404 and the feature does without; `EXTENSIONS=off` leaves it out (http/spec-only.ts).
 * A spec operation may carry extension fields in its answers (`extensionFields`) and take extension
 * query parameters (`extensionQuery`), which `EXTENSIONS=off` hides too.
 */
export type Operation = OperationCall &
  RouteRule & {
    readonly extensionFields?: readonly ExtensionField[];
    readonly extensionQuery?: readonly ExtensionQueryParam[];
  } & (
    | { readonly section: `4.${1 | 2 | 3 | 4 | 5 | 6 | 7}`; readonly extension?: never }
    | { readonly extension: string; readonly section?: never }
  );

const contactReaders = ['contact', 'membership'] as const;
const listReaders = ['list', 'list_settings', 'membership', 'contact', 'messages', 'approval'] as const;
/** The held queue is the moderator's, spec §2.6 `approval`. */
const moderators = ['approval'] as const;
/** Join and leave requests are the membership's, spec §2.6 `membership`. */
const membershipModerators = ['membership'] as const;
/** Whoever may read a message may see its images and delete it. */
const messageReaders = ['messages', 'approval'] as const;
const superadmin = ['superadmin'] as const;
/** Spec §2.6 `audit`: "View audit logs". */
const auditors = ['audit'] as const;
/**
 * Defining the account's custom fields changes the shape of every contact (spec §2.1): an account
 * setting, spec §2.6 `general_settings` ("manage general account settings"), not `contact`, which
 * manages the contacts within that shape.
 */
const fieldDefiners = ['general_settings'] as const;
const accountManagers = ['account'] as const;
/** Spec §2.6 general_settings: "Manage general account settings", its own account's (OWN_ACCOUNT). */
const ownAccountManagers = ['general_settings'] as const;
const administratorFields = ['key_expiry'] as const;
const planFields = ['max_contacts', 'ccid'] as const;
/** A list's own extension settings (LIST_EXTENSION_SETTINGS), answered wherever a list is. */
const listFields = ['munge_from_always'] as const;

const HELD_QUEUE =
  'the messages the posting policy held (spec §2.4 moderation settings), which spec v2 stores but gives moderators no way to review: list them with their reasons, approve (archived and sent), reject (the sender gets the reject message) or discard, one at a time or in bulk';

const CUSTOM_FIELDS =
  'the custom contact fields (spec §2.1 `<custom field>`), which spec v2 shows on every contact and names in limit_metadata (§2.6) but gives no way to define: list them with how many contacts have a value and which administrators are limited to each, define, rename (values stay, limit_metadata follows) and delete (values go, limit_metadata loses it)';
const BOUNCES =
  "the bounce state of addresses (issue 26, after Mailman 3's bounce score): spec v2 pauses an address (§2.2 `paused`) and names the `bounce` notifications (§2.6) but gives no way to see why an address is paused by its bounces (score, last bounce and reason, warnings) or to clear it and resume its delivery; kept off the spec's email object so its answers stay exactly spec v2's";

const REQUEST_QUEUE =
  'the requests to join and leave that wait for a list moderator (spec §2.4 subscriptions and unsubscriptions `open+confirm`), which spec v2 names but gives moderators no way to answer: list them, approve, reject (the requester is told why) or discard, one at a time or in bulk';

/**
 * Why an account's own principal reaches its account through spec §4.7 (`ownAccount` on
 * accounts.get and accounts.update): §2.6 gives account administrators `general_settings`, "Manage
 * general account settings", but spec v2 has no operation for them: §2.7 and §4.7 are for grouped
 * accounts, managed by the group's global keys (§4.8). Here a superadmin or holder of
 * general_settings of one account reads its own account and changes its §2.7 settings and
 * description; its name and plan (max_contacts, ccid), the other accounts, and listing, creating
 * and deleting accounts stay the operators'.
 */
export const OWN_ACCOUNT =
  "an account's own superadmin or holder of general_settings (spec §2.6) reads and changes its own account's §2.7 settings, which spec v2 keeps to the group's global keys (§4.7, §4.8)";

const AUDIT_LOG =
  "the audit log that spec §2.6's `audit` permission (\"View audit logs\") names and spec v2 gives no way to read: every change made through the API, the command line, the members' pages and mail, with when, who, from where, the object and each field's old and new value (never a secret's), newest first, filtered by time, actor, list, object and operation, paged by keyset";

/** Keyed `resource.action`. */
export const OPERATIONS = {
  'contacts.get': { section: '4.1', method: 'GET', path: '/contacts/:id/', query: NoQuery, response: Contact, anyOf: contactReaders },
  'contacts.list': { section: '4.1', method: 'GET', path: '/contacts/', query: ContactQuery, response: ContactPage, anyOf: contactReaders, extensionQuery: ['list'] },
  'contacts.create': { section: '4.1', method: 'POST', path: '/contacts/', body: ContactCreate, response: Contact, anyOf: ['contact'] },
  'contacts.update': { section: '4.1', method: 'PUT', path: '/contacts/:id/', body: ContactUpdate, response: Contact, anyOf: ['contact'] },
  'contacts.delete': { section: '4.1', method: 'DELETE', path: '/contacts/:id/', response: SuccessBody, anyOf: ['contact'] },

  'emails.get': { section: '4.2', method: 'GET', path: '/emails/:id/', query: NoQuery, response: Email, anyOf: contactReaders },
  'emails.create': { section: '4.2', method: 'POST', path: '/emails/', body: EmailCreate, response: Email, anyOf: ['contact'] },
  'emails.update': { section: '4.2', method: 'PUT', path: '/emails/:id/', body: EmailUpdate, response: Email, anyOf: ['contact'] },
  'emails.delete': { section: '4.2', method: 'DELETE', path: '/emails/:id/', response: SuccessBody, anyOf: ['contact'] },

  'membership.get': { section: '4.3', method: 'GET', path: '/membership/:id/', query: NoQuery, response: Membership, anyOf: contactReaders },
  'membership.create': { section: '4.3', method: 'POST', path: '/membership/', body: MembershipCreate, response: Membership, anyOf: ['membership', 'contact'] },
  'membership.update': { section: '4.3', method: 'PUT', path: '/membership/:id/', body: MembershipUpdate, response: Membership, anyOf: ['membership', 'contact'] },
  'membership.delete': { section: '4.3', method: 'DELETE', path: '/membership/:id/', response: SuccessBody, anyOf: ['membership', 'contact'] },

  'lists.list': { section: '4.4', method: 'GET', path: '/lists/', query: ListQuery, response: ListCollection, collection: true, anyOf: listReaders, extensionFields: ['contacts_count', ...listFields], extensionQuery: ['contacts'] },
  'lists.get': { section: '4.4', method: 'GET', path: '/lists/:name/', query: ListQuery, response: List, anyOf: listReaders, extensionFields: ['contacts_count', ...listFields], extensionQuery: ['contacts'] },
  'lists.create': { section: '4.4', method: 'POST', path: '/lists/', body: ListCreate, response: List, anyOf: ['list'], extensionFields: listFields },
  'lists.update': { section: '4.4', method: 'PUT', path: '/lists/:name/', query: ListQuery, body: ListUpdate, response: List, anyOf: ['list', 'list_settings'], extensionFields: ['contacts_count', ...listFields], extensionQuery: ['contacts'] },
  'lists.delete': { section: '4.4', method: 'DELETE', path: '/lists/:name/', response: SuccessBody, anyOf: ['list'] },

  'messages.list': { section: '4.5', method: 'GET', path: '/messages/', query: MessageQuery, response: MessagePage, anyOf: messageReaders },
  'messages.get': { section: '4.5', method: 'GET', path: '/messages/:id/', query: NoQuery, response: Message, anyOf: messageReaders },
  'messages.send': { section: '4.5', method: 'POST', path: '/messages/', body: MessageSend, response: SuccessBody, anyOf: ['messages'] },
  'messages.delete': { section: '4.5', method: 'DELETE', path: '/messages/:id/', response: SuccessBody, anyOf: messageReaders },
  'messages.image': {
    extension:
      'a remote image the message HTML references, fetched by the server and answered as a data: URL ({url, data_url}), so "show images" works without relaxing the CSP (SECURITY.md 13, 24); http(s), raster types, size and time capped',
    method: 'GET', path: '/messages/:id/images/', query: MessageImageQuery, response: MessageImage, anyOf: messageReaders,
  },

  'users.list': { section: '4.6', method: 'GET', path: '/users/', query: NoQuery, response: AdministratorCollection, collection: true, anyOf: superadmin, extensionFields: administratorFields },
  'users.get': { section: '4.6', method: 'GET', path: '/users/:id/', query: NoQuery, response: Administrator, anyOf: superadmin, extensionFields: administratorFields },
  'users.create': { section: '4.6', method: 'POST', path: '/users/', body: AdministratorCreate, response: Administrator, anyOf: superadmin, extensionFields: administratorFields },
  'users.update': { section: '4.6', method: 'PUT', path: '/users/:id/', body: AdministratorUpdate, response: Administrator, anyOf: superadmin, extensionFields: administratorFields },
  'users.retrieveKey': { section: '4.6', method: 'PUT', path: '/users/:id/', body: AdministratorUpdate, response: RetrievedKey, anyOf: superadmin },
  'users.delete': { section: '4.6', method: 'DELETE', path: '/users/:id/', response: SuccessBody, anyOf: superadmin },

  'accounts.list': { section: '4.7', method: 'GET', path: '/accounts/', query: AccountQuery, response: AccountCollection, collection: true, anyOf: accountManagers, global: true },
  'accounts.get': { section: '4.7', method: 'GET', path: '/accounts/:id/', query: AccountQuery, response: AccountDetail, anyOf: accountManagers, global: true, ownAccount: ownAccountManagers, extensionFields: planFields },
  'accounts.create': { section: '4.7', method: 'POST', path: '/accounts/', body: AccountCreate, response: AccountDetail, anyOf: accountManagers, global: true, extensionFields: planFields },
  'accounts.update': { section: '4.7', method: 'PUT', path: '/accounts/:id/', body: AccountUpdate, response: AccountDetail, anyOf: accountManagers, global: true, ownAccount: ownAccountManagers, extensionFields: planFields },
  'accounts.delete': { section: '4.7', method: 'DELETE', path: '/accounts/:id/', response: SuccessBody, anyOf: accountManagers, global: true },

  'held.list': { extension: HELD_QUEUE, method: 'GET', path: '/held/', query: HeldQuery, response: HeldPage, anyOf: moderators },
  'held.get': { extension: HELD_QUEUE, method: 'GET', path: '/held/:id/', query: NoQuery, response: HeldMessageDetail, anyOf: moderators },
  'held.source': { extension: HELD_QUEUE, method: 'GET', path: '/held/:id/source/', query: NoQuery, response: HeldSource, anyOf: moderators },
  'held.approve': { extension: HELD_QUEUE, method: 'POST', path: '/held/:id/approve/', response: HeldOutcome, anyOf: moderators },
  'held.reject': { extension: HELD_QUEUE, method: 'POST', path: '/held/:id/reject/', body: HeldReject, response: HeldOutcome, anyOf: moderators },
  'held.discard': { extension: HELD_QUEUE, method: 'POST', path: '/held/:id/discard/', response: HeldOutcome, anyOf: moderators },
  'held.bulk': { extension: HELD_QUEUE, method: 'POST', path: '/held/bulk/', body: HeldBulk, response: HeldBulkOutcome, anyOf: moderators },

  'requests.list': { extension: REQUEST_QUEUE, method: 'GET', path: '/requests/', query: RequestQuery, response: RequestPage, anyOf: membershipModerators },
  'requests.approve': { extension: REQUEST_QUEUE, method: 'POST', path: '/requests/:id/approve/', response: RequestOutcome, anyOf: membershipModerators },
  'requests.reject': { extension: REQUEST_QUEUE, method: 'POST', path: '/requests/:id/reject/', body: RequestReject, response: RequestOutcome, anyOf: membershipModerators },
  'requests.discard': { extension: REQUEST_QUEUE, method: 'POST', path: '/requests/:id/discard/', response: RequestOutcome, anyOf: membershipModerators },
  'requests.bulk': { extension: REQUEST_QUEUE, method: 'POST', path: '/requests/bulk/', body: RequestBulk, response: RequestBulkOutcome, anyOf: membershipModerators },

  'audit.list': { extension: AUDIT_LOG, method: 'GET', path: '/audit/', query: AuditQuery, response: AuditPage, anyOf: auditors },
  'fields.list': { extension: CUSTOM_FIELDS, method: 'GET', path: '/fields/', query: NoQuery, response: FieldCollection, collection: true, anyOf: contactReaders },
  'fields.create': { extension: CUSTOM_FIELDS, method: 'POST', path: '/fields/', body: FieldCreate, response: CustomField, anyOf: fieldDefiners },
  'fields.update': { extension: CUSTOM_FIELDS, method: 'PUT', path: '/fields/:id/', body: FieldUpdate, response: CustomField, anyOf: fieldDefiners },
  'fields.delete': { extension: CUSTOM_FIELDS, method: 'DELETE', path: '/fields/:id/', response: FieldDeleted, anyOf: fieldDefiners },
  'bounces.list': { extension: BOUNCES, method: 'GET', path: '/bounces/', query: BounceQuery, response: BouncePage, anyOf: contactReaders },
  // Resuming an address reaches every list it is on, as a spec §4.2 update of `paused` does; a
  // membership manager may clear it too (Mailman's list owners re-enable a member).
  'bounces.clear': { extension: BOUNCES, method: 'POST', path: '/bounces/:id/clear/', response: BounceClearOutcome, anyOf: ['contact', 'membership'] },

  'caller.get': {
    extension:
      'the address the server checks a cidr restriction against (§2.6), so the dashboard can warn before a cidr shuts out the administrator typing it; and the administrator entry behind the key or token with its account (spec v2 has no "who am I"), so the dashboard shows each person only what their permissions allow',
    method: 'GET', path: '/caller/', query: NoQuery, response: Caller,
    // About the caller alone: any permission at all reads it (a key with none can do nothing to show).
    anyOf: PERMISSIONS,
  },
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof OPERATIONS;

/** Whether the reference server adds the operation beyond spec v2 (its `extension` says why). */
export function isExtension(name: OperationName): boolean {
  return 'extension' in OPERATIONS[name];
}

/** The extension fields of one operation's objects (none for most). */
export function extensionFieldsOf(name: OperationName): readonly ExtensionField[] {
  const operation: Operation = OPERATIONS[name];
  return operation.extensionFields ?? [];
}

/** The extension query parameters one operation takes (none for most). */
export function extensionQueryOf(name: OperationName): readonly ExtensionQueryParam[] {
  const operation: Operation = OPERATIONS[name];
  return operation.extensionQuery ?? [];
}
