import type * as z from 'zod/mini';

/**
 * Read-only access to the zod 4 definitions the contract is built from, for tests that walk the
 * schemas (arbitrary derivation, spec coverage) instead of hand-listing fields.
 */

export interface Def {
  type: string;
  innerType?: z.ZodMiniType;
  element?: z.ZodMiniType;
  options?: z.ZodMiniType[];
  /** `literal` */
  values?: unknown[];
  /** `enum` */
  entries?: Record<string, string | number>;
  shape?: Record<string, z.ZodMiniType>;
  catchall?: z.ZodMiniType;
  checks?: { _zod: { def: CheckDef } }[];
  /** String formats (`email`, …) carry their own format and pattern on the schema itself. */
  format?: string;
  pattern?: RegExp;
}

export interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  length?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
}

export function defOf(schema: z.ZodMiniType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

export function checksOf(schema: z.ZodMiniType): CheckDef[] {
  return (defOf(schema).checks ?? []).map((check) => check._zod.def);
}

/** Wrappers that do not change what a value looks like on the wire. */
const TRANSPARENT = new Set([
  'optional',
  'default',
  'prefault',
  'readonly',
  'catch',
  'nonoptional',
]);

/** Strips optional-like wrappers; `optional` says whether the field may be left out. */
export function unwrapOptional(schema: z.ZodMiniType): { schema: z.ZodMiniType; optional: boolean } {
  let current = schema;
  let optional = false;
  for (;;) {
    const def = defOf(current);
    if (!TRANSPARENT.has(def.type) || !def.innerType) return { schema: current, optional };
    if (def.type !== 'nonoptional') optional = true;
    current = def.innerType;
  }
}

/** Strips optional and nullable wrappers down to the value's own schema. */
export function unwrapAll(schema: z.ZodMiniType): z.ZodMiniType {
  let current = unwrapOptional(schema).schema;
  while (defOf(current).type === 'nullable')
    current = unwrapOptional(defOf(current).innerType as z.ZodMiniType).schema;
  return current;
}

/** A `readOnly()` marker of the contract: the key is known, but any value is refused. */
export function isReadOnlyMarker(schema: z.ZodMiniType): boolean {
  return defOf(unwrapOptional(schema).schema).type === 'never';
}

/** The fields of an object schema (refined objects included). */
export function shapeOf(schema: z.ZodMiniType): Record<string, z.ZodMiniType> {
  const { shape } = defOf(schema);
  if (!shape) throw new TypeError(`Expected a zod object, got ${defOf(schema).type}`);
  return shape;
}

/** Keys a client may send with a value the schema can accept (read-only markers excluded). */
export function writableKeys(schema: z.ZodMiniType): string[] {
  return Object.entries(shapeOf(schema))
    .filter(([, field]) => !isReadOnlyMarker(field))
    .map(([key]) => key);
}
