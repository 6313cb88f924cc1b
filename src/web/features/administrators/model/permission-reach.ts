import { PERMISSIONS, type Permission } from '../../../../api/constants.ts';
import { OPERATION_PERMISSIONS } from '../../../../api/operation-permissions.ts';
import type { OperationName } from '../../../../api/operations.ts';
import { SECTION_TITLES } from '../../../lib/account-scope.ts';
import { mayCall, openSections, type Powers } from '../../../lib/powers.ts';
import { LIMITS } from './caller-bounds.ts';

/** What an administrator with some permissions can open, before it is made (issue 27 item 4). */
export interface PermissionReach {
  /** The dashboard's pages it opens, in the navigation's order. */
  pages: string[];
  /** Per area of the API, what it may do there: `{ area: 'Contacts', actions: ['read', …] }`. */
  areas: { area: string; actions: string[] }[];
  /** Chosen permissions that allow no operation of the contract (spec §2.6 `audit`, `billing`…). */
  idle: Permission[];
}

const AREA_NAMES: Record<string, string> = {
  contacts: 'Contacts',
  emails: 'Email addresses',
  membership: 'List memberships',
  lists: 'Lists and their settings',
  messages: 'Messages',
  held: 'Held messages',
  requests: 'Join and leave requests',
  users: 'Administrators and their keys',
  accounts: 'Accounts of the group',
  audit: 'The audit log',
  fields: 'Custom fields',
};

/** An operation's action in words; several share one (list and get both read). */
const ACTION_WORDS: Record<string, string> = {
  list: 'read',
  get: 'read',
  create: 'create',
  update: 'change',
  delete: 'delete',
  send: 'send',
  image: 'show remote images',
  source: 'see the source as received',
  retrieveKey: 'retrieve keys',
  approve: 'approve',
  reject: 'reject',
  discard: 'discard',
};

/**
 * Reads the contract's permission table (api/operation-permissions.ts, which the server enforces)
 * for a principal holding exactly `permissions`: a global one (the group's) or one account's.
 * Operations about the caller alone (`caller.get`) open nothing and are left out.
 */
export function permissionReach(chosen: readonly string[], global: boolean): PermissionReach {
  // A permission spec §2.6 does not name (another server's) opens nothing the contract knows.
  const permissions = PERMISSIONS.filter((permission) => chosen.includes(permission));
  const powers: Powers = {
    known: true,
    global,
    permissions: new Set(permissions),
    limitLists: null,
    limitMetadata: null,
  };
  const pages = openSections(powers).map((section) => SECTION_TITLES[section]);
  if (!global && mayCall(powers, 'accounts.get')) pages.push('Account settings');
  if (global && mayCall(powers, 'accounts.list')) pages.push('Accounts');
  // The reference server's audit log (extension `audit.list`), offered where the server has it.
  if (mayCall(powers, 'audit.list')) pages.push('Audit');

  const areas = new Map<string, Set<string>>();
  const used = new Set<Permission>();
  for (const name of Object.keys(OPERATION_PERMISSIONS) as OperationName[]) {
    const rule = OPERATION_PERMISSIONS[name];
    if (name === 'caller.get') continue;
    for (const permission of [...rule.anyOf, ...(rule.ownAccount ?? [])]) used.add(permission);
    if (!mayCall(powers, name)) continue;
    const [resource = name, action = ''] = name.split('.');
    const area =
      resource === 'accounts' && !global
        ? 'The account’s own settings'
        : (AREA_NAMES[resource] ?? resource);
    const words = areas.get(area) ?? new Set<string>();
    // A bulk action does what its single ones do, which name it already.
    if (action !== 'bulk') words.add(ACTION_WORDS[action] ?? action);
    areas.set(area, words);
  }
  const idle = permissions.filter(
    (permission) => permission !== 'superadmin' && !LIMITS.has(permission) && !used.has(permission),
  );
  return {
    pages,
    areas: [...areas].map(([area, actions]) => ({ area, actions: [...actions] })),
    idle,
  };
}
