/** The fixed-value list settings (spec §2.4) as words: the form's choices and the change summary. */
export interface Choice<T> {
  value: T;
  label: string;
}

export const ACCOUNT_DEFAULT = 'Use the account default';

export const MESSAGE_REJECTION_CHOICES: Choice<number | null>[] = [
  { value: null, label: ACCOUNT_DEFAULT },
  { value: 0, label: 'Hold them for approval' },
  { value: 1, label: 'Hold them if the sender is a contact of the account, otherwise reject' },
  { value: 2, label: 'Reject them' },
  { value: 3, label: 'Hold every message for approval; reject those not permitted' },
];

export const NOTIFY_APPROVAL_CHOICES: Choice<number | null>[] = [
  { value: null, label: ACCOUNT_DEFAULT },
  { value: 0, label: 'Do not notify' },
  { value: 1, label: 'Notify the list manager of every held message' },
];

export const SUBSCRIPTION_CHOICES: Choice<string | null>[] = [
  { value: null, label: 'Use the account setting' },
  { value: 'open', label: 'Open: anyone may' },
  { value: 'open+confirm', label: 'Open, with approval by a list administrator' },
  { value: 'closed', label: 'Closed' },
];

export const MEMBERVIEW_CHOICES: Choice<string>[] = [
  { value: '', label: 'No' },
  { value: 'noemail', label: 'Members see the other members, without addresses' },
  { value: 'withemail', label: 'Members see the other members, with addresses' },
  { value: 'all-noemail', label: 'Anyone sees the members, without addresses' },
  { value: 'all-withemail', label: 'Anyone sees the members, with addresses' },
];

/** The choices of each fixed-value field, by field name. */
export const CHOICES_BY_FIELD: Record<string, Choice<unknown>[]> = {
  message_rejections: MESSAGE_REJECTION_CHOICES,
  notify_approval: NOTIFY_APPROVAL_CHOICES,
  subscriptions: SUBSCRIPTION_CHOICES,
  unsubscriptions: SUBSCRIPTION_CHOICES,
  memberview: MEMBERVIEW_CHOICES,
};
