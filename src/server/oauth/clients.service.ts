import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { generateKey, hashKey } from '../auth/keys.ts';
import type { Database } from '../db/schema.ts';
import { badRequest } from '../http/http-error.ts';
import { findClient, insertClient, listRedirectUris, upsertClient, type OAuthClientRow } from './clients.repository.ts';
import { invalidClient, invalidRequest } from './oauth-error.ts';
import { originOf, redirectUriProblem } from './redirect-uri.ts';

/** The dashboard's own client (decided in issue #4): public, PKCE, served from PUBLIC_URL. */
export const DASHBOARD_CLIENT_ID = 'listkeeper-dashboard';
export const DASHBOARD_CALLBACK_PATH = '/auth/callback';

export interface CreatedClient {
  client_id: string;
  /** Shown once; only its hash is kept. Absent for public clients. */
  client_secret?: string;
  name: string;
  redirect_uris: string[];
  public: boolean;
}

/** `listkeeper oauth-client create` (spec §5.2 rule 4: the operator issues client ids and secrets). */
export async function createClient(
  db: Kysely<Database>,
  input: { name: string; redirectUris: readonly string[]; isPublic: boolean },
  /** Runs in the client's transaction once it is written (the CLI records it in the audit log). */
  within: (trx: Kysely<Database>, client: CreatedClient) => Promise<void> = async () => {},
): Promise<CreatedClient> {
  const name = input.name.trim();
  if (!name) throw badRequest('--name is required');
  if (input.redirectUris.length === 0) throw badRequest('At least one --redirect-uri is required');
  for (const uri of input.redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw badRequest(`--redirect-uri ${uri} ${problem}`);
  }
  const redirectUris = [...new Set(input.redirectUris)];
  const clientId = `lkc_${randomBytes(16).toString('base64url')}`;
  const secret = input.isPublic ? undefined : generateKey();
  const created: CreatedClient = {
    client_id: clientId,
    ...(secret === undefined ? {} : { client_secret: secret }),
    name,
    redirect_uris: redirectUris,
    public: input.isPublic,
  };
  await db.transaction().execute(async (trx) => {
    await insertClient(
      trx,
      {
        client_id: clientId,
        name,
        secret_hash: secret === undefined ? null : hashKey(secret),
        first_party: 0,
        created: new Date().toISOString(),
      },
      redirectUris.map((uri) => ({ redirect_uri: uri, origin: originOf(uri) })),
    );
    await within(trx, created);
  });
  return created;
}

/**
 * `serve` registers the dashboard as a public client whose one redirect URI is on the server's own
 * public origin; a restart with another PUBLIC_URL moves it.
 */
export async function registerDashboardClient(db: Kysely<Database>, origin: string): Promise<string> {
  const redirectUri = `${origin}${DASHBOARD_CALLBACK_PATH}`;
  const problem = redirectUriProblem(redirectUri);
  if (problem) throw new Error(`The dashboard's redirect URI ${redirectUri} ${problem}: set PUBLIC_URL`);
  await db.transaction().execute((trx) =>
    upsertClient(
      trx,
      { client_id: DASHBOARD_CLIENT_ID, name: 'Listkeeper dashboard', secret_hash: null, first_party: 1, created: new Date().toISOString() },
      [{ redirect_uri: redirectUri, origin: originOf(redirectUri) }],
    ),
  );
  return redirectUri;
}

/** The client `npm start`'s in-process gateway signs in with (`oauth-client gateway`). */
export const GATEWAY_CLIENT_ID = 'listkeeper-gateway';

/**
 * `oauth-client gateway`: the dashboard gateway run beside this server (`npm start`) as a
 * first-party confidential client: it skips the consent page, as the server's own dashboard does,
 * and gets a new secret at every call, which ends the previous one. Its one redirect URI moves too.
 */
export async function registerGatewayClient(
  db: Kysely<Database>,
  redirectUri: string,
  /** Runs in the client's transaction once it is written (the CLI records it in the audit log). */
  within: (trx: Kysely<Database>, client: CreatedClient) => Promise<void> = async () => {},
): Promise<CreatedClient> {
  const problem = redirectUriProblem(redirectUri);
  if (problem) throw badRequest(`--redirect-uri ${redirectUri} ${problem}`);
  const secret = generateKey();
  const name = 'Listkeeper dashboard (gateway)';
  const created: CreatedClient = { client_id: GATEWAY_CLIENT_ID, client_secret: secret, name, redirect_uris: [redirectUri], public: false };
  await db.transaction().execute(async (trx) => {
    await upsertClient(
      trx,
      { client_id: GATEWAY_CLIENT_ID, name, secret_hash: hashKey(secret), first_party: 1, created: new Date().toISOString() },
      [{ redirect_uri: redirectUri, origin: originOf(redirectUri) }],
    );
    await within(trx, created);
  });
  return created;
}

export async function redirectUrisOf(db: Kysely<Database>, client: OAuthClientRow): Promise<string[]> {
  return listRedirectUris(db, client.id);
}

export interface ClientCredentials {
  clientId: string;
  secret: string | null;
}

/**
 * RFC 6749 §2.3.1: a confidential client authenticates with HTTP Basic (form-encoded id and secret)
 * or with `client_id` and `client_secret` fields, never both; a public client sends `client_id` only.
 */
export function clientCredentials(form: URLSearchParams, authorization: string | undefined): ClientCredentials {
  const formId = form.get('client_id');
  const formSecret = form.get('client_secret');
  if (authorization) {
    const basic = /^Basic +([A-Za-z0-9+/=]+)$/i.exec(authorization);
    if (!basic?.[1]) throw invalidClient('Client authentication uses HTTP Basic or form fields');
    if (formSecret !== null) throw invalidRequest('Use one client authentication method, not both Basic and client_secret');
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon === -1) throw invalidClient();
    let clientId: string;
    let secret: string;
    try {
      clientId = decodeFormComponent(decoded.slice(0, colon));
      secret = decodeFormComponent(decoded.slice(colon + 1));
    } catch {
      throw invalidClient();
    }
    if (formId !== null && formId !== clientId) throw invalidRequest('client_id differs from the authenticated client');
    return { clientId, secret: secret === '' ? null : secret };
  }
  if (!formId) throw invalidClient('client_id is required');
  return { clientId: formId, secret: formSecret === null || formSecret === '' ? null : formSecret };
}

/** Any failure is the same invalid_client (401), whatever was wrong. */
export async function authenticateClient(db: Kysely<Database>, credentials: ClientCredentials): Promise<OAuthClientRow> {
  const client = await findClient(db, credentials.clientId);
  if (!client) throw invalidClient();
  if (client.secret_hash === null) {
    // A public client has no secret to send (it proves itself with PKCE instead, SECURITY.md 3).
    if (credentials.secret !== null) throw invalidClient();
    return client;
  }
  if (credentials.secret === null) throw invalidClient();
  const expected = Buffer.from(client.secret_hash, 'hex');
  const given = Buffer.from(hashKey(credentials.secret), 'hex');
  if (!timingSafeEqual(expected, given)) throw invalidClient();
  return client;
}

function decodeFormComponent(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, ' '));
}
