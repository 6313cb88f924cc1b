import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import nodemailer from 'nodemailer';
import { Piscina } from 'piscina';
import type { MailConfig } from '../config.ts';
import type { SealTask } from './arc-seal.ts';
import type { ArcContext } from './outgoing/template.ts';

/** A recipient the relay refused at RCPT TO, with its reply code (4xx: try later; 5xx: never). */
export interface Refused {
  address: string;
  code: number | null;
  /** The enhanced status code of the refusal (RFC 3463, `5.1.1`), when the relay gave one. */
  status?: string | null;
}

/** Outgoing mail: one SMTP transaction per call, the same raw message to every recipient. */
export interface MailTransport {
  /**
   * Sends `raw` to `to` from `from` (the envelope); answers the recipients the relay refused (the
   * others took it). Throws when the transaction as a whole failed (connection, AUTH, MAIL FROM,
   * DATA). `key` names the transaction: a batch sent again after a crash comes with the same key
   * (the sink overwrites its file; over SMTP the message keeps its Message-ID). `arc`: a copy of
   * a post that came by SMTP, sealed with the DKIM key when there is one (issue 26 item 2).
   */
  send(
    envelope: { from: string; to: readonly string[] },
    raw: Buffer,
    key: string,
    arc?: ArcContext | null,
  ): Promise<{ refused: Refused[] }>;
  close(): void;
  /** What the README and the start-up line call it: "smtp" or the sink's folder. */
  readonly description: string;
}

/** The folder under DATA_DIR that keeps what would have been sent when SMTP_URL is unset. */
export const SINK_FOLDER = 'outbox-sink';

/** nodemailer's per-recipient refusals, on its answer or on its "all recipients were rejected". */
function refusalsOf(value: unknown): Refused[] {
  const errors = (value as { rejectedErrors?: unknown } | null)?.rejectedErrors;
  if (!Array.isArray(errors)) return [];
  return errors.map(
    (error: { recipient?: unknown; responseCode?: unknown; response?: unknown }) => ({
      address: typeof error.recipient === 'string' ? error.recipient : '',
      code: typeof error.responseCode === 'number' ? error.responseCode : null,
      // Only the code is kept of the relay's words: nothing it echoes reaches a row (SECURITY.md 39).
      status:
        typeof error.response === 'string'
          ? (/\b[245]\.[0-7]\.\d{1,3}\b/.exec(error.response)?.[0] ?? null)
          : null,
    }),
  );
}

/**
 * The header fields the DKIM signature covers: nodemailer's list (RFC 6376 §5.4.1's), and the
 * one-click header, so that the List-Unsubscribe URL and its POST cannot be changed on the way
 * (RFC 8058 §4 requires both signed).
 */
const DKIM_HEADERS =
  'From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:' +
  'Content-Transfer-Encoding:Content-ID:Content-Description:Resent-Date:Resent-From:' +
  'Resent-Sender:Resent-To:Resent-Cc:Resent-Message-ID:In-Reply-To:References:List-Id:' +
  'List-Help:List-Unsubscribe:List-Unsubscribe-Post:List-Subscribe:List-Post:List-Owner:List-Archive';

/** Copies sealed at once per thread: each waits on little but the CPU. */
const SEALS_PER_THREAD = 1;
/** A seal thread left idle this long ends: a pool lives only while a fan-out goes on. */
const SEAL_IDLE_MS = 30_000;

/**
 * Where copies of a post are ARC-sealed (arc-seal.ts): threads of their own, one per core but one
 * (SECURITY.md 29): a set is two RSA signatures and a parse of the copy, some 8 ms a copy measured,
 * which on the server's thread every request would wait behind, once per member. Started at the
 * first seal; a copy that cannot be sealed (the pool closed, a thread lost) goes out unsealed.
 */
