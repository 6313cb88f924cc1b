import * as z from 'zod/mini';
import { NOTIFICATIONS, PERMISSIONS } from '../../../../api/constants.ts';
import { EmailAddress, ListName, isCidr } from '../../../../api/primitives.ts';
import type {
  Administrator,
  AdministratorCreate,
  AdministratorUpdate,
} from '../../../../api/schemas/administrator.ts';

/**
 * What the form edits. `kind` follows spec §9 rule 3: a person (`api` 0) has a username, a
 * version 2 key has a description instead, a version 1 administrator (another server's) has a
 * username and no `description` or `cidr`, which apply to version 2 only. The limits are arrays
 * of names that may hold blank lines while being typed.
 */
export type AdministratorKind = 'new' | 'new-key' | 'person' | 'key' | 'v1';

/** Spec §9 rule 2: `api` 0 is a person, otherwise the API version the administrator is for. */
export function kindOf(
  administrator: Pick<Administrator, 'api'>,
): Exclude<AdministratorKind, 'new'> {
  if (administrator.api === 0) return 'person';
  return administrator.api === 1 ? 'v1' : 'key';
}

/**
 * Spec §9 rule 3: the version-specific fields the form shows. A person keeps `cidr`: the reference
 * server restricts the keys retrieved for a person, and its sign-in tokens, by it.
 */
export function versionFields(kind: AdministratorKind) {
  const key = kind === 'key' || kind === 'new-key';
  return {
    username: !key,
    description: key,
    cidr: kind !== 'v1',
    // The reference server's sign-in page takes a person's password; keys do not sign in.
    password: kind === 'new' || kind === 'person',
  };
}

/** A password for the sign-in page: at least 12 characters (the reference server's rule). */
export const PASSWORD_MIN_LENGTH = 12;

function usernameSchema(kind: AdministratorKind) {
  if (kind === 'key' || kind === 'new-key') return z.string();
  // Spec §2.6: an email address for normal administrators; a version 1 key's may be anything.
  return kind === 'v1' ? z.string().check(z.trim(), z.minLength(1, 'is required')) : EmailAddress;
}

/**
 * Any names in, the spec's out (spec §2.6): a permission or notification kind a newer server adds
 * is shown ticked and named on save, which writes only the spec's values (setting replaces all).
 */
function specValues<T extends string>(values: readonly [T, ...T[]]) {
  return z.pipe(
    z.array(z.string()).check(
      z.superRefine((chosen, ctx) => {
        const other = unknownValues(chosen, values);
        if (other.length > 0) {
          ctx.addIssue({
            code: 'custom',
            message: `holds ${other.join(', ')}, which this dashboard cannot set: untick it to save`,
          });
        }
      }),
    ),
    z.array(z.enum(values)),
  );
}

/** The values outside the spec's: shown in a group of their own, so they can be unticked. */
export function unknownValues(chosen: readonly string[], known: readonly string[]): string[] {
  return chosen.filter((value) => !known.includes(value));
}

export function administratorFormSchema(kind: AdministratorKind) {
  return z
    .object({
      username: usernameSchema(kind),
      description:
        kind === 'new-key'
          ? z.string().check(z.trim(), z.minLength(1, 'is required for an API key'))
          : z.string(),
      // Empty: no password is set (or the present one is kept).
      password: z.string().check(
        z.refine((v) => v === '' || v.length >= PASSWORD_MIN_LENGTH, {
          message: `needs at least ${String(PASSWORD_MIN_LENGTH)} characters (the rule for passwords)`,
        }),
      ),
      firstname: z.string(),
      surname: z.string(),
      // Checked only where it is shown: a hidden field must not hold the form back.
      cidr: z.string().check(
        z.refine((v) => !versionFields(kind).cidr || v.trim() === '' || isCidr(v.trim()), {
          message: 'is not a valid IP address or CIDR range (e.g. 203.0.113.0/24)',
        }),
      ),
      custom_image: z.boolean(),
      welcome_email: z.boolean(),
      permissions: specValues(PERMISSIONS),
      notifications: specValues(NOTIFICATIONS),
      limit_lists: z.array(z.string()),
      limit_metadata: z.array(z.string()),
    })
    .check(
      z.superRefine((values, ctx) => {
        const lists = namesOf(values.limit_lists);
        const invalid = lists.find((name) => !ListName.safeParse(name).success);
        if (values.permissions.includes('limit_lists') && invalid !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: ['limit_lists'],
            message: `holds ${invalid}, which is not a valid list name`,
          });
        }
        if (values.permissions.includes('limit_lists') && lists.length === 0) {
          ctx.addIssue({
            code: 'custom',
            path: ['limit_lists'],
            message: 'names at least one list while the limit_lists permission is on',
          });
        }
        if (
          values.permissions.includes('limit_metadata') &&
          namesOf(values.limit_metadata).length === 0
        ) {
          ctx.addIssue({
            code: 'custom',
            path: ['limit_metadata'],
            message: 'names at least one custom field while the limit_metadata permission is on',
          });
        }
      }),
    );
}

