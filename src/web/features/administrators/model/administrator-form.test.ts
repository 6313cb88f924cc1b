import { describe, expect, it } from 'vitest';
import { AdministratorCreate, AdministratorUpdate } from '../../../../api/schemas/administrator.ts';
import {
  administratorFormSchema,
  formValuesOf,
  kindOf,
  toCreateInput,
  toUpdateInput,
  versionFields,
} from './administrator-form.ts';
import {
  PERMISSION_GROUPS,
  PERMISSION_PRESETS,
  presetOf,
  summarizePermissions,
} from './permissions.ts';
import { PERMISSIONS } from '../../../../api/constants.ts';

// The empty form as a valid one saves it (the inputs take only the spec's values).
const blank = administratorFormSchema('key').parse(formValuesOf(null));

describe('the administrator form', () => {
  it('needs an email address for a person, not for a key', () => {
    expect(administratorFormSchema('new').safeParse(blank).success).toBe(false);
    expect(administratorFormSchema('key').safeParse(blank).success).toBe(true);
    const person = { ...blank, username: 'ann@example.com' };
    expect(administratorFormSchema('new').safeParse(person).success).toBe(true);
  });

  it('checks the cidr and asks for the limits its permissions turn on', () => {
    const schema = administratorFormSchema('key');
    const paths = (values: typeof blank) =>
      schema.safeParse(values).error?.issues.map((issue) => issue.path.join('.')) ?? [];
    expect(paths({ ...blank, cidr: '10.0.0.0/33' })).toEqual(['cidr']);
    expect(paths({ ...blank, cidr: ' 10.0.0.0/8 ' })).toEqual([]);
    expect(paths({ ...blank, permissions: ['limit_lists', 'limit_metadata'] })).toEqual([
      'limit_lists',
      'limit_metadata',
    ]);
    expect(
      paths({
        ...blank,
        permissions: ['limit_lists', 'limit_metadata'],
        limit_lists: ['news'],
        limit_metadata: ['', ' region ', ''],
      }),
    ).toEqual([]);
  });

  it('builds inputs the contract accepts, clearing limits whose permission is off', () => {
    const values = {
      ...blank,
      username: 'ann@example.com',
      permissions: ['list' as const],
      limit_lists: ['news'],
      limit_metadata: ['region'],
    };
    const create = toCreateInput('new', values);
    expect(AdministratorCreate.parse(create)).toEqual(create);
    expect(create).toMatchObject({ limit_lists: [], limit_metadata: [], welcome_email: true });
    expect(create).not.toHaveProperty('cidr');

    const key = toUpdateInput('key', { ...values, description: 'CI', cidr: '' });
    expect(AdministratorUpdate.parse(key)).toEqual(key);
    expect(key).toMatchObject({ description: 'CI', cidr: null });
    expect(key).not.toHaveProperty('username');
    expect(toUpdateInput('person', values)).not.toHaveProperty('description');
  });

  it('sends a typed password for a person only, and makes a key entry from a description', () => {
    const person = toCreateInput('new', {
      ...blank,
      username: 'p@example.com',
      password: 'twelve chars!',
    });
    expect(AdministratorCreate.parse(person)).toEqual(person);
    expect(person).toMatchObject({ password: 'twelve chars!' });
    expect(toCreateInput('new', { ...blank, username: 'p@example.com' })).not.toHaveProperty(
      'password',
    );
    const key = toCreateInput('new-key', {
      ...blank,
      description: ' Nightly export ',
      password: 'ignored here!',
    });
    expect(AdministratorCreate.parse(key)).toEqual(key);
    expect(key).toMatchObject({ description: 'Nightly export' });
    expect(key).not.toHaveProperty('username');
    expect(key).not.toHaveProperty('password');
    const schema = administratorFormSchema('new-key');
    expect(schema.safeParse({ ...blank, description: ' ' }).success).toBe(false);
    expect(
      administratorFormSchema('new').safeParse({ ...blank, username: 'a@b.co', password: 'short' })
        .success,
    ).toBe(false);
  });
});

