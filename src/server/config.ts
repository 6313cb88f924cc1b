import path from 'node:path';
import * as z from 'zod';

/** Server settings, all from the environment (README "Configuration"). */
const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  PUBLIC_URL: z.url().optional(),
  /** Spec §8 says per clock hour; tests shorten the window. */
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(3600),
  /**
   * Objects per window for group-wide calls (accounts, global users), which no account pays for
   * (rate-limit/charge.ts); the default is an account of the default plan's: 3 × 10,000.
   */
  GROUP_RATE_LIMIT: z.coerce.number().int().positive().default(30_000),
  /** The proxy address(es) whose X-Forwarded-For is believed (SECURITY.md 18); empty: none. */
  TRUST_PROXY: z.string().default(''),
  /** Folder of the built dashboard served at `/`. */
  STATIC_DIR: z.string().default('dist'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
  /**
   * `1`: the image proxy (extension `messages.image`) may also fetch from private and loopback
   * addresses. For tests and trusted intranets only: it opens the proxy to the server's own network.
   */
  IMAGE_PROXY_ALLOW_PRIVATE: z.enum(['0', '1']).default('0'),
  /**
   * `off`: exactly spec v2 (issue 15), for testing clients and the gateway against what any API v2
   * server offers: no extension operation, field or header, no CORS, no `/config.json`, OAuth
   * clients confidential only (src/server/http/spec-only.ts lists them).
   */
  EXTENSIONS: z.enum(['on', 'off']).default('on'),
});

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string | undefined;
  rateLimitWindowSeconds: number;
  groupRateLimit: number;
  trustProxy: string[];
  staticDir: string;
  logLevel: string;
  imageProxyAllowPrivate: boolean;
  /** EXTENSIONS: false offers exactly spec v2. */
  extensions: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    publicUrl: e.PUBLIC_URL,
    rateLimitWindowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
    groupRateLimit: e.GROUP_RATE_LIMIT,
    trustProxy: e.TRUST_PROXY.split(',').map((s) => s.trim()).filter(Boolean),
    staticDir: path.resolve(e.STATIC_DIR),
    logLevel: e.LOG_LEVEL,
    imageProxyAllowPrivate: e.IMAGE_PROXY_ALLOW_PRIVATE === '1',
    extensions: e.EXTENSIONS === 'on',
  };
}
