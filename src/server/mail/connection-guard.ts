import type { SMTPServer, SMTPServerSession } from 'smtp-server';

/**
 * How long and how many SMTP connections a client may hold (issue 28 item 5: a connection that
 * trickled a byte every 10 s was never cut, and a client could open as many as it liked).
 */
export interface ConnectionLimits {
  /** Silence before the listener closes a connection (smtp-server's idle timeout). */
  socketTimeoutMs: number;
  /**
   * From the connection's start, or the end of its previous message, to the end of the next
   * message's DATA: any byte resets the idle timeout, so a client that trickles is cut by this.
   */
  dataTimeoutMs: number;
  /** Connections one client address may hold at once. */
  maxPerClient: number;
}

/** RFC 5321 §4.5.3.2: 5 minutes for a command, 10 for the data to end; Postfix's cap is near. */
export const CONNECTION_DEFAULTS: ConnectionLimits = {
  socketTimeoutMs: 300_000,
  dataTimeoutMs: 600_000,
  maxPerClient: 10,
};

/** An IPv4 client on a dual-stack socket is the same client: `::ffff:192.0.2.1` is 192.0.2.1. */
const clientOf = (session: SMTPServerSession) =>
  session.remoteAddress.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');

export interface ConnectionGuard {
  /** A refusal (421) for a client over its cap; otherwise the connection counts, and its clock runs. */
  admit(session: SMTPServerSession): (Error & { responseCode: number }) | null;
  /** The message's data is in: its clock stops while the listener decides. */
  received(session: SMTPServerSession): void;
  /** The listener answered the message: the clock runs again for the next one. */
  answered(session: SMTPServerSession): void;
  /** The connection closed, however. */
  left(session: SMTPServerSession): void;
}

export function connectionGuard(server: SMTPServer, limits: ConnectionLimits): ConnectionGuard {
  const clients = new Map<string, Set<string>>();
  const clocks = new Map<string, NodeJS.Timeout>();
  const live = new Set<string>();

  const cut = (id: string) => {
    for (const connection of server.connections)
      if (connection.id === id)
        connection.send(421, 'Too slow: no message came in time, closing the connection');
  };
  const start = (session: SMTPServerSession) => {
    clearTimeout(clocks.get(session.id));
    const clock = setTimeout(() => cut(session.id), limits.dataTimeoutMs);
    clock.unref();
    clocks.set(session.id, clock);
  };
  const stop = (session: SMTPServerSession) => {
    clearTimeout(clocks.get(session.id));
    clocks.delete(session.id);
  };

  return {
    admit(session) {
      const client = clientOf(session);
      const open = clients.get(client) ?? new Set<string>();
      if (open.size >= limits.maxPerClient)
        return Object.assign(
          new Error(`Too many connections from ${client}, try again in a moment`),
          { responseCode: 421 },
        );
      open.add(session.id);
      clients.set(client, open);
      live.add(session.id);
      start(session);
      return null;
    },
    received: stop,
    answered(session) {
      if (live.has(session.id)) start(session);
    },
    left(session) {
      live.delete(session.id);
      stop(session);
      const client = clientOf(session);
      const open = clients.get(client);
      open?.delete(session.id);
      if (open?.size === 0) clients.delete(client);
    },
  };
}
