import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { findListByAddress } from '../repositories/mail.repository.ts';
import { readMessageBytes } from './message-bytes.ts';
import {
  processInbound,
  UnreadableMessageError,
  type InboundOutcome,
  type ReceivingList,
} from './pipeline.ts';

/** What the listener did with one message for one list (tests and logs read it). */
export type Received = { list: string; outcome: InboundOutcome };

export interface SmtpInOptions {
  db: Kysely<Database>;
  host: string;
  port: number;
  maxBytes: number;
  /** STARTTLS with this key and certificate (PEM); without them it is not offered. */
  tls?: { key: string; cert: string } | null;
  clock: Clock;
  /** After each committed message: the outbox worker looks at once. */
  onReceived?: (received: Received) => void;
  onError?: (error: unknown) => void;
}

/** A refusal with its SMTP code, as smtp-server answers it. */
function smtpError(code: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode: code });
}

/** `-bounces` addresses take bounces of the lists' own mail, which are accepted and dropped. */
const BOUNCES = /-bounces$/;

/**
 * The SMTP listener (issue 18 item 2, SECURITY.md 35): it accepts a recipient only when it is
 * `<list>@<the account's domain>` of an existing list (or that list's `-bounces` address); anything
 * else is refused at RCPT with 550, so the server is never a relay. Each accepted message is run
 * through the pipeline once per list it was sent to.
 */
export async function startSmtpIn(
  options: SmtpInOptions,
): Promise<{ port: number; close: () => Promise<void> }> {
  const lists = new WeakMap<object, Map<string, ReceivingList | 'bounces'>>();
  const server = new SMTPServer({
    name: 'listkeeper',
    banner: 'Listkeeper',
    authOptional: true,
    // No STARTTLS without the operator's certificate: smtp-server would offer its own, public,
    // test key instead. TLS is never required: a sending MTA that cannot do it still delivers.
    disabledCommands: options.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : {}),
    size: options.maxBytes,
    logger: false,
    onRcptTo(address: SMTPServerAddress, session, callback) {
      resolveRecipient(options.db, address.address).then(
        (found) => {
          if (!found) {
            callback(
              smtpError(550, `5.1.1 <${address.address}>: no such list here (relaying denied)`),
            );
            return;
          }
          const byAddress = lists.get(session) ?? new Map<string, ReceivingList | 'bounces'>();
          // One delivery per list, however many of its spellings the envelope names.
          byAddress.set(
            found === 'bounces' ? address.address.toLowerCase() : `list ${found.id}`,
            found,
          );
          lists.set(session, byAddress);
          callback();
        },
        (error: unknown) => {
          options.onError?.(error);
          callback(smtpError(451, '4.3.0 Temporary failure, try again later'));
        },
      );
    },
    onData(stream, session, callback) {
      const envelopeFrom =
        session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
      const targets = [...(lists.get(session)?.values() ?? [])];
      lists.delete(session);
      void (async () => {
        const raw = await readMessageBytes(stream, options.maxBytes);
        if (raw === null) {
          return smtpError(552, `5.3.4 Message too big: at most ${options.maxBytes} bytes`);
        }
        for (const target of targets) {
          if (target === 'bounces') continue;
          const outcome = await processInbound(options.db, target, raw, envelopeFrom, options.clock.now());
          options.onReceived?.({ list: target.name, outcome });
        }
        return null;
      })().then(
        (refusal) => callback(refusal),
        (error: unknown) => {
          // RFC 5321 §4.2.5: a 4xx would have the sending MTA retry it for days.
          if (error instanceof UnreadableMessageError) {
            return callback(smtpError(554, `5.6.0 The message cannot be read: ${error.message}`));
          }
          options.onError?.(error);
          callback(smtpError(451, '4.3.0 Temporary failure, try again later'));
        },
      );
    },
  });
  server.on('error', (error) => options.onError?.(error));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function resolveRecipient(
  db: Kysely<Database>,
  address: string,
): Promise<ReceivingList | 'bounces' | null> {
  const at = address.lastIndexOf('@');
  if (at <= 0) return null;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (BOUNCES.test(local)) {
    return (await findListByAddress(db, local.replace(BOUNCES, ''), domain)) ? 'bounces' : null;
  }
  return (await findListByAddress(db, local, domain)) ?? null;
}
