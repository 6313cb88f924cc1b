/**
 * What "Send a welcome email" will do, said before the administrator is created (issue 27 item
 * 4; spec §2.6 `welcome_email`). The reference server says what its mail holds (`caller.get`:
 * a link to choose a password, `linkDays` days) and sends none when a password is given; any
 * other server sends its own welcome email, whose content this dashboard cannot know.
 */
export function welcomeEmailText(state: {
  /** Days the mailed link works; null: the server does not say what its welcome email holds. */
  linkDays: number | null;
  send: boolean;
  passwordGiven: boolean;
}): { label: string; note: string; offersLink: boolean } {
  if (state.linkDays === null)
    return {
      offersLink: false,
      label: 'Send a welcome email',
      note: 'The server sends its own welcome email (spec §2.6); this dashboard cannot tell what it says, nor whether it lets them choose a password.',
    };
  const label = 'Send a welcome email with a link to choose a password';
  const offersLink = true;
  if (state.passwordGiven)
    return { label, offersLink, note: 'No email is sent: you give them a password here.' };
  if (!state.send)
    return {
      label,
      offersLink,
      note: 'No email is sent: without a password they cannot sign in until an administrator gives them one.',
    };
  return {
    label,
    offersLink,
    note: `They get an email at their username with a link to choose their own password; it works once, for ${String(state.linkDays)} days.`,
  };
}

/**
 * What the page says once a person is created: where their way in went. The reference server
 * mails the link only when no password was given (its caller.get says it does).
 */
export function createdNote(state: {
  username: string;
  linkDays: number | null;
  send: boolean;
  passwordGiven: boolean;
}): string {
  const created = `Created ${state.username}.`;
  if (!state.send) return created;
  if (state.linkDays === null)
    return `${created} The server was asked to send them its welcome email.`;
  if (state.passwordGiven) return `${created} Give them their password in person or by phone.`;
  return `${created} A welcome email with a link to choose their password is on its way to ${state.username}; the link works once, for ${String(state.linkDays)} days.`;
}
