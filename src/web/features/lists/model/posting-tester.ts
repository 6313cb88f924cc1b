import { MODERATE_MAX } from '../../../../api/constants.ts';
import type { Contact } from '../../../../api/schemas/contact.ts';
import { senderDirectory } from '../../../../api/posting-policy/directory.ts';
import type {
  HeaderField,
  PostingAccountDefaults,
  PostingAction,
  PostingInput,
  PostingSettings,
} from '../../../../api/posting-policy/types.ts';

/**
 * The "what would happen" tester of the list settings page: a message typed by hand, what is known
 * of its sender, and the form's current (unsaved) settings, turned into the posting policy's input.
 * The policy itself (src/api/posting-policy) is the one the server runs.
 */

export interface TesterMessage {
  sender: string;
  name: string;
  subject: string;
  body: string;
  /** Answers a list message: In-Reply-To is set. */
  reply: boolean;
  /** Sent by a program: Auto-Submitted: auto-replied. */
  automated: boolean;
  /** Attachments' size, KB, as sent: counts against maxlength. */
  attachmentsKb: number;
}

export const EMPTY_TESTER_MESSAGE: TesterMessage = {
  sender: '',
  name: '',
  subject: '',
  body: '',
  reply: false,
  automated: false,
  attachmentsKb: 0,
};

/** What the policy needs to know of the sender: a contact of the account, and of which lists a member. */
export interface SenderFacts {
  contact: boolean;
  lists: string[];
}

export const NOBODY: SenderFacts = { contact: false, lists: [] };

/** From one contact look-up (`GET /contacts/?email=`): the contact's memberships by list name. */
export function factsFromContact(contact: Contact | undefined): SenderFacts {
  if (!contact) return NOBODY;
  return { contact: true, lists: [...new Set(contact.lists.map((membership) => membership.list))] };
}

/** Where the tester's list pretends to live: the dashboard does not know the account's domain. */
const TESTER_DOMAIN = 'list.invalid';

export function testerHeaders(message: TesterMessage): HeaderField[] {
  const from = message.name.trim()
    ? `${message.name.trim()} <${message.sender.trim()}>`
    : message.sender.trim();
  const headers: HeaderField[] = [
    { name: 'From', value: from },
    { name: 'Subject', value: message.subject },
  ];
  if (message.reply) headers.push({ name: 'In-Reply-To', value: '<earlier-message@list.invalid>' });
  if (message.automated) headers.push({ name: 'Auto-Submitted', value: 'auto-replied' });
  return headers;
}

/** The size the message would have: its header lines and body as UTF-8, and its attachments. */
export function testerSize(message: TesterMessage, headers: HeaderField[]): number {
  const text = `${headers.map((h) => `${h.name}: ${h.value}`).join('\r\n')}\r\n\r\n${message.body}`;
  const attachments = Number.isFinite(message.attachmentsKb)
    ? Math.max(0, message.attachmentsKb)
    : 0;
  return new TextEncoder().encode(text).length + Math.round(attachments * 1024);
}

/** The form's values the policy reads (the form may hold values its checks refuse). */
export type TesterSettings = Omit<PostingSettings, 'moderate' | 'maxlength'> & {
  moderate: number;
  maxlength: number;
};

/**
 * The policy's input, or what must be fixed first. The settings are the form's, saved or not;
 * `account` holds the account defaults the page chose to assume.
 */
export function testerInput(
  listName: string,
  settings: TesterSettings,
  message: TesterMessage,
  facts: SenderFacts,
  account: PostingAccountDefaults,
): { input: PostingInput } | { problem: string } {
  if (
    !Number.isInteger(settings.moderate) ||
    settings.moderate < 0 ||
    settings.moderate > MODERATE_MAX
  ) {
    return { problem: 'The moderate value above is not valid: fix it to try a message.' };
  }
  if (!Number.isInteger(settings.maxlength) || settings.maxlength < 0) {
    return { problem: 'The largest message size is not valid: fix it to try a message.' };
  }
  const headers = testerHeaders(message);
  return {
    input: {
      list: { name: listName, address: `${listName}@${TESTER_DOMAIN}` },
      settings,
      account,
      directory: senderDirectory(message.sender, facts),
      message: {
        from: { address: message.sender.trim(), name: message.name.trim() },
        subject: message.subject,
        headers,
        body: message.body,
        size: testerSize(message, headers),
      },
    },
  };
}

/** Each action in words, as the result's heading. */
export const ACTION_WORDS: Record<PostingAction, string> = {
  accept: 'Sent to the list',
  hold: 'Held for approval',
  reject: 'Rejected',
  discard: 'Dropped without a word',
};
