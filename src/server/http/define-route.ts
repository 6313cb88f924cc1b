import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import * as z from 'zod';
import {
  JsonBody,
  describeIssues,
  parseBody,
  parseForm,
  takeField,
  type BodySource,
  type FormSource,
} from '../../api/form-encoding.ts';
import {
  ACCOUNT_ID_PARAM,
  EXTENSION,
  OPERATIONS,
  extensionFieldsOf,
  type OperationName,
} from '../../api/operations.ts';
import { changesAuth } from '../auth/auth-cache.ts';
import { authenticate } from '../auth/authenticate.ts';
import { callerAddress } from '../auth/caller-address.ts';
import { can, type Principal } from '../auth/principal.ts';
import { ROUTE_PERMISSIONS } from '../auth/route-permissions.ts';
import { ROUTE_SCOPES } from '../auth/route-scopes.ts';
import type { Database } from '../db/schema.ts';
import type { MaybePromise } from '../lib/maybe-promise.ts';
import { chargeOrThrow, countObjects, payerOf, refund, setRateHeaders } from '../rate-limit/charge.ts';
import { findAccountById, type AccountRow } from '../repositories/accounts.repository.ts';
import type { AppDeps } from './app-deps.ts';
import { BODY_LIMIT } from './body-limit.ts';
import { HttpError, badRequest, forbidden } from './http-error.ts';
import { JsonText } from './json-text.ts';
import { API_HEADERS } from './security-headers.ts';
import { fieldsSent, withoutFields, withoutSentFields } from './spec-only.ts';
import { refuseTokenInUrl } from './token-in-url.ts';
import { queryStringOf } from './url-parts.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on the route of each operation of spec §4, which runs no hooks (app.ts). */
    operation?: OperationName;
  }
}

/** What Fastify sends with the objects it serializes; stored JSON goes out the same way. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** What an operation without a query (or a body) accepts: nothing. */
const NO_FIELDS = z.strictObject({});

type Ops = typeof OPERATIONS;
type QueryOf<K extends OperationName> = Ops[K] extends { query: z.ZodType }
  ? z.output<Ops[K]['query']>
  : undefined;
type BodyOf<K extends OperationName> = Ops[K] extends { body: z.ZodType }
  ? z.output<Ops[K]['body']>
  : undefined;
export type ResponseOf<K extends OperationName> = z.input<Ops[K]['response']>;

export interface RouteContext<K extends OperationName> {
  /** A transaction for writes (the route opens it and hands it down), the pool for reads. */
  db: Kysely<Database>;
  deps: AppDeps;
  principal: Principal;
  /** The account the request works on; null only for group-wide operations (accounts, global users). */
  account: AccountRow | null;
  params: Record<string, string>;
  query: QueryOf<K>;
  body: BodyOf<K>;
  /**
   * Body fields left out, never stored (SECURITY.md 17), answered in `X-Ignored-Fields`. A handler
   * adds those only it can tell apart (custom fields the account does not define).
   */
  ignored: string[];
  request: FastifyRequest;
}

/** `users.update` also answers key retrieval, which shares its path (spec §4.6). */
type HandlerResult<K extends OperationName> = K extends 'users.update'
  ? ResponseOf<'users.update'> | ResponseOf<'users.retrieveKey'>
  : ResponseOf<K>;

/** A handler answers an object of the contract, or (a stored contact document) its JSON text. */
export type RouteHandler<K extends OperationName> = (
  context: RouteContext<K>,
) => Promise<HandlerResult<K> | JsonText>;

/**
 * Spec §4.4 and §4.6 answer "a JSON object containing an array" (spec §1 rule 3: every body is an
 * object) without naming the key; the reference server uses `data`, as on the paged collections.
 * Spec §4.7 answers accounts as a bare "JSON list".
 */
const DATA_ENVELOPE: ReadonlySet<OperationName> = new Set(['lists.list', 'users.list']);

/**
 * Reads that make the server fetch from elsewhere (the image proxy, an extension): their one object
 * is kept when they fail, as the fetch was made (spec §8).
 */
const CHARGED_BEFORE: ReadonlySet<OperationName> = new Set(['messages.image']);

/** The schema an answer must meet: key retrieval answers a key, not the administrator. */
function responseSchema(name: OperationName, result: unknown): z.ZodType {
  const isKey =
    name === 'users.update' && typeof result === 'object' && result !== null && 'key' in result;
  return OPERATIONS[isKey ? 'users.retrieveKey' : name].response;
}

