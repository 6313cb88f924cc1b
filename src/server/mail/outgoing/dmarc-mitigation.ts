import type { DmarcPolicy } from '../received-authentication.ts';
import type { Mailbox, Step } from './draft.ts';

/** The policies under which a copy that fails DMARC is refused or sent to spam (RFC 9989 §4.7). */
const ENFORCED: ReadonlySet<DmarcPolicy> = new Set(['reject', 'quarantine', 'unknown']);

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/**
 * Issue 26 item 2, DMARC mitigation (Mailman 3's `munge_from`). A list changes a post (prefix,
 * footer) and sends it from its own servers: the author's DKIM signature breaks and SPF names the
 * list, so a copy From a domain that publishes `p=reject` or `p=quarantine` is refused or sent to
 * spam, and its bounces would pause innocent members. Such copies go out From the list,
 * `"Anne Person via Community" <community@…>`, whose own DKIM signature aligns; the author is in
 * Reply-To, or in Cc when the list's `reply_to` takes Reply-To. So is a post that came by SMTP
 * whose policy is not known (the lookup failed or timed out): sent as the list's, it cannot be
 * refused. A post nobody verified (sent through the API by an administrator, mail kept before the
 * check) goes out as it always has. `munge_from_always` does it for every post. A post From the
 * list's own domain is left as it is. The archive and digests keep the author: this shapes only
 * the members' copies.
 */
export const dmarcMitigation: Step = (draft, { list, post }) => {
  const policy = post.received?.dmarc ?? 'none';
  const listDomain = domainOf(list.address);
  if (domainOf(draft.from.address) === listDomain) return draft;
  if (!list.settings.munge_from_always && !ENFORCED.has(policy)) return draft;
  const author: Mailbox = draft.from;
  const name = author.name || author.address.slice(0, author.address.lastIndexOf('@'));
  return {
    ...draft,
    from: { name: `${name} via ${displayName(list.name)}`, address: list.address },
    ...(draft.replyTo ? { cc: author } : { replyTo: author }),
  };
};

/** The list as a person reads it: its name capitalized, as Mailman 3's `display_name` is. */
function displayName(listName: string): string {
  return `${listName.charAt(0).toUpperCase()}${listName.slice(1)}`;
}
