import { isDeepStrictEqual } from 'node:util';
import type { AuditChange } from '../../api/schemas/audit.ts';

/** An API object as its JSON reads (spec §2): field → value. */
export type ObjectState = Readonly<Record<string, unknown>>;

export interface ChangeOptions {
  /** Fields that never count as changed: the identifier, read-only dates, derived arrays. */
  omit?: readonly string[];
  /**
   * What a new object would hold (a list's default settings): a create shows only what differs
   * from it, a delete only what had. Without one, empty values (`''`, null, false, 0, []) are left out.
   */
  baseline?: ObjectState;
}

/**
 * The fields changed between two states of one object (null: it did not exist), each with its old
 * and new value: an update shows what differs, a create what it was made with, a delete what it
 * held. Computed from the API object before and after (issue 26 item 4), never per database row.
 */
export function changesBetween(
  before: ObjectState | null,
  after: ObjectState | null,
  options: ChangeOptions = {},
): AuditChange[] {
  const omit = new Set(options.omit ?? []);
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const changes: AuditChange[] = [];
  for (const field of fields) {
    if (omit.has(field)) continue;
    if (before && after) {
      const old = own(before, field);
      const now = own(after, field);
      if (!isDeepStrictEqual(old, now)) changes.push({ field, old, new: now });
      continue;
    }
    const state = (after ?? before) as ObjectState;
    const value = own(state, field);
    if (!differsFromNew(field, value, options.baseline)) continue;
    changes.push(after ? { field, new: value } : { field, old: value });
  }
  return changes;
}

function differsFromNew(field: string, value: unknown, baseline: ObjectState | undefined): boolean {
  if (baseline && Object.hasOwn(baseline, field)) return !isDeepStrictEqual(value, baseline[field]);
  return !isEmpty(value);
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    value === false ||
    value === 0 ||
    (Array.isArray(value) && value.length === 0)
  );
}

/** A field's value, own properties only (a custom field may be named `__proto__`); absent is null. */
function own(state: ObjectState, field: string): unknown {
  return Object.hasOwn(state, field) ? state[field] : null;
}