/**
 * Registers one operation of spec §4 from the contract's table: authenticate (§5.1), choose the
 * account (§4.8), check the permission (§2.6), decode the form (§1), charge the rate limit (§8), run
 * the handler (in a transaction for writes), and answer JSON.
 */
export function defineRoute<K extends OperationName>(
  app: FastifyInstance,
  deps: AppDeps,
  name: K,
  handler: RouteHandler<K>,
): void {
  const operation = OPERATIONS[name];
  // EXTENSIONS=off (http/spec-only.ts): an extension operation is not there, so it answers 404.
  if (operation.section === EXTENSION && !deps.config.extensions) return;
  // …and an extension field is neither answered nor accepted.
  const hiddenFields = deps.config.extensions ? [] : extensionFieldsOf(name);
  const rule = ROUTE_PERMISSIONS[name];
  const isWrite = operation.method !== 'GET';
  const invalidatesAuth = isWrite && changesAuth(name);
  const parseQuery = formParser('query' in operation ? operation.query : NO_FIELDS);
  const parseBodyFields = bodyParser('body' in operation ? operation.body : NO_FIELDS);
  app.route({
    method: operation.method,
    url: `/api/2${operation.path}`,
    // No hooks run on the operations (app.ts): they refuse tokens in URLs and set their headers here.
    config: { operation: name },
    handler: async (request, reply) => {
      refuseTokenInUrl(request.url);
      // What is in memory answers at once; only a miss is awaited (lib/maybe-promise.ts).
      const authenticated = authenticate(
        deps.db,
        deps.authCache,
        request.headers.authorization,
        callerAddress(request),
      );
      const { principal, scopes } =
        authenticated instanceof Promise ? await authenticated : authenticated;
      const queryString = queryStringOf(request.url);
      const search = queryString === '' ? null : new URLSearchParams(queryString);
      // Spec §4.8: `account_id` comes in the query; clients that send every field in the body
      // send it there too. Read before the body's own fields, as it chooses the account.
      const sent = request.isMultipart() ? await readMultipart(request) : bodyOf(request);
      const fromBody = sent ? takeField(sent, ACCOUNT_ID_PARAM) : null;
      const accountId = requestedAccountId([
        ...(search?.getAll(ACCOUNT_ID_PARAM) ?? []),
        ...(fromBody?.values ?? []),
      ]);
      search?.delete(ACCOUNT_ID_PARAM);
      const resolved = resolveAccount(deps, principal, name, accountId, Boolean(rule.global));
      const account = resolved instanceof Promise ? await resolved : resolved;
      if (!rule.anyOf.some((permission) => can(principal, permission))) {
        throw forbidden(`This key lacks the ${rule.anyOf.join(' or ')} permission`);
      }
      // Spec §5.2: an access token also needs the operation's scope (auth/route-scopes.ts).
      const scope = ROUTE_SCOPES[name];
      if (scopes && scope !== null && !scopes.has(scope)) {
        throw forbidden(`This access token was not granted the ${scope} scope`);
      }
      // Spec §4: only the listed query parameters exist; a write has none, so any is refused (400).
      const query = parseQuery(search?.size ? search : null);
      // Spec §4: GET and DELETE take no body; fields sent to them are ignored, as unknown ones are.
      // With EXTENSIONS=off an extension field is unknown too (http/spec-only.ts).
      const source = fromBody?.rest ?? null;
      const hiddenSent = fieldsSent(source, hiddenFields);
      const decoded = parseBodyFields(hiddenSent.length > 0 ? withoutSentFields(source, hiddenSent) : source);
      const body = decoded.body;
      const ignored = [...hiddenSent, ...decoded.ignored];
      // Named on an error answer too (headers set here survive the error handler).
      if (ignored.length > 0) reply.header(IGNORED_FIELDS_HEADER, ignoredFieldsHeader(ignored));
      const params = request.params as Record<string, string>;
      // No object has an identifier with U+0000 (PostgreSQL text cannot even hold one).
      if (Object.values(params).some((value) => value.includes('\0')))
        throw new HttpError(404, 'Not found');
      const context = (db: Kysely<Database>) =>
        ({
          db,
          deps,
          principal,
          account,
          params,
          query: 'query' in operation ? query : undefined,
          body: 'body' in operation ? body : undefined,
          ignored,
          request,
        }) as RouteContext<K>;

      // SECURITY.md 30: the cost is checked before the work, so nothing runs with no allowance
      // left (a search that found nothing was charged 0 and ran with the allowance spent: issue 16
      // finding 1). Every request takes one object first (a write: the object it affects; a read:
      // the query, which counts at least as one even when it finds nothing); a read then takes
      // what else it returns (spec §8 rule 1). Given back when the request fails.
      const payer = payerOf(deps, account);
      const reserved = chargeOrThrow(deps, payer, 1);
      let charge = reserved instanceof Promise ? await reserved : reserved;
      let result: HandlerResult<K> | JsonText;
      try {
        if (isWrite) {
          result = await deps.db.transaction().execute((trx) => handler(context(trx)));
          // Committed: the next request, in this process, sees a revoked key or a changed account.
          if (invalidatesAuth) deps.authCache.forget();
        } else {
          result = await handler(context(deps.db));
        }
      } catch (error) {
        // Not given back for a fetch from elsewhere: a failed fetch cost the remote host as much.
        if (!CHARGED_BEFORE.has(name)) await refund(deps, payer, charge, 1);
        throw error;
      }
      if (!isWrite) {
        // Over the allowance here is a 429 that keeps the reserved object: the work was done.
        const rest = countObjects(name, result) - 1;
        if (rest > 0) {
          const taken = chargeOrThrow(deps, payer, rest);
          charge = taken instanceof Promise ? await taken : taken;
        }
      }
      if (hiddenFields.length > 0 && !(result instanceof JsonText))
        result = withoutFields(result, hiddenFields);
      if (deps.validateResponses) {
        const answer = result instanceof JsonText ? (JSON.parse(result.text) as unknown) : result;
        const checked = responseSchema(name, answer).safeParse(answer);
        if (!checked.success) {
          throw new Error(
            `${name} answered outside the contract: ${describeIssues(checked.error.issues)}`,
          );
        }
      }
      reply.headers(API_HEADERS);
      if (deps.config.extensions) setRateHeaders(reply, charge, payer.allowance);
      if (ignored.length > 0) reply.header(IGNORED_FIELDS_HEADER, ignoredFieldsHeader(ignored));
      if (result instanceof JsonText) return reply.type(JSON_TYPE).send(result.text);
      return reply.send(DATA_ENVELOPE.has(name) ? { data: result } : result);
    },
  });
}

