import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type * as z from 'zod/mini';
import type { OPERATIONS, OperationName } from '../../api/operations.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { AccountRow } from '../repositories/accounts.repository.ts';
import type { AppDeps } from './app-deps.ts';
import type { CostMeter } from './charged-run.ts';
import { HttpError } from './http-error.ts';
import type { JsonText } from './json-text.ts';

type Ops = typeof OPERATIONS;
type QueryOf<K extends OperationName> = Ops[K] extends { query: z.ZodMiniType }
  ? z.output<Ops[K]['query']>
  : undefined;
type BodyOf<K extends OperationName> = Ops[K] extends { body: z.ZodMiniType }
  ? z.output<Ops[K]['body']>
  : undefined;
/** `/lists/:list/contacts/:id/` → `{ list: string; id: string }`: a handler reads only its path's names. */
type ParamsOfPath<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { readonly [N in Name]: string } & ParamsOfPath<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { readonly [N in Name]: string }
    : Record<never, string>;
type Flat<T> = { [Key in keyof T]: T[Key] };
export type ParamsOf<K extends OperationName> = Flat<ParamsOfPath<Ops[K]['path']>>;

/** The path's parameters, typed from the operation's path. */
export function paramsOf<K extends OperationName>(request: FastifyRequest): ParamsOf<K> {
  const params = request.params as Record<string, string>;
  // No object has an identifier with U+0000 (PostgreSQL text cannot even hold one).
  if (Object.values(params).some((value) => value.includes('\0')))
    throw new HttpError(404, 'Not found');
  return params as ParamsOf<K>;
}
export type ResponseOf<K extends OperationName> = z.input<Ops[K]['response']>;

export interface RouteContext<K extends OperationName> {
  /** A transaction for writes (the route opens it and hands it down), the pool for reads. */
  db: Kysely<Database>;
  deps: AppDeps;
  principal: Principal;
  /**
   * The account the request works on; null only for group-wide operations (accounts, global
   * users) of a global principal. An account's own principal on accounts.get and accounts.update
   * (operations.ts OWN_ACCOUNT) has its own account here.
   */
  account: AccountRow | null;
  params: ParamsOf<K>;
  query: QueryOf<K>;
  body: BodyOf<K>;
  /**
   * Body fields left out, never stored (SECURITY.md 17), answered in `X-Ignored-Fields`. A handler
   * adds those only it can tell apart (custom fields the account does not define).
   */
  ignored: string[];
  request: FastifyRequest;
  /** The request's time, read once from the server's clock (lib/clock.ts). */
  now: Date;
  /**
   * Reserves more of the allowance before work whose cost the handler learns as it goes (a list's
   * member ids, SECURITY.md 30): 429 when the allowance cannot hold it.
   */
  meter: CostMeter;
  /**
   * The last transaction of a write in steps (operation-policy `transaction: 'steps'`), in which
   * its audit entry is written (http/audited-write.ts); any other route's is its own transaction.
   */
  commit: UnitOfWork;
  /** What a handler tells the audit log that its answer does not (audited-write.ts). */
  audit: AuditNote;
}

export interface AuditNote {
  /** The object the write made, when the answer does not name it (spec §4.5 send answers `success`). */
  objectId?: number | string;
}

/** `users.update` also answers key retrieval, which shares its path (spec §4.6). */
export type HandlerResult<K extends OperationName> = K extends 'users.update'
  ? ResponseOf<'users.update'> | ResponseOf<'users.retrieveKey'>
  : ResponseOf<K>;

/**
 * A handler answers an object of the contract, or its JSON text (a stored contact document, a
 * list's member ids as the database wrote them).
 */
export type RouteHandler<K extends OperationName> = (
  context: RouteContext<K>,
) => Promise<HandlerResult<K> | JsonText>;
