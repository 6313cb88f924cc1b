import { OAUTH_PAGE_PATHS } from './paths.ts';

/** The browser's session with the authorization server (sent to /api/2/oauth/ only). */
export const SESSION_COOKIE = 'listkeeper_oauth_session';

/** The value of one cookie of a `Cookie` header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Issue #4: HttpOnly (no script reads it), SameSite=Lax (sent on the top-level navigation that
 * brings the user from the client, not on cross-site form posts), Secure under https, and a path
 * that keeps it away from the API and the dashboard.
 */
export function sessionCookie(value: string, options: { secure: boolean; maxAgeSeconds: number }): string {
  return [
    `${SESSION_COOKIE}=${value}`,
    `Path=${OAUTH_PAGE_PATHS.cookiePath}`,
    `Max-Age=${options.maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}
