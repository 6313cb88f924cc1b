import * as z from 'zod/mini';
import { SuccessBody } from './primitives.ts';
import { AccountCollection, AccountCreate, AccountDetail, AccountQuery, AccountUpdate } from './schemas/account.ts';
import {
  Administrator,
  AdministratorCollection,
  AdministratorCreate,
  AdministratorUpdate,
  RetrievedKey,
} from './schemas/administrator.ts';
import { Caller } from './schemas/caller.ts';
import { Contact, ContactCreate, ContactPage, ContactQuery, ContactUpdate } from './schemas/contact.ts';
import { Email, EmailCreate, EmailUpdate } from './schemas/email.ts';
import { HeldBulk, HeldBulkOutcome, HeldMessageDetail, HeldOutcome, HeldPage, HeldQuery, HeldReject } from './schemas/held.ts';
import { List, ListCollection, ListCreate, ListQuery, ListUpdate } from './schemas/list.ts';
import { Membership, MembershipCreate, MembershipUpdate } from './schemas/membership.ts';
import { MessageImage, MessageImageQuery, MessagePage, Message, MessageQuery, MessageSend } from './schemas/message.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One operation of spec §4. `path` is relative to /api/2 and ends with a slash (spec §1 rule 1);
 * `:id` and `:name` are path segments. `collection` marks answers whose array key the spec does not
 * name: the client accepts a bare array, `data`, or the object's one array-valued property. The
 * section `extension` marks an operation the reference server adds beyond spec v2 (why: in
 * extension-reasons.ts): the dashboard feature-detects it and does without it elsewhere.
 */
export interface Operation {
  readonly section: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly query?: z.ZodMiniType;
  readonly body?: z.ZodMiniType;
  readonly response: z.ZodMiniType;
  readonly collection?: boolean;
}

const NoQuery = z.strictObject({});

/**
 * The `section` of a reference-server extension: an operation beyond spec §4, with its reason in
 * EXTENSION_REASONS (the spec-coverage test holds every other section to the spec's tables). The
 * dashboard feature-detects them: a server without one answers 404 and the feature does without.
 */
export const EXTENSION = 'extension';

/**
 * Every operation of spec §4.1–4.7, then the reference server's extensions, keyed
 * `resource.action`. Client, server and tests share it.
 */
