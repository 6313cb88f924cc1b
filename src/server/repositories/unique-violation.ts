/**
 * Whether a database error is a unique-constraint violation, on either dialect: a second writer can
 * pass the service's "already exists" check between its read and its insert.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (!error || typeof error !== 'object' || !('code' in error)) return false;
  const code = error.code;
  // PostgreSQL: unique_violation; better-sqlite3: the extended result code.
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}
