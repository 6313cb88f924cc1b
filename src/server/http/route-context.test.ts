import { expectTypeOf, it } from 'vitest';
import type { ParamsOf } from './route-context.ts';

// Checked by `tsc -b` (npm run typecheck): a handler reads only the names its path has.
it('types the path parameters from the operation path', () => {
  expectTypeOf<ParamsOf<'contacts.get'>>().toEqualTypeOf<{ readonly id: string }>();
  expectTypeOf<ParamsOf<'contacts.list'>>().toEqualTypeOf<Record<never, string>>();
  const params = { id: '7' } as ParamsOf<'contacts.get'>;
  // @ts-expect-error: contacts.get's path has no :list
  expectTypeOf(params.list).toBeUndefined();
});
