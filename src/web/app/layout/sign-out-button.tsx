import { useState } from 'react';

/** Ends the session (at the server too, for OAuth); the router then shows the sign-in page. */
export function SignOutButton() {
  const [pending, setPending] = useState(false);
  async function signOut() {
    setPending(true);
    const { signOut: end } = await import('../../features/auth/api/sign-out.ts');
    await end();
  }
  return (
    <button
      type="button"
      className="button small"
      onClick={() => void signOut()}
      disabled={pending}
    >
      {pending ? 'Signing out…' : 'Sign out'}
    </button>
  );
}
