import { Piscina } from 'piscina';
import type { SanitizeTask } from './sanitize-worker.ts';

/**
 * DOMPurify over jsdom takes about 1.5 ms per kilobyte of HTML (a 100 kB newsletter: 150 ms),
 * too long for the thread that answers every request (SECURITY.md 29): messages are sanitized on
 * worker threads, each with its own jsdom window, started when the first message is shown and
 * ended after a minute without one.
 */
export interface SanitizerPool {
  sanitize(task: SanitizeTask): Promise<string>;
  close(): Promise<void>;
}

const IDLE_MS = 60_000;

export function sanitizerPool(threads = 2): SanitizerPool {
  let pool: Piscina<SanitizeTask, string> | undefined;
  return {
    sanitize(task) {
      pool ??= new Piscina<SanitizeTask, string>({
        filename: new URL('./sanitize-worker.ts', import.meta.url).href,
        minThreads: 0,
        maxThreads: threads,
        idleTimeout: IDLE_MS,
      });
      return pool.run(task);
    },
    async close() {
      const closing = pool;
      pool = undefined;
      await closing?.destroy();
    },
  };
}
