import * as z from 'zod';
import { ACCOUNT_ID_PARAM } from '../../api/constants.ts';
import { OPERATIONS, type OperationName } from '../../api/operations.ts';
import { ErrorBody } from '../../api/primitives.ts';
import { Administrator } from '../../api/schemas/administrator.ts';
import { Contact } from '../../api/schemas/contact.ts';
import { Email } from '../../api/schemas/email.ts';
import { MessagePage } from '../../api/schemas/message.ts';
import { createCustomField } from '../services/custom-fields.service.ts';
import type { TestResponse, TestServer } from './harness.ts';
import { insertBounceState } from './bounce-fixtures.ts';
import { insertHeldMessage } from './held-fixtures.ts';
import { insertWaitingRequest } from './request-fixtures.ts';
import { imageHost } from '../../gateway/test/image-host.ts';

/**
 * Real objects in an account, and a valid request for every operation of the contract's table
 * against them: the cross-cutting suites (authorization matrix, permissions, mass assignment,
 * fuzzing) walk OPERATIONS and ask this module how to call each one.
 */

/** Every operation of the contract, in the table's order. */
export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[];

export type Resource =
  | 'contacts'
  | 'emails'
  | 'membership'
  | 'lists'
  | 'messages'
  | 'held'
  | 'requests'
  | 'fields'
  | 'bounces'
  | 'users'
  | 'accounts'
  | 'audit'
  | 'caller';

export function resourceOf(name: OperationName): Resource {
  return name.slice(0, name.indexOf('.')) as Resource;
}

/** Operations addressed to one object by a path segment (`:id` or `:name`). */
export function takesPathId(name: OperationName): boolean {
  return OPERATIONS[name].path.includes('/:');
}

export function isWrite(name: OperationName): boolean {
  return OPERATIONS[name].method !== 'GET';
}

/** The objects seeded in one account; every text holds the account's `tag` so a leak is visible. */
export interface AccountSeed {
  accountId: number;
  tag: string;
  list: string;
  contactId: string;
  emailId: string;
  email: string;
  membershipId: string;
  messageId: string;
  /** A remote image the seeded message's HTML shows (extension `messages.image`), named after the tag. */
  imageUrl: string;
  /** A message held for a moderator (extension `held.*`). */
  heldId: string;
  /** A join request waiting for a moderator (extension `requests.*`). */
  requestId: string;
  /** A custom field of the account (extension `fields.*`). */
  fieldId: string;
  userId: string;
  username: string;
}

export interface CallOptions {
  key: string;
  /** `account_id` (spec §4.8); omitted when undefined. */
  accountId?: number | undefined;
  pathId?: string | undefined;
  form?: Record<string, unknown> | undefined;
  query?: Record<string, unknown> | undefined;
}

/** The URL of an operation, its path segment URL-encoded. */
export function urlOf(name: OperationName, pathId?: string): string {
  const path = OPERATIONS[name].path.replace(/:(id|name)/, () => encodeURIComponent(pathId ?? ''));
  return `/api/2${path}`;
}

export function callOperation(server: TestServer, name: OperationName, options: CallOptions): Promise<TestResponse> {
  const query: Record<string, unknown> = { ...options.query };
  if (options.accountId !== undefined) query[ACCOUNT_ID_PARAM] = options.accountId;
  return server.request(OPERATIONS[name].method, urlOf(name, options.pathId), {
    key: options.key,
    form: options.form,
    query: Object.keys(query).length > 0 ? query : undefined,
  });
}

/** The answer's JSON when it is a success; otherwise an error that says what the server said. */
export function expectSuccess(response: TestResponse, what: string): unknown {
  if (response.status < 200 || response.status > 299) {
    throw new Error(`${what}: expected 2xx, got ${response.status} ${response.body.slice(0, 300)}`);
  }
  return response.json as unknown;
}

/** Whether a body is exactly the spec §7 error shape: `{is_error: true, message: string}`, nothing else. */
export function isErrorShape(json: unknown): boolean {
  return ErrorBody.safeParse(json).success && Object.keys(json as object).length === 2;
}

