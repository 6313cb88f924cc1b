import { describe, expect, it } from 'vitest';
import { senderNotice } from './notice.ts';

const settings = {
  hold_subject: 'Held at $LISTNAME: $SUBJECT',
  hold_message: 'Your message "$SUBJECT" to $LISTNAME waits for a moderator.',
  reject_subject: 'Rejected by $LISTNAME',
  reject_message: 'Your message "$SUBJECT" was rejected.',
};

describe('the message back to the sender (spec §2.4 hold_message, reject_message)', () => {
  it('fills $SUBJECT and $LISTNAME; a subject has only $LISTNAME', () => {
    expect(
      senderNotice('hold', settings, { subject: 'Plans', listAddress: 'team@example.org' }),
    ).toEqual({
      subject: 'Held at team@example.org: $SUBJECT',
      body: 'Your message "Plans" to team@example.org waits for a moderator.',
    });
    expect(
      senderNotice('reject', settings, { subject: 'Plans', listAddress: 'team@example.org' }),
    ).toEqual({
      subject: 'Rejected by team@example.org',
      body: 'Your message "Plans" was rejected.',
    });
  });

  it('never lets a line break into the subject (SECURITY.md 37)', () => {
    const notice = senderNotice(
      'hold',
      { ...settings, hold_subject: 'Held\r\nBcc: victim@example.org $LISTNAME' },
      { subject: 'x\r\nBcc: a@b', listAddress: 'team@example.org\nX-Evil: 1' },
    );
    expect(notice.subject).not.toMatch(/[\r\n]/);
    expect(notice.body).toContain('"x Bcc: a@b"');
  });
});
