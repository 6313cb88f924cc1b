/**
 * What the header says of who signed in when the server names nobody: spec v2 has no "who am I"
 * (the reference server's `caller.get` extension names the person or key, app/layout overrides
 * this then), and its token response is not promised to name the user (spec §5.2). Said plainly
 * rather than guessed (issue 15 item 2).
 */
export function identityOf(
  method: 'key' | 'oauth',
  global: boolean,
  username: string | null,
): string {
  if (username !== null) return username;
  if (method === 'oauth') return 'OAuth sign-in (the server does not say whose)';
  return `${global ? 'Global API key' : 'API key'} (the server does not say which)`;
}
