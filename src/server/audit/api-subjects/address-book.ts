import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { RouteContext } from '../../http/route-context.ts';
import { requireAccount } from '../../routes/route-support.ts';
import { getContact } from '../../services/contacts.service.ts';
import { getEmail } from '../../services/emails.service.ts';
import { getMembership } from '../../services/membership.service.ts';
import type { AuditRecord } from '../audit-record.ts';
import { changesBetween, type ObjectState } from '../changes.ts';
import { readOrNull, stateOf, subject } from '../api-subject.ts';

/*
 * Spec §4.1–4.3: contacts, their addresses and memberships, each recorded as the API object
 * before and after, read as the caller sees it (spec §2.6 limit_lists, limit_metadata: what it
 * cannot see it cannot change). Before an update or a delete the object is read once more in the
 * write's transaction: a contact's stored document (one row) or its rows for a limited caller, an
 * address or a membership by its id (one indexed row each).
 */

/**
 * A contact as the log shows it: its addresses and lists by name (spec §2.1 `emails`, `lists`),
 * which are what a contact write sets; the rest as answered, custom fields included.
 */
function contactState(contact: ObjectState): ObjectState {
  const emails = contact.emails;
  const lists = contact.lists;
  return {
    ...contact,
    emails: Array.isArray(emails)
      ? emails.map((email) => (email as { email?: unknown }).email)
      : emails,
    lists: Array.isArray(lists)
      ? lists.map((membership) => (membership as { list?: unknown }).list)
      : lists,
  };
}

const CONTACT_FIXED = ['id', 'created'];

function contactEntry(
  accountId: number,
  operation: 'contacts.create' | 'contacts.update' | 'contacts.delete',
  before: ObjectState | null,
  after: ObjectState | null,
): AuditRecord {
  const id = (after ?? before)?.id ?? null;
  return {
    accountId,
    operation,
    object: { type: 'contact', id: id as string | number | null },
    changes: changesBetween(before && contactState(before), after && contactState(after), {
      omit: CONTACT_FIXED,
    }),
  };
}

/** The contact as the caller sees it, as a read of it would answer (its stored document, or its rows). */
async function contactBefore(
  db: Kysely<Database>,
  ctx: Pick<RouteContext<'contacts.delete'>, 'account' | 'principal' | 'params'>,
): Promise<ObjectState | null> {
  const contact = await readOrNull(() =>
    getContact(db, requireAccount(ctx.account), ctx.principal, ctx.params.id),
  );
  return contact && stateOf(contact);
}

export const contactSubjects = {
  'contacts.create': subject<'contacts.create'>({
    records: (_db, ctx, { answer }) => [
      contactEntry(requireAccount(ctx.account).id, 'contacts.create', null, stateOf(answer)),
    ],
  }),
  'contacts.update': subject<'contacts.update', ObjectState | null>({
    before: contactBefore,
    records: (_db, ctx, { before, answer }) => [
      contactEntry(requireAccount(ctx.account).id, 'contacts.update', before, stateOf(answer)),
    ],
  }),
  'contacts.delete': subject<'contacts.delete', ObjectState | null>({
    before: contactBefore,
    records: (_db, ctx, { before }) =>
      before ? [contactEntry(requireAccount(ctx.account).id, 'contacts.delete', before, null)] : [],
  }),
};

function emailEntry(
  accountId: number,
  operation: 'emails.create' | 'emails.update' | 'emails.delete',
  before: ObjectState | null,
  after: ObjectState | null,
): AuditRecord {
  const email = (after ?? before) as ObjectState;
  return {
    accountId,
    operation,
    object: { type: 'email', id: email.id as string | number },
    changes: changesBetween(before, after, { omit: ['id'] }),
    // The address names the object where its id says nothing to a reader.
    details: { email: email.email, contact: email.contact },
  };
}

export const emailSubjects = {
  'emails.create': subject<'emails.create'>({
    records: (_db, ctx, { answer }) => [
      emailEntry(requireAccount(ctx.account).id, 'emails.create', null, stateOf(answer)),
    ],
  }),
  'emails.update': subject<'emails.update', ObjectState | null>({
    before: async (db, ctx) =>
      readOrNull(async () =>
        stateOf(await getEmail(db, requireAccount(ctx.account), ctx.params.id)),
      ),
    records: (_db, ctx, { before, answer }) => [
      emailEntry(requireAccount(ctx.account).id, 'emails.update', before, stateOf(answer)),
    ],
  }),
  'emails.delete': subject<'emails.delete', ObjectState | null>({
    before: async (db, ctx) =>
      readOrNull(async () =>
        stateOf(await getEmail(db, requireAccount(ctx.account), ctx.params.id)),
      ),
    records: (_db, ctx, { before }) =>
      before ? [emailEntry(requireAccount(ctx.account).id, 'emails.delete', before, null)] : [],
  }),
};

function membershipEntry(
  accountId: number,
  operation: 'membership.create' | 'membership.update' | 'membership.delete',
  before: ObjectState | null,
  after: ObjectState | null,
): AuditRecord {
  const membership = (after ?? before) as ObjectState;
  return {
    accountId,
    operation,
    // The list by its name: the entry's statement finds its id (audit.repository.ts).
    object: {
      type: 'membership',
      id: membership.id as string | number,
      list: String(membership.list),
    },
    changes: changesBetween(before, after, { omit: ['id'] }),
    details: { contact: membership.contact },
  };
}

export const membershipSubjects = {
  'membership.create': subject<'membership.create'>({
    records: (_db, ctx, { answer }) => [
      membershipEntry(requireAccount(ctx.account).id, 'membership.create', null, stateOf(answer)),
    ],
  }),
  'membership.update': subject<'membership.update', ObjectState | null>({
    before: async (db, ctx) =>
      readOrNull(async () =>
        stateOf(await getMembership(db, requireAccount(ctx.account), ctx.principal, ctx.params.id)),
      ),
    records: (_db, ctx, { before, answer }) => [
      membershipEntry(requireAccount(ctx.account).id, 'membership.update', before, stateOf(answer)),
    ],
  }),
  'membership.delete': subject<'membership.delete', ObjectState | null>({
    before: async (db, ctx) =>
      readOrNull(async () =>
        stateOf(await getMembership(db, requireAccount(ctx.account), ctx.principal, ctx.params.id)),
      ),
    records: (_db, ctx, { before }) =>
      before
        ? [membershipEntry(requireAccount(ctx.account).id, 'membership.delete', before, null)]
        : [],
  }),
};
