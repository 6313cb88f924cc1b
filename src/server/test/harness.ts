import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { describe, inject } from 'vitest';
import { encodeForm } from '../../api/form-encoding.ts';
import type { Permission } from '../../api/constants.ts';
import { buildApp } from '../app.ts';
import { createAuthCache } from '../auth/auth-cache.ts';
import type { Clock } from '../lib/clock.ts';
import { loadConfig } from '../config.ts';
import { openDatabase, type DatabaseHandle, type DatabaseOptions } from '../db/database.ts';
import type { DialectName } from '../db/dialect.ts';
import { createAccount, createApiKeyAdministrator } from '../services/provisioning.service.ts';
import { staleContactDocuments } from './contact-documents-check.ts';
import { staleSearchRows } from './contact-search-check.ts';
import { testClock } from './test-clock.ts';

/**
 * Black-box server tests (STYLE.md): a real app on a freshly migrated database, driven over HTTP
 * with `app.inject`. Every suite runs on SQLite and, when available, on PostgreSQL.
 */
export interface TestServer {
  app: FastifyInstance;
  database: DatabaseHandle;
  dialect: DialectName;
  /** The first account, `acme`, with a superadmin key. */
  account: { id: number; name: string };
  accountKey: string;
  /** A global key (superadmin + account) of the group. */
  globalKey: string;
  /** The server's clock (test-clock.ts, or the suite's own): what `now` is to the server. */
  clock: Clock;
  request(method: string, url: string, options?: RequestOptions): Promise<TestResponse>;
  createAccount(name: string, options?: { maxContacts?: number; ccid?: boolean }): Promise<{ id: number; name: string }>;
  createKey(options: { accountId: number | null; permissions: Permission[]; cidr?: string; expiryMonths?: number }): Promise<string>;
  /**
   * After a test changed a key, an administrator or an account straight in the database: the app
   * forgets what it cached of them, as it does after such a write through the API. (Another
   * process would see the change within AUTH_CACHE_SECONDS.)
   */
  forgetCachedAuth(): void;
  /** A second app on the same database with connections of its own: another server process. */
  startPeer(): Promise<FastifyInstance>;
  close(): Promise<void>;
}

export interface RequestOptions {
  /** A key sent as Bearer; `auth` overrides the whole Authorization header. */
  key?: string;
  auth?: string;
  /** Form fields, encoded with the contract's encoder (repeated keys for arrays). */
  form?: Record<string, unknown>;
  /** A raw body with its content type. */
  body?: string | Buffer;
  contentType?: string;
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

export interface TestResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary answers
}

export interface TestServerOptions {
  maxContacts?: number;
  ccid?: boolean;
  rateLimitWindowSeconds?: number;
  /** GROUP_RATE_LIMIT: the allowance of group-wide calls (accounts, global users). */
  groupRateLimit?: number;
  trustProxy?: string;
  /**
   * IMAGE_PROXY_ALLOW_PRIVATE, on by default: the seeded messages' images live on a loopback host
   * (image-host.ts). A test of the proxy's address rules turns it off.
   */
  imageProxyAllowPrivate?: boolean;
  /** A folder with a built dashboard to serve; by default none, so `/` answers 404. */
  staticDir?: string;
  /** EXTENSIONS: on by default; false offers exactly spec v2 (http/spec-only.ts). */
  extensions?: boolean;
  /** The server's clock; by default test-clock.ts's. */
  clock?: Clock;
  /** How often the app purges audit entries past AUDIT_RETENTION_DAYS (audit/retention.ts). */
  auditPurgeIntervalMs?: number;
  /** AUDIT_RETENTION_DAYS; 400 by default. */
  auditRetentionDays?: number;
}

export interface FreshDatabase {
  database: DatabaseHandle;
  /** What a `serve` process on this database is given: DATA_DIR (SQLite) or DATABASE_URL. */
  options: DatabaseOptions;
  /** Opens the same database again, with connections of its own (as another process would). */
  reopen: () => Promise<DatabaseHandle>;
  cleanup: () => Promise<void>;
}

