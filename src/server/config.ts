import crypto from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import fs from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { CONNECTION_DEFAULTS, type ConnectionLimits } from './mail/connection-guard.ts';
import { DNS_DEFAULTS, type DnsOptions } from './mail/dns-resolver.ts';
import { HELD_DEFAULTS, type HeldBounds } from './mail/held-bounds.ts';
import { BOUNCE_DEFAULTS, type BounceSettings } from './bounces/settings.ts';

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
  /**
   * How long an OAuth access token lives (issue 28 item 2); refresh tokens renew it. Short, so a
   * token that leaks or outlives its sign-out ends soon; at most a day.
   */
  OAUTH_ACCESS_TOKEN_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
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
  /**
   * Days an audit entry is kept (issue 26 item 4; Sympa keeps its logs a set time too): older ones
   * are purged on a timer the app owns (audit/retention.ts).
   */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(400),
  /** Mail in (README "Mail"): the SMTP listener's port; unset: no listener. 0: any free port. */
  SMTP_IN_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  SMTP_IN_HOST: z.string().min(1).optional(),
  /** STARTTLS on the listener: its private key and certificate chain (PEM text or paths), both or neither. */
  SMTP_IN_TLS_KEY: z.string().optional(),
  SMTP_IN_TLS_CERT: z.string().optional(),
  /** The largest message the listener takes, in bytes. */
  SMTP_IN_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024),
  /** Silence after which the listener closes a connection (RFC 5321 §4.5.3.2: 5 minutes). */
  SMTP_IN_SOCKET_TIMEOUT_SECONDS: z.coerce
    .number()
    .min(0.05)
    .max(3600)
    .default(CONNECTION_DEFAULTS.socketTimeoutMs / 1000),
  /** From connecting (or the previous message) to the end of a message's DATA: cuts tricklers. */
  SMTP_IN_DATA_TIMEOUT_SECONDS: z.coerce
    .number()
    .min(0.05)
    .max(86_400)
    .default(CONNECTION_DEFAULTS.dataTimeoutMs / 1000),
  /** Connections one client address may hold at once. */
  SMTP_IN_MAX_CONNECTIONS_PER_CLIENT: z.coerce
    .number()
    .int()
    .positive()
    .default(CONNECTION_DEFAULTS.maxPerClient),
  /** Mail out: the relay, smtp:// or smtps:// with credentials; unset: DATA_DIR/outbox-sink/. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL must be an smtp:// or smtps:// URL')
    // Checked here, before anything starts: nodemailer's own refusal repeats the URL, password
    // included (SECURITY.md 39). The message never quotes the value.
    .refine(
      isRelayUrl,
      'SMTP_URL must be a URL with a host name (percent-encode reserved characters in the user name and password)',
    )
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Optional DKIM signing of what goes out: all three, or none. */
  DKIM_DOMAIN: z.string().optional(),
  DKIM_SELECTOR: z.string().optional(),
  /** The PEM key itself, or a path to it. */
  DKIM_PRIVATE_KEY: z.string().optional(),
  /** Recipients per SMTP transaction. */
  MAIL_BATCH_SIZE: z.coerce.number().int().min(1).max(1000).default(100),
  /**
   * How long an outbox worker's claim lasts unless renewed: after a crash, the dead worker's
   * deliveries wait this long before another `serve` (or the restarted one) sends them.
   */
  MAIL_LEASE_SECONDS: z.coerce.number().min(0.3).max(3600).default(60),
  /** How often digests go out; a day by default (spec §2.3 "daily digest"). */
  DIGEST_INTERVAL_SECONDS: z.coerce.number().int().positive().default(86_400),
  /**
   * The name servers sender verification asks (SPF, DKIM, DMARC), comma-separated `host` or
   * `host:port` (IPv6 in brackets); empty: the system's resolver (/etc/resolv.conf).
   */
  DNS_SERVERS: z
    .string()
    .default('')
    .refine(
      areNameServers,
      'DNS_SERVERS must be IP addresses, `address` or `address:port`, comma-separated (IPv6 in brackets)',
    ),
  /** The longest one DNS lookup may take (SECURITY.md 50). */
  DNS_TIMEOUT_SECONDS: z.coerce.number().min(0.05).max(60).default(5),
  /** How long a DNS answer is kept. */
  DNS_CACHE_SECONDS: z.coerce.number().min(0).max(86_400).default(300),
  /** The held queue's bounds (mail/held-bounds.ts): per list, per sender, in messages and bytes. */
  HELD_LIST_MAX_MESSAGES: z.coerce.number().int().positive().default(HELD_DEFAULTS.listMessages),
  HELD_LIST_MAX_BYTES: z.coerce.number().int().positive().default(HELD_DEFAULTS.listBytes),
  HELD_SENDER_MAX_MESSAGES: z.coerce
    .number()
    .int()
    .positive()
    .default(HELD_DEFAULTS.senderMessages),
  HELD_SENDER_MAX_BYTES: z.coerce.number().int().positive().default(HELD_DEFAULTS.senderBytes),
  /** Days a held message waits before it is dropped (Mailman's max_days_to_hold); 0: for ever. */
  HELD_MAX_DAYS: z.coerce.number().min(0).max(3650).default(HELD_DEFAULTS.maxDays),
  /** How often held messages past HELD_MAX_DAYS are dropped. */
  HELD_EXPIRY_SECONDS: z.coerce.number().min(0.05).max(86_400).default(HELD_DEFAULTS.expirySweepSeconds),
  /** Bounces (bounces/settings.ts, Mailman 3's bounce score): the score that pauses an address. */
  BOUNCE_SCORE_THRESHOLD: z.coerce.number().int().min(1).max(1000).default(BOUNCE_DEFAULTS.threshold),
  /** Days after which a score that has not counted starts again. */
  BOUNCE_STALE_DAYS: z.coerce.number().int().min(1).max(3650).default(BOUNCE_DEFAULTS.staleDays),
  /** Warnings mailed to a paused address before it leaves the lists that bounced; 0: none. */
  BOUNCE_WARNINGS: z.coerce.number().int().min(0).max(100).default(BOUNCE_DEFAULTS.warnings),
  /** Days between two warnings, and from the last one to the removal. */
  BOUNCE_WARNING_INTERVAL_DAYS: z.coerce
    .number()
    .min(0)
    .max(3650)
    .default(BOUNCE_DEFAULTS.warningIntervalDays),
  /** How often the warnings and removals due are sent. */
  BOUNCE_SWEEP_SECONDS: z.coerce.number().min(0.05).max(86_400).default(BOUNCE_DEFAULTS.sweepSeconds),
});

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string | undefined;
  rateLimitWindowSeconds: number;
  groupRateLimit: number;
  /** OAUTH_ACCESS_TOKEN_SECONDS. */
  oauthAccessTokenSeconds: number;
  trustProxy: string[];
  staticDir: string;
  logLevel: string;
  imageProxyAllowPrivate: boolean;
  /** EXTENSIONS: false offers exactly spec v2. */
  extensions: boolean;
  /** AUDIT_RETENTION_DAYS. */
  auditRetentionDays: number;
  mail: MailConfig;
}

