import type { HeaderField, PostingList, PostingMessage } from './types.ts';

/** Addresses compare without case and without surrounding space or angle brackets. */
export function normalizeAddress(address: string): string {
  return address
    .trim()
    .replace(/^<(.*)>$/, '$1')
    .trim()
    .toLowerCase();
}

/** Every value of a header field, by case-insensitive name, in order. */
export function headerValues(headers: readonly HeaderField[], name: string): string[] {
  const wanted = name.toLowerCase();
  return headers.filter((field) => field.name.toLowerCase() === wanted).map((field) => field.value);
}

/**
 * The list's RFC 2919 List-Id, `<name>.<domain>`: what the list stamps on its own mail, and so
 * what marks a message as the list's own coming back.
 */
export function listIdFor(list: PostingList): string {
  const at = list.address.lastIndexOf('@');
  const domain = at === -1 ? '' : list.address.slice(at + 1);
  return `${list.name}.${domain}`.toLowerCase();
}

/** The list's bounce address, `<name>-bounces@<domain>`: the envelope sender of its own mail. */
export function bounceAddressOf(list: PostingList): string {
  const at = list.address.lastIndexOf('@');
  return `${list.address.slice(0, at)}-bounces${list.address.slice(at)}`;
}

/** Whether a header value names `address` as one of its addresses (any case, bracketed or not). */
function namesAddress(value: string, address: string): boolean {
  const text = value.toLowerCase();
  for (let at = text.indexOf(address); at !== -1; at = text.indexOf(address, at + 1)) {
    const before = at === 0 ? '' : text.charAt(at - 1);
    const after = text.charAt(at + address.length);
    if (/^[\s<,:;"]?$/.test(before) && /^[\s>,;"]?$/.test(after)) return true;
  }
  return false;
}

/**
 * Why the message is the list's own mail coming back (SECURITY.md 36), or null: it carries the
 * list's List-Id, or an X-Loop or X-BeenThere naming the list's address, or it claims to come from
 * the list itself (its address or its bounce address in From: issue 28, a list re-posted such mail).
 */
export function loopMarker(message: PostingMessage, list: PostingList): string | null {
  const address = normalizeAddress(list.address);
  const listId = listIdFor(list);
  for (const own of [address, normalizeAddress(bounceAddressOf(list))]) {
    if (
      normalizeAddress(message.from.address) === own ||
      headerValues(message.headers, 'From').some((value) => namesAddress(value, own))
    )
      return `it claims to come from the list itself (From: ${own})`;
  }
  for (const name of ['X-Loop', 'X-BeenThere']) {
    if (headerValues(message.headers, name).some((value) => normalizeAddress(value) === address)) {
      return `it carries ${name}: ${list.address}`;
    }
  }
  const ownListId = headerValues(message.headers, 'List-Id').some((value) => {
    const bracketed = /<([^>]*)>/.exec(value);
    return (bracketed?.[1] ?? value).trim().toLowerCase() === listId;
  });
  return ownListId ? `it carries this list’s List-Id <${listId}>` : null;
}

/**
 * Why the message was sent by a program rather than a person, or null: RFC 3834 Auto-Submitted
 * (any value but "no"), Precedence bulk, junk or list, the X-Autoreply/X-Autorespond markers of
 * common auto-responders, or a mailer daemon's bounce.
 */
export function automatedMarker(message: PostingMessage): string | null {
  const autoSubmitted = headerValues(message.headers, 'Auto-Submitted').find((value) => {
    const keyword =
      value
        .trim()
        .toLowerCase()
        .split(/[\s;(]/)[0] ?? '';
    return keyword !== '' && keyword !== 'no';
  });
  if (autoSubmitted !== undefined) return `Auto-Submitted: ${autoSubmitted.trim()}`;
  const precedence = headerValues(message.headers, 'Precedence').find((value) =>
    ['bulk', 'junk', 'list'].includes(value.trim().toLowerCase()),
  );
  if (precedence !== undefined) return `Precedence: ${precedence.trim()}`;
  for (const name of ['X-Autoreply', 'X-Autorespond']) {
    if (headerValues(message.headers, name).length > 0) return `an ${name} header`;
  }
  const local = normalizeAddress(message.from.address).split('@')[0];
  if (local === 'mailer-daemon') return 'a sender of MAILER-DAEMON';
  return null;
}

/** A reply: it names the message it answers (In-Reply-To or References, RFC 5322 §3.6.4). */
export function replyMarker(message: PostingMessage): string | null {
  for (const name of ['In-Reply-To', 'References']) {
    const value = headerValues(message.headers, name).find((candidate) => candidate.trim() !== '');
    if (value !== undefined) return `${name}: ${value.trim()}`;
  }
  return null;
}

/**
 * The header lines the taboo rules see, `Name: value` one field at a time. A message whose headers
 * lack From or Subject (the dashboard's tester builds only some) gets them from the parsed fields.
 */
export function headerLines(message: PostingMessage): string[] {
  const lines = message.headers.map((field) => `${field.name}: ${field.value}`);
  if (headerValues(message.headers, 'From').length === 0) {
    const { name, address } = message.from;
    lines.unshift(`From: ${name ? `${name} <${address}>` : address}`);
  }
  if (headerValues(message.headers, 'Subject').length === 0) {
    lines.push(`Subject: ${message.subject}`);
  }
  return lines;
}
