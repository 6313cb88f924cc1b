import { describe, expect, it } from 'vitest';
import {
  bareCommand,
  mustNotAnswer,
  ownLines,
  parseCommandLocalPart,
  requestCommand,
} from './mail-commands.ts';

const token = 'a'.repeat(43);

/** Issue 25 item 4: what a mail command asks, read as Mailman 3 reads it; SECURITY.md 44. */
describe('mail commands', () => {
  it('reads the command addresses of a list', () => {
    expect(parseCommandLocalPart('community-request')).toEqual({ list: 'community', address: { suffix: 'request' } });
    expect(parseCommandLocalPart('my-list-JOIN')).toEqual({ list: 'my-list', address: { suffix: 'join' } });
    expect(parseCommandLocalPart('community-leave')).toEqual({ list: 'community', address: { suffix: 'leave' } });
    expect(parseCommandLocalPart(`community-confirm+${token}`)).toEqual({
      list: 'community',
      address: { suffix: 'confirm', token },
    });
    expect(parseCommandLocalPart('community')).toBeNull();
    expect(parseCommandLocalPart('community-confirm+short')).toBeNull();
  });

  it('reads -request@ from the subject, a reply’s "confirm TOKEN", or the first line written', () => {
    expect(requestCommand('subscribe', '', 'ann@example.org')).toEqual({ kind: 'join' });
    expect(requestCommand('', 'unsubscribe\n\nthanks', 'ann@example.org')).toEqual({ kind: 'leave' });
    expect(requestCommand('Help', '', 'ann@example.org')).toEqual({ kind: 'help' });
    expect(requestCommand(`Re: confirm ${token}`, '', 'ann@example.org')).toEqual({ kind: 'confirm', token });
    expect(requestCommand('', 'leave me', 'ann@example.org')).toEqual({ kind: 'leave' });
    expect(requestCommand('', 'please do something', 'ann@example.org')).toBeNull();
  });

  it('acts for the sender only: a command naming another address is nobody’s', () => {
    expect(requestCommand('unsubscribe bob@example.org', '', 'ann@example.org')).toBeNull();
    expect(requestCommand('unsubscribe ANN@example.org', '', 'ann@example.org')).toEqual({ kind: 'leave' });
  });

  it('finds a bare command in a reply to the list: what the sender wrote, not what they quote', () => {
    const reply = [
      'unsubscribe',
      '',
      'On Sun, 29 Nov 2026 at 10:00, Demo <community@lists.example> wrote:',
      '> The weekly news.',
      '> --',
      '> To leave, reply with "unsubscribe".',
    ].join('\n');
    expect(ownLines(reply)).toEqual(['unsubscribe']);
    expect(bareCommand('Re: [Community] Weekly news', reply, 'ann@example.org')).toEqual({ kind: 'leave' });
    expect(bareCommand('unsubscribe', '-- \nAnn', 'ann@example.org')).toEqual({ kind: 'leave' });
    // A post that says more, or asks for someone else, or for help, is not a bare command.
    expect(bareCommand('Re: news', 'unsubscribe\nAnd also: lovely garden!', 'ann@example.org')).toBeNull();
    expect(bareCommand('Re: news', 'unsubscribe bob@example.org', 'ann@example.org')).toBeNull();
    expect(bareCommand('help', '', 'ann@example.org')).toBeNull();
    expect(bareCommand('Unsubscribing from things', 'a post about it', 'ann@example.org')).toBeNull();
  });

  it('never answers bounces, daemons, automated mail or a list’s own mail (no loops)', () => {
    expect(mustNotAnswer('', [])).toBe(true);
    expect(mustNotAnswer('MAILER-DAEMON@example.org', [])).toBe(true);
    expect(mustNotAnswer('ann@example.org', [{ name: 'Auto-Submitted', value: 'auto-replied' }])).toBe(true);
    expect(mustNotAnswer('ann@example.org', [{ name: 'Precedence', value: 'bulk' }])).toBe(true);
    expect(mustNotAnswer('ann@example.org', [{ name: 'List-Id', value: '<x.example>' }])).toBe(true);
    expect(mustNotAnswer('ann@example.org', [{ name: 'Auto-Submitted', value: 'no' }])).toBe(false);
  });
});
