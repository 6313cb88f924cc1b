import { Resolver } from 'node:dns/promises';

/**
 * How the mail server asks DNS (SECURITY.md 50): every lookup has a timeout, and answers (found or
 * not found) are kept for a while, so that a sender's slow or hostile name servers cost each
 * message at most the timeout, and a flood of mail from one domain asks once. Sender verification
 * (SPF, DKIM, DMARC) asks through it; so will DMARC From-rewriting and ARC.
 */
export interface DnsOptions {
  /**
   * The name servers to ask (`DNS_SERVERS`: `1.2.3.4`, `[::1]:53`, `127.0.0.1:5353`); empty: the
   * system's (/etc/resolv.conf).
   */
  servers: readonly string[];
  /** The longest a lookup may take, whatever the servers do. */
  timeoutMs: number;
  /** How long an answer is kept: one that found records, and one that found none. */
  cacheSeconds: number;
  negativeCacheSeconds: number;
  /** The most answers kept; the oldest go first. */
  maxEntries: number;
}

export const DNS_DEFAULTS: DnsOptions = {
  servers: [],
  timeoutMs: 5000,
  cacheSeconds: 300,
  negativeCacheSeconds: 60,
  maxEntries: 10_000,
};

/** `dns.promises.resolve`'s shape, which mailauth takes as its `resolver`. */
export type DnsResolve = (name: string, rrtype: string) => Promise<unknown>;

/** Errors that say the name or its records do not exist: an answer, kept like one. */
const NOT_FOUND = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME']);

function timeoutError(name: string, rrtype: string): Error {
  return Object.assign(new Error(`DNS ${rrtype} ${name}: no answer in time`), {
    code: 'ETIMEOUT',
  });
}

/**
 * A resolver for `options`. `now` measures elapsed time for the cache (real time: no date is read
 * from it); tests pass their own.
 */
export function createDnsResolver(
  options: DnsOptions,
  now: () => number = () => performance.now(),
): DnsResolve {
  const resolver = new Resolver({ timeout: options.timeoutMs, tries: 1 });
  if (options.servers.length > 0) resolver.setServers([...options.servers]);
  const cache = new Map<string, { until: number; answer: Promise<unknown> }>();

  const lookUp = (name: string, rrtype: string): Promise<unknown> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timeoutError(name, rrtype)), options.timeoutMs);
      timer.unref();
    });
    // c-ares has a timeout per server and try; this one bounds the whole lookup.
    return Promise.race([resolver.resolve(name, rrtype), late]).finally(() => clearTimeout(timer));
  };

  return (name, rrtype) => {
    const key = `${rrtype} ${name.toLowerCase()}`;
    const cached = cache.get(key);
    if (cached && cached.until > now()) return cached.answer;
    if (cached) cache.delete(key);
    const answer = lookUp(name, rrtype);
    // In flight, a second question waits for the first one's answer.
    cache.set(key, { until: Number.POSITIVE_INFINITY, answer });
    if (cache.size > options.maxEntries) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    answer.then(
      () => keep(key, answer, options.cacheSeconds),
      (error: unknown) => {
        const code = (error as { code?: unknown }).code;
        // Not found is an answer; a timeout or a server failure is asked again next time.
        if (typeof code === 'string' && NOT_FOUND.has(code))
          keep(key, answer, options.negativeCacheSeconds);
        else if (cache.get(key)?.answer === answer) cache.delete(key);
      },
    );
    return answer;
  };

  function keep(key: string, answer: Promise<unknown>, seconds: number): void {
    if (cache.get(key)?.answer === answer)
      cache.set(key, { until: now() + seconds * 1000, answer });
  }
}
