import * as z from 'zod';

/**
 * Reference-server extension (not in spec v2): the caller as the server sees it. `address` is the
 * one a key's `cidr` (spec §2.6) is checked against: the socket's address, or the one a trusted
 * proxy forwarded (SECURITY.md 18).
 */
export const Caller = z.looseObject({
  address: z.string().min(1),
});
export type Caller = z.infer<typeof Caller>;
