import * as z from 'zod/mini';
import { PERMISSIONS } from '../constants.ts';
import { Id } from '../primitives.ts';

/**
 * Reference-server extension (not in spec v2, which has no "who am I"): the administrator entry
 * behind the request's key or access token, so a client shows each person only what they may do.
 * `username` for a person, `description` for an API version 2 key (spec §2.6, §9 rule 3).
 */
export const CallerAdministrator = z.looseObject({
  id: Id,
  username: z.nullable(z.string()),
  description: z.nullable(z.string()),
  firstname: z.string(),
  surname: z.string(),
  permissions: z.array(z.enum(PERMISSIONS)),
  limit_lists: z.array(z.string()),
  limit_metadata: z.array(z.string()),
});
export type CallerAdministrator = z.infer<typeof CallerAdministrator>;

/**
 * Reference-server extension (not in spec v2): the caller as the server sees it. `address` is the
 * one a key's `cidr` (spec §2.6) is checked against: the socket's, or the one a trusted proxy
 * forwarded (SECURITY.md 18). `administrator` is who calls, `account` the account their entry
 * belongs to (null for the group's global administrators, spec §4.8), never the one `account_id`
 * addresses. Both optional: older reference servers answered the address only.
 */
export const Caller = z.looseObject({
  address: z.string().check(z.minLength(1)),
  administrator: z.optional(CallerAdministrator),
  account: z.nullish(z.looseObject({ id: Id, name: z.string() })),
  /**
   * What this server's welcome email to a new administrator (spec §2.6 `welcome_email`, sent when
   * a person is created without a password) holds: a one-time link to choose a password, valid
   * `password_link_days` days. Absent: the server does not say (older reference servers).
   */
  welcome_email: z.optional(z.looseObject({ password_link_days: z.int().check(z.positive()) })),
});
export type Caller = z.infer<typeof Caller>;