/**
 * Decodes a form (null: none sent) or refuses it with 400. What no form decodes to is worked out
 * once per route, as most reads send no query and no read has a body.
 */
function formParser<S extends z.ZodType>(schema: S): (source: FormSource | null) => z.output<S> {
  const parsedEmpty = parseForm(schema, []);
  return (source) => {
    if (source === null && parsedEmpty.success)
      return { ...(parsedEmpty.data as object) } as z.output<S>;
    const parsed = parseForm(schema, source ?? []);
    if (!parsed.success) throw badRequest(parsed.message);
    return parsed.data;
  };
}

/**
 * Decodes a body (null: none sent) or refuses it with 400. Fields it does not take are left out and
 * named (parseBody); what an empty body decodes to is worked out once per route.
 */
function bodyParser<S extends z.ZodType>(
  schema: S,
): (source: BodySource | null) => { body: z.output<S>; ignored: string[] } {
  const parsedEmpty = parseBody(schema, []);
  return (source) => {
    if (source === null && parsedEmpty.success)
      return { body: { ...(parsedEmpty.data as object) } as z.output<S>, ignored: [] };
    const parsed = parseBody(schema, source ?? []);
    if (!parsed.success) {
      const named: Record<string, string> =
        parsed.ignored.length > 0 ? { [IGNORED_FIELDS_HEADER]: ignoredFieldsHeader(parsed.ignored) } : {};
      throw new HttpError(400, parsed.message, named);
    }
    return { body: parsed.data, ignored: parsed.ignored };
  };
}

/**
 * Urlencoded bodies arrive as URLSearchParams and JSON bodies as JsonBody (app.ts); multipart
 * fields are read by readMultipart.
 */
function bodyOf(request: FastifyRequest): BodySource | null {
  const body = request.body;
  return body instanceof URLSearchParams || body instanceof JsonBody ? body : null;
}

/**
 * Spec §4.8's `account_id`, from the query and the body: one account, however often it is named
 * (an empty value names none). Two different ones are refused.
 */
function requestedAccountId(values: readonly unknown[]): string | null {
  let chosen: string | null = null;
  for (const value of values) {
    if (value === '' || value === null) continue;
    if (typeof value !== 'string' && typeof value !== 'number')
      throw badRequest(`${ACCOUNT_ID_PARAM}: is not an account identifier`);
    const text = String(value);
    if (chosen !== null && canonicalAccountId(chosen) !== canonicalAccountId(text))
      throw badRequest(`${ACCOUNT_ID_PARAM}: given more than once, naming different accounts`);
    chosen = text;
  }
  return chosen;
}

