/**
 * The `next` of `/sign-in?next=…`, if it is a path of this app: never another origin (`//evil`,
 * `/\evil`, `https://…`) nor the sign-in pages themselves.
 */
export function safeReturnPath(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return '/';
  try {
    const url = new URL(next, 'http://app.invalid');
    if (url.origin !== 'http://app.invalid') return '/';
    if (url.pathname === '/sign-in' || url.pathname.startsWith('/auth/')) return '/';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/';
  }
}
