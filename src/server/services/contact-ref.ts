import type { AccountRow } from '../repositories/accounts.repository.ts';

/** Spec §2.1: on a ccid-enabled account the ccid "replaces the service identifier in API calls". */
export function contactRef(
  account: Pick<AccountRow, 'ccid'>,
  contact: { id: number; ccid: string | null },
): number | string {
  return account.ccid === 1 && contact.ccid !== null ? contact.ccid : contact.id;
}
