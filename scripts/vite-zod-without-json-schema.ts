import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';

/**
 * Zod 4 classic gives every schema a `.toJSONSchema()` method, so its JSON Schema generator (about
 * 16 kB raw, 5 kB gzip) comes with the first `z.string()` and cannot be tree-shaken. The dashboard
 * never generates JSON Schema, and every page that reads the API carries Zod (issue 17 item 9: 150
 * kB a page). For the browser build only, classic's two imports of the generator are pointed at
 * stand-ins: same export names (read from the installed Zod, so an upgrade that adds one still
 * builds), each throwing if ever called, except `aggregateChecks`, which classic's string and
 * number schemas use for their `minLength`, `maxLength`, `format` and `minValue` getters, and which
 * comes from the real module alone. The server and the tests run Zod untouched.
 */
const STANDING_IN = {
  '../core/to-json-schema.js': 'to-json-schema.js',
  '../core/json-schema-processors.js': 'json-schema-processors.js',
} as const;
const KEPT = new Set(['aggregateChecks']);
const PREFIX = '\0zod-without-json-schema:';

export function zodWithoutJsonSchema(): Plugin {
  const coreDir = path.dirname(
    createRequire(import.meta.url)
      .resolve('zod/v4/core')
      .replace(/index\.c?js$/, 'index.js'),
  );
  return {
    name: 'zod-without-json-schema',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer?.replaceAll('\\', '/').includes('/node_modules/zod/v4/classic/')) return null;
      const file = STANDING_IN[source as keyof typeof STANDING_IN];
      return file ? PREFIX + file : null;
    },
    async load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const real = path.join(coreDir, id.slice(PREFIX.length));
      const names = Object.keys((await import(pathToFileURL(real).href)) as object);
      const lines = [
        'function unavailable() { throw new Error("JSON Schema is not built into the dashboard"); }',
      ];
      for (const name of names) {
        lines.push(
          KEPT.has(name)
            ? `export { ${name} } from ${JSON.stringify(real)};`
            : `export const ${name} = unavailable;`,
        );
      }
      return lines.join('\n');
    },
  };
}