function sealPool(): { seal(task: SealTask): Promise<Buffer>; close(): void } {
  let pool: Piscina | null = null;
  return {
    async seal(task) {
      pool ??= new Piscina({
        filename: new URL('./arc-seal.ts', import.meta.url).href,
        name: 'arcSet',
        minThreads: 0,
        maxThreads: Math.max(1, os.availableParallelism() - 1),
        concurrentTasksPerWorker: SEALS_PER_THREAD,
        idleTimeout: SEAL_IDLE_MS,
      });
      try {
        const set = (await pool.run(task)) as Uint8Array;
        return Buffer.concat([Buffer.from(set.buffer, set.byteOffset, set.byteLength), task.raw]);
      } catch {
        return Buffer.from(task.raw);
      }
    },
    close() {
      void pool?.close();
      pool = null;
    },
  };
}

/** SMTP_URL set: nodemailer over a pool of connections, DKIM-signed and ARC-sealed when configured. */
export function smtpTransport(config: MailConfig & { smtpUrl: string }): MailTransport {
  let transporter: ReturnType<typeof nodemailer.createTransport>;
  try {
    transporter = nodemailer.createTransport({
      url: config.smtpUrl,
      pool: true,
      ...(config.dkim ? { dkim: { ...config.dkim, headerFieldNames: DKIM_HEADERS } } : {}),
    });
  } catch {
    // nodemailer's URL error carries the whole URL, password included, in its `input`: a fresh
    // error says what is wrong without it (SECURITY.md 39).
    throw new Error('Invalid configuration: SMTP_URL is not a URL nodemailer can use');
  }
  const { dkim } = config;
  const seals = sealPool();
  return {
    description: 'smtp',
    async send(envelope, raw, _key, arc) {
      try {
        const info: unknown = await transporter.sendMail({
          envelope: { from: envelope.from, to: [...envelope.to] },
          // Sealed first (issue 26 item 2), then DKIM-signed by nodemailer as it goes.
          raw:
            dkim && arc
              ? await seals.seal({
                  raw,
                  chain: arc.chain,
                  cv: arc.cv,
                  results: arc.results,
                  signingDomain: dkim.domainName,
                  selector: dkim.keySelector,
                  privateKey: dkim.privateKey,
                })
              : raw,
        });
        return { refused: refusalsOf(info) };
      } catch (error) {
        // Every recipient refused one by one: an answer about each, not a failed transaction.
        const refused = refusalsOf(error);
        if (refused.length === envelope.to.length) return { refused };
        throw error;
      }
    },
    close: () => {
      transporter.close();
      seals.close();
    },
  };
}

/**
 * SMTP_URL unset (`npm start` without a relay): each transaction becomes one file,
 * `DATA_DIR/outbox-sink/<key>.eml`, its envelope in `X-Listkeeper-Envelope-*` lines on top. Written
 * to a temporary name and renamed, so a file is whole or absent, and a batch sent again replaces
 * its own file: each recipient is in the sink once.
 */
export function sinkTransport(dataDir: string): MailTransport {
  const folder = path.join(dataDir, SINK_FOLDER);
  fs.mkdirSync(folder, { recursive: true });
  return {
    description: folder,
    async send(envelope, raw, key) {
      const name = key.replace(/[^A-Za-z0-9_.-]/g, '_');
      const head = Buffer.from(
        `X-Listkeeper-Envelope-From: ${envelope.from}\r\nX-Listkeeper-Envelope-To: ${envelope.to.join(', ')}\r\n`,
      );
      const temporary = path.join(folder, `.${name}.${process.pid}.tmp`);
      await fs.promises.writeFile(temporary, Buffer.concat([head, raw]));
      await fs.promises.rename(temporary, path.join(folder, `${name}.eml`));
      return { refused: [] };
    },
    close: () => undefined,
  };
}

export function createTransport(config: MailConfig, dataDir: string): MailTransport {
  return config.smtpUrl
    ? smtpTransport({ ...config, smtpUrl: config.smtpUrl })
    : sinkTransport(dataDir);
}