let counter = 0;
/** A value no other call of this run produced, for names and addresses that must be unique. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}${counter}`;
}

const idText = (id: string | number) => String(id);

const DIGEST_STATES = [true, false, null] as const;
/** Spec §2.3: a membership's digest cycles through its three states. */
function nextDigest(): boolean | null {
  counter += 1;
  return DIGEST_STATES[counter % DIGEST_STATES.length] ?? null;
}

/**
 * Seeds one account over HTTP with the global key: a list, a contact on it (so one address and one
 * membership), a message in the archive, and an administrator.
 */
export async function seedAccount(server: TestServer, accountId: number, tag: string): Promise<AccountSeed> {
  const as = (name: OperationName, options: Omit<CallOptions, 'key' | 'accountId'>) =>
    callOperation(server, name, { key: server.globalKey, accountId, ...options });
  const list = `news-${tag}`;
  expectSuccess(await as('lists.create', { form: { name: list, description: `List of ${tag}` } }), 'seed list');
  const contact = await createContact(server, accountId, tag, [list]);
  const email = contact.emails[0];
  const membership = contact.lists[0];
  if (!email || !membership) throw new Error('seed contact: expected one address and one membership');
  const imageUrl = `${(await imageHost()).origin}/pixel/${encodeURIComponent(tag)}.gif`;
  const messageId = await sendMessage(server, accountId, tag, list, imageUrl);
  const heldId = await insertHeldMessage(server.database.db, { accountId, list, tag, now: server.clock.now() });
  const requestId = await insertWaitingRequest(server.database.db, {
    accountId,
    list,
    address: `requester@${tag}.example`,
    now: server.clock.now(),
  });
  // In the database, as the CLI defines one: the seed also serves servers without the extension.
  const field = await createCustomField(server.database.db, {
    accountId,
    name: `Field of ${tag}`,
    identifier: fieldIdentifier(tag),
  });
  const bounced = { accountId, emailId: Number(email.id), tag, now: server.clock.now() };
  await insertBounceState(server.database.db, bounced);
  const username = `admin@${tag}.example`;
  const user = Administrator.parse(expectSuccess(await as('users.create', { form: { username } }), 'seed user'));
  return {
    accountId,
    tag,
    list,
    contactId: idText(contact.id),
    emailId: idText(email.id),
    email: email.email,
    membershipId: idText(membership.id),
    messageId,
    imageUrl,
    heldId: idText(heldId),
    requestId: idText(requestId),
    fieldId: idText(field.id),
    userId: idText(user.id),
    username,
  };
}

/** An identifier (spec §8 name rules) made of the tag. */
function fieldIdentifier(tag: string): string {
  return unique(`f_${tag.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 50)}_`);
}

async function createContact(server: TestServer, accountId: number, tag: string, lists: string[]): Promise<Contact> {
  const response = await callOperation(server, 'contacts.create', {
    key: server.globalKey,
    accountId,
    form: { firstname: `First ${tag}`, emails: [`${unique('person')}@${tag}.example`], lists },
  });
  return Contact.parse(expectSuccess(response, 'create contact'));
}

/**
 * Sends a message and finds its id (the send answers only `{success: 1}`, spec §4.5). With an
 * image, its HTML shows that remote image.
 */
async function sendMessage(server: TestServer, accountId: number, tag: string, list: string, imageUrl?: string): Promise<string> {
  const subject = unique(`Hello ${tag} `);
  const content = `Greetings from ${tag}`;
  const html = imageUrl ? { content_html: `<p>${content}</p><img src="${imageUrl}" alt="">` } : {};
  const sent = await callOperation(server, 'messages.send', {
    key: server.globalKey,
    accountId,
    form: { list, subject, content_plain: content, ...html },
  });
  expectSuccess(sent, 'send message');
  const page = await callOperation(server, 'messages.list', { key: server.globalKey, accountId, query: { limit: 100 } });
  const message = MessagePage.parse(expectSuccess(page, 'list messages')).data.find((m) => m.subject === subject);
  if (!message) throw new Error(`sent message "${subject}" is not in the archive`);
  return idText(message.id);
}

async function createUser(server: TestServer, accountId: number, tag: string): Promise<string> {
  const response = await callOperation(server, 'users.create', {
    key: server.globalKey,
    accountId,
    form: { username: `${unique('admin')}@${tag}.example` },
  });
  return idText(Administrator.parse(expectSuccess(response, 'create user')).id);
}

