import * as z from 'zod/mini';
import { EMAIL_MAX_LENGTH, ID_MAX_LENGTH } from '../constants.ts';
import { Id, ListName, pageQuery, text } from '../primitives.ts';

/**
 * Reference-server extension (operations.ts `audit.list`, issue 26 item 4): the audit log that spec
 * §2.6's `audit` permission ("View audit logs") names and spec v2 offers no way to read. One entry
 * per change of an object, after Sympa's `viewlogs`: when (the server's clock), who, from where,
 * how (the service), the operation, the object, and each field changed with its old and new value.
 * Secrets are never in it: a changed password, `archive_password` or key shows as `secret`, with
 * no value (SECURITY.md 49).
 */

export const AUDIT_PAGE_LIMITS = { default: 50, max: 100 } as const;

/** An administrator (by username, or a key's description), an address (a member, a sender), or the system. */
export const AUDIT_ACTOR_TYPES = ['administrator', 'address', 'system'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/** How the change came: the API (the dashboard's gateway included), the command line, the public pages, mail, the server itself. */
export const AUDIT_SERVICES = ['api', 'cli', 'web', 'mail', 'system'] as const;
export type AuditService = (typeof AUDIT_SERVICES)[number];

/** What an entry is about; `list` is set too when the object belongs to one. */
export const AUDIT_OBJECT_TYPES = [
  'contact',
  'email',
  'membership',
  'list',
  'message',
  'held_message',
  'request',
  'administrator',
  'account',
  'custom_field',
  'oauth_client',
] as const;
export type AuditObjectType = (typeof AUDIT_OBJECT_TYPES)[number];

/**
 * One field an entry changed, with its `old` and `new` values in their JSON types (kept as they
 * come, as a loose object keeps what it does not name: no schema of their own to load). `old` is
 * absent on a create and `new` on a delete; a `secret` field (a password, `archive_password`, a
 * key) says only that it was set (`new` true) or cleared.
 */
export const AuditChange = z.looseObject({
  field: z.string(),
  secret: z.optional(z.boolean()),
});
export type AuditChange = z.infer<typeof AuditChange>;

export const AuditEntry = z.looseObject({
  id: Id,
  /** ISO 8601, the server's clock when the change was made. */
  time: z.string(),
  actor: z.looseObject({
    type: z.string(),
    /** The administrator's id; null for an address or the system. */
    id: z.nullable(Id),
    /** A username, a key's description, an address; null for the system. */
    name: z.nullable(z.string()),
  }),
  /** The IP address the change came from (the person's behind a proxy named in TRUST_PROXY), when known. */
  address: z.nullable(z.string()),
  service: z.string(),
  /** The API operation (`lists.update`), or a step of the members' and mail workflows (`member.join`, `mail.hold`). */
  operation: z.string(),
  object: z.looseObject({
    type: z.string(),
    id: z.nullable(z.string()),
    /** The list the object belongs to, by its name then. */
    list: z.nullable(z.string()),
  }),
  changes: z.array(AuditChange),
  /** What else says what happened: a deleted list's member count, a moderator's reason. */
  details: z.looseObject({}),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** ISO 8601 with a time and an offset (`2026-11-29T08:00:00Z`); its length is bound by its pattern. */
const Instant = z.iso.datetime({ offset: true }).check(z.maxLength(40));

/**
 * Newest first, a page at a time by keyset (`cursor` is the `next` of the page before), never by
 * offset: a page stays the same while entries are added. Every filter narrows; `actor` is a
 * username, a key's description, an address (without regard to case) or `system`.
 */
export const AuditQuery = z.strictObject({
  since: z.optional(Instant),
  until: z.optional(Instant),
  actor: z.optional(text(EMAIL_MAX_LENGTH)),
  list: z.optional(ListName),
  object_type: z.optional(z.enum(AUDIT_OBJECT_TYPES)),
  object_id: z.optional(text(ID_MAX_LENGTH)),
  operation: z.optional(text(64)),
  cursor: z.optional(text(200)),
  // A page's `limit` as spec §4.1's; there is no `page`: the cursor pages.
  limit: pageQuery(AUDIT_PAGE_LIMITS.max).limit,
});
export type AuditQuery = z.infer<typeof AuditQuery>;

/** A page of entries; `next` continues after its last one, null at the end. */
export const AuditPage = z.looseObject({
  data: z.array(AuditEntry),
  next: z.nullable(z.string()),
});
export type AuditPage = z.infer<typeof AuditPage>;
