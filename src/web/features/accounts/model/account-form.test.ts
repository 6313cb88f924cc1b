import { describe, expect, it } from 'vitest';
import { AccountCreate, AccountUpdate } from '../../../../api/schemas/account.ts';
import {
  AccountSettingsForm,
  NewAccountForm,
  knownTimeZones,
  toAccountCreate,
  toAccountUpdate,
} from './account-form.ts';

const settings: AccountSettingsForm = {
  name: 'acme',
  description: '',
  timezone: 'Europe/Paris',
  custom_image: '',
  notify_approval: '2',
  subscriptions: 'open',
  unsubscriptions: 'closed',
  list_delegation: false,
  require_list_approval: true,
  send_welcome_message_confirmation: false,
  send_welcome_message_contacts: false,
  welcome_message: '',
  confirmation_subject: '',
  confirmation_message: '',
  restrict_contact: '@acme\\.example$\n\n@partner\\.example$',
  restrict_contact_subscription: '',
};

describe('the account forms', () => {
  it('creates with the optional fields left out when blank', () => {
    const values = NewAccountForm.parse({
      name: 'acme',
      description: '',
      domain: '',
      administrator: '',
    });
    const input = toAccountCreate(values);
    expect(AccountCreate.parse(input)).toEqual(input);
    expect(input).toEqual({ name: 'acme', description: '' });
    expect(NewAccountForm.safeParse({ ...values, administrator: 'nope' }).success).toBe(false);
    expect(NewAccountForm.safeParse({ ...values, name: 'bad name' }).success).toBe(false);
  });

  it('checks every restrict_contact line and names the bad one', () => {
    const bad = AccountSettingsForm.safeParse({ ...settings, restrict_contact: 'ok\n[' });
    expect(bad.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['restrict_contact', 'Line 2 ([) is not a valid regular expression'],
    ]);
  });

  it('updates with arrays of expressions and a numeric notify_approval', () => {
    const input = toAccountUpdate(AccountSettingsForm.parse(settings));
    expect(AccountUpdate.parse(input)).toEqual(input);
    expect(input.restrict_contact).toEqual(['@acme\\.example$', '@partner\\.example$']);
    expect(input.restrict_contact_subscription).toEqual([]);
    expect(input.notify_approval).toBe(2);
  });

  it('offers the runtime time zones, UTC included', () => {
    const zones = knownTimeZones();
    expect(zones).toContain('UTC');
    expect(zones).toContain('Europe/Paris');
  });
});