export const OPERATIONS = {
  'contacts.get': { section: '4.1', method: 'GET', path: '/contacts/:id/', query: NoQuery, response: Contact },
  // Extension: the query also takes `list` (CONTACT_QUERY_EXTENSIONS), which the dashboard feature-detects.
  'contacts.list': { section: '4.1', method: 'GET', path: '/contacts/', query: ContactQuery, response: ContactPage },
  'contacts.create': { section: '4.1', method: 'POST', path: '/contacts/', body: ContactCreate, response: Contact },
  'contacts.update': { section: '4.1', method: 'PUT', path: '/contacts/:id/', body: ContactUpdate, response: Contact },
  'contacts.delete': { section: '4.1', method: 'DELETE', path: '/contacts/:id/', response: SuccessBody },

  'emails.get': { section: '4.2', method: 'GET', path: '/emails/:id/', query: NoQuery, response: Email },
  'emails.create': { section: '4.2', method: 'POST', path: '/emails/', body: EmailCreate, response: Email },
  'emails.update': { section: '4.2', method: 'PUT', path: '/emails/:id/', body: EmailUpdate, response: Email },
  'emails.delete': { section: '4.2', method: 'DELETE', path: '/emails/:id/', response: SuccessBody },

  'membership.get': { section: '4.3', method: 'GET', path: '/membership/:id/', query: NoQuery, response: Membership },
  'membership.create': { section: '4.3', method: 'POST', path: '/membership/', body: MembershipCreate, response: Membership },
  'membership.update': { section: '4.3', method: 'PUT', path: '/membership/:id/', body: MembershipUpdate, response: Membership },
  'membership.delete': { section: '4.3', method: 'DELETE', path: '/membership/:id/', response: SuccessBody },

  // Extension: get all, get one and update also take `contacts=count` (LIST_QUERY_EXTENSIONS),
  // which the dashboard feature-detects.
  'lists.list': { section: '4.4', method: 'GET', path: '/lists/', query: ListQuery, response: ListCollection, collection: true },
  'lists.get': { section: '4.4', method: 'GET', path: '/lists/:name/', query: ListQuery, response: List },
  'lists.create': { section: '4.4', method: 'POST', path: '/lists/', body: ListCreate, response: List },
  'lists.update': { section: '4.4', method: 'PUT', path: '/lists/:name/', query: ListQuery, body: ListUpdate, response: List },
  'lists.delete': { section: '4.4', method: 'DELETE', path: '/lists/:name/', response: SuccessBody },

  'messages.list': { section: '4.5', method: 'GET', path: '/messages/', query: MessageQuery, response: MessagePage },
  'messages.get': { section: '4.5', method: 'GET', path: '/messages/:id/', query: NoQuery, response: Message },
  'messages.send': { section: '4.5', method: 'POST', path: '/messages/', body: MessageSend, response: SuccessBody },
  'messages.delete': { section: '4.5', method: 'DELETE', path: '/messages/:id/', response: SuccessBody },
  'messages.image': { section: EXTENSION, method: 'GET', path: '/messages/:id/images/', query: MessageImageQuery, response: MessageImage },

  'users.list': { section: '4.6', method: 'GET', path: '/users/', query: NoQuery, response: AdministratorCollection, collection: true },
  'users.get': { section: '4.6', method: 'GET', path: '/users/:id/', query: NoQuery, response: Administrator },
  'users.create': { section: '4.6', method: 'POST', path: '/users/', body: AdministratorCreate, response: Administrator },
  'users.update': { section: '4.6', method: 'PUT', path: '/users/:id/', body: AdministratorUpdate, response: Administrator },
  'users.retrieveKey': { section: '4.6', method: 'PUT', path: '/users/:id/', body: AdministratorUpdate, response: RetrievedKey },
  'users.delete': { section: '4.6', method: 'DELETE', path: '/users/:id/', response: SuccessBody },

  'accounts.list': { section: '4.7', method: 'GET', path: '/accounts/', query: AccountQuery, response: AccountCollection, collection: true },
  'accounts.get': { section: '4.7', method: 'GET', path: '/accounts/:id/', query: AccountQuery, response: AccountDetail },
  'accounts.create': { section: '4.7', method: 'POST', path: '/accounts/', body: AccountCreate, response: AccountDetail },
  'accounts.update': { section: '4.7', method: 'PUT', path: '/accounts/:id/', body: AccountUpdate, response: AccountDetail },
  'accounts.delete': { section: '4.7', method: 'DELETE', path: '/accounts/:id/', response: SuccessBody },

  // The held queue (schemas/held.ts), permission `approval` (§2.6).
  'held.list': { section: EXTENSION, method: 'GET', path: '/held/', query: HeldQuery, response: HeldPage },
  'held.get': { section: EXTENSION, method: 'GET', path: '/held/:id/', query: NoQuery, response: HeldMessageDetail },
  'held.approve': { section: EXTENSION, method: 'POST', path: '/held/:id/approve/', response: HeldOutcome },
  'held.reject': { section: EXTENSION, method: 'POST', path: '/held/:id/reject/', body: HeldReject, response: HeldOutcome },
  'held.discard': { section: EXTENSION, method: 'POST', path: '/held/:id/discard/', response: HeldOutcome },
  'held.bulk': { section: EXTENSION, method: 'POST', path: '/held/bulk/', body: HeldBulk, response: HeldBulkOutcome },

  'caller.get': { section: EXTENSION, method: 'GET', path: '/caller/', query: NoQuery, response: Caller },
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof OPERATIONS;

/** Spec §4.8: `account_id` selects the account of a global key, on every endpoint. */
export const ACCOUNT_ID_PARAM = 'account_id';

/**
 * Fields the reference server adds beyond spec v2 to the objects some operations answer, saying
 * why. Read-only on administrators; the plan fields may also be written on accounts. The dashboard
 * feature-detects each (absent from an answer: the server does not offer it), and `EXTENSIONS=off`
 * leaves them out of answers and refuses them in bodies.
 */
export const EXTENSION_FIELDS = {
  key_expiry: {
    operations: ['users.list', 'users.get', 'users.create', 'users.update'],
    extension:
      "when an administrator's API keys stop working, so the administrators page can warn before they do",
  },
  max_contacts: {
    operations: ['accounts.get', 'accounts.create', 'accounts.update'],
    extension:
      "the plan's maximum address-book size, which sets the hourly rate-limit allowance (spec §8 rule 2)",
  },
  ccid: {
    operations: ['accounts.get', 'accounts.create', 'accounts.update'],
    extension: 'whether custom contact identifiers are enabled for the account (spec §2.1)',
  },
  contacts_count: {
    operations: ['lists.list', 'lists.get', 'lists.update'],
    extension:
      "a list's number of members, answered instead of their ids when asked (`contacts=count`, LIST_QUERY_EXTENSIONS)",
  },
} as const satisfies Record<string, { operations: readonly OperationName[]; extension: string }>;

export type ExtensionField = keyof typeof EXTENSION_FIELDS;

/**
 * Query parameters the reference server takes beyond spec §4 (the reasons: CONTACT_QUERY_EXTENSIONS,
 * LIST_QUERY_EXTENSIONS). With EXTENSIONS=off they are unknown parameters like any other, refused
 * with 400.
 */
export const EXTENSION_QUERY_PARAMS: Partial<Record<OperationName, readonly string[]>> = {
  'contacts.list': ['list'],
  'lists.list': ['contacts'],
  'lists.get': ['contacts'],
  'lists.update': ['contacts'],
};

/** The extension fields of one operation's objects (none for most). */
export function extensionFieldsOf(name: OperationName): ExtensionField[] {
  return (Object.keys(EXTENSION_FIELDS) as ExtensionField[]).filter((field) =>
    (EXTENSION_FIELDS[field].operations as readonly OperationName[]).includes(name),
  );
}
