import * as z from 'zod';
import { NOTIFICATIONS, PERMISSIONS } from '../../../../api/constants.ts';
import { EmailAddress, ListName, isCidr } from '../../../../api/primitives.ts';
import type {
  Administrator,
  AdministratorCreate,
  AdministratorUpdate,
} from '../../../../api/schemas/administrator.ts';

/**
 * What the form edits. `kind` follows spec §9 rule 3: a person (`api` 0) has a username, a
 * version 2 key has a description instead. `limit_metadata` is typed one custom field per line:
 * the API has no endpoint listing an account's custom fields.
 */
export type AdministratorKind = 'new' | 'person' | 'key';

export function administratorFormSchema(kind: AdministratorKind) {
  return z
    .object({
      username: kind === 'key' ? z.string() : EmailAddress,
      description: z.string(),
      firstname: z.string(),
      surname: z.string(),
      cidr: z.string().refine((v) => v.trim() === '' || isCidr(v.trim()), {
        message: 'is not a valid IP address or CIDR range (e.g. 203.0.113.0/24)',
      }),
      custom_image: z.boolean(),
      welcome_email: z.boolean(),
      permissions: z.array(z.enum(PERMISSIONS)),
      notifications: z.array(z.enum(NOTIFICATIONS)),
      limit_lists: z.array(z.string()),
      limit_metadata: z.string(),
    })
    .superRefine((values, ctx) => {
      const lists = listNames(values.limit_lists);
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
      if (values.permissions.includes('limit_metadata') && metadataNames(values).length === 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['limit_metadata'],
          message: 'names at least one custom field while the limit_metadata permission is on',
        });
      }
    });
}

export type AdministratorFormValues = z.infer<ReturnType<typeof administratorFormSchema>>;
export const ADMINISTRATOR_FORM_FIELDS = [
  'username',
  'description',
  'firstname',
  'surname',
  'cidr',
  'permissions',
  'notifications',
  'limit_lists',
  'limit_metadata',
] as const;

/** Typed list names (group level) may hold blank lines while being typed. */
function listNames(names: readonly string[]): string[] {
  return names.map((name) => name.trim()).filter((name) => name !== '');
}

function metadataNames(values: Pick<AdministratorFormValues, 'limit_metadata'>): string[] {
  return values.limit_metadata
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

export function formValuesOf(administrator: Administrator | null): AdministratorFormValues {
  return {
    username: administrator?.username ?? '',
    description: administrator?.description ?? '',
    firstname: administrator?.firstname ?? '',
    surname: administrator?.surname ?? '',
    cidr: administrator?.cidr ?? '',
    custom_image: administrator?.custom_image ?? false,
    welcome_email: true,
    permissions: administrator?.permissions ?? [],
    notifications: administrator?.notifications ?? [],
    limit_lists: administrator?.limit_lists ?? [],
    limit_metadata: (administrator?.limit_metadata ?? []).join('\n'),
  };
}

/** The limits are sent only while their permission is on; otherwise they are cleared. */
function common(values: AdministratorFormValues) {
  const limitsLists = values.permissions.includes('limit_lists');
  const limitsMetadata = values.permissions.includes('limit_metadata');
  return {
    firstname: values.firstname.trim(),
    surname: values.surname.trim(),
    custom_image: values.custom_image,
    permissions: values.permissions,
    notifications: values.notifications,
    limit_lists: limitsLists ? listNames(values.limit_lists) : [],
    limit_metadata: limitsMetadata ? metadataNames(values) : [],
  };
}

/** Spec §4.6 create: a person; `cidr` only when one is given. */
export function toCreateInput(values: AdministratorFormValues): AdministratorCreate {
  const cidr = values.cidr.trim();
  return {
    username: values.username.trim(),
    ...common(values),
    ...(cidr === '' ? {} : { cidr }),
    welcome_email: values.welcome_email,
  };
}

/** Spec §4.6 update; §9 rule 3: a key has a description and no username, a person the reverse. */
export function toUpdateInput(
  kind: Exclude<AdministratorKind, 'new'>,
  values: AdministratorFormValues,
): AdministratorUpdate {
  const cidr = values.cidr.trim();
  return {
    ...(kind === 'key'
      ? { description: values.description.trim() }
      : { username: values.username.trim() }),
    ...common(values),
    cidr: cidr === '' ? null : cidr,
  };
}
