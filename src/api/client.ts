import type * as z from 'zod/mini';
import { CLIENT_OPERATIONS, EXTENSION_OPERATIONS } from './client-operations.ts';
import { ACCOUNT_ID_PARAM, API_PREFIX } from './constants.ts';
import { ApiContractError, ApiError, RateLimitedError, rateLimitResetAt } from './errors.ts';
import { encodeForm } from './form-encoding.ts';
import type { OPERATIONS, OperationCall, OperationName } from './operations.ts';
import { ErrorBody, type Id } from './primitives.ts';
import type { ContactQuery } from './schemas/contact.ts';
import type { AccountQuery } from './schemas/account.ts';
import type { HeldAction, HeldQuery } from './schemas/held.ts';
import type { MessageQuery } from './schemas/message.ts';

/** The extensions' tables loaded so far, by group. */
const loadedTables = new Map<string, Partial<Record<OperationName, OperationCall>>>();

/**
 * An extension's entry, its table loaded on the first call (test-support/browser-tables.ts). Once
 * loaded it is found without waiting: a request sent as the page closes (fetch `keepalive`) must
 * leave before the page's last task ends.
 */
function extensionOperation(name: OperationName): OperationCall | Promise<OperationCall> {
  const group = name.slice(0, name.indexOf('.'));
  const found = (table: Partial<Record<OperationName, OperationCall>> | undefined) => {
    const operation = table?.[name];
    if (!operation) throw new Error(`no operation ${name}`);
    return operation;
  };
  const loaded = loadedTables.get(group);
  if (loaded) return found(loaded);
  const load = EXTENSION_OPERATIONS[group];
  if (!load) return found(undefined);
  return load().then(({ OPERATIONS }) => {
    loadedTables.set(group, OPERATIONS);
    return found(OPERATIONS);
  });
}

/**
 * Spec §5.1 rule 4: a key as Basic username (empty password), or a Bearer key or access token.
 * `none`: no Authorization header, for a same-origin gateway that adds the session's own (src/gateway).
 */
export type Auth =
  { kind: 'bearer'; token: string } | { kind: 'basic'; key: string } | { kind: 'none' };

export interface ApiClientOptions {
  /** Origin (and optional path) the API lives under; '' means the page's own origin. */
  baseUrl: string;
  /** A function is asked before every request, so a refreshed access token is picked up. */
  auth: Auth | (() => Auth | Promise<Auth>);
  /** Spec §4.8: the account a global key works on; sent as `account_id` on every request. */
  accountId?: Id | null;
  fetch?: typeof fetch;
}

type Ops = typeof OPERATIONS;
type Input<S> = S extends z.ZodMiniType ? z.input<S> : never;
type Output<K extends OperationName> = z.output<Ops[K]['response']>;

export interface CallOptions<K extends OperationName> {
  params?: Record<string, Id>;
  query?: Ops[K] extends { query: z.ZodMiniType } ? Input<Ops[K]['query']> : never;
  body?: Ops[K] extends { body: z.ZodMiniType } ? Input<Ops[K]['body']> : never;
  signal?: AbortSignal;
}

/**
 * The typed client of API v2: builds every path with its trailing slash, authenticates, adds
 * `account_id`, form-encodes bodies (spec §1), parses every answer with its schema, and turns error
 * answers into `ApiError` (or `RateLimitedError` for 429).
 *
 * @example
 * const api = createApiClient({ baseUrl: '', auth: { kind: 'bearer', token } });
 * const page = await api.contacts.list({ search: 'smith', limit: 25 });
 */
