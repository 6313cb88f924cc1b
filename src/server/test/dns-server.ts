import { createServer, Packet, type DnsHandler, type Resource } from 'dns2';
import { DNS_DEFAULTS, type DnsOptions } from '../mail/dns-resolver.ts';
import { freePort } from './postgres-cluster.ts';

/**
 * A DNS server on a loopback port that answers only the TXT records a test sets (SPF, DKIM and
 * DMARC records): the server's resolver is pointed at it (DNS_SERVERS), so no test asks the
 * internet. Any other name is NXDOMAIN, another type of a known name has no records (NODATA).
 * UDP and TCP on the same port: a long answer (a DKIM key) is truncated over UDP and asked again
 * over TCP, as a real resolver does.
 */
export interface TestDnsServer {
  /** `127.0.0.1:port`, as DNS_SERVERS takes it. */
  address: string;
  /** Sets the TXT records of a name (replacing any); long strings are split into 255-octet pieces. */
  setTxt(name: string, ...records: string[]): void;
  /** Names whose every query is left unanswered: the resolver's timeout must end the wait. */
  silent: Set<string>;
  /** Every question asked, `TYPE name`, in order. */
  queries: string[];
  close(): Promise<void>;
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const txt = new Map<string, string[]>();
  const silent = new Set<string>();
  const queries: string[] = [];
  const handle: DnsHandler = (request, send) => {
    const answer = (response: Packet) => void send(response).catch(() => undefined);
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    if (!question) return answer(response);
    const name = question.name.toLowerCase().replace(/\.$/, '');
    const type =
      Object.entries(Packet.TYPE).find(([, value]) => value === question.type)?.[0] ?? '?';
    queries.push(`${type} ${name}`);
    if (silent.has(name)) return;
    const records = txt.get(name);
    if (!records) {
      response.header.rcode = Packet.RCODE.NXDOMAIN;
    } else if (question.type === Packet.TYPE.TXT) {
      for (const record of records)
        response.answers.push({
          name: question.name,
          type: Packet.TYPE.TXT,
          class: Packet.CLASS.IN,
          ttl: 60,
          data: record.match(/.{1,255}/gs) ?? [''],
        } as Resource);
    }
    answer(response);
  };
  // UDP and TCP on one free port; taken by someone else in between: another port.
  for (let attempt = 0; ; attempt += 1) {
    const server = createServer({ udp: true, tcp: true, handle });
    server.on('requestError', () => undefined);
    try {
      const port = await freePort();
      await server.listen({
        udp: { port, address: '127.0.0.1' },
        tcp: { port, address: '127.0.0.1' },
      });
      return {
        address: `127.0.0.1:${port}`,
        setTxt: (name, ...records) => txt.set(name.toLowerCase(), records),
        silent,
        queries,
        close: () => server.close(),
      };
    } catch (error) {
      await server.close().catch(() => undefined);
      if (attempt >= 5) throw error;
    }
  }
}

/** The mail server's DNS settings for a test: its own server, a short timeout. */
export function dnsOptionsFor(server: TestDnsServer): DnsOptions {
  return { ...DNS_DEFAULTS, servers: [server.address], timeoutMs: 2000 };
}
