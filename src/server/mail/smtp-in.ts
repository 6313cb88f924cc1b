import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { bounceAddressHolds } from '../bounces/receive.ts';
import { BOUNCE_DEFAULTS, type BounceSettings } from '../bounces/settings.ts';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { CONNECTION_DEFAULTS, connectionGuard, type ConnectionLimits } from './connection-guard.ts';
import type { DnsOptions } from './dns-resolver.ts';
import { HELD_DEFAULTS, type HeldBounds } from './held-bounds.ts';
import { InboundBusyError, startInboundPool, type InboundWork } from './inbound-work.ts';
import { readMessageBytes } from './message-bytes.ts';
import { declaredSize, listLimit, readLimit } from './message-size.ts';
import type { MembersSetup } from './mail-commands-in.ts';
import {
  processInbound,
  type InboundEnvelope,
  type InboundOutcome,
  type InboundTargets,
} from './pipeline.ts';
import { resolveRecipient, type Recipient } from './recipient.ts';

/** What the listener did with one message for one list, or postmaster@ (tests and logs read it). */
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
  /** Timeouts and the per-client cap (connection-guard.ts); the defaults when not given. */
  limits?: ConnectionLimits;
  /** The members' side: the origin of links in its mails, and the writes' unit of work (issue 25). */
  members?: MembersSetup;
  /** The bounce score's settings (issue 26); the defaults when not given. */
  bounces?: BounceSettings;
  /** After each committed message: the outbox worker looks at once. */
  onReceived?: (received: Received) => void;
  onError?: (error: unknown) => void;
}

type Refusal = Error & { responseCode: number };

/** A refusal with its SMTP code, as smtp-server answers it. */
function smtpError(code: number, message: string): Refusal {
  return Object.assign(new Error(message), { responseCode: code });
}

/**
 * A message no list's held queue could take (held-bounds.ts): 452, try later. When another list
 * took it, SMTP cannot refuse it for one list alone: that list's refusal is logged instead.
 */
function heldQueueRefusal(
  outcomes: Received[],
  log: ((error: unknown) => void) | undefined,
): Refusal | null {
  const refused = outcomes.flatMap(({ list, outcome }) =>
    outcome.action === 'refused' ? [`${list}: ${outcome.reason}`] : [],
  );
  if (refused.length === 0) return null;
  if (refused.length === outcomes.length)
    return smtpError(452, `4.2.2 Not held now (${refused.join('; ')}), try again later`);
  for (const why of refused) log?.(new Error(`A message was not held for ${why}`));
  return null;
}

/** The recipients a transaction names that take mail, one per list or account and kind. */
type Target = Exclude<Recipient, { kind: 'unknown' }>;

function keyOf(target: Target): string {
  switch (target.kind) {
    case 'postmaster':
      return `postmaster ${target.account.id}`;
    case 'list-command':
      return `command ${target.list.id} ${target.command.suffix}`;
    case 'list-bounces':
      // Two deliveries' return paths are two bounces.
      return `bounces ${target.list.id} ${target.token?.toLowerCase() ?? ''}`;
    default:
      return `${target.kind} ${target.list.id}`;
  }
}

function inboundTargets(targets: Iterable<Target>): InboundTargets {
  const all = [...targets];
  return {
    lists: all.flatMap((target) => (target.kind === 'list' ? [target.list] : [])),
    postmasters: all.flatMap((target) => (target.kind === 'postmaster' ? [target.account] : [])),
    commands: all.flatMap((target) =>
      target.kind === 'list-command' ? [{ list: target.list, address: target.command }] : [],
    ),
    bounces: all.flatMap((target) =>
      target.kind === 'list-bounces' ? [{ list: target.list, token: target.token }] : [],
    ),
  };
}

/**
 * The SMTP listener (issue 18 item 2, SECURITY.md 35): it accepts a recipient only when
 * recipient.ts says what it is (a list, a list's bounces, postmaster@ of an account's domain);
 * anything else is refused at RCPT with 550, so the server is never a relay. Each accepted message
 * is read once, on the inbound pool's threads, and run through the pipeline once per list it was
 * sent to. Connections are bounded in time and number per client (connection-guard.ts).
 */
