import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-runner.ts';

/**
 * `serve` that cannot start after its database, its mail listener and its app are up (here: its
 * HTTP port is taken) says why and exits 1. It used to leave them open, so the process hung on
 * the SMTP listener instead of exiting, and a supervisor never saw it fail.
 */
describe('serve that cannot start', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-serve-fail-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('closes what it opened and exits 1 when its port is taken', { timeout: 60_000 }, async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = String((taken.address() as net.AddressInfo).port);
    try {
      const result = await Promise.race([
        runCli(dataDir, ['serve'], '', {
          PORT: port,
          HOST: '127.0.0.1',
          SMTP_IN_PORT: '0',
          LOG_LEVEL: 'silent',
        }),
        new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 30_000)),
      ]);
      expect(result).not.toBe('hung');
      if (result === 'hung') return;
      expect(result.code).toBe(1);
      expect(String(result.json?.message)).toMatch(/EADDRINUSE/);
    } finally {
      taken.close();
    }
  });
});
