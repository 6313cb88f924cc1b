import { useParams } from 'react-router';
import type { AccountId } from './api-client.ts';

/** The dashboard's sections; the route of each is `/a/:accountId/<section>` or `/<section>`. */
export const SECTIONS = [
  'contacts',
  'lists',
  'messages',
  'held',
  'requests',
  'administrators',
] as const;
export type Section = (typeof SECTIONS)[number];

/** Each section's page title: its heading, and its name where a page is named in words. */
export const SECTION_TITLES: Record<Section, string> = {
  contacts: 'Contacts',
  lists: 'Lists',
  messages: 'Messages',
  held: 'Held messages',
  requests: 'Requests to join and leave',
  administrators: 'Administrators',
};

/** The account in the URL (global principals), or null for an account key's own account. */
export function useAccountId(): AccountId {
  return useParams().accountId ?? null;
}

/** An account's page beyond SECTIONS, offered only where the server has its extension. */
export type ExtensionPage = 'fields';

export function sectionPath(accountId: AccountId, section: Section | ExtensionPage): string {
  return accountId === null ? `/${section}` : `/a/${encodeURIComponent(accountId)}/${section}`;
}

/** The section a pathname is in (`/a/7/lists/x` → `lists`), if any. */
export function sectionOf(pathname: string): Section | null {
  const segments = pathname.split('/').filter(Boolean);
  const candidate = segments[0] === 'a' ? segments[2] : segments[0];
  return SECTIONS.find((section) => section === candidate) ?? null;
}

let lastAccountId: string | null = null;

/** The account a global principal last worked on in this tab (memory only), for links without one. */
export function rememberAccount(accountId: string): void {
  lastAccountId = accountId;
}

export function lastAccount(): string | null {
  return lastAccountId;
}
