import type { Permission } from '../../api/constants.ts';
import { OPERATION_PERMISSIONS } from '../../api/operation-permissions.ts';
import type { OperationName } from '../../api/operations.ts';
import type { Section } from './account-scope.ts';
import type { CallerInfo } from './caller-queries.ts';

/**
 * What the signed-in principal may do, read from its own administrator entry (spec §2.6:
 * `permissions`, `limit_lists`, `limit_metadata`; a global principal's are the group's). Every
 * feature asks here before it shows a page or an action. `known: false` when the server does not
 * say who is calling (spec v2 has no "who am I"): then everything shows and the server's 403s
 * explain (lib/api-error-message.ts).
 */
export type Powers =
  | { known: false }
  | {
      known: true;
      global: boolean;
      permissions: ReadonlySet<Permission>;
      /** The lists the principal is confined to (limit_lists), or null for every list. */
      limitLists: readonly string[] | null;
      /** The custom fields it is confined to (limit_metadata), or null for every field. */
      limitMetadata: readonly string[] | null;
    };

export const UNKNOWN_POWERS: Powers = { known: false };

export function powersOf(caller: CallerInfo | undefined, global: boolean): Powers {
  const entry = caller?.administrator;
  if (!entry) return UNKNOWN_POWERS;
  const permissions = new Set(entry.permissions);
  return {
    known: true,
    global,
    permissions,
    limitLists: permissions.has('limit_lists') ? entry.limit_lists : null,
    limitMetadata: permissions.has('limit_metadata') ? entry.limit_metadata : null,
  };
}

/**
 * Spec §2.6 limit_lists: the lists a confined principal works in (the first is where it lands),
 * or null when it is not confined (or the server does not say).
 */
export function confinedLists(powers: Powers): readonly string[] | null {
  return powers.known && powers.limitLists !== null ? powers.limitLists : null;
}

/** Whether the principal may call an operation (the contract's table; superadmin allows all). */
export function mayCall(powers: Powers, operation: OperationName): boolean {
  if (!powers.known) return true;
  const rule = OPERATION_PERMISSIONS[operation];
  // A group-wide operation: an account's own principal only where it reaches its own account.
  const anyOf = rule.global && !powers.global ? (rule.ownAccount ?? null) : rule.anyOf;
  if (anyOf === null) return false;
  return powers.permissions.has('superadmin') || anyOf.some((p) => powers.permissions.has(p));
}

/** The permissions that would allow an operation, in words: "list, contact or membership". */
export function permissionsFor(operation: OperationName): string {
  const { anyOf } = OPERATION_PERMISSIONS[operation];
  return anyOf.length < 2
    ? anyOf.join('')
    : `${anyOf.slice(0, -1).join(', ')} or ${anyOf.at(-1) ?? ''}`;
}

/** The operation that opens each section's page: its collection. */
export const SECTION_OPERATIONS = {
  contacts: 'contacts.list',
  lists: 'lists.list',
  messages: 'messages.list',
  held: 'held.list',
  requests: 'requests.list',
  administrators: 'users.list',
} as const satisfies Record<Section, OperationName>;

/**
 * Where a principal lands: the first of these it may open. A moderator (approval) lands on the held
 * queue, its daily work; Messages before Lists: whoever reads messages reads lists only to pick one.
 */
const LANDING_ORDER: readonly Section[] = [
  'contacts',
  'held',
  'messages',
  'lists',
  'administrators',
];

export function landingSection(powers: Powers): Section | undefined {
  const open = openSections(powers);
  return LANDING_ORDER.find((section) => open.includes(section));
}

/** The sections a principal may open, in the navigation's order. */
export function openSections(powers: Powers): Section[] {
  return (Object.keys(SECTION_OPERATIONS) as Section[]).filter((section) =>
    mayCall(powers, SECTION_OPERATIONS[section]),
  );
}
