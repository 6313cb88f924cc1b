import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildGateway, type Gateway } from '../../gateway/app.ts';
import { loadGatewayConfig } from '../../gateway/config.ts';
import { openSessionStore } from '../../gateway/open-session-store.ts';
import type { SessionStore } from '../../gateway/session-store.ts';
import type { CreatedClient } from '../oauth/clients.service.ts';
import type { TestServer } from './harness.ts';

/**
 * `listkeeper dashboard` (src/gateway) in front of a test server listening on a loopback port, as
 * its confidential OAuth client, with the network between them observed. Here, not in
 * src/gateway: the gateway may not import the server, the server's tests may import the gateway.
 */
export const PUBLIC_URL = 'https://dash.example';
export const SESSION_COOKIE = '__Host-listkeeper-session';
export const LOGIN_COOKIE = '__Host-listkeeper-login';
/** What the dashboard's own requests carry (SECURITY.md 27). */
export const fromDashboard = { origin: PUBLIC_URL, 'x-listkeeper-request': '1' };

/** One request the gateway made to the upstream, and the upstream's answer. */
export interface UpstreamCall {
  method: string;
  path: string;
  authorization: string | null;
  response: Response;
}

export interface GatewayInFront {
  gateway: Gateway;
  store: SessionStore;
  upstreamUrl: string;
  close(): Promise<void>;
}

/** The upstream URL of a server, listening on a loopback port from now on. */
export async function listening(server: TestServer): Promise<string> {
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
}

export async function startGatewayInFront(
  upstreamUrl: string,
  client: CreatedClient,
  options: { now: () => number; observe: (call: UpstreamCall) => void | Promise<void> },
): Promise<GatewayInFront> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gateway-in-front-'));
  const config = loadGatewayConfig({
    UPSTREAM_URL: upstreamUrl,
    UPSTREAM_CLIENT_ID: client.client_id,
    UPSTREAM_CLIENT_SECRET: client.client_secret ?? '',
    PUBLIC_URL,
    DATA_DIR: dir,
    STATIC_DIR: path.join(dir, 'no-dist'),
    LOG_LEVEL: 'silent',
  });
  const store = await openSessionStore(config);
  // The network itself, observed: what the upstream was asked, and what it answered.
  const observed: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    await options.observe({
      method: init?.method ?? 'GET',
      path: new URL(input instanceof Request ? input.url : String(input)).pathname,
      authorization: new Headers(init?.headers).get('authorization'),
      response,
    });
    return response;
  };
  const gateway = await buildGateway({ config, store, fetch: observed, now: options.now });
  return {
    gateway,
    store,
    upstreamUrl,
    async close() {
      await gateway.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `name=value` of the cookie a Set-Cookie header sets. */
export function cookieOf(header: string | string[] | undefined, name: string): string {
  const line = [header ?? []].flat().find((value) => value.startsWith(`${name}=`));
  if (!line) throw new Error(`no ${name} cookie set`);
  return line.split(';')[0] ?? '';
}
