import type { Membership } from '../../api/schemas/membership.ts';
import type { MembershipWithListRow } from './memberships.repository.ts';

/** Spec §2.3 `digest`: null keeps the address's setting, 1 forces the digest, 0 forces none. */
export function digestFromRow(value: number | null): boolean | null {
  return value === null ? null : value === 1;
}

export function digestToRow(value: boolean | null): number | null {
  return value === null ? null : value ? 1 : 0;
}

/** Row → spec §2.3 membership. `contact` is how API calls name the contact (its ccid when enabled). */
export function toMembership(
  row: Pick<MembershipWithListRow, 'id' | 'list_name' | 'digest'>,
  contact: number | string,
): Membership {
  return { id: row.id, contact, list: row.list_name, digest: digestFromRow(row.digest) };
}
