import type { AuditChange } from '../../api/schemas/audit.ts';

/**
 * SECURITY.md 49: the audit log never holds a secret's value: passwords and their hashes, the
 * write-only `archive_password` (spec §2.4), API keys and their hashes (§5.1), tokens, client
 * secrets. The subjects never read them (api-subjects/…); this is the second line, run on every
 * entry as it is written: a field of one of these names keeps only whether it was set.
 */
export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  'password',
  'password_hash',
  'archive_password',
  'archive_password_hash',
  'key',
  'key_hash',
  'token',
  'token_hash',
  'access_token',
  'refresh_token',
  'client_secret',
  'secret_hash',
]);

/** A change to a secret: that it was set (or cleared), never to what. */
export function secretChange(field: string, set: boolean): AuditChange {
  return { field, secret: true, new: set };
}

/** `value` with every secret taken out: a secret field's change says only that it was set. */
export function withoutSecrets<T>(value: T): T {
  return scrub(value) as T;
}

function scrub(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrub);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const field = (value as { field?: unknown }).field;
  if (typeof field === 'string' && SECRET_FIELDS.has(field) && isChange(value))
    return secretChange(field, value.secret === true ? value.new === true : value.new != null);
  const kept: Record<string, unknown> = {};
  for (const [key, inner] of entries) {
    if (SECRET_FIELDS.has(key)) continue;
    // A key from account data (a custom field) may be `__proto__`: kept as an own key.
    Object.defineProperty(kept, key, {
      value: scrub(inner),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return kept;
}

function isChange(value: object): value is AuditChange {
  return 'field' in value && ('old' in value || 'new' in value || 'secret' in value);
}
