import type Mail from 'nodemailer/lib/mailer/index.js';
import type { ParsedMail } from 'mailparser';
import type { MailingList as NamedList } from '../render.ts';
import type { ReceivedAuthentication } from '../received-authentication.ts';

/** A list its posts go out from: the personal links of a delivery name it by id (issue 25). */
export interface MailingList extends NamedList {
  id: number;
}

/** An archived message on its way to the members (spec §2.5 fields). */
export interface OutgoingPost {
  subject: string;
  fromPhrase: string;
  fromAddress: string;
  messageId: string;
  contentPlain: string;
  contentHtml: string;
  /** The message as received by SMTP, for its attachments and threading headers; absent for API posts. */
  source?: Buffer;
  /** What sender verification found when it came in (issue 26 item 2); absent: nobody verified it. */
  received?: ReceivedAuthentication | null;
}

/** A mailbox as a header names it. */
export interface Mailbox {
  name: string;
  address: string;
}

/**
 * A post on its way out, as the steps (steps.ts) shape it before it is composed once into the
 * template every member's copy is filled from (template.ts). `text` and `html` are what every
 * member reads; `htmlSlot` is where in `html` the member's own footer goes (personal.ts).
 */
export interface Draft {
  from: Mailbox;
  to: string;
  subject: string;
  messageId: string;
  date: Date;
  replyTo?: string | Mailbox;
  cc?: Mailbox;
  inReplyTo?: string;
  references?: string | string[];
  headers: Record<string, string>;
  text: string;
  html: string;
  htmlSlot: number;
  attachments: Mail.Attachment[];
  /** Whether members may leave by themselves, so the one-click header is offered (spec §2.4). */
  canLeave: boolean;
}

/** What a step reads besides the draft: the list, the post, its parsed source. */
export interface StepInput {
  list: MailingList;
  post: OutgoingPost;
  source: ParsedMail | null;
}

/** One named handler of the outgoing path (STYLE.md, after Mailman 3's): a pure function. */
export type Step = (draft: Draft, input: StepInput) => Draft;
