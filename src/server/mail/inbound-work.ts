import os from 'node:os';
import { Piscina } from 'piscina';
import type {
  PostingAccountDefaults,
  PostingAuthentication,
  PostingDecision,
  PostingList,
  PostingMessage,
  PostingSettings,
} from '../../api/posting-policy/types.ts';
import { readBounceReport, type BounceReport } from '../bounces/report.ts';
import type { DnsOptions } from './dns-resolver.ts';
import type { HeldParts, StoredHeldContent } from './held-content.ts';
import { readInbound, type ReadOutcome } from './inbound-message.ts';
import type { SmtpEnvelope } from './sender-auth.ts';
import * as inThread from './inbound-worker.ts';

/** A message as received, to read; with the SMTP session it came in, to verify its author. */
export interface ReadTask {
  raw: Uint8Array;
  envelope: SmtpEnvelope | null;
}

/**
 * The posting policy's input as plain data: the sender's directory is what is known of them, the
 * body its UTF-8 bytes (inbound-message.ts says why).
 */
export interface DecideTask {
  list: PostingList;
  settings: PostingSettings;
  account: PostingAccountDefaults;
  sender: { address: string; known: { contact: boolean; lists: string[] } };
  message: Omit<PostingMessage, 'body'>;
  body: Uint8Array;
  authentication: PostingAuthentication;
}

/** An accepted message's text and the sender's HTML (empty: none), UTF-8. */
export interface ArchiveTask {
  plain: Uint8Array;
  html: Uint8Array;
}

/** A message to a delivery's return path, as received. */
export interface BounceTask {
  raw: Uint8Array;
}

/** Where the inbound pipeline's heavy steps run. */
export interface InboundWork {
  read(task: ReadTask): Promise<ReadOutcome>;
  decide(task: DecideTask): Promise<PostingDecision>;
  /** The archive's text and HTML (spec §4.5 makes the HTML of a message that came as text only). */
  archive(task: ArchiveTask): Promise<{ plain: string; html: string }>;
  /** A held message's parts, deflated for the queue. */
  pack(task: HeldParts): Promise<StoredHeldContent>;
  /** What a bounce to a delivery's return path says (bounces/report.ts, issue 26). */
  bounce(task: BounceTask): Promise<BounceReport>;
  close(): Promise<void>;
}

/** Thrown by a pool whose queue is full: the listener answers 451 and the sender tries later. */
export class InboundBusyError extends Error {}

/** Messages waiting for a thread, per thread: past them, new mail is turned away for later. */
const QUEUED_PER_THREAD = 8;
/** Tasks a thread runs at once: more than one, so that a task waiting on DNS leaves it working. */
const TASKS_PER_THREAD = 2;
/** A message that needs more than this to read fails alone, never the server (ERR_WORKER_OUT_OF_MEMORY). */
const THREAD_HEAP_MB = 512;

/**
 * The pool of threads that read inbound mail and run the posting policy on it (issue 28 item 2,
 * SECURITY.md 29): mailparser and the taboo rules take seconds on a message of 10 MB, and on the
 * server's thread every other request waited for them. One thread per core but one (the server's
 * own thread keeps a core), at least one; the queue is bounded, so a flood of large messages is
 * turned away (451, try later) rather than held in memory.
 */
export function startInboundPool(dns: DnsOptions): InboundWork {
  const threads = Math.max(1, os.availableParallelism() - 1);
  const pool = new Piscina({
    filename: new URL('./inbound-worker.ts', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    concurrentTasksPerWorker: TASKS_PER_THREAD,
    maxQueue: threads * QUEUED_PER_THREAD,
    // The tasks wait on promises (DNS, a stream): the threads keep their event loops running.
    atomics: 'disabled',
    resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
    // Each thread asks DNS through a resolver of its own (inbound-worker.ts), made from these.
    workerData: { dns },
  });
  const run = async <T>(task: unknown, name: string): Promise<T> => {
    try {
      return (await pool.run(task, { name })) as T;
    } catch (error) {
      // Piscina's words when maxQueue tasks already wait (its errors carry no code).
      if (error instanceof Error && error.message === 'Task queue is at limit')
        throw new InboundBusyError('the inbound queue is full');
      throw error;
    }
  };
  return {
    read: (task) => run<ReadOutcome>(task, 'read'),
    decide: (task) => run<PostingDecision>(task, 'decide'),
    archive: (task) => run<{ plain: string; html: string }>(task, 'archive'),
    pack: (task) => run<StoredHeldContent>(task, 'pack'),
    bounce: (task) => run<BounceReport>(task, 'bounce'),
    close: () => pool.close(),
  };
}

/**
 * The same steps on the calling thread: for `listkeeper demo`, which posts a few small messages
 * of its own through the pipeline and serves no requests; they come by no SMTP session, so their
 * authors are not verified.
 */
export const inThreadWork: InboundWork = {
  read: (task) => readInbound(task.raw, null),
  decide: (task) => Promise.resolve(inThread.decide(task)),
  archive: (task) => Promise.resolve(inThread.archive(task)),
  pack: (task) => Promise.resolve(inThread.pack(task)),
  bounce: (task) => readBounceReport(task.raw),
  close: () => Promise.resolve(),
};
