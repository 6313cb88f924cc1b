import { normalizeAddress } from './message.ts';
import type { PostingDirectory } from './types.ts';

/**
 * A directory from what is known of one sender: whether the address belongs to a contact and the
 * lists that contact is a member of (one contact look-up, `GET /contacts/?email=`, tells both; a
 * member is a contact). Any other address is nobody.
 */
export function senderDirectory(
  address: string,
  known: { contact: boolean; lists: readonly string[] },
): PostingDirectory {
  const sender = normalizeAddress(address);
  const lists = new Set(known.lists);
  return {
    isMember: (list, candidate) => normalizeAddress(candidate) === sender && lists.has(list),
    isContact: (candidate) =>
      (known.contact || lists.size > 0) && normalizeAddress(candidate) === sender,
  };
}

/** A directory from whole sets: the member addresses of each list and the account's addresses. */
export function setDirectory(known: {
  members: Readonly<Record<string, Iterable<string>>>;
  contacts: Iterable<string>;
}): PostingDirectory {
  const members = new Map(
    Object.entries(known.members).map(([list, addresses]) => [
      list,
      new Set([...addresses].map(normalizeAddress)),
    ]),
  );
  const contacts = new Set([...known.contacts].map(normalizeAddress));
  for (const addresses of members.values()) for (const address of addresses) contacts.add(address);
  return {
    isMember: (list, address) => members.get(list)?.has(normalizeAddress(address)) ?? false,
    isContact: (address) => contacts.has(normalizeAddress(address)),
  };
}
