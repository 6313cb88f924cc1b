import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { takeField, type BodySource } from '../../api/form-encoding.ts';
import { ACCOUNT_ID_PARAM } from '../../api/constants.ts';
import {
  OPERATIONS,
  extensionFieldsOf,
  extensionQueryOf,
  isExtension,
  type OperationName,
} from '../../api/operations.ts';
import { authenticate } from '../auth/authenticate.ts';
import { callerAddress } from '../auth/caller-address.ts';
import { ROUTE_PERMISSIONS } from '../auth/route-permissions.ts';
import type { Database } from '../db/schema.ts';
import { payerOf, setRateHeaders } from '../rate-limit/charge.ts';
import { requestedAccountId, resolveAccount } from './account-choice.ts';
import { assertWithinContract, sendAnswer } from './answer.ts';
import type { AppDeps } from './app-deps.ts';
import { assertAllowed } from './authorize.ts';
import { writeTransaction } from '../services/contact-documents.service.ts';
import { runCharged, type CostMeter } from './charged-run.ts';
import { NO_FIELDS, bodyOf, bodyParser, formParser } from './field-parsers.ts';
import { HttpError } from './http-error.ts';
import { IGNORED_FIELDS_HEADER, ignoredFieldsHeader } from './ignored-fields.ts';
import { JsonText } from './json-text.ts';
import { OPERATION_POLICY, type OperationPolicy } from './operation-policy.ts';
import { readMultipart } from './multipart-body.ts';
import type { HandlerResult, ParamsOf, RouteContext, RouteHandler } from './route-context.ts';
import { API_HEADERS } from './security-headers.ts';
import { fieldsSent, querySchemaWithout, withoutFields, withoutSentFields } from './spec-only.ts';
import { refuseTokenInUrl } from './token-in-url.ts';
import { queryStringOf } from './url-parts.ts';

export type { ResponseOf, RouteContext, RouteHandler } from './route-context.ts';
export { IGNORED_FIELDS_HEADER } from './ignored-fields.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on the route of each operation of spec §4, which runs no hooks (app.ts). */
    operation?: OperationName;
  }
}

/**
 * Registers one operation of spec §4 from its entry in the contract (src/api/operations.ts: method,
 * path, schemas, permissions, extension marks) and what the server alone needs to know of it
 * (http/operation-policy.ts), each entry looked up here once. Each step is a module of its own:
 * authenticate (§5.1, auth/authenticate.ts), choose the account (§4.8, account-choice.ts), check
 * the permission and scope (§2.6, §5.2, authorize.ts), decode the query and body (§1,
 * field-parsers.ts), charge the rate limit before the work (§8, charged-run.ts), run the handler
 * (in a transaction for writes) and answer JSON (answer.ts). The steps run in this one handler,
 * not as Fastify hooks: a hook costs every request it runs on (app.ts).
 */
export function defineRoute<K extends OperationName>(
  app: FastifyInstance,
  deps: AppDeps,
  name: K,
  handler: RouteHandler<K>,
): void {
  const operation = OPERATIONS[name];
  // EXTENSIONS=off (http/spec-only.ts): an extension operation is not there, so it answers 404.
  if (isExtension(name) && !deps.config.extensions) return;
  // …and an extension field is neither answered nor accepted.
  const hiddenFields = deps.config.extensions ? [] : extensionFieldsOf(name);
  const rule = ROUTE_PERMISSIONS[name];
  const policy: OperationPolicy = OPERATION_POLICY[name];
  const global = Boolean(rule.global);
  const isWrite = operation.method !== 'GET';
  const querySchema = 'query' in operation ? operation.query : NO_FIELDS;
  // With EXTENSIONS=off an extension query parameter is unknown, so refused (http/spec-only.ts).
  const parseQuery = formParser(
    deps.config.extensions
      ? querySchema
      : (querySchemaWithout(querySchema, extensionQueryOf(name)) as typeof querySchema),
  );
  const parseBodyFields = bodyParser('body' in operation ? operation.body : NO_FIELDS);

  /** Spec §4: GET and DELETE take no body; fields sent to them are ignored, as unknown ones are. */
  const decodeBody = (source: BodySource | null) => {
    // With EXTENSIONS=off an extension field is unknown too (http/spec-only.ts).
    const hiddenSent = fieldsSent(source, hiddenFields);
    const decoded = parseBodyFields(
      hiddenSent.length > 0 ? withoutSentFields(source, hiddenSent) : source,
    );
    return { body: decoded.body, ignored: [...hiddenSent, ...decoded.ignored] };
  };

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
        deps.clock.now(),
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
      const resolved = resolveAccount(deps, principal, name, accountId, global);
      const account = resolved instanceof Promise ? await resolved : resolved;
      assertAllowed(principal, scopes, rule, policy.scope);
      // Spec §4: only the listed query parameters exist; a write has none, so any is refused (400).
      const query = parseQuery(search?.size ? search : null);
      const { body, ignored } = decodeBody(fromBody?.rest ?? null);
      // Named on an error answer too (headers set here survive the error handler).
      if (ignored.length > 0) reply.header(IGNORED_FIELDS_HEADER, ignoredFieldsHeader(ignored));
      const params = paramsOf<K>(request);
      const now = deps.clock.now();
      const context = (db: Kysely<Database>, meter: CostMeter) =>
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
          now,
          meter,
        }) as RouteContext<K>;

      const payer = payerOf(deps, account);
      const run = await runCharged<HandlerResult<K> | JsonText>(
        deps,
        payer,
        policy,
        isWrite,
        async (meter) => {
          // The unit of work stores the documents of the contacts a write changed.
          const answered =
            isWrite && policy.transaction === 'one'
              ? await writeTransaction(deps.db, (trx) => handler(context(trx, meter)))
              : await handler(context(deps.db, meter));
          // Committed: the next request, in this process, sees a revoked key or a changed account.
          if (isWrite && policy.emptiesAuthCache) deps.authCache.forget();
          return answered;
        },
      );
      let result = run.result;
      if (hiddenFields.length > 0 && !(result instanceof JsonText))
        result = withoutFields(result, hiddenFields);
      if (deps.validateResponses) assertWithinContract(name, result);
      reply.headers(API_HEADERS);
      if (deps.config.extensions) setRateHeaders(reply, run.charge, payer.allowance);
      if (ignored.length > 0) reply.header(IGNORED_FIELDS_HEADER, ignoredFieldsHeader(ignored));
      return sendAnswer(reply, policy.envelope, result);
    },
  });
}

/** The path's parameters, typed from the operation's path (route-context.ts). */
function paramsOf<K extends OperationName>(request: FastifyRequest): ParamsOf<K> {
  const params = request.params as Record<string, string>;
  // No object has an identifier with U+0000 (PostgreSQL text cannot even hold one).
  if (Object.values(params).some((value) => value.includes('\0')))
    throw new HttpError(404, 'Not found');
  return params as ParamsOf<K>;
}
