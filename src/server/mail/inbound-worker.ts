import { plainToHtml } from '../../api/message-content.ts';
import { decidePosting } from '../../api/posting-policy/decide.ts';
import { senderDirectory } from '../../api/posting-policy/directory.ts';
import type { PostingDecision } from '../../api/posting-policy/types.ts';
import { workerData } from 'piscina';
import { createDnsResolver, type DnsOptions, type DnsResolve } from './dns-resolver.ts';
import { readInbound, type ReadOutcome } from './inbound-message.ts';
import type { DecideTask, ReadTask } from './inbound-work.ts';
import { authenticateSender } from './sender-auth.ts';

/**
 * The inbound pipeline's work that costs CPU in proportion to the message, run on the pool's
 * threads (inbound-work.ts, SECURITY.md 29): reading the message, and the posting policy, whose
 * taboo rules scan the whole body. Each export is one task; what goes in and out is plain data.
 */

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

/** Spec §4.5: the HTML of a message that has only text, for the archive. */
export function html(task: { plain: string }): string {
  return plainToHtml(task.plain);
}

export function decide(task: DecideTask): PostingDecision {
  const { sender, ...input } = task;
  return decidePosting({ ...input, directory: senderDirectory(sender.address, sender.known) });
}
