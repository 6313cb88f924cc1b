import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import type { DnsOptions } from './dns-resolver.ts';
import { HELD_DEFAULTS, type HeldBounds } from './held-bounds.ts';
import { InboundBusyError, startInboundPool, type InboundWork } from './inbound-work.ts';
import { readMessageBytes } from './message-bytes.ts';
import { declaredSize, listLimit, readLimit } from './message-size.ts';
import { processInbound, type InboundEnvelope, type InboundOutcome } from './pipeline.ts';
import { resolveRecipient, type Recipient } from './recipient.ts';

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
  /** How senders are verified: the name servers asked, the timeout and the cache (SECURITY.md 50). */
  dns: DnsOptions;
  /** How much the held queue takes (held-bounds.ts); the defaults when not given. */
  held?: HeldBounds;
  /** After each committed message: the outbox worker looks at once. */
  onReceived?: (received: Received) => void;
  onError?: (error: unknown) => void;
}

/** A refusal with its SMTP code, as smtp-server answers it. */
function smtpError(code: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode: code });
}

/**
 * A message no list's held queue could take (held-bounds.ts): 452, try later. When another list
 * took it, SMTP cannot refuse it for one list alone: that list's refusal is logged instead.
 */
function heldQueueRefusal(
  outcomes: Received[],
  log: ((error: unknown) => void) | undefined,
): (Error & { responseCode: number }) | null {
  const refused = outcomes.flatMap(({ list, outcome }) =>
    outcome.action === 'refused' ? [`${list}: ${outcome.reason}`] : [],
  );
  if (refused.length === 0) return null;
  if (refused.length === outcomes.length)
    return smtpError(452, `4.2.2 Not held now (${refused.join('; ')}), try again later`);
  for (const why of refused) log?.(new Error(`A message was not held for ${why}`));
  return null;
}

/** The recipients a transaction names that take mail, one per list and kind. */
type Target = Exclude<Recipient, { kind: 'unknown' }>;
type Targets = Map<string, Target>;

/**
 * The SMTP listener (issue 18 item 2, SECURITY.md 35): it accepts a recipient only when
 * recipient.ts says what it is (a list, a list's bounces); anything else is refused at RCPT with
 * 550, so the server is never a relay. Each accepted message is read once, on the inbound pool's
 * threads, and run through the pipeline once per list it was sent to.
 */
export async function startSmtpIn(
  options: SmtpInOptions,
): Promise<{ port: number; close: () => Promise<void> }> {
  const work: InboundWork = startInboundPool(options.dns);
  const targets = new WeakMap<SMTPServerSession, Targets>();
  const server = new SMTPServer({
    name: 'listkeeper',
    banner: 'Listkeeper',
    authOptional: true,
    // No STARTTLS without the operator's certificate: smtp-server would offer its own, public,
    // test key instead. TLS is never required: a sending MTA that cannot do it still delivers.
    disabledCommands: options.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : {}),
    size: options.maxBytes,
    // The client's name is never used: no PTR query for every connection (DNS is asked only
    // through the resolver that has a timeout and a cache, SECURITY.md 50).
    disableReverseLookup: true,
    logger: false,
    onRcptTo(address, session, callback) {
      resolveRecipient(options.db, address.address).then(
        (found) => {
          if (found.kind === 'unknown') {
            callback(
              smtpError(550, `5.1.1 <${address.address}>: no such list here (relaying denied)`),
            );
            return;
          }
          // RFC 1870: a message declared larger than the list takes is refused before it comes.
          const limit = found.kind === 'list' ? listLimit(found.list) : null;
          const declared = declaredSize(session);
          if (limit !== null && declared !== null && declared > limit) {
            callback(
              smtpError(552, `5.3.4 <${address.address}> takes messages of at most ${limit} bytes`),
            );
            return;
          }
          const named: Targets = targets.get(session) ?? new Map<string, Target>();
          // One delivery per list, however many of its spellings the envelope names.
          named.set(`${found.kind} ${found.list.id}`, found);
          targets.set(session, named);
          callback();
        },
        (error: unknown) => {
          options.onError?.(error);
          callback(smtpError(451, '4.3.0 Temporary failure, try again later'));
        },
      );
    },
    onData(stream, session, callback) {
      const envelope: InboundEnvelope = {
        mailFrom: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
        client: {
          ip: session.remoteAddress,
          helo: session.hostNameAppearsAs || session.remoteAddress,
        },
      };
      const lists = [...(targets.get(session)?.values() ?? [])].flatMap((target) =>
        target.kind === 'list' ? [target.list] : [],
      );
      targets.delete(session);
      void (async () => {
        const limit = readLimit(lists, options.maxBytes);
        const raw = await readMessageBytes(stream, limit);
        if (raw === null) return smtpError(552, `5.3.4 Message too big: at most ${limit} bytes`);
        if (lists.length === 0) return null;
        const result = await processInbound(
          options.db,
          work,
          lists,
          raw,
          envelope,
          options.held ?? HELD_DEFAULTS,
          options.clock.now(),
        );
        // RFC 5321 §4.2.5: a 4xx would have the sending MTA retry it for days.
        if ('unreadable' in result)
          return smtpError(554, `5.6.0 The message cannot be read: ${result.unreadable}`);
        for (const received of result.outcomes) options.onReceived?.(received);
        return heldQueueRefusal(result.outcomes, options.onError);
      })().then(
        (refusal) => callback(refusal),
        (error: unknown) => {
          if (error instanceof InboundBusyError)
            return callback(smtpError(451, '4.3.2 Too much mail at once, try again later'));
          options.onError?.(error);
          callback(smtpError(451, '4.3.0 Temporary failure, try again later'));
        },
      );
    },
  });
  server.on('error', (error) => options.onError?.(error));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => resolve());
    });
  } catch (error) {
    await work.close();
    throw error;
  }
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await work.close();
    },
  };
}
