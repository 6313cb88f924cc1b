// Generated from OPERATIONS (operations.ts) by browser-tables.test.ts: edit the operation's entry
// there, then `npx vitest run src/api/browser-tables.test.ts -u` rewrites this file (client-operations.ts).
import type { OperationCall, OperationName } from './operations.ts';
import { NoQuery, SuccessBody } from './primitives.ts';
import { AccountCollection, AccountCreate, AccountDetail, AccountQuery, AccountUpdate } from './schemas/account.ts';
import { Administrator, AdministratorCollection, AdministratorCreate, AdministratorUpdate, RetrievedKey } from './schemas/administrator.ts';
import { Caller } from './schemas/caller.ts';
import { Contact, ContactCreate, ContactPage, ContactQuery, ContactUpdate } from './schemas/contact.ts';
import { Email, EmailCreate, EmailUpdate } from './schemas/email.ts';
import { List, ListCollection, ListCreate, ListQuery, ListUpdate } from './schemas/list.ts';
import { Membership, MembershipCreate, MembershipUpdate } from './schemas/membership.ts';
import { Message, MessagePage, MessageQuery, MessageSend } from './schemas/message.ts';

/** The extensions' tables, each loaded on the first call to one of its operations (api/client.ts). */
export const EXTENSION_OPERATIONS: Record<string, () => Promise<{ OPERATIONS: Partial<Record<OperationName, OperationCall>> }>> = {
  'audit': () => import('./extension-operations/audit.ts'),
  'bounces': () => import('./extension-operations/bounces.ts'),
  'fields': () => import('./extension-operations/fields.ts'),
  'held': () => import('./extension-operations/held.ts'),
  'messages': () => import('./extension-operations/messages.ts'),
  'requests': () => import('./extension-operations/requests.ts'),
};

/** What the client sends and reads of each operation of spec v2 (api/client.ts), and nothing else of its entry. */
export const CLIENT_OPERATIONS: Partial<Record<OperationName, OperationCall>> = {
  'contacts.get': { method: 'GET', path: '/contacts/:id/', query: NoQuery, response: Contact },
  'contacts.list': { method: 'GET', path: '/contacts/', query: ContactQuery, response: ContactPage },
  'contacts.create': { method: 'POST', path: '/contacts/', body: ContactCreate, response: Contact },
  'contacts.update': { method: 'PUT', path: '/contacts/:id/', body: ContactUpdate, response: Contact },
  'contacts.delete': { method: 'DELETE', path: '/contacts/:id/', response: SuccessBody },
  'emails.get': { method: 'GET', path: '/emails/:id/', query: NoQuery, response: Email },
  'emails.create': { method: 'POST', path: '/emails/', body: EmailCreate, response: Email },
  'emails.update': { method: 'PUT', path: '/emails/:id/', body: EmailUpdate, response: Email },
  'emails.delete': { method: 'DELETE', path: '/emails/:id/', response: SuccessBody },
  'membership.get': { method: 'GET', path: '/membership/:id/', query: NoQuery, response: Membership },
  'membership.create': { method: 'POST', path: '/membership/', body: MembershipCreate, response: Membership },
  'membership.update': { method: 'PUT', path: '/membership/:id/', body: MembershipUpdate, response: Membership },
  'membership.delete': { method: 'DELETE', path: '/membership/:id/', response: SuccessBody },
  'lists.list': { method: 'GET', path: '/lists/', query: ListQuery, response: ListCollection, collection: true },
  'lists.get': { method: 'GET', path: '/lists/:name/', query: ListQuery, response: List },
  'lists.create': { method: 'POST', path: '/lists/', body: ListCreate, response: List },
  'lists.update': { method: 'PUT', path: '/lists/:name/', query: ListQuery, body: ListUpdate, response: List },
  'lists.delete': { method: 'DELETE', path: '/lists/:name/', response: SuccessBody },
  'messages.list': { method: 'GET', path: '/messages/', query: MessageQuery, response: MessagePage },
  'messages.get': { method: 'GET', path: '/messages/:id/', query: NoQuery, response: Message },
  'messages.send': { method: 'POST', path: '/messages/', body: MessageSend, response: SuccessBody },
  'messages.delete': { method: 'DELETE', path: '/messages/:id/', response: SuccessBody },
  'users.list': { method: 'GET', path: '/users/', query: NoQuery, response: AdministratorCollection, collection: true },
  'users.get': { method: 'GET', path: '/users/:id/', query: NoQuery, response: Administrator },
  'users.create': { method: 'POST', path: '/users/', body: AdministratorCreate, response: Administrator },
  'users.update': { method: 'PUT', path: '/users/:id/', body: AdministratorUpdate, response: Administrator },
  'users.retrieveKey': { method: 'PUT', path: '/users/:id/', body: AdministratorUpdate, response: RetrievedKey },
  'users.delete': { method: 'DELETE', path: '/users/:id/', response: SuccessBody },
  'accounts.list': { method: 'GET', path: '/accounts/', query: AccountQuery, response: AccountCollection, collection: true },
  'accounts.get': { method: 'GET', path: '/accounts/:id/', query: AccountQuery, response: AccountDetail },
  'accounts.create': { method: 'POST', path: '/accounts/', body: AccountCreate, response: AccountDetail },
  'accounts.update': { method: 'PUT', path: '/accounts/:id/', body: AccountUpdate, response: AccountDetail },
  'accounts.delete': { method: 'DELETE', path: '/accounts/:id/', response: SuccessBody },
  'caller.get': { method: 'GET', path: '/caller/', query: NoQuery, response: Caller },
};
