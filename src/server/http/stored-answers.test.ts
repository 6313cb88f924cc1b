import { describe, expect, it } from 'vitest';
import { accountDetailFixture, listFixture } from '../../api/test-support/fixtures.ts';
import { assertStoredStrictly } from './stored-answers.ts';

describe('assertStoredStrictly: this server stores only what its write rules take', () => {
  it('passes lists and accounts whose settings the write rules take', () => {
    expect(() => assertStoredStrictly('lists.get', listFixture())).not.toThrow();
    expect(() => assertStoredStrictly('lists.list', [listFixture(), listFixture()])).not.toThrow();
    expect(() => assertStoredStrictly('accounts.get', accountDetailFixture())).not.toThrow();
  });

  it('refuses a setting the contract reads but the write rules refuse', () => {
    // Each read by the contract since answers are read by JSON type (another server may hold it).
    expect(() => assertStoredStrictly('lists.get', listFixture({ moderator: 'Jane' }))).toThrow(
      /lists\.get answered a setting its write rules refuse: moderator/,
    );
    expect(() =>
      assertStoredStrictly('lists.list', [listFixture(), listFixture({ memberview: 'everyone' })]),
    ).toThrow(/memberview/);
    expect(() =>
      assertStoredStrictly('accounts.update', accountDetailFixture({ subscriptions: 'maybe' })),
    ).toThrow(/subscriptions/);
  });

  it('leaves other answers to the contract', () => {
    expect(() => assertStoredStrictly('messages.get', { moderator: 'Jane' })).not.toThrow();
  });
});
