/**
 * Zod's classic objects compile fast parsers with `new Function` unless `jitless` is set, and even
 * its guarded probe for eval support is reported as a CSP violation (SECURITY.md 24: `script-src
 * 'self'`). The dashboard's schemas are zod/mini, whose objects compile nothing; the switch stays so
 * that no Zod build the dashboard loads can probe. It must be set before any schema is built; the
 * contract's schemas load with the lazy chunks, after this runs in the entry. Zod reads its
 * configuration from this global (shared by every copy of Zod), so the entry sets it without
 * loading Zod itself; zod-jitless.test.ts holds Zod to that.
 */
export function makeZodJitless(): void {
  const global = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
  global.__zod_globalConfig ??= {};
  global.__zod_globalConfig.jitless = true;
}
