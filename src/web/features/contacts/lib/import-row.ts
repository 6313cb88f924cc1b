import type { ApiClient } from '../../../../api/client.ts';
import type { ContactCreate } from '../../../../api/schemas/contact.ts';
import { existingOwner } from './import-contacts.ts';

export type ExistingAddresses = 'skip' | 'merge';

export interface ImportCounts {
  created: number;
  skipped: number;
  merged: number;
  /** Per field the server did not store (X-Ignored-Fields), on how many rows. */
  notStored: Record<string, number>;
}

/**
 * Imports one row: creates the contact; if an address already belongs to a contact, either
 * leaves the row (skip) or merges it into that contact (merge: names, notes and custom fields the
 * row fills in, addresses and lists it adds; only what differs is sent, spec §1 rule 6).
 */
export async function importRow(
  api: ApiClient,
  body: ContactCreate,
  existing: ExistingAddresses,
  counts: ImportCounts,
) {
  try {
    await api.contacts.create(body);
    counts.created += 1;
    return;
  } catch (error) {
    const owner = existingOwner(error);
    if (owner === null) throw error;
    if (existing === 'skip') {
      counts.skipped += 1;
      return;
    }
    await mergeInto(api, owner, body);
    counts.merged += 1;
  }
}

async function mergeInto(api: ApiClient, ref: string, body: ContactCreate) {
  const contact = await api.contacts.get(ref);
  const change: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === 'emails' || key === 'lists' || key === 'ccid') continue;
    if (typeof value === 'string' && value !== '' && contact[key] !== value) change[key] = value;
  }
  if (Object.keys(change).length > 0) await api.contacts.update(ref, change);
  const addresses = new Set(contact.emails.map((e) => e.email.toLowerCase()));
  for (const email of body.emails) {
    if (!addresses.has(email.toLowerCase())) await api.emails.create({ email, contact: ref });
  }
  const lists = new Set(contact.lists.map((m) => m.list));
  for (const list of body.lists ?? []) {
    if (!lists.has(list)) await api.membership.create({ contact: ref, list });
  }
}
