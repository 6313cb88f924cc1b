/**
 * Mail commands (issue 25 item 4), as GNU Mailman 3 has them: what a mail to a list's command
 * address, or a post to the list that is nothing but a command, asks for. Only reading here; the
 * workflow acts (workflow.ts), always by a confirmation mailed to the address concerned, so a
 * forged `From:` alone makes nobody join or leave (SECURITY.md 44).
 */
export type MailCommand =
  | { kind: 'join' }
  | { kind: 'leave' }
  | { kind: 'help' }
  | { kind: 'confirm'; token: string };

/** The command addresses of a list: `<list>-<suffix>@`, the token of `-confirm+TOKEN`. */
export type CommandAddress =
  | { suffix: 'request' }
  | { suffix: 'join' }
  | { suffix: 'leave' }
  | { suffix: 'confirm'; token: string };

const WORDS: Record<string, MailCommand['kind']> = {
  subscribe: 'join',
  join: 'join',
  unsubscribe: 'leave',
  leave: 'leave',
  signoff: 'leave',
  'remove me': 'leave',
  help: 'help',
};

/** A command word alone, perhaps with "me" or one address after it. */
const COMMAND = /^(subscribe|unsubscribe|join|leave|signoff|remove me|help)(?:\s+(me|\S+@\S+))?\s*[.!]?$/i;
const CONFIRM = /^(?:(?:re|aw|fwd?)\s*:\s*)*confirm\s+([A-Za-z0-9_-]{43})\b/i;
const REPLY_PREFIX = /^((re|fwd?|aw)\s*:\s*)+/i;
/** Only short answers are read: the first lines of a body, never a whole message. */
const MAX_LINES = 200;
const MAX_LINE = 200;

/**
 * The lines a person wrote: the quoted message they answer (`>` lines and the "On … wrote:" line
 * before them) and their signature (after `-- `) left out, blank lines too.
 */
export function ownLines(body: string): string[] {
  const lines = body.split(/\r?\n/, MAX_LINES);
  const signature = lines.findIndex((line) => /^-- ?$/.test(line));
  const written = signature === -1 ? lines : lines.slice(0, signature);
  return written
    .filter((line, index) => {
      if (/^\s*>/.test(line)) return false;
      // The attribution line of a reply: "On Sun, 29 Nov 2026, Ann wrote:", followed by quotes.
      const next = written.slice(index + 1).find((l) => l.trim() !== '');
      return !(/wrote:\s*$/i.test(line) && next !== undefined && /^\s*>/.test(next));
    })
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function wordIn(line: string, sender: string): MailCommand | null {
  if (line.length > MAX_LINE) return null;
  const found = COMMAND.exec(line);
  if (!found) return null;
  const target = found[2];
  // A command for another address is not the sender's to make (SECURITY.md 44).
  if (target && target.toLowerCase() !== 'me' && target.toLowerCase() !== sender.toLowerCase())
    return null;
  const kind = WORDS[(found[1] ?? '').toLowerCase()];
  return kind ? ({ kind } as MailCommand) : null;
}

/**
 * What a mail to `<list>-request@` asks: a confirmation's token in its subject (a reply keeps the
 * subject "confirm TOKEN"), else the command of its subject, else of its first own line.
 */
export function requestCommand(subject: string, body: string, sender: string): MailCommand | null {
  const confirm = CONFIRM.exec(subject.trim());
  if (confirm?.[1]) return { kind: 'confirm', token: confirm[1] };
  const fromSubject = wordIn(subject.replace(REPLY_PREFIX, '').trim(), sender);
  if (fromSubject) return fromSubject;
  const [first] = ownLines(body);
  return first === undefined ? null : wordIn(first, sender);
}

/** What a mail to one of the list's command addresses asks. */
export function commandFor(
  address: CommandAddress,
  subject: string,
  body: string,
  sender: string,
): MailCommand | null {
  switch (address.suffix) {
    case 'join':
      return { kind: 'join' };
    case 'leave':
      return { kind: 'leave' };
    case 'confirm':
      return { kind: 'confirm', token: address.token };
    case 'request':
      return requestCommand(subject, body, sender);
  }
}

/**
 * A post to the list itself that is only a command for its sender's own address (issue 25: "reply
 * with unsubscribe"): its subject is the command and it says nothing else, or what its sender
 * wrote is the command alone. Anything else that looks like one is the posting policy's
 * administrivia rule's to hold.
 */
export function bareCommand(subject: string, body: string, sender: string): MailCommand | null {
  const own = ownLines(body);
  if (own.length === 1 && own[0] !== undefined) {
    const command = wordIn(own[0], sender);
    if (command?.kind !== 'help') return command;
    return null;
  }
  if (own.length === 0) {
    const command = wordIn(subject.replace(REPLY_PREFIX, '').trim(), sender);
    return command?.kind === 'help' ? null : command;
  }
  return null;
}

/** The local part's command, for `<list>-<suffix>` names: the list's name and what it asks. */
export function parseCommandLocalPart(
  local: string,
): { list: string; address: CommandAddress } | null {
  const confirm = /^(.+)-confirm\+([A-Za-z0-9_-]{43})$/.exec(local);
  if (confirm?.[1] && confirm[2]) return { list: confirm[1], address: { suffix: 'confirm', token: confirm[2] } };
  const plain = /^(.+)-(request|join|leave)$/i.exec(local);
  if (plain?.[1] && plain[2])
    return { list: plain[1], address: { suffix: plain[2].toLowerCase() as 'request' | 'join' | 'leave' } };
  return null;
}

/**
 * Mail that must never be answered (RFC 3834 §2, and loops): from nobody (a bounce), from a
 * mailer daemon, automated, or carrying a list's own marks.
 */
export function mustNotAnswer(
  sender: string,
  headers: readonly { name: string; value: string }[],
): boolean {
  if (sender === '' || /^(mailer-daemon|postmaster|noreply|no-reply)@/i.test(sender)) return true;
  const header = (name: string) =>
    headers.filter((h) => h.name.toLowerCase() === name).map((h) => h.value.trim().toLowerCase());
  if (header('auto-submitted').some((value) => value !== 'no')) return true;
  if (header('precedence').some((value) => ['bulk', 'list', 'junk'].includes(value))) return true;
  return header('list-id').length > 0 || header('x-loop').length > 0;
}