/** A new, empty database of `dialect` (on PostgreSQL, in the run's cluster), and how to remove it. */
export async function openFresh(dialect: DialectName): Promise<FreshDatabase> {
  if (dialect === 'sqlite') {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-test-'));
    const database = await openDatabase({ dataDir });
    return {
      database,
      options: { dataDir },
      reopen: () => openDatabase({ dataDir }),
      cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const adminUrl = inject('pgUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const databaseUrl = adminUrl.replace(/\/postgres$/, `/${name}`);
  const database = await openDatabase({ dataDir: '', databaseUrl });
  return {
    database,
    options: { dataDir: '', databaseUrl },
    reopen: () => openDatabase({ dataDir: '', databaseUrl }),
    cleanup: async () => {
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      // pg's Pool.end() resolves before its connections have closed; a forced drop meanwhile kills
      // them, and the FATAL it sends them surfaces as an unhandled error. Wait for them to go first.
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const { rows } = await dropper.query<{ n: number }>(
          'select count(*)::int as n from pg_stat_activity where datname = $1',
          [name],
        );
        if (!rows[0]?.n) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

export async function startTestServer(dialect: DialectName, options: TestServerOptions = {}): Promise<TestServer> {
  const { database, reopen, cleanup } = await openFresh(dialect);
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    STATIC_DIR: options.staticDir ?? path.join(os.tmpdir(), 'listkeeper-no-dashboard'),
    RATE_LIMIT_WINDOW_SECONDS: String(options.rateLimitWindowSeconds ?? 3600),
    ...(options.groupRateLimit === undefined ? {} : { GROUP_RATE_LIMIT: String(options.groupRateLimit) }),
    TRUST_PROXY: options.trustProxy ?? '',
    IMAGE_PROXY_ALLOW_PRIVATE: options.imageProxyAllowPrivate === false ? '0' : '1',
    EXTENSIONS: options.extensions === false ? 'off' : 'on',
    ...(options.auditRetentionDays === undefined
      ? {}
      : { AUDIT_RETENTION_DAYS: String(options.auditRetentionDays) }),
  });
  const authCache = createAuthCache();
  const clock = options.clock ?? testClock();
  const app = await buildApp({
    config,
    database,
    validateResponses: true,
    authCache,
    clock,
    auditPurgeIntervalMs: options.auditPurgeIntervalMs,
  });
  await app.ready();
  const peers: { app: FastifyInstance; database: DatabaseHandle }[] = [];

  const makeAccount: TestServer['createAccount'] = async (name, accountOptions = {}) => {
    const row = await createAccount(database.db, {
      name,
      maxContacts: accountOptions.maxContacts ?? options.maxContacts ?? 100_000,
      ccid: accountOptions.ccid ?? options.ccid,
      now: clock.now(),
    });
    return { id: row.id, name: row.name };
  };
  const createKey: TestServer['createKey'] = async (keyOptions) =>
    (await createApiKeyAdministrator(database.db, { ...keyOptions, now: clock.now() })).key;

  const account = await makeAccount('acme');
  const accountKey = await createKey({ accountId: account.id, permissions: ['superadmin'] });
  const globalKey = await createKey({ accountId: null, permissions: ['superadmin', 'account'] });

  return {
    app,
    database,
    dialect,
    account,
    accountKey,
    globalKey,
    clock,
    createAccount: makeAccount,
    createKey,
    async request(method, url, requestOptions = {}) {
      const headers: Record<string, string> = { ...requestOptions.headers };
      if (requestOptions.auth !== undefined) headers.authorization = requestOptions.auth;
      else headers.authorization = `Bearer ${requestOptions.key ?? accountKey}`;
      let payload: string | Buffer | undefined;
      if (requestOptions.form) {
        payload = encodeForm(requestOptions.form).toString();
        headers['content-type'] = 'application/x-www-form-urlencoded';
      } else if (requestOptions.body !== undefined) {
        payload = requestOptions.body;
        if (requestOptions.contentType) headers['content-type'] = requestOptions.contentType;
      }
      const search = requestOptions.query ? encodeForm(requestOptions.query).toString() : '';
      const response = await app.inject({
        method: method as 'GET',
        url: search ? `${url}${url.includes('?') ? '&' : '?'}${search}` : url,
        headers,
        payload,
        remoteAddress: requestOptions.remoteAddress,
      });
      let json: unknown;
      try {
        json = response.body ? JSON.parse(response.body) : undefined;
      } catch {
        json = undefined;
      }
      return { status: response.statusCode, headers: response.headers, body: response.body, json };
    },
    forgetCachedAuth: () => authCache.forget(),
    async startPeer() {
      const peerDatabase = await reopen();
      const peer = await buildApp({
        config,
        database: peerDatabase,
        validateResponses: true,
        clock,
      });
      await peer.ready();
      peers.push({ app: peer, database: peerDatabase });
      return peer;
    },
    async close() {
      // Every suite also checks that no write left a stored contact document, or the search text
      // and orphans its triggers keep, behind the rows.
      let stale: string[] = [];
      let search: string[] = [];
      try {
        stale = await staleContactDocuments(database.db);
        search = await staleSearchRows(database.db);
      } finally {
        for (const peer of peers) {
          await peer.app.close();
          await peer.database.close();
        }
        await app.close();
        await database.close();
        await cleanup();
      }
      if (stale.length > 0) throw new Error(`Stale contact documents:\n${stale.slice(0, 5).join('\n')}`);
      if (search.length > 0) throw new Error(`Stale search rows:\n${search.slice(0, 5).join('\n')}`);
    },
  };
}

/** The dialects this run can test: SQLite always, PostgreSQL when the global setup started it. */
export function dialects(): DialectName[] {
  return inject('pgUrl') ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** Runs a suite once per dialect; says plainly when PostgreSQL is skipped. */
export function describeEachDialect(name: string, suite: (dialect: DialectName) => void): void {
  for (const dialect of dialects()) describe(`${name} [${dialect}]`, () => suite(dialect));
  const unavailable = inject('pgUnavailable');
  // Collected but skipped, so a run without PostgreSQL counts each of its tests as skipped rather
  // than leaving them out of the total (issue 16 §4).
  if (unavailable) describe.skip(`${name} [postgres: ${unavailable}]`, () => suite('postgres'));
}
