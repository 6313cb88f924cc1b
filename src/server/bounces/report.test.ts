import { describe, expect, it } from 'vitest';
import { bounceFixture, type BounceFixture } from '../test/bounce-fixtures.ts';
import { readBounceReport, readBounceText, readDeliveryStatus } from './report.ts';

const delivery = {
  returnPath: 'community-bounces+abcdefghijklmnopqrstuvwxyz234567@acme.example',
  recipient: 'ann@example.org',
};
const read = (name: BounceFixture) => readBounceReport(Buffer.from(bounceFixture(name, delivery)));

/** Issue 26 item 1: what a bounce says, from RFC 3464 reports and the common non-standard ones. */
describe('reading bounces', () => {
  it('reads an RFC 3464 report: Action, Status and Diagnostic-Code of the recipient', async () => {
    expect(await read('postfix-failed')).toEqual({
      kind: 'hard',
      status: '5.1.1',
      reason:
        '550 5.1.1 <ann@example.org>: Recipient address rejected: User unknown in virtual mailbox table',
    });
    expect(await read('postfix-delayed')).toEqual({
      kind: 'temporary',
      status: '4.2.2',
      reason: '452 4.2.2 <ann@example.org>: Mailbox full',
    });
  });

  it('reads the plain bounces of Exim, qmail and Exchange, not the message they quote', async () => {
    expect(await read('exim-failed')).toMatchObject({ kind: 'hard', status: '5.1.1' });
    expect((await read('exim-failed')).reason).toBe(
      '550 5.1.1 <ann@example.org>: Recipient address rejected: User unknown',
    );
    expect(await read('exim-delayed')).toMatchObject({ kind: 'temporary', status: null });
    expect(await read('qmail-failed')).toEqual({
      kind: 'hard',
      status: '5.1.1',
      reason: 'Sorry, no mailbox here by that name. (#5.1.1)',
    });
    expect(await read('exchange-failed')).toMatchObject({ kind: 'hard', status: '5.1.10' });
  });

  it('finds no failure in a report of success or an auto-reply', async () => {
    expect((await read('delivered')).kind).toBeNull();
    expect((await read('auto-reply')).kind).toBeNull();
    expect((await readBounceReport(Buffer.from('not mail at all'))).kind).toBeNull();
  });

  it('takes the worst of several recipients, and a failure without status as one for good', () => {
    const report = [
      'Reporting-MTA: dns; mx.example.org',
      '',
      'Final-Recipient: rfc822; a@example.org',
      'Action: delayed',
      'Status: 4.4.1',
      '',
      'Final-Recipient: rfc822; b@example.org',
      'Action: failed',
      'Status: 5.2.1',
      'Diagnostic-Code: smtp; 550 5.2.1 account disabled',
    ].join('\r\n');
    expect(readDeliveryStatus(report)).toHaveLength(2);
    expect(readDeliveryStatus(report)[1]).toEqual({
      kind: 'hard',
      status: '5.2.1',
      reason: '550 5.2.1 account disabled',
    });
    expect(readDeliveryStatus('Final-Recipient: rfc822; a@x\nAction: failed')).toEqual([
      { kind: 'hard', status: null, reason: 'failed' },
    ]);
    // A 4.x.x status with "failed": the MTA gave up on a temporary cause; still not counted.
    expect(readDeliveryStatus('Action: failed\nStatus: 4.4.7')[0]?.kind).toBe('temporary');
  });

  it('reads codes, not IP addresses or version numbers, and keeps the reason to one line', () => {
    expect(readBounceText('host [10.4.5.6] is Exim 4.96.2: fine').kind).toBeNull();
    expect(readBounceText('Remote host said: 550 Requested action not taken').kind).toBe('hard');
    expect(readBounceText('Mailbox quota exceeded; we will retry').kind).toBe('temporary');
    const long = readBounceText(`550 5.1.1 ${'x'.repeat(1000)}\r\nnext`);
    expect(long.reason.length).toBeLessThanOrEqual(300);
    expect(long.reason).not.toMatch(/[\r\n]/);
  });
});
