import * as z from 'zod/mini';
import { ACCOUNT_NOTIFY_APPROVAL, SUBSCRIPTION_MODES } from '../../../../api/constants.ts';
import { AccountName, EmailAddress, RegexSource } from '../../../../api/primitives.ts';
import type {
  AccountCreate,
  AccountDetail,
  AccountUpdate,
} from '../../../../api/schemas/account.ts';

/** Spec §4.7 create: name, description, the initial domain and the initial administrator. */
export const NewAccountForm = z.object({
  name: AccountName,
  description: z.string(),
  domain: z.string(),
  administrator: z.union([z.literal(''), EmailAddress]),
});
export type NewAccountForm = z.infer<typeof NewAccountForm>;
export const NEW_ACCOUNT_FIELDS = ['name', 'description', 'domain', 'administrator'] as const;

export function toAccountCreate(values: NewAccountForm): AccountCreate {
  const domain = values.domain.trim();
  return {
    name: values.name,
    description: values.description.trim(),
    ...(domain === '' ? {} : { domain }),
    ...(values.administrator === '' ? {} : { administrator: values.administrator }),
  };
}

/** Spec §2.7 `notify_approval`, explained. */
export const NOTIFY_APPROVAL_MEANINGS: { value: 0 | 1 | 2 | 3; meaning: string }[] = [
  { value: ACCOUNT_NOTIFY_APPROVAL.none, meaning: 'Do not notify anyone of held messages' },
  {
    value: ACCOUNT_NOTIFY_APPROVAL.notifyListManager,
    meaning: 'Notify the list manager of any held message',
  },
  {
    value: ACCOUNT_NOTIFY_APPROVAL.deleteAllHeld,
    meaning: 'Delete every message held for approval',
  },
  {
    value: ACCOUNT_NOTIFY_APPROVAL.deleteHeldFromNonMembers,
    meaning: 'Delete held messages that are not from a list member',
  },
];

/** Spec §2.4 / §2.7 subscription modes, explained. */
export const SUBSCRIPTION_MEANINGS: Record<(typeof SUBSCRIPTION_MODES)[number], string> = {
  open: 'Open',
  'open+confirm': 'Open, with approval by a list admin',
  closed: 'Closed',
};

/** The lines of a textarea that hold something: one regular expression per line. */
export function linesOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Each line must be a regular expression the contract accepts; the message names the line. */
const regexLines = z.string().check(
  z.superRefine((text, ctx) => {
    text.split('\n').forEach((line, index) => {
      if (line.trim() === '') return;
      const checked = RegexSource.safeParse(line.trim());
      if (!checked.success) {
        ctx.addIssue({
          code: 'custom',
          message: `Line ${index + 1} (${line.trim()}) ${checked.error.issues[0]?.message ?? 'is invalid'}`,
        });
      }
    });
  }),
);

/** Time zones the browser knows (spec §2.7 `timezone`); empty where the runtime cannot say. */
export function knownTimeZones(): string[] {
  const intl = Intl as { supportedValuesOf?: (key: string) => string[] };
  const zones = intl.supportedValuesOf?.('timeZone') ?? [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

export const AccountSettingsForm = z.object({
  name: AccountName,
  description: z.string(),
  timezone: z.string().check(z.trim(), z.minLength(1, 'is required')),
  custom_image: z.string(),
  // Any text in, one of the values out: a value another server sends (a newer mode, spec §2.7) is
  // shown as it is and refused on its field on save, never replaced by the first choice.
  notify_approval: z.pipe(z.string(), z.enum(['0', '1', '2', '3'])),
  subscriptions: z.pipe(z.string(), z.enum(SUBSCRIPTION_MODES)),
  unsubscriptions: z.pipe(z.string(), z.enum(SUBSCRIPTION_MODES)),
  list_delegation: z.boolean(),
  require_list_approval: z.boolean(),
  send_welcome_message_confirmation: z.boolean(),
  send_welcome_message_contacts: z.boolean(),
  welcome_message: z.string(),
  confirmation_subject: z.string(),
  confirmation_message: z.string(),
  restrict_contact: regexLines,
  restrict_contact_subscription: regexLines,
});
export type AccountSettingsForm = z.infer<typeof AccountSettingsForm>;
/** The form's values as edited: the account as read, whatever its server holds. */
export type AccountSettingsValues = z.input<typeof AccountSettingsForm>;
export const ACCOUNT_SETTINGS_FIELDS = Object.keys(
  AccountSettingsForm.shape,
) as (keyof AccountSettingsForm)[];

export function settingsOf(account: AccountDetail): AccountSettingsValues {
  return {
    name: account.name,
    description: account.description,
    timezone: account.timezone,
    custom_image: account.custom_image,
    notify_approval: String(account.notify_approval),
    subscriptions: account.subscriptions,
    unsubscriptions: account.unsubscriptions,
    list_delegation: account.list_delegation,
    require_list_approval: account.require_list_approval,
    send_welcome_message_confirmation: account.send_welcome_message_confirmation,
    send_welcome_message_contacts: account.send_welcome_message_contacts,
    welcome_message: account.welcome_message,
    confirmation_subject: account.confirmation_subject,
    confirmation_message: account.confirmation_message,
    restrict_contact: account.restrict_contact.join('\n'),
    restrict_contact_subscription: account.restrict_contact_subscription.join('\n'),
  };
}

/** Spec §4.7 update with every §2.7 field of the form. */
export function toAccountUpdate(values: AccountSettingsForm): AccountUpdate {
  return {
    ...values,
    timezone: values.timezone.trim(),
    notify_approval: Number(values.notify_approval) as 0 | 1 | 2 | 3,
    restrict_contact: linesOf(values.restrict_contact),
    restrict_contact_subscription: linesOf(values.restrict_contact_subscription),
  };
}
