import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from '../test/dns-server.ts';
import { createDnsResolver, DNS_DEFAULTS } from './dns-resolver.ts';

/** SECURITY.md 50: every DNS lookup of the mail server has a timeout and a cache. */
describe('the mail server’s DNS resolver', () => {
  let dns: TestDnsServer;
  let clock = 0;
  const now = () => clock;
  const options = () => ({ ...DNS_DEFAULTS, servers: [dns.address], timeoutMs: 300 });
  const asked = (question: string) => dns.queries.filter((query) => query === question).length;

  beforeAll(async () => {
    dns = await startDnsServer();
    dns.setTxt('spf.example', 'v=spf1 ip4:192.0.2.1 -all');
    dns.silent.add('slow.example');
  });
  afterAll(() => dns.close());

  it('answers from the configured server, and from its cache until the answer is old', async () => {
    const resolve = createDnsResolver(options(), now);
    expect(await resolve('spf.example', 'TXT')).toEqual([['v=spf1 ip4:192.0.2.1 -all']]);
    expect(await resolve('SPF.example', 'TXT')).toEqual([['v=spf1 ip4:192.0.2.1 -all']]);
    expect(asked('TXT spf.example')).toBe(1);
    clock += DNS_DEFAULTS.cacheSeconds * 1000 + 1;
    await resolve('spf.example', 'TXT');
    expect(asked('TXT spf.example')).toBe(2);
  });

  it('keeps "no such name" as an answer too, for a shorter while', async () => {
    const resolve = createDnsResolver(options(), now);
    for (let i = 0; i < 3; i += 1)
      await expect(resolve('nobody.example', 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    expect(asked('TXT nobody.example')).toBe(1);
    clock += DNS_DEFAULTS.negativeCacheSeconds * 1000 + 1;
    await expect(resolve('nobody.example', 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    expect(asked('TXT nobody.example')).toBe(2);
  });

  it('gives up on a server that never answers within its timeout, and asks again next time', async () => {
    const resolve = createDnsResolver(options(), now);
    const started = performance.now();
    await expect(resolve('slow.example', 'TXT')).rejects.toMatchObject({ code: 'ETIMEOUT' });
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(250);
    expect(waited).toBeLessThan(3000);
    const before = asked('TXT slow.example');
    await expect(resolve('slow.example', 'TXT')).rejects.toMatchObject({ code: 'ETIMEOUT' });
    expect(asked('TXT slow.example')).toBeGreaterThan(before);
  });

  it('asks once for a name asked twice at the same time', async () => {
    const resolve = createDnsResolver(options(), now);
    dns.setTxt('twice.example', 'v=spf1 -all');
    await Promise.all([resolve('twice.example', 'TXT'), resolve('twice.example', 'TXT')]);
    expect(asked('TXT twice.example')).toBe(1);
  });
});
