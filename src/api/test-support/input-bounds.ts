import type * as z from 'zod/mini';
import { OPERATIONS, type OperationName } from '../operations.ts';
import { checksOf, defOf, isReadOnlyMarker, shapeOf, unwrapAll } from './zod-walk.ts';

/**
 * Every string and array a client may send, with its maximum (SECURITY.md 21): the contract test
 * proves each has one, the server's bounds test sends one past it to every field.
 */
export interface InputBound {
  operation: OperationName;
  where: 'query' | 'body';
  /** The form field (`*` for a custom field of a contact). */
  field: string;
  kind: 'string' | 'array';
  /** Array elements are reached through the array: `emails[]`. */
  element: boolean;
  max: number | undefined;
}

export function maxLengthOf(schema: z.ZodMiniType): number | undefined {
  const found = checksOf(schema).find((check) => check.check === 'max_length');
  // String formats (email, url) keep their checks on the schema's own `_zod.def` too.
  return found?.maximum;
}

export function boundsOfValue(schema: z.ZodMiniType, element: boolean): Omit<InputBound, 'operation' | 'where' | 'field'>[] {
  const value = unwrapAll(schema);
  const def = defOf(value);
  switch (def.type) {
    case 'string':
      return [{ kind: 'string', element, max: maxLengthOf(value) }];
    case 'array':
      return [
        { kind: 'array', element, max: maxLengthOf(value) },
        ...boundsOfValue(def.element as z.ZodMiniType, true),
      ];
    case 'union':
      return (def.options ?? []).flatMap((option) => boundsOfValue(option, element));
    default:
      return [];
  }
}

export function inputBounds(): InputBound[] {
  const bounds: InputBound[] = [];
  for (const [name, operation] of Object.entries(OPERATIONS) as [OperationName, (typeof OPERATIONS)[OperationName]][]) {
    for (const where of ['query', 'body'] as const) {
      const schema = (operation as { query?: z.ZodMiniType; body?: z.ZodMiniType })[where];
      if (!schema) continue;
      const fields = Object.entries(shapeOf(schema)).filter(([, field]) => !isReadOnlyMarker(field));
      const catchall = defOf(schema).catchall;
      if (catchall && defOf(catchall).type !== 'never') fields.push(['*', catchall]);
      for (const [field, fieldSchema] of fields) {
        for (const bound of boundsOfValue(fieldSchema, false)) bounds.push({ operation: name, where, field, ...bound });
      }
    }
  }
  return bounds;
}
