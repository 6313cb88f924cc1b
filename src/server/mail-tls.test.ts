import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import type { Received } from './mail/smtp-in.ts';
import { startDnsServer, type TestDnsServer } from './test/dns-server.ts';
import { startSmtpIn } from './mail/smtp-in.ts';
import { seedFanOutInto } from './test/fan-out-seed.ts';
import { openFresh, type FreshDatabase } from './test/harness.ts';
import { testClock } from './test/test-clock.ts';

/**
 * Issue 18 item 2 (README "Mail"): the SMTP listener offers STARTTLS with the operator's key and
 * certificate (SMTP_IN_TLS_KEY, SMTP_IN_TLS_CERT), and not at all without them. The certificate is
 * a self-signed one made for the test by openssl; the client trusts exactly it.
 */
describe('STARTTLS on the SMTP listener', () => {
  let folder = '';
  let fresh: FreshDatabase;
  let keyPath = '';
  let certPath = '';
  const received: Received[] = [];
  let dns: TestDnsServer;

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-tls-'));
    keyPath = path.join(folder, 'key.pem');
    certPath = path.join(folder, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        keyPath,
        '-out',
        certPath,
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    dns = await startDnsServer();
    fresh = await openFresh('sqlite');
    await seedFanOutInto(fresh.database.db, 2, { message: false });
  });
  afterAll(async () => {
    await dns.close();
    await fresh.database.close();
    await fresh.cleanup();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  /** A listener as `serve` starts it from these settings. */
  async function listener(env: Record<string, string>) {
    const config = loadConfig({ ...env, DNS_SERVERS: dns.address });
    return startSmtpIn({
      db: fresh.database.db,
      host: '127.0.0.1',
      port: 0,
      maxBytes: config.mail.smtpInMaxBytes,
      tls: config.mail.smtpInTls,
      dns: config.mail.dns,
      clock: testClock(),
      onReceived: (r) => received.push(r),
    });
  }

  /** Sends one message, refusing to go on without TLS, trusting the test's certificate only. */
  function sendOverTls(port: number, subject: string) {
    const client = nodemailer.createTransport({
      host: '127.0.0.1',
      port,
      secure: false,
      requireTLS: true,
      tls: { ca: fs.readFileSync(certPath), servername: 'localhost' },
    });
    return client
      .sendMail({ from: 'm0@crash.example', to: 'all@crash.example', subject, text: 'Private.' })
      .finally(() => client.close());
  }

  it('takes mail over STARTTLS with the configured certificate', async () => {
    const smtp = await listener({ SMTP_IN_TLS_KEY: keyPath, SMTP_IN_TLS_CERT: certPath });
    try {
      await sendOverTls(smtp.port, 'Over TLS');
    } finally {
      await smtp.close();
    }
    expect(received.map((r) => r.list)).toEqual(['all']);
  });

  it('offers no STARTTLS without them', async () => {
    const smtp = await listener({});
    try {
      await expect(sendOverTls(smtp.port, 'Needs TLS')).rejects.toThrow(/STARTTLS/);
    } finally {
      await smtp.close();
    }
  });

  it('refuses one without the other, and a certificate that is none, naming the setting only', () => {
    expect(() => loadConfig({ SMTP_IN_TLS_KEY: keyPath })).toThrow(
      'STARTTLS needs SMTP_IN_TLS_KEY and SMTP_IN_TLS_CERT',
    );
    expect(() => loadConfig({ SMTP_IN_TLS_KEY: keyPath, SMTP_IN_TLS_CERT: keyPath })).toThrow(
      'SMTP_IN_TLS_CERT is not a certificate in PEM',
    );
  });
});
