import type { PostingAccountDefaults, PostingSettings } from './types.ts';

/**
 * A list setting whose null means "use the account default" (spec §2.4), resolved: its value and
 * where the value came from, so that a reason can say "(the account's default)".
 */
export interface Effective<T> {
  value: T;
  source: 'list' | 'account' | 'assumed';
}

/**
 * What the policy assumes when the account's own value is not known: the reference server's
 * defaults for a new account (hold what is not permitted, tell the list manager, open lists).
 */
export const ASSUMED_ACCOUNT_DEFAULTS = {
  message_rejections: 0,
  notify_approval: 1,
  subscriptions: 'open',
  unsubscriptions: 'open',
} as const satisfies Required<{
  [K in keyof PostingAccountDefaults]: NonNullable<PostingAccountDefaults[K]>;
}>;

export interface EffectiveSettings {
  /** Spec §2.4 `message_rejections`: 0–3. */
  message_rejections: Effective<number>;
  /** Spec §2.4 list values 0–1, or the account's 0–3 (§2.7: 2 and 3 delete held messages). */
  notify_approval: Effective<number>;
  /** Spec §2.4 open, open+confirm or closed; as read, a value a newer server adds too. */
  subscriptions: Effective<string>;
  unsubscriptions: Effective<string>;
}

function resolve<T>(own: T | null, account: T | null | undefined, assumed: T): Effective<T> {
  if (own !== null) return { value: own, source: 'list' };
  if (account !== null && account !== undefined) return { value: account, source: 'account' };
  return { value: assumed, source: 'assumed' };
}

export function effectiveSettings(
  settings: Pick<
    PostingSettings,
    'message_rejections' | 'notify_approval' | 'subscriptions' | 'unsubscriptions'
  >,
  account: PostingAccountDefaults,
): EffectiveSettings {
  const assumed = ASSUMED_ACCOUNT_DEFAULTS;
  return {
    message_rejections: resolve<number>(
      settings.message_rejections,
      account.message_rejections,
      assumed.message_rejections,
    ),
    notify_approval: resolve<number>(
      settings.notify_approval,
      account.notify_approval,
      assumed.notify_approval,
    ),
    subscriptions: resolve<string>(
      settings.subscriptions,
      account.subscriptions,
      assumed.subscriptions,
    ),
    unsubscriptions: resolve<string>(
      settings.unsubscriptions,
      account.unsubscriptions,
      assumed.unsubscriptions,
    ),
  };
}

/** `message_rejections 2` with where it came from: "message_rejections 2 (the account's default)". */
export function describeSetting(name: string, effective: Effective<unknown>): string {
  const value = `${name} ${String(effective.value)}`;
  switch (effective.source) {
    case 'list':
      return value;
    case 'account':
      return `${value} (the account’s default)`;
    case 'assumed':
      return `${value} (the account’s default, assumed: it was not known here)`;
  }
}
