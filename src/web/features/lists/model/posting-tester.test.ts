import { describe, expect, it } from 'vitest';
import { decidePosting } from '../../../../api/posting-policy/decide.ts';
import type { Contact } from '../../../../api/schemas/contact.ts';
import {
  EMPTY_TESTER_MESSAGE,
  NOBODY,
  factsFromContact,
  testerInput,
  testerSize,
  testerHeaders,
  type TesterSettings,
} from './posting-tester.ts';

const settings: TesterSettings = {
  moderate: 6,
  message_rejections: 2,
  notify_approval: null,
  subscriptions: null,
  unsubscriptions: null,
  restrict_post_allowed_emails: [],
  restrict_post_banned_emails: [],
  restrict_post_lists: ['news'],
  taboo_headers: ['(?i)free money'],
  taboo_body: [],
  hold_automated: true,
  hold_replies: false,
  maxlength: 10,
  send_hold_message: true,
  send_reject_message: true,
};

const message = {
  ...EMPTY_TESTER_MESSAGE,
  sender: 'ada@example.org',
  subject: 'Hello',
  body: 'Hi',
};

function decide(
  overrides: Partial<typeof message>,
  facts = NOBODY,
  changes: Partial<TesterSettings> = {},
) {
  const built = testerInput(
    'news',
    { ...settings, ...changes },
    { ...message, ...overrides },
    facts,
    {},
  );
  if (!('input' in built)) throw new Error(built.problem);
  return decidePosting(built.input);
}

describe('the posting tester’s input', () => {
  it('a member of the list may post; anyone else is rejected, naming the rule', () => {
    expect(decide({}, { contact: true, lists: ['news'] }).action).toBe('accept');
    expect(decide({})).toMatchObject({ action: 'reject', rule: 'not-permitted' });
  });

  it('the toggles and fields reach the rules: taboo subject, program, size', () => {
    const member = { contact: true, lists: ['news'] };
    expect(decide({ subject: 'FREE MONEY inside' }, member)).toMatchObject({
      action: 'hold',
      rule: 'taboo-header',
    });
    expect(decide({ automated: true }, member)).toMatchObject({
      action: 'hold',
      rule: 'automated',
    });
    expect(decide({ attachmentsKb: 11 }, member)).toMatchObject({
      action: 'reject',
      rule: 'too-large',
    });
  });

  it('refuses to guess with a moderate or maxlength the form refuses', () => {
    expect(testerInput('news', { ...settings, moderate: Number.NaN }, message, NOBODY, {})).toEqual(
      {
        problem: expect.stringContaining('moderate') as unknown,
      },
    );
    expect(testerInput('news', { ...settings, maxlength: -1 }, message, NOBODY, {})).toEqual({
      problem: expect.stringContaining('size') as unknown,
    });
  });

  it('builds From with the name, and the headers the toggles stand for', () => {
    expect(testerHeaders({ ...message, name: 'Ada', reply: true, automated: true })).toEqual([
      { name: 'From', value: 'Ada <ada@example.org>' },
      { name: 'Subject', value: 'Hello' },
      { name: 'In-Reply-To', value: '<earlier-message@list.invalid>' },
      { name: 'Auto-Submitted', value: 'auto-replied' },
    ]);
    const headers = testerHeaders(message);
    expect(testerSize({ ...message, body: 'é' }, headers)).toBe(
      'From: ada@example.org\r\nSubject: Hello\r\n\r\n'.length + 2,
    );
  });

  it('reads a contact look-up: a contact, and member of the lists of its memberships', () => {
    expect(factsFromContact(undefined)).toEqual(NOBODY);
    const contact = {
      id: 1,
      firstname: '',
      surname: '',
      created: '',
      notes: '',
      emails: [],
      lists: [
        { id: 1, contact: 1, list: 'news', digest: null },
        { id: 2, contact: 1, list: 'team', digest: true },
      ],
    } satisfies Contact;
    expect(factsFromContact(contact)).toEqual({ contact: true, lists: ['news', 'team'] });
  });
});