export async function startSmtpIn(
  options: SmtpInOptions,
): Promise<{ port: number; close: () => Promise<void> }> {
  const limits = options.limits ?? CONNECTION_DEFAULTS;
  const work: InboundWork = startInboundPool(options.dns);
  const named = new WeakMap<SMTPServerSession, Map<string, Target>>();
  /** Why a recipient is refused at RCPT TO, or null when it is taken (and remembered). */
  async function rcptVerdict(address: string, session: SMTPServerSession): Promise<Refusal | null> {
    const found = await resolveRecipient(options.db, address);
    if (found.kind === 'unknown')
      return smtpError(550, `5.1.1 <${address}>: no such list here (relaying denied)`);
    if (
      found.kind === 'list-bounces' &&
      found.token !== null &&
      !(await bounceAddressHolds(
        options.db,
        { list: found.list, token: found.token },
        options.clock.now(),
      ))
    )
      return smtpError(550, `5.1.1 <${address}>: names no delivery of this list`);
    // RFC 1870: a message declared larger than the list takes is refused before it comes.
    const limit = found.kind === 'list' ? listLimit(found.list) : null;
    const declared = declaredSize(session);
    if (limit !== null && declared !== null && declared > limit)
      return smtpError(552, `5.3.4 <${address}> takes messages of at most ${limit} bytes`);
    const targets = named.get(session) ?? new Map<string, Target>();
    // One delivery per list, however many of its spellings the envelope names.
    targets.set(keyOf(found), found);
    named.set(session, targets);
    return null;
  }
  const server: SMTPServer = new SMTPServer({
    name: 'listkeeper',
    banner: 'Listkeeper',
    authOptional: true,
    // No STARTTLS without the operator's certificate: smtp-server would offer its own, public,
    // test key instead. TLS is never required: a sending MTA that cannot do it still delivers.
    disabledCommands: options.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : {}),
    size: options.maxBytes,
    socketTimeout: limits.socketTimeoutMs,
    // The client's name is never used: no PTR query for every connection (DNS is asked only
    // through the resolver that has a timeout and a cache, SECURITY.md 50).
    disableReverseLookup: true,
    logger: false,
    onConnect(session, callback) {
      callback(guard.admit(session));
    },
    onClose(session) {
      guard.left(session);
    },
    onRcptTo(address, session, callback) {
      rcptVerdict(address.address, session).then(
        (refusal) => callback(refusal ?? undefined),
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
      const targets = inboundTargets(named.get(session)?.values() ?? []);
      named.delete(session);
      const answer = (refusal: Refusal | null) => {
        guard.answered(session);
        callback(refusal);
      };
      receive(stream, envelope, targets, () => guard.received(session)).then(answer, (error) => {
        if (error instanceof InboundBusyError)
          return answer(smtpError(451, '4.3.2 Too much mail at once, try again later'));
        options.onError?.(error);
        answer(smtpError(451, '4.3.0 Temporary failure, try again later'));
      });
    },
  });
  const guard = connectionGuard(server, limits);

  /** One message: its bytes (within the lists' limits), then the pipeline; the refusal, if any. */
  async function receive(
    stream: Readable,
    envelope: InboundEnvelope,
    targets: InboundTargets,
    received: () => void,
  ): Promise<Refusal | null> {
    const limit = readLimit(targets.lists, options.maxBytes);
    // A client gone before the end (or cut for being slow) has nobody to answer.
    const raw = await readMessageBytes(stream, limit).catch(() => undefined);
    received();
    if (raw === undefined) return null;
    if (raw === null) return smtpError(552, `5.3.4 Message too big: at most ${limit} bytes`);
    if (
      targets.lists.length === 0 &&
      targets.postmasters.length === 0 &&
      (targets.commands ?? []).length === 0 &&
      (targets.bounces ?? []).length === 0
    )
      return null;
    const result = await processInbound(
      options.db,
      work,
      targets,
      raw,
      envelope,
      options.held ?? HELD_DEFAULTS,
      options.clock.now(),
      options.members,
      options.bounces ?? BOUNCE_DEFAULTS,
    );
    // RFC 5321 §4.2.5: a 4xx would have the sending MTA retry it for days.
    if ('unreadable' in result)
      return smtpError(554, `5.6.0 The message cannot be read: ${result.unreadable}`);
    for (const one of result.outcomes) options.onReceived?.(one);
    return heldQueueRefusal(result.outcomes, options.onError);
  }

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
