import type { AuditChange, AuditObjectType, AuditService } from '../../api/schemas/audit.ts';

/*
 * What the audit log records (issue 26 item 4, after Sympa's `viewlogs`): one entry per change of
 * an object, written in the transaction of the change (audit-trail.ts), never per row a change
 * cascades to (a list deleted is one entry with its member count, not one per membership).
 */

/** Who made a change: an administrator (its name is read when the entry is written), an address, or the system. */
export type AuditActor =
  { type: 'administrator'; id: number } | { type: 'address'; address: string } | { type: 'system' };

/** Who, from where and how: what every entry of one transaction shares unless it says otherwise. */
export interface AuditSource {
  actor: AuditActor;
  /** The IP address of the request (the person's behind a trusted proxy), when there is one. */
  address: string | null;
  service: AuditService;
}

/** The object an entry is about, and the list it belongs to when it does. */
export interface AuditObject {
  type: AuditObjectType;
  id: string | number | null;
  /** The list's id; when left out, the list is found by its name as the entry is written. */
  listId?: number | null;
  /** The list's name when the change was made. */
  list?: string | null;
}

/** One entry to write. */
export interface AuditRecord {
  /** The account the object is in; null for the group's (accounts, global administrators). */
  accountId: number | null;
  /** The API operation (`lists.update`) or a workflow step (`member.join`, `mail.hold`). */
  operation: string;
  object: AuditObject;
  changes?: readonly AuditChange[];
  details?: Readonly<Record<string, unknown>>;
  /** Who made it, when not the transaction's source (a member confirming by mail, say). */
  actor?: AuditActor;
  service?: AuditService;
  /** The IP address, when not the transaction's (an SMTP client's). */
  address?: string | null;
}

/** The system's own source: timers, and writes no request made. */
export const SYSTEM_SOURCE: AuditSource = {
  actor: { type: 'system' },
  address: null,
  service: 'system',
};
