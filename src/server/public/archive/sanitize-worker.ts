// A thread of sanitizer-pool.ts: one jsdom window, a message's HTML at a time.
import { sanitizeForArchive } from './archive-sanitizer.ts';

export interface SanitizeTask {
  html: string;
  spammode: boolean;
}

export default function sanitize(task: SanitizeTask): string {
  return sanitizeForArchive(task.html, task.spammode);
}
