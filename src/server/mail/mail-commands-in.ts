import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import { answerMailCommand } from '../members/command-answers.ts';
import { memberLinks } from '../members/links.ts';
import {
  bareCommand,
  commandFor,
  mustNotAnswer,
  type CommandAddress,
} from '../members/mail-commands.ts';
import { toPublicList } from '../members/public-list.ts';
import { linkKey } from '../tokens/signed-link.ts';
import type { InboundMessage } from './inbound-message.ts';
import type { ReceivingList } from './recipient.ts';

/** What the pipeline needs to answer members' commands (issue 25): links' origin, the writes' unit. */
export interface MembersSetup {
  db: Kysely<Database>;
  publicOrigin: () => string;
  unitOfWork: UnitOfWork;
}

/** What became of a command: what it asked, or why it was not answered. */
export type CommandOutcome = { action: 'command'; rule: 'mail-command'; answer: string };

const decoder = new TextDecoder();

/**
 * The sender a command acts for (SECURITY.md 44): the author the message names (a person's reply),
 * else the envelope's. Forged or not, the command only ever mails a confirmation to that address.
 */
function senderOf(message: InboundMessage, mailFrom: string): string {
  return message.from.address || mailFrom;
}

/** Mail to a list's command address (`-request`, `-join`, `-leave`, `-confirm+TOKEN`). */
export async function answerCommandMail(
  setup: MembersSetup | undefined,
  target: { list: ReceivingList; address: CommandAddress },
  message: InboundMessage,
  mailFrom: string,
  now: Date,
): Promise<CommandOutcome> {
  const sender = senderOf(message, mailFrom);
  if (!setup || mustNotAnswer(sender, message.headers))
    return { action: 'command', rule: 'mail-command', answer: 'not answered' };
  const command = commandFor(target.address, message.subject, decoder.decode(message.plain), sender);
  if (!command) return { action: 'command', rule: 'mail-command', answer: 'no command' };
  return answer(setup, target.list, command, sender, now);
}

/**
 * A post to the list that is only a command for its sender (issue 25: "reply with unsubscribe"),
 * answered as one instead of going through the posting policy; null when it is a post.
 */
export async function answerBareCommand(
  setup: MembersSetup | undefined,
  list: ReceivingList,
  message: InboundMessage,
  mailFrom: string,
  now: Date,
): Promise<CommandOutcome | null> {
  if (!setup) return null;
  const sender = senderOf(message, mailFrom);
  const command = bareCommand(message.subject, decoder.decode(message.plain), sender);
  if (!command || mustNotAnswer(sender, message.headers)) return null;
  return answer(setup, list, command, sender, now);
}

async function answer(
  setup: MembersSetup,
  list: ReceivingList,
  command: Parameters<typeof answerMailCommand>[2],
  sender: string,
  now: Date,
): Promise<CommandOutcome> {
  if (!list.domain) return { action: 'command', rule: 'mail-command', answer: 'no domain' };
  const publicList = toPublicList({ ...list, domain: list.domain });
  const links = memberLinks(setup.publicOrigin());
  // Read (or made) outside the write: SQLite's one writer would wait on itself.
  const key = await linkKey(setup.db);
  const answered = await setup.unitOfWork((trx: Kysely<Database>) =>
    answerMailCommand({ db: trx, now, links, linkKey: key }, publicList, command, sender),
  );
  return { action: 'command', rule: 'mail-command', answer: `${command.kind}: ${answered}` };
}
