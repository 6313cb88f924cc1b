import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { isAddressRange } from './remote-image.ts';

/** `listkeeper dashboard` settings, all from the environment (README "Dashboard in front of any API v2 server"). */
export interface GatewayConfig {
  /** The spec's {base_url}, without a trailing slash: the API is `${upstreamUrl}/api/2/…`. */
  upstreamUrl: string;
  /** Shown on the sign-in page and in the header: UPSTREAM_NAME, else the upstream's host. */
  upstreamName: string;
  /** Both set, or OAuth sign-in is not offered (API-key sign-in always is). */
  oauthClient: { clientId: string; clientSecret: string } | null;
  port: number;
  host: string;
  /** The origin the browser uses; the OAuth redirect URI is `${publicUrl}/auth/callback`. */
  publicUrl: string;
  /** Key material for the sessions (SECURITY.md 28: never sent, never logged). */
  sessionSecret: string;
  dataDir: string;
  /** GATEWAY_DATABASE_URL, else DATABASE_URL: sessions in PostgreSQL, shared across machines; null: SQLite in DATA_DIR. */
  databaseUrl: string | null;
  staticDir: string;
  logLevel: string;
  /** How long the upstream may take to answer before the dashboard gets a 504. */
  upstreamTimeoutMs: number;
  /** A session unused this long ends (SECURITY.md 25). */
  sessionIdleMs: number;
  /** A session ends this long after sign-in, used or not. */
  sessionMaxMs: number;
  /** Which non-public addresses the image proxy may fetch from (IMAGE_PROXY_ALLOW_PRIVATE). */
  imageProxy: { allowPrivate: boolean; allowRanges: string[] };
}

/** The file in DATA_DIR that keeps a generated SESSION_SECRET across restarts and processes. */
export const SECRET_FILE = 'gateway-session-secret';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** https, or http to a loopback address only: the client secret and tokens cross this link. */
function isSafeUpstream(value: string): boolean {
  // zod runs this check after a failed `z.url()` too: no URL, no second message.
  if (!URL.canParse(value)) return true;
  const url = new URL(value);
  if (url.username || url.password || url.search || url.hash) return false;
  return (
    url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))
  );
}

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const postgresUrl = z
  .string()
  .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
  .optional();

const Env = z
  .object({
    UPSTREAM_URL: z
      .url({
        protocol: /^https?$/,
        error: 'UPSTREAM_URL must be the http(s) URL of an API v2 server',
      })
      .refine(isSafeUpstream, {
        message:
          'UPSTREAM_URL must be https (http only to a loopback address), without credentials, query or fragment',
      }),
    UPSTREAM_NAME: optionalText,
    UPSTREAM_CLIENT_ID: optionalText,
    UPSTREAM_CLIENT_SECRET: optionalText,
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().min(1).default('127.0.0.1'),
    PUBLIC_URL: z
      .url({ protocol: /^https?$/ })
      .refine((value) => ['', '/'].includes(new URL(value).pathname), {
        message: 'PUBLIC_URL is an origin (https://dashboard.example), without a path',
      })
      .optional()
      .or(z.literal('').transform(() => undefined)),
    SESSION_SECRET: z
      .string()
      .min(32, 'SESSION_SECRET needs at least 32 characters (e.g. `openssl rand -base64 32`)')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    DATA_DIR: z.string().min(1).default('./data'),
    GATEWAY_DATABASE_URL: optionalText.pipe(postgresUrl),
    DATABASE_URL: optionalText.pipe(postgresUrl),
    STATIC_DIR: z.string().min(1).default('dist'),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('warn'),
    UPSTREAM_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(20),
    SESSION_IDLE_SECONDS: z.coerce
      .number()
      .int()
      .positive()
      .default(8 * 3600),
    SESSION_MAX_SECONDS: z.coerce
      .number()
      .int()
      .positive()
      .default(7 * 24 * 3600),
    // `0`, `1` (every address), or CIDR ranges separated by commas (`10.1.2.0/24,127.0.0.1/32`).
    IMAGE_PROXY_ALLOW_PRIVATE: z
      .string()
      .default('0')
      .transform((value) =>
        value
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part !== ''),
      )
      .refine(
        (parts) => parts.every((part) => part === '0' || part === '1' || isAddressRange(part)),
        {
          message:
            'IMAGE_PROXY_ALLOW_PRIVATE is 0, 1, or CIDR ranges separated by commas (10.1.2.0/24)',
        },
      ),
  })
  .refine(
    (env) => (env.UPSTREAM_CLIENT_ID === undefined) === (env.UPSTREAM_CLIENT_SECRET === undefined),
    {
      message:
        'set both UPSTREAM_CLIENT_ID and UPSTREAM_CLIENT_SECRET (OAuth sign-in), or neither (API keys only)',
    },
  );

/**
 * Reads and checks the environment. `port` overrides PORT once the process listens (PORT=0), so
 * the default PUBLIC_URL names the port really in use.
 */
export function loadGatewayConfig(
  env: NodeJS.ProcessEnv = process.env,
  port?: number,
): GatewayConfig {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) =>
        issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
      )
      .join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const upstreamUrl = e.UPSTREAM_URL.replace(/\/+$/, '');
  const dataDir = path.resolve(e.DATA_DIR);
  const listenPort = port ?? e.PORT;
  return {
    upstreamUrl,
    upstreamName: e.UPSTREAM_NAME ?? new URL(upstreamUrl).host,
    oauthClient:
      e.UPSTREAM_CLIENT_ID !== undefined && e.UPSTREAM_CLIENT_SECRET !== undefined
        ? { clientId: e.UPSTREAM_CLIENT_ID, clientSecret: e.UPSTREAM_CLIENT_SECRET }
        : null,
    port: listenPort,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL
      ? new URL(e.PUBLIC_URL).origin
      : `http://${urlHost(e.HOST)}:${listenPort}`,
    sessionSecret: e.SESSION_SECRET ?? keptSessionSecret(dataDir),
    dataDir,
    databaseUrl: e.GATEWAY_DATABASE_URL ?? e.DATABASE_URL ?? null,
    staticDir: path.resolve(e.STATIC_DIR),
    logLevel: e.LOG_LEVEL,
    upstreamTimeoutMs: Math.round(e.UPSTREAM_TIMEOUT_SECONDS * 1000),
    sessionIdleMs: e.SESSION_IDLE_SECONDS * 1000,
    sessionMaxMs: e.SESSION_MAX_SECONDS * 1000,
    imageProxy: {
      allowPrivate: e.IMAGE_PROXY_ALLOW_PRIVATE.includes('1'),
      allowRanges: e.IMAGE_PROXY_ALLOW_PRIVATE.filter((part) => part !== '0' && part !== '1'),
    },
  };
}

/** The host part of the default PUBLIC_URL: a wildcard bind is reached through loopback. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * The SESSION_SECRET kept in DATA_DIR: read it, or create it. `wx` makes the first of several
 * processes starting at once the one that writes it; the others read what it wrote.
 */
export function keptSessionSecret(dataDir: string): string {
  const file = path.join(dataDir, SECRET_FILE);
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  for (let attempt = 0; ; attempt += 1) {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length >= 32) return secret;
    // Another process created the file a moment ago and is still writing it.
    if (attempt >= 50)
      throw new Error(`${file} holds no usable session secret: delete it to make a new one`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
}