/** Equal ids compare equal however written (`7`, `07`); anything else compares as text. */
function canonicalAccountId(text: string): string {
  return /^\d{1,12}$/.test(text) ? String(Number(text)) : text;
}

/** SECURITY.md 17: the body fields a write left out, so that a developer can see them. */
export const IGNORED_FIELDS_HEADER = 'x-ignored-fields';
const IGNORED_FIELDS_SHOWN = 50;
const IGNORED_NAME_MAX_LENGTH = 100;

/**
 * The ignored names separated by ", ". A name keeps its printable ASCII; a space, a comma, `%`,
 * `"` and anything else are percent-encoded as UTF-8 (so any name makes a valid header, and a comma
 * in a name cannot split it); an empty name shows as `""`. Bounded: at most 50 names of at most 100
 * characters, then `…` (as `%E2%80%A6`, to stay ASCII).
 */
function ignoredFieldsHeader(names: readonly string[]): string {
  const shown = names.slice(0, IGNORED_FIELDS_SHOWN).map((name) => {
    if (name === '') return '""';
    const cut = [...name].slice(0, IGNORED_NAME_MAX_LENGTH).join('');
    return cut.toWellFormed().replace(HEADER_UNSAFE, encodeURIComponent) + (cut.length < name.length ? ELLIPSIS : '');
  });
  if (names.length > IGNORED_FIELDS_SHOWN) shown.push(ELLIPSIS);
  return shown.join(', ');
}

/** Every character but printable ASCII other than `,`, `%` and `"` (pairs of surrogates whole). */
const HEADER_UNSAFE = /[^\x21-\x7e]|[,%"]/gu;
const ELLIPSIS = '%E2%80%A6';

/**
 * Multipart is streamed past Fastify's body limit, so the limit is enforced here (SECURITY.md 21):
 * a declared length over it, a field the parser truncated, or fields adding up to more → 413.
 */
async function readMultipart(request: FastifyRequest): Promise<FormSource> {
  if (Number(request.headers['content-length']) > BODY_LIMIT) throw bodyTooLarge();
  const fields: [string, string][] = [];
  let size = 0;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file')
        throw badRequest(`${part.fieldname}: file uploads are not accepted`);
      if (part.valueTruncated || part.fieldnameTruncated) throw bodyTooLarge();
      // A part declared as JSON arrives parsed; form fields are text (spec §1).
      if (typeof part.value !== 'string')
        throw badRequest(`${part.fieldname}: send form fields as text`);
      size += Buffer.byteLength(part.fieldname) + Buffer.byteLength(part.value);
      if (size > BODY_LIMIT) throw bodyTooLarge();
      fields.push([part.fieldname, part.value]);
    }
  } catch (error) {
    // The parser's own limits carry their status (413, 400); anything else is a malformed body.
    if (error instanceof HttpError || hasClientStatus(error)) throw error;
    throw badRequest('The multipart body is malformed');
  }
  return fields;
}

function bodyTooLarge(): HttpError {
  return new HttpError(413, `The request body is larger than ${BODY_LIMIT} bytes`);
}

function hasClientStatus(error: unknown): boolean {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/** Spec §4.8: a global key names its account with `account_id`; an account key is confined to its own. */
function resolveAccount(
  deps: AppDeps,
  principal: Principal,
  name: OperationName,
  accountIdText: string | null,
  global: boolean,
): MaybePromise<AccountRow | null> {
  if (global) {
    if (principal.accountId !== null) throw forbidden('Accounts are managed with a global key');
    return null;
  }
  let accountId = principal.accountId;
  if (accountIdText !== null) {
    if (!/^\d{1,12}$/.test(accountIdText))
      throw badRequest(`${ACCOUNT_ID_PARAM}: is not an account identifier`);
    const requested = Number(accountIdText);
    if (principal.accountId !== null && requested !== principal.accountId) {
      throw forbidden(`${ACCOUNT_ID_PARAM} is for global keys: this key belongs to one account`);
    }
    accountId = requested;
  }
  if (accountId === null) {
    // Spec §4.8 rule 2: on /users/ a global key without account_id means the global users. The
    // caller.get extension reads no account's data, so it needs none either.
    if (name.startsWith('users.') || name === 'caller.get') return null;
    throw badRequest(`${ACCOUNT_ID_PARAM} is required with a global key (spec §4.8)`);
  }
  const account = deps.authCache.account(accountId, () => findAccountById(deps.db, accountId));
  return account instanceof Promise ? account.then(foundAccount) : foundAccount(account);
}

function foundAccount(account: AccountRow | undefined): AccountRow {
  if (!account) throw new HttpError(404, 'Account not found');
  return account;
}
