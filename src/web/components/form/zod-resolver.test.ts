import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { zodResolver } from './zod-resolver.ts';

// This file imports no other module that loads zod's locale, as a page without a form does not:
// the words come from the form kit's resolver alone (issue 17 item 9).
describe('the form kit resolver', () => {
  it('words a failed check in English, not "Invalid input" alone', async () => {
    const schema = z.object({ direction: z.enum(['asc', 'desc']) });
    const resolve = zodResolver(schema);
    const result = await resolve({ direction: 'up' } as never, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    });
    expect(result.errors.direction?.message).toBe('Invalid option: expected one of "asc"|"desc"');
  });
});
