import type { Kysely } from 'kysely';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { systemClock, type Clock } from '../lib/clock.ts';
import { issuerOf } from '../oauth/metadata.ts';
import { unitOfWork } from '../db/unit-of-work.ts';
import { storeChangedContactDocuments } from '../services/contact-document-store.ts';
import { purgeMembers, PURGE_INTERVAL_MS } from '../members/housekeeping.ts';
import { memberLinks } from '../members/links.ts';
import { sweepBounces } from '../bounces/timer.ts';
import { linkKey } from '../tokens/signed-link.ts';
import { queueDigests } from './digest.ts';
import { expireHeldMessages } from './held-bounds.ts';
import { OutboxWorker } from './outbox.ts';
import { mailSecrets, withoutSecrets } from './secrets.ts';
import { startSmtpIn, type Received } from './smtp-in.ts';
import { createTransport } from './transport.ts';

export interface MailService {
  worker: OutboxWorker;
  /** The SMTP listener's port, or null when SMTP_IN_PORT is unset. */
  smtpPort: number | null;
  /** "smtp", or the sink folder when SMTP_URL is unset. */
  deliversTo: string;
  close(): Promise<void>;
}

/**
 * Mail for `listkeeper serve` (issue 18): the outbox worker always (API posts go out too), the
 * SMTP listener when SMTP_IN_PORT is set, the daily digest on a timer, on another the held
 * messages past HELD_MAX_DAYS dropped (issue 28), and on a third the bounce warnings and removals
 * due (issue 26), all by the server's clock. `onError` gets errors
 * with the relay's password and the DKIM key taken out (SECURITY.md 39): a relay may echo what it
 * was sent in its refusal, and a library may attach the URL to its error.
 */
export async function startMail(
  config: ServerConfig,
  db: Kysely<Database>,
  hooks: {
    onError?: (error: unknown) => void;
    onReceived?: (received: Received) => void;
    clock?: Clock;
    /** Where the members' links in mail point (issue 25); by default the configured PUBLIC_URL. */
    publicOrigin?: () => string;
  } = {},
): Promise<MailService> {
  const clock = hooks.clock ?? systemClock;
  const secrets = mailSecrets(config.mail);
  const report = hooks.onError;
  const onError = report && ((error: unknown) => report(withoutSecrets(error, secrets)));
  const transport = createTransport(config.mail, config.dataDir);
  const publicOrigin = hooks.publicOrigin ?? (() => issuerOf(config));
  const writes = unitOfWork(db, storeChangedContactDocuments);
  const worker = new OutboxWorker({
    db,
    transport,
    batchSize: config.mail.batchSize,
    leaseMs: config.mail.leaseMs,
    now: () => clock.now().getTime(),
    publicOrigin,
    bounces: config.mail.bounces,
    writes,
    onError,
  });
  worker.start();
  const smtp =
    config.mail.smtpInPort === null
      ? null
      : await startSmtpIn({
          db,
          host: config.mail.smtpInHost,
          port: config.mail.smtpInPort,
          maxBytes: config.mail.smtpInMaxBytes,
          tls: config.mail.smtpInTls,
          dns: config.mail.dns,
          held: config.mail.held,
          limits: config.mail.smtpInLimits,
          clock,
          members: { db, publicOrigin, unitOfWork: writes },
          bounces: config.mail.bounces,
          onError,
          onReceived: (received) => {
            worker.nudge();
            hooks.onReceived?.(received);
          },
        });
  const digest = setInterval(() => {
    queueDigests(db, clock.now()).then(
      (count) => count > 0 && worker.nudge(),
      (error: unknown) => onError?.(error),
    );
  }, config.mail.digestIntervalSeconds * 1000);
  digest.unref();
  // Issue 25: requests, tokens and the public pages' counters expire.
  const purge = setInterval(() => {
    purgeMembers(db, clock.now()).catch((error: unknown) => onError?.(error));
  }, PURGE_INTERVAL_MS);
  purge.unref();
  const expiry = setInterval(() => {
    expireHeldMessages(db, clock.now(), config.mail.held.maxDays).catch((error: unknown) =>
      onError?.(error),
    );
  }, config.mail.held.expirySweepSeconds * 1000);
  expiry.unref();
  // Issue 26: the warnings and removals owed to addresses bounces paused.
  const bounceSweep = setInterval(() => {
    linkKey(db)
      .then((key) =>
        sweepBounces(
          {
            db,
            unitOfWork: writes,
            links: memberLinks(publicOrigin()),
            linkKey: key,
            settings: config.mail.bounces,
          },
          clock.now(),
        ),
      )
      .then(
        (swept) => swept.warned + swept.removed > 0 && worker.nudge(),
        (error: unknown) => onError?.(error),
      );
  }, config.mail.bounces.sweepSeconds * 1000);
  bounceSweep.unref();
  return {
    worker,
    smtpPort: smtp?.port ?? null,
    deliversTo: transport.description,
    async close() {
      clearInterval(digest);
      clearInterval(purge);
      clearInterval(expiry);
      clearInterval(bounceSweep);
      await smtp?.close();
      await worker.stop();
      transport.close();
    },
  };
}
