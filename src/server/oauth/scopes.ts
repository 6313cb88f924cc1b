/**
 * The scopes an OAuth client may ask for (spec §5.2 leaves the list open): read and write per area
 * of the API. Each operation needs exactly one (http/operation-policy.ts); a token only ever gets the
 * scopes its administrator's permissions can use (README "OAuth").
 */
export const SCOPES = [
  'contacts:read',
  'contacts:write',
  'lists:read',
  'lists:write',
  'messages:read',
  'messages:write',
  'users:read',
  'users:write',
  'accounts:read',
  'accounts:write',
  'audit:read',
] as const;

export type Scope = (typeof SCOPES)[number];

/** What the consent page tells the person each scope allows. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'contacts:read': 'Read contacts, their email addresses and list memberships',
  'contacts:write': 'Create, change and delete contacts, email addresses and memberships',
  'lists:read': 'Read lists and their settings',
  'lists:write': 'Create, change and delete lists',
  'messages:read': 'Read list messages',
  'messages:write': 'Send and delete list messages',
  'users:read': 'Read administrators',
  'users:write': 'Create, change and delete administrators and their API keys',
  // An account's own administrator: its own account only (api/operations.ts OWN_ACCOUNT).
  'accounts:read': 'Read the accounts of the group, or your own account’s settings',
  'accounts:write': 'Create, change and delete accounts of the group, or change your own account’s settings',
  'audit:read': 'Read the audit log: who changed what, when and from where',
};

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** RFC 6749 §3.3: a space-delimited list; null when it names a scope that does not exist. */
export function parseScope(text: string): Scope[] | null {
  const names = text.split(' ').filter(Boolean);
  if (!names.every(isScope)) return null;
  return SCOPES.filter((scope) => names.includes(scope));
}

/** The stored form: known scopes only (a scope retired later simply stops counting). */
export function scopeSet(text: string): ReadonlySet<Scope> {
  return new Set(text.split(' ').filter(isScope));
}

export function formatScope(scopes: Iterable<Scope>): string {
  const set = new Set(scopes);
  return SCOPES.filter((scope) => set.has(scope)).join(' ');
}
