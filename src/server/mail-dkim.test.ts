import { generateKeyPairSync } from 'node:crypto';
import { dkimVerify } from 'mailauth';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { OutboxWorker } from './mail/outbox.ts';
import { smtpTransport } from './mail/transport.ts';
import { seedFanOutInto } from './test/fan-out-seed.ts';
import { openFresh, type FreshDatabase } from './test/harness.ts';
import { startSmtpSink } from './test/smtp-sink.ts';

/**
 * Issue 18 item 4 (README "Mail"): with DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY set, what
 * the outbox sends through SMTP_URL carries a DKIM signature that a receiver verifies against the
 * TXT record the README tells a self-hoster to publish (mailauth, its DNS answered here).
 */
const DOMAIN = 'crash.example';
const SELECTOR = 'lk2026';
let fresh: FreshDatabase;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let publicKey: string;

beforeAll(async () => {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  publicKey = pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  fresh = await openFresh('sqlite');
  await seedFanOutInto(fresh.database.db, 3);
  sink = await startSmtpSink();
  const config = loadConfig({
    SMTP_URL: sink.url,
    DKIM_DOMAIN: DOMAIN,
    DKIM_SELECTOR: SELECTOR,
    DKIM_PRIVATE_KEY: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  });
  const transport = smtpTransport({ ...config.mail, smtpUrl: sink.url });
  try {
    await new OutboxWorker({
      publicOrigin: () => 'https://lists.test', db: fresh.database.db, transport, batchSize: 100 }).drainAll();
  } finally {
    transport.close();
  }
});
afterAll(async () => {
  await sink.close();
  await fresh.database.close();
  await fresh.cleanup();
});

/** The DNS a receiver asks: only the README's DKIM record exists. */
async function resolver(name: string, type: string): Promise<string[][]> {
  if (type === 'TXT' && name === `${SELECTOR}._domainkey.${DOMAIN}`)
    return [[`v=DKIM1; k=rsa; p=${publicKey}`]];
  throw Object.assign(new Error(`no ${type} record for ${name}`), { code: 'ENOTFOUND' });
}

it('signs each member’s copy so that the DKIM signature verifies against the published key', async () => {
  // One copy per member (issue 25): each personal, each signed.
  expect(sink.mails).toHaveLength(3);
  for (const mail of sink.mails) {
    const { results } = await dkimVerify(mail.raw, { resolver, strict: true });
    expect(results.map((result) => [result.signingDomain, result.status.result])).toEqual([
      [DOMAIN, 'pass'],
    ]);
  }
});

it('covers the one-click headers, so a changed List-Unsubscribe fails the signature (RFC 8058 §4)', async () => {
  const raw = (sink.mails[0]?.raw ?? Buffer.alloc(0)).toString();
  const signature = /^DKIM-Signature:[\s\S]*?(?=\r\n\S)/m.exec(raw)?.[0] ?? '';
  const signed = /\bh=([^;]+)/.exec(signature.replace(/\s+/g, ''))?.[1]?.toLowerCase().split(':');
  expect(signed).toEqual(expect.arrayContaining(['list-unsubscribe', 'list-unsubscribe-post']));
  const tampered = raw.replace(/\/unsubscribe\/[A-Za-z0-9_-]+/, '/unsubscribe/someone-else');
  expect(tampered).not.toBe(raw);
  const { results } = await dkimVerify(Buffer.from(tampered), { resolver, strict: true });
  expect(results.map((result) => result.status.result)).toEqual(['fail']);
});

it('and the signature fails once the body is changed on the way', async () => {
  const raw = (sink.mails[0]?.raw ?? Buffer.alloc(0)).toString();
  const tampered = raw.replace('exactly once', 'more than once');
  expect(tampered).not.toBe(raw);
  // Strict mode (RFC 6376) calls a body hash mismatch `fail`; the default mode says `neutral`.
  const { results } = await dkimVerify(Buffer.from(tampered), { resolver, strict: true });
  expect(results.map((result) => [result.status.result, result.status.comment])).toEqual([
    ['fail', 'body hash did not verify'],
  ]);
});
