import type { OperationName } from './operations.ts';

const HELD_QUEUE =
  'the messages the posting policy held (spec §2.4 moderation settings), which spec v2 stores but gives moderators no way to review: list them with their reasons, approve (archived and sent), reject (the sender gets the reject message) or discard, one at a time or in bulk';

/**
 * Why the reference server offers each operation beyond spec v2 (section `extension` in
 * OPERATIONS). Apart from the table so that the browser, which calls these operations but never
 * shows why they exist, does not download the reasons: 0.4 kB gzip on every page that reads the
 * API (issue 17 item 9). The spec-coverage test holds every extension to a reason here, and no
 * spec operation to one.
 */
export const EXTENSION_REASONS: Partial<Record<OperationName, string>> = {
  'messages.image':
    'a remote image the message HTML references, fetched by the server and answered as a data: URL ({url, data_url}), so "show images" works without relaxing the CSP (SECURITY.md 13, 24); http(s), raster types, size and time capped',
  'held.list': HELD_QUEUE,
  'held.get': HELD_QUEUE,
  'held.approve': HELD_QUEUE,
  'held.reject': HELD_QUEUE,
  'held.discard': HELD_QUEUE,
  'held.bulk': HELD_QUEUE,
  'caller.get':
    'the address the server checks a cidr restriction against (§2.6), so the dashboard can warn before a cidr shuts out the administrator typing it; and the administrator entry behind the key or token with its account (spec v2 has no "who am I"), so the dashboard shows each person only what their permissions allow',
};
