import { plainToHtml } from '../../api/message-content.ts';
import { decidePosting } from '../../api/posting-policy/decide.ts';
import { senderDirectory } from '../../api/posting-policy/directory.ts';
import type { PostingDecision } from '../../api/posting-policy/types.ts';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { workerData } from 'piscina';
import { createDnsResolver, type DnsOptions, type DnsResolve } from './dns-resolver.ts';
import { readInbound, type ReadOutcome } from './inbound-message.ts';
import { packHeldContent, type HeldParts, type StoredHeldContent } from './held-content.ts';
import type { ArchiveTask, BounceTask, DecideTask, ReadTask } from './inbound-work.ts';
import { readBounceReport, type BounceReport } from '../bounces/report.ts';
import { authenticateSender } from './sender-auth.ts';

/**
 * The inbound pipeline's work that costs CPU in proportion to the message, run on the pool's
 * threads (inbound-work.ts, SECURITY.md 29): reading the message, and the posting policy, whose
 * taboo rules scan the whole body. Each export is one task; what goes in and out is plain data.
 */

/**
 * The pool's threads yield the processor to the server's own thread (nice 10, Linux only: the
 * thread's id is read from /proc/thread-self): on a busy machine a message being read must not
 * starve the thread that answers requests (SECURITY.md 29). Elsewhere they run as they are.
 */
function runBehindRequests(): void {
  try {
    const thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(thread) && thread > 0) setPriority(thread, BACKGROUND_NICE);
  } catch {
    // No /proc, or no right to change it: the threads keep the process's priority.
  }
}
const BACKGROUND_NICE = 10;
runBehindRequests();

/** This thread's resolver, made at its first message: its cache serves the thread's messages. */
let resolve: DnsResolve | undefined;

function resolver(): DnsResolve {
  resolve ??= createDnsResolver((workerData as { dns: DnsOptions }).dns);
  return resolve;
}

/** Reads the message and, when it came by SMTP, verifies its author (SPF, DKIM, DMARC). */
export function read(task: ReadTask): Promise<ReadOutcome> {
  const { envelope } = task;
  return readInbound(
    task.raw,
    envelope && ((raw) => authenticateSender(raw, envelope, resolver())),
  );
}

const text = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString();

/** An accepted message's text and HTML for the archive: spec §4.5 makes the HTML when there is none. */
export function archive(task: ArchiveTask): { plain: string; html: string } {
  const plain = text(task.plain);
  return { plain, html: task.html.byteLength > 0 ? text(task.html) : plainToHtml(plain) };
}

/** What a bounce says (issue 26): mailparser reads it, and it may carry a message of 10 MB. */
export function bounce(task: BounceTask): Promise<BounceReport> {
  return readBounceReport(task.raw);
}

/** A held message's parts, deflated for the queue. */
export function pack(task: HeldParts): StoredHeldContent {
  return packHeldContent(task);
}

export function decide(task: DecideTask): PostingDecision {
  const { sender, body, message, ...input } = task;
  return decidePosting({
    ...input,
    message: { ...message, body: text(body) },
    directory: senderDirectory(sender.address, sender.known),
  });
}
