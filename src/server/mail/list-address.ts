import { MESSAGE_ID_DOMAIN } from '../services/messages.service.ts';

/**
 * A list's address, `<name>@<the account's domain>`; an account without a domain gets the
 * reference server's placeholder, which receives nothing (the listener serves real domains only).
 */
export function listAddressOf(listName: string, domain: string | null): string {
  return `${listName}@${(domain ?? MESSAGE_ID_DOMAIN).toLowerCase()}`;
}
