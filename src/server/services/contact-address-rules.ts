import type { Kysely } from 'kysely';
import { compileUserRegex, type UserRegex } from '../../api/user-regex.ts';
import type { Database } from '../db/schema.ts';
import { badRequest } from '../http/http-error.ts';
import type { AccountRow } from '../repositories/accounts.repository.ts';
import { findEmailsByAddresses } from '../repositories/emails.repository.ts';
import { contactRef } from './contact-ref.ts';

/** Spec §2.7 restrict_contact: an address matching none of the account's expressions is refused. */
export function assertAddressesAllowed(
  account: Pick<AccountRow, 'settings'>,
  addresses: readonly string[],
): void {
  const patterns = addressRestrictions(account.settings, 'restrict_contact');
  if (patterns.length === 0) return;
  const refused = addresses.filter((address) => !patterns.some((pattern) => pattern.test(address)));
  if (refused.length > 0) {
    throw badRequest(
      `${refused.join(', ')}: not allowed by the account's address restrictions (restrict_contact)`,
    );
  }
}

/**
 * Spec §2.7 restrict_contact_subscription (and restrict_contact, which holds for every address of
 * the account): a subscription request from an address matching none of them is refused (issue 25).
 */
export function subscriptionAddressAllowed(settings: string, address: string): boolean {
  return (['restrict_contact', 'restrict_contact_subscription'] as const).every((key) => {
    const patterns = addressRestrictions(settings, key);
    return patterns.length === 0 || patterns.some((pattern) => pattern.test(address));
  });
}

function addressRestrictions(
  settings: string,
  key: 'restrict_contact' | 'restrict_contact_subscription',
): UserRegex[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(settings);
  } catch {
    return [];
  }
  const sources = (parsed as Record<string, unknown> | null)?.[key];
  if (!Array.isArray(sources)) return [];
  return sources.flatMap((source) => {
    if (typeof source !== 'string' || source === '') return [];
    // SECURITY.md 31: RE2, never RegExp. What it cannot run was refused when saved; a pattern
    // stored before that rule existed is skipped as before, rather than failing every write.
    const compiled = compiledRestriction(source);
    return compiled ? [compiled] : [];
  });
}

/**
 * Compiled restrictions by source: every contact write of an account tests the same few patterns,
 * so they are compiled once (bounded: restrictions are few, the map is cleared when it grows).
 */
const compiledRestrictions = new Map<string, UserRegex | null>();

function compiledRestriction(source: string): UserRegex | null {
  let compiled = compiledRestrictions.get(source);
  if (compiled === undefined) {
    try {
      // Addresses compare without regard to case (spec §2.2 keeps one per account in any case).
      compiled = compileUserRegex(source, { ignoreCase: true });
    } catch {
      compiled = null;
    }
    if (compiledRestrictions.size >= 1_000) compiledRestrictions.clear();
    compiledRestrictions.set(source, compiled);
  }
  return compiled;
}

/** An address belongs to one contact of the account; the message says which. */
export async function assertAddressesFree(
  db: Kysely<Database>,
  account: AccountRow,
  addresses: readonly string[],
  exceptEmailId?: number,
): Promise<void> {
  const taken = (await findEmailsByAddresses(db, account.id, addresses)).filter(
    (row) => row.id !== exceptEmailId,
  );
  const first = taken[0];
  if (first) {
    const owner = contactRef(account, { id: first.contact_id, ccid: first.contact_ccid });
    throw badRequest(`${first.email} already belongs to contact ${owner}`);
  }
}
