import * as z from 'zod/mini';
import {
  ARRAY_MAX_ITEMS,
  CONTACT_EMAILS_MAX_ITEMS,
  EMAIL_MAX_LENGTH,
  ID_MAX_LENGTH,
  PAGE_LIMITS,
  SEARCH_MAX_LENGTH,
  SHORT_TEXT_MAX_LENGTH,
  TEXT_MAX_LENGTH,
} from '../constants.ts';
import {
  CreationDate,
  EmailAddress,
  Id,
  ListName,
  arrayOf,
  flag,
  pageOf,
  pageQuery,
  readOnly,
  text,
} from '../primitives.ts';
import { Email } from './email.ts';
import { Membership } from './membership.ts';

/**
 * Spec §2.1. Custom fields appear beside the standard ones, keyed by their identifier (or their name
 * when they have none), so the object is loose: every key not in CONTACT_FIELDS is a custom field.
 */
export const Contact = z.looseObject({
  id: Id,
  ccid: z.nullish(z.string()),
  firstname: z.string(),
  surname: z.string(),
  created: CreationDate,
  notes: z.string(),
  emails: z.array(Email),
  lists: z.array(Membership),
});
export type Contact = z.infer<typeof Contact>;

/** The standard contact fields of spec §2.1; any other key of a contact is a custom field. */
export const CONTACT_FIELDS = [
  'id',
  'ccid',
  'firstname',
  'surname',
  'created',
  'notes',
  'emails',
  'lists',
] as const;

export function customFieldsOf(contact: Record<string, unknown>): Record<string, string> {
  const standard = new Set<string>(CONTACT_FIELDS);
  const custom: Record<string, string> = {};
  for (const [key, value] of Object.entries(contact)) {
    if (standard.has(key)) continue;
    // Custom values are text; a server that sends numbers or booleans still reads sensibly.
    custom[key] = typeof value === 'string' ? value : value == null ? '' : JSON.stringify(value);
  }
  return custom;
}

/**
 * A custom field's value is text: that is the runtime rule. Its declared type is `unknown` only
 * because TypeScript cannot say "every other key is a string" beside the array-valued `emails` and
 * `lists`: the inferred `{ [key: string]: string; emails: string[] }` admits no value at all, which
 * made `contacts.create({ emails: [...] })` a type error.
 */
const customFieldValue: z.ZodMiniType<unknown> = text(TEXT_MAX_LENGTH);

const names = {
  ccid: z.nullish(text(ID_MAX_LENGTH).check(z.minLength(1, 'cannot be empty'))),
  firstname: z.optional(text(SHORT_TEXT_MAX_LENGTH)),
  surname: z.optional(text(SHORT_TEXT_MAX_LENGTH)),
  notes: z.optional(text(TEXT_MAX_LENGTH)),
};

/**
 * Spec §4.1 create: at least one address; repeated `lists` keys make memberships. Custom field
 * values ride along as extra string keys; the server refuses names the account has not defined.
 */
const emails = arrayOf(EmailAddress, CONTACT_EMAILS_MAX_ITEMS).check(
  z.minLength(1, 'needs at least one email address'),
);

export const ContactCreate = z.catchall(
  z.object({
    id: readOnly(),
    created: readOnly(),
    ...names,
    emails,
    lists: z.optional(arrayOf(ListName, ARRAY_MAX_ITEMS)),
  }),
  customFieldValue,
);
export type ContactCreate = z.infer<typeof ContactCreate>;

/**
 * Spec §4.1 update: "any contact fields". `emails` and `lists` set the whole array, as repeated
 * `permissions` do (§4.6): addresses and memberships that stay keep their settings.
 */
export const ContactUpdate = z.catchall(
  z.object({
    id: readOnly(),
    created: readOnly(),
    ...names,
    emails: z.optional(emails),
    lists: z.optional(arrayOf(ListName, ARRAY_MAX_ITEMS)),
  }),
  customFieldValue,
);
export type ContactUpdate = z.infer<typeof ContactUpdate>;

/**
 * Spec §4.1 get many. `list` is a reference-server extension (CONTACT_QUERY_EXTENSIONS): the members
 * of one list, a page per request; the dashboard feature-detects it and pages through the list's
 * `contacts` elsewhere.
 */
export const ContactQuery = z.strictObject({
  ...pageQuery(PAGE_LIMITS.contacts.max),
  search: z.optional(text(SEARCH_MAX_LENGTH)),
  email: z.optional(text(EMAIL_MAX_LENGTH)),
  id: z.optional(Id),
  orphans: flag(),
  list: z.optional(ListName),
});

/** The query parameters of GET /contacts/ beyond spec §4.1, and why each exists. */
export const CONTACT_QUERY_EXTENSIONS = {
  list: 'the members of one list (with search and paging): one request per page of a members page instead of one per contact',
} as const;
export type ContactQuery = z.infer<typeof ContactQuery>;

export const ContactPage = pageOf(Contact);
export type ContactPage = z.infer<typeof ContactPage>;
