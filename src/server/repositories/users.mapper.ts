import type { Administrator } from '../../api/schemas/administrator.ts';
import type { AdministratorRow } from './administrators.repository.ts';

/** Spec §9 rule 2: `api` is 0 for a person, 2 for an API version 2 key. */
export const API_PERSON = 0;
export const API_KEY_V2 = 2;

function names(text: string): string[] {
  return JSON.parse(text) as string[];
}

/**
 * Row → spec §2.6 administrator. Spec §9 rule 3: `username` is not applicable to version 2 keys and
 * `description` applies to them only, so each appears where it applies. Password hashes never leave.
 * `keyExpiry` is the `key_expiry` extension (users.repository.ts), left out when undefined: the
 * administrator has no key.
 */
export function toAdministrator(row: AdministratorRow, keyExpiry?: string | null): Administrator {
  const identity =
    row.api === API_PERSON ? { username: row.username } : { description: row.description ?? '' };
  return {
    id: row.id,
    ...identity,
    firstname: row.firstname,
    surname: row.surname,
    cidr: row.cidr,
    custom_image: row.custom_image === 1,
    mfa_type: row.mfa_type,
    api: row.api,
    authn_provider: row.authn_provider,
    notifications: names(row.notifications),
    permissions: names(row.permissions),
    limit_metadata: names(row.limit_metadata),
    limit_lists: names(row.limit_lists),
    ...(keyExpiry === undefined ? {} : { key_expiry: keyExpiry }),
  };
}