describe('values another server adds (spec §2.6)', () => {
  it('keeps them as read, names them on save, and saves once they are unticked', () => {
    const read = {
      ...formValuesOf(null),
      username: 'admin@example.org',
      permissions: ['approval', 'webhooks'],
      notifications: ['digest', 'approval'],
    };
    const schema = administratorFormSchema('person');
    expect(
      schema.safeParse(read).error?.issues.map((issue) => [issue.path.join('.'), issue.message]),
    ).toEqual([
      ['permissions', 'holds webhooks, which this dashboard cannot set: untick it to save'],
      ['notifications', 'holds digest, which this dashboard cannot set: untick it to save'],
    ]);
    const unticked = schema.parse({ ...read, permissions: ['approval'], notifications: [] });
    expect(toUpdateInput('person', unticked)).toMatchObject({
      permissions: ['approval'],
      notifications: [],
    });
  });
});

describe('API versions (spec §9)', () => {
  it('tells people, version 2 keys and version 1 administrators apart by api', () => {
    expect([0, 1, 2].map((api) => kindOf({ api }))).toEqual(['person', 'v1', 'key']);
  });

  it('sends only the fields of the administrator’s version', () => {
    const values = { ...blank, username: 'v1-key', description: 'x', cidr: '10.0.0.0/8' };
    const v1 = toUpdateInput('v1', values);
    expect(v1).toMatchObject({ username: 'v1-key' });
    expect(v1).not.toHaveProperty('cidr');
    expect(v1).not.toHaveProperty('description');
    expect(toUpdateInput('person', values)).toMatchObject({ cidr: '10.0.0.0/8' });
    expect(versionFields('v1')).toEqual({
      username: true,
      description: false,
      cidr: false,
      password: false,
    });
    expect(versionFields('key')).toEqual({
      username: false,
      description: true,
      cidr: true,
      password: false,
    });
    expect(versionFields('person')).toMatchObject({ password: true });
  });

  it('needs a username of a version 1 administrator, not an email address, and no cidr', () => {
    const schema = administratorFormSchema('v1');
    expect(schema.safeParse({ ...blank, username: 'legacy' }).success).toBe(true);
    expect(schema.safeParse({ ...blank, username: ' ' }).success).toBe(false);
    // Its cidr is hidden (version 2 only): whatever the server holds there cannot block the form.
    expect(schema.safeParse({ ...blank, username: 'legacy', cidr: 'n/a' }).success).toBe(true);
    expect(administratorFormSchema('key').safeParse({ ...blank, cidr: 'n/a' }).success).toBe(false);
  });
});

describe('typed list limits (group level)', () => {
  it('drops blank lines and refuses names a list cannot have', () => {
    const schema = administratorFormSchema('key');
    const values = {
      ...blank,
      permissions: ['limit_lists' as const],
      limit_lists: ['news', '', ' weekly '],
    };
    expect(schema.safeParse(values).success).toBe(true);
    expect(toUpdateInput('key', values).limit_lists).toEqual(['news', 'weekly']);
    const bad = schema.safeParse({ ...values, limit_lists: ['bad name'] });
    expect(bad.error?.issues.map((issue) => issue.message)).toEqual([
      'holds bad name, which is not a valid list name',
    ]);
  });
});

describe('permissions', () => {
  it('groups every permission of spec §2.6 exactly once', () => {
    const grouped = PERMISSION_GROUPS.flatMap((group) => group.items.map((item) => item.value));
    expect(grouped.toSorted()).toEqual([...PERMISSIONS].toSorted());
  });

  it('names a preset whatever the order, and summarizes', () => {
    const moderator = PERMISSION_PRESETS.find((p) => p.name === 'Moderate and send to lists');
    expect(presetOf([...(moderator?.permissions ?? [])].reverse())).toBe(
      'Moderate and send to lists',
    );
    expect(presetOf(['list'])).toBeNull();
    expect(summarizePermissions([])).toBe('No permissions');
    expect(summarizePermissions(['superadmin'])).toBe('superadmin');
  });
});
