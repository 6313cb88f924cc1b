import type { AddressInfo, Socket } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One SMTP transaction the sink took: its envelope and the message. */
export interface SunkMail {
  from: string;
  to: string[];
  raw: Buffer;
  parsed: ParsedMail;
}

/**
 * How the sink turns a transaction down, as a relay in trouble does: a reply code at MAIL FROM or
 * at the end of DATA, or (`drop`) the connection cut at the end of DATA without an answer.
 */
export type SinkRefusal = { at: 'mail' | 'data'; code: number } | 'drop';

export interface SmtpSinkOptions {
  /** The port to listen on (a sink started again where a closed one was); a free one by default. */
  port?: number;
  /**
   * AUTH required: the relay's answer to the credentials, null to let them in or the text of its
   * `535` refusal.
   */
  auth?: (user: string, pass: string) => string | null;
  /**
   * Runs once a transaction is taken (and kept in `mails`) but before the sink answers `250`: the
   * crash test kills the sender here, in the instant a relay has accepted a batch.
   */
  beforeAnswer?: (mail: SunkMail, index: number) => Promise<void> | void;
}

export interface SmtpSink {
  url: string;
  port: number;
  /** Every transaction the sink took, in order. */
  mails: SunkMail[];
  /** Transactions begun (MAIL FROM), taken or not: how often the sender tried. */
  attempts: number;
  /** Set to turn every transaction down until it is set back to null. */
  refusal: SinkRefusal | null;
  /** A recipient's refusal code at RCPT TO (450: try later, 550: no such user), or null. */
  rejectRecipient: ((address: string) => number | null) | null;
  close: () => Promise<void>;
}

function reply(code: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode: code });
}

/**
 * A real SMTP server on a loopback port inside the test process, standing in for the relay
 * SMTP_URL names: it keeps every transaction it accepts, and can refuse, as a relay does.
 */
export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const sockets = new Set<Socket>();
  const server = new SMTPServer({
    authOptional: options.auth === undefined,
    // The test relay speaks plain SMTP on loopback; AUTH over it is what a test of credentials needs.
    allowInsecureAuth: true,
    disabledCommands: options.auth === undefined ? ['AUTH', 'STARTTLS'] : ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      const refused = options.auth?.(auth.username ?? '', auth.password ?? '') ?? null;
      if (refused === null) callback(null, { user: auth.username });
      else callback(reply(535, refused));
    },
    onMailFrom(_address, _session, callback) {
      sink.attempts += 1;
      const refusal = sink.refusal;
      if (refusal !== null && refusal !== 'drop' && refusal.at === 'mail')
        return callback(reply(refusal.code, `${refusal.code} refused by the test relay`));
      callback();
    },
    onRcptTo(address, _session, callback) {
      const code = sink.rejectRecipient?.(address.address) ?? null;
      if (code !== null) return callback(reply(code, `${code} <${address.address}> refused`));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const refusal = sink.refusal;
        if (refusal === 'drop') {
          for (const socket of sockets) socket.destroy();
          return;
        }
        if (refusal !== null && refusal.at === 'data')
          return callback(reply(refusal.code, `${refusal.code} refused by the test relay`));
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then(async (parsed) => {
            const mail: SunkMail = {
              from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              raw,
              parsed,
            };
            sink.mails.push(mail);
            await options.beforeAnswer?.(mail, sink.mails.length - 1);
          })
          .then(
            () => callback(),
            (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
          );
      });
    },
  });
  // A sender killed mid-transaction resets its connection: a relay shrugs that off.
  server.on('error', () => undefined);
  server.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve()),
  );
  const port = (server.server.address() as AddressInfo).port;
  const sink: SmtpSink = {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails: [],
    attempts: 0,
    refusal: null,
    rejectRecipient: null,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return sink;
}
