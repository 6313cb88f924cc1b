import type { FastifyInstance } from 'fastify';
import {
  OPERATIONS,
  extensionFieldsOf,
  extensionQueryOf,
  isExtension,
  type Operation,
  type OperationName,
} from '../../api/operations.ts';
import { NoQuery } from '../../api/primitives.ts';
import { authenticate } from '../auth/authenticate.ts';
import { callerAddress } from '../auth/caller-address.ts';
import { ROUTE_PERMISSIONS } from '../auth/route-permissions.ts';
import { payerOf, setRateHeaders } from '../rate-limit/charge.ts';
import { resolveAccount, takeAccountId } from './account-choice.ts';
import { assertWithinContract, sendAnswer } from './answer.ts';
import type { AppDeps } from './app-deps.ts';
import { assertAllowed } from './authorize.ts';
import { runCharged } from './charged-run.ts';
import { bodyOf, formParser } from './field-parsers.ts';
import { IGNORED_FIELDS_HEADER, ignoredFieldsHeader } from './ignored-fields.ts';
import type { JsonText } from './json-text.ts';
import { readMultipart } from './multipart-body.ts';
import { OPERATION_POLICY, type OperationPolicy } from './operation-policy.ts';
import { paramsOf, type HandlerResult, type RouteHandler } from './route-context.ts';
import { API_HEADERS } from './security-headers.ts';
import { answerWithout, bodyParserWithout, querySchemaWithout } from './spec-only.ts';
import { refuseTokenInUrl } from './token-in-url.ts';
import { workFor, type RouteParts } from './audited-write.ts';

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
 * (http/operation-policy.ts), each entry looked up here once, when what can be is worked out. The
 * handler is the list of the request's steps, each a module of its own: authenticate (§5.1),
 * choose the account (§4.8), check the permission and scope (§2.6, §5.2), decode the query and the
 * body (§1), charge the rate limit before the work (§8) and run it where it belongs (a write in its
 * unit of work, with its audit entry: audited-write.ts), leave out what EXTENSIONS=off hides,
 * answer JSON. The steps run in this one
 * handler, not as Fastify hooks: a hook costs every request it runs on (app.ts); and what is in
 * memory is answered without an await (lib/maybe-promise.ts).
 */
export function defineRoute<K extends OperationName>(
  app: FastifyInstance,
  deps: AppDeps,
  name: K,
  handler: RouteHandler<K>,
): void {
  const operation: Operation = OPERATIONS[name];
  const { extensions } = deps.config;
  // EXTENSIONS=off (http/spec-only.ts): an extension operation is not there, so it answers 404; an
  // extension query parameter is unknown, so refused; an extension field is neither answered nor
  // accepted.
  if (isExtension(name) && !extensions) return;
  const hiddenFields = extensions ? [] : extensionFieldsOf(name);
  const parseQuery = formParser(
    querySchemaWithout(operation.query ?? NoQuery, extensions ? [] : extensionQueryOf(name)),
  );
  // Spec §4: GET and DELETE take no body; fields sent to them are ignored, as unknown ones are.
  const parseBody = bodyParserWithout(operation.body ?? NoQuery, hiddenFields);
  const hideFields = answerWithout(hiddenFields);
  const rule = ROUTE_PERMISSIONS[name];
  const global = Boolean(rule.global);
  // Extension (operations.ts OWN_ACCOUNT): an account's own principal on its own account, checked
  // against these permissions; its handler keeps it to that account.
  const ownAccountRule = extensions && rule.ownAccount ? { anyOf: rule.ownAccount } : null;
  const policy: OperationPolicy = OPERATION_POLICY[name];
  const isWrite = operation.method !== 'GET';
  const work = workFor(deps, name, policy, isWrite);
  const hasQuery = operation.query !== undefined;
  const hasBody = operation.body !== undefined;

  app.route({
    method: operation.method,
    url: `/api/2${operation.path}`,
    // No hooks run on the operations (app.ts): they refuse tokens in URLs and set their headers here.
    config: { operation: name },
    handler: async (request, reply) => {
      refuseTokenInUrl(request.url);
      const authenticated = authenticate(
        deps.db,
        deps.authCache,
        request.headers.authorization,
        callerAddress(request),
        deps.clock.now(),
      );
      const { principal, scopes } =
        authenticated instanceof Promise ? await authenticated : authenticated;
      const sent = request.isMultipart() ? await readMultipart(request) : bodyOf(request);
      const { accountId, query: search, body: fields } = takeAccountId(request.url, sent);
      const ownAccount = ownAccountRule !== null && principal.accountId !== null;
      const resolved = resolveAccount(deps, principal, name, accountId, global && !ownAccount);
      const account = resolved instanceof Promise ? await resolved : resolved;
      assertAllowed(principal, scopes, ownAccount ? ownAccountRule : rule, policy.scope);
      // Spec §4: only the listed query parameters exist; a write has none, so any is refused (400).
      const query = parseQuery(search);
      const { body, ignored } = parseBody(fields);
      // Named on an error answer too (headers set here survive the error handler).
      if (ignored.length > 0) reply.header(IGNORED_FIELDS_HEADER, ignoredFieldsHeader(ignored));
      const parts = {
        deps,
        principal,
        account,
        params: paramsOf<K>(request),
        query: hasQuery ? query : undefined,
        body: hasBody ? body : undefined,
        ignored,
        request,
        now: deps.clock.now(),
      };
      const payer = payerOf(deps, account);
      const run = await runCharged<HandlerResult<K> | JsonText>(
        deps,
        payer,
        policy,
        isWrite,
        (meter) => work({ ...parts, meter } as RouteParts<K>, handler),
      );
      const result = hideFields(run.result);
      if (deps.validateResponses) assertWithinContract(name, result);
      reply.headers(API_HEADERS);
      if (extensions) setRateHeaders(reply, run.charge, payer.allowance);
      if (ignored.length > 0) reply.header(IGNORED_FIELDS_HEADER, ignoredFieldsHeader(ignored));
      return sendAnswer(reply, policy.envelope, result);
    },
  });
}