const Created = z.looseObject({ id: z.union([z.number(), z.string()]) });

/** A valid request for one operation against one account's seed. */
export interface PreparedCall {
  pathId?: string;
  form?: Record<string, unknown>;
  query?: Record<string, unknown>;
  /** Whether the body names objects of the seed's account (a contact id, a list name). */
  references: boolean;
}

/**
 * A valid request for `name` on `seed`'s account. With `fresh`, a delete gets an object created
 * for it (so that a delete that succeeds does not take the seed away from later cells).
 */
export async function prepareCall(
  server: TestServer,
  name: OperationName,
  seed: AccountSeed,
  fresh = false,
): Promise<PreparedCall> {
  const tag = seed.tag;
  switch (name) {
    case 'contacts.list':
    case 'lists.list':
    case 'messages.list':
    case 'users.list':
    case 'accounts.list':
    case 'caller.get':
      return { references: false };
    case 'audit.list':
      // The entries of the account's own contact updates: the matrix's cells create lists and
      // administrators named after one account's tag in another (`elsewhere`), whose entries
      // would name that tag in a log that is rightly the other account's.
      return { query: { operation: 'contacts.update' }, references: false };
    case 'contacts.get':
      return { pathId: seed.contactId, references: false };
    case 'contacts.create':
      return { form: { emails: [`${unique('new')}@${tag}.example`], lists: [seed.list] }, references: true };
    case 'contacts.update':
      return { pathId: seed.contactId, form: { firstname: unique(`Renamed ${tag} `) }, references: false };
    case 'contacts.delete': {
      const id = fresh ? idText((await createContact(server, seed.accountId, tag, [])).id) : seed.contactId;
      return { pathId: id, references: false };
    }
    case 'emails.get':
      return { pathId: seed.emailId, references: false };
    case 'emails.create':
      return { form: { email: `${unique('extra')}@${tag}.example`, contact: seed.contactId }, references: true };
    case 'emails.update':
      return { pathId: seed.emailId, form: { ceid: unique(`ceid-${tag}-`) }, references: false };
    case 'emails.delete': {
      if (!fresh) return { pathId: seed.emailId, references: false };
      const added = await callOperation(server, 'emails.create', {
        key: server.globalKey,
        accountId: seed.accountId,
        form: { email: `${unique('spare')}@${tag}.example`, contact: seed.contactId },
      });
      return { pathId: idText(Email.parse(expectSuccess(added, 'add address')).id), references: false };
    }
    case 'membership.get':
      return { pathId: seed.membershipId, references: false };
    case 'membership.create': {
      const contact = await createContact(server, seed.accountId, tag, []);
      return { form: { contact: idText(contact.id), list: seed.list }, references: true };
    }
    case 'membership.update':
      return { pathId: seed.membershipId, form: { digest: nextDigest() }, references: false };
    case 'membership.delete': {
      if (!fresh) return { pathId: seed.membershipId, references: false };
      const membership = (await createContact(server, seed.accountId, tag, [seed.list])).lists[0];
      if (!membership) throw new Error('a contact created on a list has no membership');
      return { pathId: idText(membership.id), references: false };
    }
    case 'lists.get':
      return { pathId: seed.list, references: false };
    case 'lists.create':
      return { form: { name: unique(`list-${tag}-`) }, references: false };
    case 'lists.update':
      return { pathId: seed.list, form: { description: unique(`About ${tag} `) }, references: false };
    case 'lists.delete': {
      if (!fresh) return { pathId: seed.list, references: false };
      const list = unique(`doomed-${tag}-`);
      expectSuccess(
        await callOperation(server, 'lists.create', { key: server.globalKey, accountId: seed.accountId, form: { name: list } }),
        'create list',
      );
      return { pathId: list, references: false };
    }
    case 'messages.get':
      return { pathId: seed.messageId, references: false };
    case 'messages.send':
      return { form: { list: seed.list, subject: unique(`Note ${tag} `), content_plain: 'Hello' }, references: true };
    case 'messages.delete': {
      const id = fresh ? await sendMessage(server, seed.accountId, tag, seed.list) : seed.messageId;
      return { pathId: id, references: false };
    }
    case 'messages.image':
      return { pathId: seed.messageId, query: { url: seed.imageUrl }, references: false };
    case 'held.list':
      return { references: false };
    case 'held.get':
    case 'held.source':
      return { pathId: seed.heldId, references: false };
    case 'held.approve':
    case 'held.reject':
    case 'held.discard': {
      const id = fresh ? await freshHeld(server, seed) : seed.heldId;
      return { pathId: id, form: name === 'held.reject' ? { reason: `Off topic ${tag}` } : undefined, references: false };
    }
    case 'held.bulk':
      return { form: { action: 'discard', ids: [await freshHeld(server, seed)] }, references: true };
    case 'requests.list':
      return { references: false };
    case 'requests.approve':
    case 'requests.reject':
    case 'requests.discard': {
      const id = fresh ? await freshRequest(server, seed) : seed.requestId;
      return {
        pathId: id,
        form: name === 'requests.reject' ? { reason: `Not now ${tag}` } : undefined,
        references: false,
      };
    }
    case 'requests.bulk':
      return { form: { action: 'discard', ids: [await freshRequest(server, seed)] }, references: true };
    case 'fields.list':
      return { references: false };
    case 'fields.create':
      return { form: { name: unique(`Field ${tag} `), identifier: fieldIdentifier(tag) }, references: false };
    case 'fields.update':
      return { pathId: seed.fieldId, form: { name: unique(`Renamed field ${tag} `) }, references: false };
    case 'fields.delete': {
      if (!fresh) return { pathId: seed.fieldId, references: false };
      const field = await createCustomField(server.database.db, {
        accountId: seed.accountId,
        name: unique(`Doomed field ${tag} `),
      });
      return { pathId: idText(field.id), references: false };
    }
    case 'bounces.list':
      return { references: false };
    case 'bounces.clear': {
      // Something to clear at every call: the suites check that a clear that succeeds changed it.
      const emailId = Number(seed.emailId);
      await insertBounceState(server.database.db, { accountId: seed.accountId, emailId, tag, now: server.clock.now() });
      return { pathId: seed.emailId, references: false };
    }
    case 'users.get':
      return { pathId: seed.userId, references: false };
    case 'users.create':
      return { form: { username: `${unique('user')}@${tag}.example` }, references: false };
    case 'users.update':
      return { pathId: seed.userId, form: { firstname: unique(`Admin ${tag} `) }, references: false };
    case 'users.retrieveKey':
      return { pathId: seed.userId, form: { get_key: true }, references: false };
    case 'users.delete': {
      const id = fresh ? await createUser(server, seed.accountId, tag) : seed.userId;
      return { pathId: id, references: false };
    }
    case 'accounts.get':
      return { pathId: String(seed.accountId), references: false };
    case 'accounts.create':
      return { form: { name: unique(`account-${tag}-`) }, references: false };
    case 'accounts.update':
      return { pathId: String(seed.accountId), form: { description: unique(`Account ${tag} `) }, references: false };
    case 'accounts.delete': {
      if (!fresh) return { pathId: String(seed.accountId), references: false };
      const created = await callOperation(server, 'accounts.create', {
        key: server.globalKey,
        form: { name: unique(`closing-${tag}-`) },
      });
      return { pathId: idText(Created.parse(expectSuccess(created, 'create account')).id), references: false };
    }
  }
}

async function freshRequest(server: TestServer, seed: AccountSeed): Promise<string> {
  return idText(
    await insertWaitingRequest(server.database.db, {
      accountId: seed.accountId,
      list: seed.list,
      now: server.clock.now(),
    }),
  );
}

async function freshHeld(server: TestServer, seed: AccountSeed): Promise<string> {
  const { accountId, list, tag } = seed;
  return idText(await insertHeldMessage(server.database.db, { accountId, list, tag, now: server.clock.now() }));
}

/** Other spellings of a seed object's path segment (spec §4.2: an address; §4.6: a username). */
export function alternatePathIds(name: OperationName, seed: AccountSeed): string[] {
  if (name === 'emails.get') return [seed.email];
  if (name === 'users.get') return [seed.username];
  return [];
}