export function createApiClient(options: ApiClientOptions) {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);

  async function call<K extends OperationName>(
    name: K,
    call: CallOptions<K> = {},
  ): Promise<Output<K>> {
    const pending = CLIENT_OPERATIONS[name] ?? extensionOperation(name);
    const operation = pending instanceof Promise ? await pending : pending;
    const url = buildUrl(
      options.baseUrl,
      operation.path,
      call.params ?? {},
      call.query,
      options.accountId,
    );
    const auth = typeof options.auth === 'function' ? await options.auth() : options.auth;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (auth.kind !== 'none') headers.authorization = authorizationHeader(auth);
    let body: URLSearchParams | undefined;
    if (call.body !== undefined) {
      body = encodeForm(call.body as Record<string, unknown>);
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const { response, payload } = await fetchAnswer(
      doFetch,
      url,
      { method: operation.method, headers, body, signal: call.signal },
      name,
    );
    const candidate = operation.collection ? pickCollection(payload) : pickSingle(payload);
    const parsed = operation.response.safeParse(candidate);
    if (!parsed.success) {
      // The field's path says what is wrong where zod's words are not loaded (english-messages.ts).
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
      throw new ApiContractError(
        response.status,
        `The server's answer to ${operation.method} ${operation.path} does not match API v2${where}: ${issue?.message ?? 'invalid'}`,
      );
    }
    return parsed.data as Output<K>;
  }

  const id = (value: Id) => ({ id: value });
  const name = (value: string) => ({ name: value });
  type Body<K extends OperationName> = CallOptions<K>['body'];

  return {
    call,
    contacts: {
      list: (query: z.input<typeof ContactQuery> = {}) => call('contacts.list', { query }),
      get: (contactId: Id) => call('contacts.get', { params: id(contactId) }),
      create: (body: Body<'contacts.create'>) => call('contacts.create', { body }),
      update: (contactId: Id, body: Body<'contacts.update'>) =>
        call('contacts.update', { params: id(contactId), body }),
      delete: (contactId: Id) => call('contacts.delete', { params: id(contactId) }),
    },
    emails: {
      /** By service id, or by the address itself (URL-encoded in the path, spec §4.2). */
      get: (idOrAddress: Id) => call('emails.get', { params: id(idOrAddress) }),
      create: (body: Body<'emails.create'>) => call('emails.create', { body }),
      update: (emailId: Id, body: Body<'emails.update'>) =>
        call('emails.update', { params: id(emailId), body }),
      delete: (emailId: Id) => call('emails.delete', { params: id(emailId) }),
    },
    membership: {
      get: (membershipId: Id) => call('membership.get', { params: id(membershipId) }),
      create: (body: Body<'membership.create'>) => call('membership.create', { body }),
      update: (membershipId: Id, body: Body<'membership.update'>) =>
        call('membership.update', { params: id(membershipId), body }),
      delete: (membershipId: Id) => call('membership.delete', { params: id(membershipId) }),
    },
    lists: {
      list: () => call('lists.list'),
      get: (listName: string) => call('lists.get', { params: name(listName) }),
      create: (body: Body<'lists.create'>) => call('lists.create', { body }),
      update: (listName: string, body: Body<'lists.update'>) =>
        call('lists.update', { params: name(listName), body }),
      delete: (listName: string) => call('lists.delete', { params: name(listName) }),
    },
    messages: {
      list: (query: z.input<typeof MessageQuery> = {}) => call('messages.list', { query }),
      get: (messageId: Id) => call('messages.get', { params: id(messageId) }),
      send: (body: Body<'messages.send'>) => call('messages.send', { body }),
      delete: (messageId: Id) => call('messages.delete', { params: id(messageId) }),
      /** Reference-server extension: a remote image of the message as a `data:` URL. */
      image: (messageId: Id, url: string) =>
        call('messages.image', { params: id(messageId), query: { url } }),
    },
    users: {
      list: () => call('users.list'),
      /** By id, or by username (URL-encoded in the path, spec §4.6). */
      get: (idOrUsername: Id) => call('users.get', { params: id(idOrUsername) }),
      create: (body: Body<'users.create'>) => call('users.create', { body }),
      update: (userId: Id, body: Body<'users.update'>) =>
        call('users.update', { params: id(userId), body }),
      /** Spec §4.6: PUT with `get_key`; answers the new key and its expiry. */
      retrieveKey: (userId: Id, expiryMonths?: 1 | 3 | 6 | 12) =>
        call('users.retrieveKey', {
          params: id(userId),
          body: { get_key: true, expiry_months: expiryMonths },
        }),
      delete: (userId: Id) => call('users.delete', { params: id(userId) }),
    },
    accounts: {
      list: (query: z.input<typeof AccountQuery> = {}) => call('accounts.list', { query }),
      get: (accountId: Id) => call('accounts.get', { params: id(accountId) }),
      create: (body: Body<'accounts.create'>) => call('accounts.create', { body }),
      update: (accountId: Id, body: Body<'accounts.update'>) =>
        call('accounts.update', { params: id(accountId), body }),
      delete: (accountId: Id) => call('accounts.delete', { params: id(accountId) }),
    },
    /**
     * Reference-server extension (operations.ts `held.*`): the held queue, permission `approval`.
     * Other API v2 servers answer 404 (`ApiError` status 404): the feature is not offered.
     */
    held: {
      list: (query: z.input<typeof HeldQuery> = {}) => call('held.list', { query }),
      get: (heldId: Id) => call('held.get', { params: id(heldId) }),
      approve: (heldId: Id) => call('held.approve', { params: id(heldId) }),
      /** The sender gets the list's reject message, with `reason` when given. */
      reject: (heldId: Id, reason?: string) =>
        call('held.reject', { params: id(heldId), body: reason === undefined ? {} : { reason } }),
      discard: (heldId: Id) => call('held.discard', { params: id(heldId) }),
      /** One action on several held messages, all or none. */
      bulk: (action: HeldAction, ids: Id[], reason?: string) =>
        call('held.bulk', {
          body: reason === undefined ? { action, ids } : { action, ids, reason },
        }),
    },
    /** Reference-server extension (operations.ts): other API v2 servers answer 404. */
    caller: {
      get: () => call('caller.get'),
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** `/contacts/:id/` with `{id: 7}` → `{base}/api/2/contacts/7/?…`; segments are URL-encoded. */
export function buildUrl(
  baseUrl: string,
  path: string,
  params: Record<string, Id>,
  query: unknown,
  accountId: Id | null | undefined,
): string {
  const filled = path.replace(/:([a-z_]+)/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined || value === '')
      throw new TypeError(`Missing path parameter ${key} for ${path}`);
    return encodeURIComponent(String(value));
  });
  const search = encodeForm((query ?? {}) as Record<string, unknown>);
  if (accountId !== undefined && accountId !== null)
    search.set(ACCOUNT_ID_PARAM, String(accountId));
  const queryString = search.toString();
  return `${baseUrl.replace(/\/+$/, '')}${API_PREFIX}${filled}${queryString ? `?${queryString}` : ''}`;
}

export function authorizationHeader(auth: Exclude<Auth, { kind: 'none' }>): string {
  if (auth.kind === 'bearer') return `Bearer ${auth.token}`;
  // Spec §5.1: the key is the Basic username and the password is empty. Keys are ASCII.
  return `Basic ${btoa(`${auth.key}:`)}`;
}

/**
 * One request and its JSON answer; an error answer thrown as ApiError (RateLimitedError for 429),
 * no answer at all as ApiError status 0. Also for the dashboard's calls to its gateway.
 */
export async function fetchAnswer(
  doFetch: typeof fetch,
  url: string,
  init: RequestInit,
  /** The operation asked, so that a 403 can name the permission it needs. */
  operation?: OperationName,
): Promise<{ response: Response; payload: unknown }> {
  let response: Response;
  try {
    response = await doFetch(url, init);
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, 'The server cannot be reached. Check the connection and try again.', {
      cause,
    });
  }
  const payload = await readJson(response);
  if (!response.ok) throw errorFor(response, payload, operation);
  return { response, payload };
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function errorFor(response: Response, payload: unknown, operation?: OperationName): ApiError {
  const body = ErrorBody.safeParse(payload);
  const message = body.success
    ? body.data.message
    : `${response.status} ${response.statusText}`.trim();
  if (response.status === 429) {
    const limit = Number(response.headers.get('x-ratelimit-limit'));
    return new RateLimitedError(
      message,
      rateLimitResetAt(response.headers),
      Number.isFinite(limit) && limit > 0 ? limit : null,
    );
  }
  return new ApiError(response.status, message, operation ? { operation } : {});
}

/**
 * Spec §4.4 and §4.6 say "a JSON object containing an array of … objects" without naming its key,
 * and §4.7 says "a JSON list": accept a bare array, `data`, or the object's one array-valued property.
 */
export function pickCollection(payload: unknown): unknown {
  if (Array.isArray(payload) || payload === null || typeof payload !== 'object') return payload;
  const record = payload as Record<string, unknown>;
  if (Array.isArray(record.data)) return record.data;
  const arrays = Object.values(record).filter(Array.isArray);
  return arrays.length === 1 ? arrays[0] : payload;
}

/**
 * Spec §4.7 get one says "a JSON object containing a single account object": accept the object
 * itself, or an envelope whose one property is that object.
 */
export function pickSingle(payload: unknown): unknown {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return payload;
  const record = payload as Record<string, unknown>;
  if ('id' in record || 'success' in record || 'key' in record || 'count' in record) return record;
  const values = Object.values(record);
  const only = values[0];
  return values.length === 1 && only !== null && typeof only === 'object' && !Array.isArray(only)
    ? only
    : payload;
}
