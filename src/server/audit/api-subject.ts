import type { Kysely } from 'kysely';
import type { OPERATIONS, OperationName } from '../../api/operations.ts';
import type { Database } from '../db/schema.ts';
import { HttpError } from '../http/http-error.ts';
import { JsonText } from '../http/json-text.ts';
import type { RouteContext } from '../http/route-context.ts';
import type { AuditRecord } from './audit-record.ts';
import type { ObjectState } from './changes.ts';

/** The operations that write: each has a subject (api-subjects.ts), checked by the compiler. */
export type WriteOperationName = {
  [K in OperationName]: (typeof OPERATIONS)[K]['method'] extends 'GET' ? never : K;
}[OperationName];

/** What a subject has seen of its write when it says what to record. */
export interface Seen<B, P> {
  /** The object before the write (null: it did not exist, or the write will fail anyway). */
  before: B;
  prelude: P;
  /** The handler's answer (a 'one' write), or undefined in the last step of a 'steps' write. */
  answer: unknown;
}

/**
 * How the route pipeline's write step (http/audited-write.ts) records one operation, reading no
 * more than it needs. All of it runs in the write's transaction, but the prelude:
 * - `prelude`, for a write in steps (operation-policy `transaction: 'steps'`), is read before the
 *   handler, outside any transaction: what its first steps take away (a list's members);
 * - `before` is read in the transaction before the handler's work (for a 'steps' write, its last
 *   transaction's): the object as it was, where the service does not hand it out;
 * - `records` says what to write once the work is done, from what was seen and the answer.
 */
export interface AuditSubject<K extends WriteOperationName, B = unknown, P = unknown> {
  prelude?: (ctx: RouteContext<K>) => Promise<P>;
  before?: (db: Kysely<Database>, ctx: RouteContext<K>, prelude: P) => Promise<B>;
  records: (
    db: Kysely<Database>,
    ctx: RouteContext<K>,
    seen: Seen<B, P>,
  ) => AuditRecord[] | Promise<AuditRecord[]>;
}

/** A subject with its own types, stored in the table without them. */
export function subject<K extends WriteOperationName, B = null, P = undefined>(
  definition: AuditSubject<K, B, P>,
): AuditSubject<K> {
  return definition as unknown as AuditSubject<K>;
}

/**
 * An object read before a write, or null when the read is refused (404, 403): the handler then
 * refuses the write the same way, or creates the object (a PUT to a new ccid, spec §4.1 rule 1).
 */
export async function readOrNull<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof HttpError && error.status < 500) return null;
    throw error;
  }
}

/** An answer as its JSON object: a stored document's text is parsed (http/json-text.ts). */
export function stateOf(answer: unknown): ObjectState {
  if (answer instanceof JsonText) return JSON.parse(answer.text) as ObjectState;
  return answer as ObjectState;
}

/** The account the route works on, or null for the group's (accounts, global administrators). */
export function accountIdOf(ctx: RouteContext<OperationName>): number | null {
  return ctx.account?.id ?? null;
}

/** The object each resource of the API writes (for an entry its subject said nothing of). */
export const OBJECT_TYPE_OF_RESOURCE = {
  contacts: 'contact',
  emails: 'email',
  membership: 'membership',
  lists: 'list',
  messages: 'message',
  held: 'held_message',
  requests: 'request',
  fields: 'custom_field',
  bounces: 'email',
  users: 'administrator',
  accounts: 'account',
} as const;
