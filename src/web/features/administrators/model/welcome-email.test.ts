import { describe, expect, it } from 'vitest';
import { createdNote, welcomeEmailText } from './welcome-email.ts';

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

describe('what the page says once a person is created (issue 27 item 4)', () => {
  const base = { username: 'pat@example.com', linkDays: 7, send: true, passwordGiven: false };

  it('says where the link went and for how long', () => {
    expect(createdNote(base)).toBe(
      'Created pat@example.com. A welcome email with a link to choose their password is on its way to pat@example.com; the link works once, for 7 days.',
    );
  });

  it('promises no link when a password was given, nothing when no email was asked, and only what another server was asked', () => {
    expect(createdNote({ ...base, passwordGiven: true })).toBe(
      'Created pat@example.com. Give them their password in person or by phone.',
    );
    expect(createdNote({ ...base, send: false })).toBe('Created pat@example.com.');
    expect(createdNote({ ...base, linkDays: null })).toBe(
      'Created pat@example.com. The server was asked to send them its welcome email.',
    );
  });
});