/** Mail in and out (issue 18). Credentials in `smtpUrl` and the DKIM key never reach a log (SECURITY.md 39). */
export interface MailConfig {
  smtpInPort: number | null;
  smtpInHost: string;
  /** The listener's STARTTLS key and certificate (PEM); null: STARTTLS not offered. */
  smtpInTls: { key: string; cert: string } | null;
  smtpInMaxBytes: number;
  /** The listener's timeouts and per-client cap (mail/connection-guard.ts). */
  smtpInLimits: ConnectionLimits;
  smtpUrl: string | undefined;
  dkim: { domainName: string; keySelector: string; privateKey: string } | null;
  batchSize: number;
  leaseMs: number;
  digestIntervalSeconds: number;
  /** How the mail server asks DNS (mail/dns-resolver.ts). */
  dns: DnsOptions;
  /** How much the held queue takes, and for how long (mail/held-bounds.ts). */
  held: HeldBounds;
  /** The bounce score and its timer (bounces/settings.ts, issue 26). */
  bounces: BounceSettings;
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
    oauthAccessTokenSeconds: e.OAUTH_ACCESS_TOKEN_SECONDS,
    trustProxy: e.TRUST_PROXY.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    staticDir: path.resolve(e.STATIC_DIR),
    logLevel: e.LOG_LEVEL,
    imageProxyAllowPrivate: e.IMAGE_PROXY_ALLOW_PRIVATE === '1',
    extensions: e.EXTENSIONS === 'on',
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    mail: {
      smtpInPort: e.SMTP_IN_PORT ?? null,
      smtpInHost: e.SMTP_IN_HOST ?? e.HOST,
      smtpInTls: smtpInTlsOf(e),
      smtpInMaxBytes: e.SMTP_IN_MAX_BYTES,
      smtpInLimits: {
        socketTimeoutMs: Math.round(e.SMTP_IN_SOCKET_TIMEOUT_SECONDS * 1000),
        dataTimeoutMs: Math.round(e.SMTP_IN_DATA_TIMEOUT_SECONDS * 1000),
        maxPerClient: e.SMTP_IN_MAX_CONNECTIONS_PER_CLIENT,
      },
      smtpUrl: e.SMTP_URL,
      dkim: dkimOf(e),
      batchSize: e.MAIL_BATCH_SIZE,
      leaseMs: Math.round(e.MAIL_LEASE_SECONDS * 1000),
      digestIntervalSeconds: e.DIGEST_INTERVAL_SECONDS,
      dns: {
        ...DNS_DEFAULTS,
        servers: e.DNS_SERVERS.split(',')
          .map((server) => server.trim())
          .filter(Boolean),
        timeoutMs: Math.round(e.DNS_TIMEOUT_SECONDS * 1000),
        cacheSeconds: e.DNS_CACHE_SECONDS,
        negativeCacheSeconds: Math.min(e.DNS_CACHE_SECONDS, DNS_DEFAULTS.negativeCacheSeconds),
      },
      held: {
        listMessages: e.HELD_LIST_MAX_MESSAGES,
        listBytes: e.HELD_LIST_MAX_BYTES,
        senderMessages: e.HELD_SENDER_MAX_MESSAGES,
        senderBytes: e.HELD_SENDER_MAX_BYTES,
        maxDays: e.HELD_MAX_DAYS,
        expirySweepSeconds: e.HELD_EXPIRY_SECONDS,
      },
      bounces: {
        threshold: e.BOUNCE_SCORE_THRESHOLD,
        staleDays: e.BOUNCE_STALE_DAYS,
        warnings: e.BOUNCE_WARNINGS,
        warningIntervalDays: e.BOUNCE_WARNING_INTERVAL_DAYS,
        sweepSeconds: e.BOUNCE_SWEEP_SECONDS,
      },
    },
  };
}