/** What the form holds: the administrator as read, whatever its server's values. */
export type AdministratorFormValues = z.input<ReturnType<typeof administratorFormSchema>>;
/** What a valid form saves. */
export type AdministratorFormOutput = z.output<ReturnType<typeof administratorFormSchema>>;
export const ADMINISTRATOR_FORM_FIELDS = [
  'username',
  'description',
  'password',
  'firstname',
  'surname',
  'cidr',
  'permissions',
  'notifications',
  'limit_lists',
  'limit_metadata',
] as const;

/** Typed names may hold blank lines and spaces while being typed. */
function namesOf(lines: readonly string[]): string[] {
  return lines.map((name) => name.trim()).filter((name) => name !== '');
}

export function formValuesOf(administrator: Administrator | null): AdministratorFormValues {
  return {
    username: administrator?.username ?? '',
    description: administrator?.description ?? '',
    password: '',
    firstname: administrator?.firstname ?? '',
    surname: administrator?.surname ?? '',
    cidr: administrator?.cidr ?? '',
    custom_image: administrator?.custom_image ?? false,
    welcome_email: true,
    permissions: administrator?.permissions ?? [],
    notifications: administrator?.notifications ?? [],
    limit_lists: administrator?.limit_lists ?? [],
    limit_metadata: administrator?.limit_metadata ?? [],
  };
}

/** The limits are sent only while their permission is on; otherwise they are cleared. */
function common(values: AdministratorFormOutput) {
  const limitsLists = values.permissions.includes('limit_lists');
  const limitsMetadata = values.permissions.includes('limit_metadata');
  return {
    firstname: values.firstname.trim(),
    surname: values.surname.trim(),
    custom_image: values.custom_image,
    permissions: values.permissions,
    notifications: values.notifications,
    limit_lists: limitsLists ? namesOf(values.limit_lists) : [],
    limit_metadata: limitsMetadata ? namesOf(values.limit_metadata) : [],
  };
}

/**
 * Spec §4.6 create: a person (with a password when one is typed), or an API key's entry named by
 * its description (§2.6); `cidr` only when one is given.
 */
export function toCreateInput(
  kind: 'new' | 'new-key',
  values: AdministratorFormOutput,
): AdministratorCreate {
  const cidr = values.cidr.trim();
  const restriction = cidr === '' ? {} : { cidr };
  if (kind === 'new-key')
    return { description: values.description.trim(), ...common(values), ...restriction };
  return {
    username: values.username.trim(),
    ...(values.password === '' ? {} : { password: values.password }),
    ...common(values),
    ...restriction,
    welcome_email: values.welcome_email,
  };
}

/** Spec §4.6 update, with only the fields of the administrator's API version (§9 rule 3). */
export function toUpdateInput(
  kind: Exclude<AdministratorKind, 'new'>,
  values: AdministratorFormOutput,
): AdministratorUpdate {
  const fields = versionFields(kind);
  const cidr = values.cidr.trim();
  return {
    ...(fields.username ? { username: values.username.trim() } : {}),
    ...(fields.description ? { description: values.description.trim() } : {}),
    ...(fields.password && values.password !== '' ? { password: values.password } : {}),
    ...common(values),
    ...(fields.cidr ? { cidr: cidr === '' ? null : cidr } : {}),
  };
}
