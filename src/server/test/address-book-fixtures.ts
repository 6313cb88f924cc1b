import { expect } from 'vitest';
import type { Permission } from '../../api/constants.ts';
import { ErrorBody } from '../../api/primitives.ts';
import { Contact, ContactPage } from '../../api/schemas/contact.ts';
import { Email } from '../../api/schemas/email.ts';
import { Membership } from '../../api/schemas/membership.ts';
import { createCustomField, type CustomField } from '../services/custom-fields.service.ts';
import { createApiKeyAdministrator } from '../services/provisioning.service.ts';
import type { TestResponse, TestServer } from './harness.ts';

/**
 * Set-up for the address-book suites (contacts, emails, membership, custom fields). Lists and
 * custom fields are written straight to the database, so these suites test only the address book.
 */

export async function addList(
  server: TestServer,
  name: string,
  accountId = server.account.id,
): Promise<number> {
  const row = await server.database.db
    .insertInto('lists')
    .values({ account_id: accountId, name, created: server.clock.now().toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function addField(
  server: TestServer,
  name: string,
  identifier?: string,
  accountId = server.account.id,
): Promise<CustomField> {
  return createCustomField(server.database.db, { accountId, name, identifier });
}

/** A key with the given permissions, limited to lists or custom fields (spec §2.6). */
export async function limitedKey(
  server: TestServer,
  options: {
    permissions: Permission[];
    limitLists?: string[];
    limitMetadata?: string[];
    accountId?: number;
  },
): Promise<string> {
  const created = await createApiKeyAdministrator(server.database.db, {
    accountId: options.accountId ?? server.account.id,
    permissions: options.permissions,
    now: server.clock.now(),
  });
  await server.database.db
    .updateTable('administrators')
    .set({
      limit_lists: JSON.stringify(options.limitLists ?? []),
      limit_metadata: JSON.stringify(options.limitMetadata ?? []),
    })
    .where('id', '=', created.administrator.id)
    .execute();
  return created.key;
}

/** Sets an account's §2.7 settings JSON (restrict_contact and friends). */
export async function setAccountSettings(
  server: TestServer,
  accountId: number,
  settings: Record<string, unknown>,
): Promise<void> {
  await server.database.db
    .updateTable('accounts')
    .set({ settings: JSON.stringify(settings) })
    .where('id', '=', accountId)
    .execute();
  server.forgetCachedAuth();
}

/** Matchers typed as unknown, so that objects built with them stay free of `any`. */
export const anyNumber: unknown = expect.any(Number);
export const matching = (pattern: RegExp): unknown => expect.stringMatching(pattern);

let sequence = 0;
/** An address no other call of this run produced. */
export function freshAddress(prefix = 'person'): string {
  sequence += 1;
  return `${prefix}.${sequence}@example.org`;
}

/** The answer's JSON, after checking the status (the body is in the failure message). */
export function expectStatus(response: TestResponse, status: number): unknown {
  if (response.status !== status) {
    throw new Error(`expected ${status}, got ${response.status}: ${response.body.slice(0, 500)}`);
  }
  return response.json as unknown;
}

/** The message of an error answer, after checking its status and the spec §7 shape. */
export function errorMessage(response: TestResponse, status: number): string {
  return ErrorBody.parse(expectStatus(response, status)).message;
}

/** Successful answers, read with the contract's schemas (which tests them too). */
export const readContact = (response: TestResponse): Contact =>
  Contact.parse(expectStatus(response, 200));
export const readPage = (response: TestResponse): ContactPage =>
  ContactPage.parse(expectStatus(response, 200));
export const readEmail = (response: TestResponse): Email =>
  Email.parse(expectStatus(response, 200));
export const readMembership = (response: TestResponse): Membership =>
  Membership.parse(expectStatus(response, 200));

/** The service ids of a page's contacts. */
export const idsOf = (page: ContactPage): Contact['id'][] => page.data.map((contact) => contact.id);

/** The one element a test expects at `index`, or a failure that says so. */
export function at<T>(items: readonly T[], index = 0): T {
  const item = items[index];
  if (item === undefined)
    throw new Error(`expected an element at ${index} of ${JSON.stringify(items)}`);
  return item;
}

/** POSTs a contact and returns it (200 expected). */
export async function postContact(
  server: TestServer,
  form: Record<string, unknown>,
  options: { key?: string; query?: Record<string, unknown> } = {},
): Promise<Contact> {
  return readContact(await server.request('POST', '/api/2/contacts/', { form, ...options }));
}