/** What node:dns takes as servers (it refuses names: an address is needed to ask for names). */
function areNameServers(value: string): boolean {
  const servers = value
    .split(',')
    .map((server) => server.trim())
    .filter(Boolean);
  try {
    new Resolver().setServers(servers);
    return true;
  } catch {
    return false;
  }
}

/** A URL nodemailer reads as a relay: WHATWG-valid, with a host that needs no decoding. */
function isRelayUrl(value: string): boolean {
  try {
    const { hostname } = new URL(value);
    return hostname !== '' && !hostname.includes('%');
  } catch {
    return false;
  }
}

function dkimOf(e: z.infer<typeof Env>): MailConfig['dkim'] {
  const given = [e.DKIM_DOMAIN, e.DKIM_SELECTOR, e.DKIM_PRIVATE_KEY].filter(Boolean).length;
  if (given === 0) return null;
  if (given !== 3 || !e.DKIM_DOMAIN || !e.DKIM_SELECTOR || !e.DKIM_PRIVATE_KEY)
    throw new Error(
      'Invalid configuration: DKIM needs DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY',
    );
  const key = pemOrFile('DKIM_PRIVATE_KEY', e.DKIM_PRIVATE_KEY);
  try {
    crypto.createPrivateKey(key);
  } catch {
    // Refused at start rather than on every send; the message names the setting, never its value.
    throw new Error('Invalid configuration: DKIM_PRIVATE_KEY is not a private key in PEM');
  }
  return { domainName: e.DKIM_DOMAIN, keySelector: e.DKIM_SELECTOR, privateKey: key };
}

function smtpInTlsOf(e: z.infer<typeof Env>): MailConfig['smtpInTls'] {
  if (!e.SMTP_IN_TLS_KEY && !e.SMTP_IN_TLS_CERT) return null;
  if (!e.SMTP_IN_TLS_KEY || !e.SMTP_IN_TLS_CERT)
    throw new Error('Invalid configuration: STARTTLS needs SMTP_IN_TLS_KEY and SMTP_IN_TLS_CERT');
  const key = pemOrFile('SMTP_IN_TLS_KEY', e.SMTP_IN_TLS_KEY);
  const cert = pemOrFile('SMTP_IN_TLS_CERT', e.SMTP_IN_TLS_CERT);
  try {
    crypto.createPrivateKey(key);
  } catch {
    throw new Error('Invalid configuration: SMTP_IN_TLS_KEY is not a private key in PEM');
  }
  try {
    new crypto.X509Certificate(cert);
  } catch {
    throw new Error('Invalid configuration: SMTP_IN_TLS_CERT is not a certificate in PEM');
  }
  return { key, cert };
}

/**
 * A PEM setting given as its text or as a path to it. A value that is neither is refused without
 * being repeated: it may be key material pasted without its armour (SECURITY.md 39).
 */
function pemOrFile(name: string, value: string): string {
  if (value.includes('-----BEGIN')) return value;
  try {
    return fs.readFileSync(value, 'utf8');
  } catch {
    throw new Error(
      `Invalid configuration: ${name} is neither PEM text ("-----BEGIN …") nor a readable file`,
    );
  }
}
