import type { CallerInfo } from '../../lib/caller-queries.ts';
import type { Principal } from '../../lib/session.ts';

/** What the header says of who is signed in, and in which account. */
export interface SignedInAs {
  /** The person ("Ada Lovelace (ada@example.org)") or the key ("API key “Nightly export”"). */
  who: string;
  /**
   * The account's name; null for a global principal (the switcher names it), or when the server
   * does not say (spec v2 cannot: the header says so).
   */
  account: string | null;
}

/**
 * From the caller's own administrator entry when the server says who is calling (the `caller.get`
 * extension); else what the sign-in itself told (a username from OAuth, or that the server does not
 * say: features/auth/api/identity.ts).
 */
export function signedInAs(principal: Principal, caller: CallerInfo | undefined): SignedInAs {
  const entry = caller?.administrator;
  const account = caller?.account?.name ?? null;
  if (!entry) return { who: principal.identity, account };
  if (entry.username) {
    const name = [entry.firstname, entry.surname].filter(Boolean).join(' ');
    return { who: name ? `${name} (${entry.username})` : entry.username, account };
  }
  const kind = principal.global ? 'Global API key' : 'API key';
  return { who: entry.description ? `${kind} “${entry.description}”` : kind, account };
}
