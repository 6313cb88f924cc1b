import { describe, expect, it } from 'vitest';
import { welcomeEmailText } from './welcome-email.ts';

describe('what "Send a welcome email" will do (issue 27 item 4)', () => {
  it('names the link and its lifetime where the server says what its mail holds', () => {
    expect(welcomeEmailText({ linkDays: 7, send: true, passwordGiven: false }).note).toMatch(
      /link to choose their own password; it works once, for 7 days/,
    );
  });

  it('says no email goes when a password is given or the box is unticked', () => {
    expect(welcomeEmailText({ linkDays: 7, send: true, passwordGiven: true }).note).toMatch(
      /^No email is sent: you give them a password/,
    );
    expect(welcomeEmailText({ linkDays: 7, send: false, passwordGiven: false }).note).toMatch(
      /^No email is sent: without a password/,
    );
  });

  it('promises nothing of another server’s mail', () => {
    const text = welcomeEmailText({ linkDays: null, send: true, passwordGiven: false });
    expect(text.label).toBe('Send a welcome email');
    expect(text.note).toMatch(/cannot tell what it says/);
  });
});
