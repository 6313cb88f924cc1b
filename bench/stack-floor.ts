// The page-weight baseline: the libraries DESIGN.md chooses, alone, built as the dashboard builds.
// Each page's weight is read against the libraries that page loads, so that "how much is our own
// code" is measured in the same run, not asserted in a comment (issue 17 item 9).
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';

/** The stack's libraries: the packages the dashboard imports, and what shows one in a source map. */
const LIBRARIES = [
  { name: 'react', packages: ['react'], marker: 'node_modules/react/' },
  { name: 'react-dom', packages: ['react-dom/client'], marker: 'node_modules/react-dom/' },
  {
    name: 'react-router',
    packages: ['react-router', 'react-router/dom'],
    marker: 'node_modules/react-router/',
  },
  {
    name: 'TanStack Query',
    packages: ['@tanstack/react-query'],
    marker: 'node_modules/@tanstack/react-query/',
  },
  { name: 'zod/mini', packages: ['zod/mini'], marker: 'node_modules/zod/' },
  {
    name: 'react-hook-form',
    packages: ['react-hook-form'],
    marker: 'node_modules/react-hook-form/',
  },
  {
    name: 'its zod resolver',
    packages: ['@hookform/resolvers/zod'],
    marker: 'node_modules/@hookform/resolvers/',
  },
];
/** zod's English messages, loaded with the form kit (api/english-messages.ts). */
const ENGLISH_MARKER = 'zod/v4/locales/en.js';

export interface StackFloor {
  /** The stack's libraries among these chunk sources, built alone: their names and gzip bytes. */
  weigh(sources: string[]): Promise<{ libraries: string[]; gzip: number }>;
  close(): Promise<void>;
}

/**
 * Builds apps that use exactly the exports the dashboard imports from its libraries (read from
 * src/web and src/api) and nothing of its own, minified as `vite build` does, one per set of
 * libraries a page loads. One chunk each, so a floor: a page in several chunks compresses worse.
 */
export async function stackFloor(repoRoot: string): Promise<StackFloor> {
  const used = await importedNames([
    path.join(repoRoot, 'src/web'),
    path.join(repoRoot, 'src/api'),
  ]);
  // Inside node_modules so that the generated entries resolve the repository's packages.
  const workDir = path.join(repoRoot, 'node_modules/.cache/listkeeper-stack-floor');
  await mkdir(workDir, { recursive: true });
  const built = new Map<string, Promise<number>>();
  // One build at a time: each takes a core's worth of work for about a second.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    weigh(sources) {
      const libraries = LIBRARIES.filter((library) =>
        sources.some((source) => source.includes(library.marker)),
      );
      const english = sources.some((source) => source.endsWith(ENGLISH_MARKER));
      const key = [...libraries.map((library) => library.name), ...(english ? ['English'] : [])];
      const id = key.join('+');
      if (!built.has(id)) {
        const packages = libraries.flatMap((library) => library.packages);
        const source = entrySource(used, packages, english);
        const entry = path.join(workDir, `floor-${built.size}.js`);
        const gzip = queue.then(() => builtGzip(repoRoot, entry, source));
        queue = gzip.catch(() => undefined);
        built.set(id, gzip);
      }
      return built.get(id)!.then((gzip) => ({ libraries: key, gzip }));
    },
    async close() {
      await Promise.allSettled(built.values());
      await rm(workDir, { recursive: true, force: true });
    },
  };
}

/** Package → the value names imported from it (a namespace import: the members used). */
async function importedNames(dirs: string[]): Promise<Map<string, Set<string>>> {
  const used = new Map<string, Set<string>>();
  const add = (pkg: string, name: string) => {
    const names = used.get(pkg) ?? new Set<string>();
    names.add(name);
    used.set(pkg, names);
  };
  for (const dir of dirs) {
    for (const file of await sourceFiles(dir)) {
      // The English messages are counted on their own (ENGLISH_MARKER).
      if (file.endsWith('english-messages.ts')) continue;
      const text = await readFile(file, 'utf8');
      // Named imports and re-exports (`export { zodResolver } from …`); `import type` has none.
      for (const [, names, pkg] of text.matchAll(
        /(?:import|export)\s*\{([^}]*)\}\s*from\s*'([^']+)'/g,
      )) {
        for (const part of names!.split(',')) {
          const name = part.trim().split(/\s+as\s+/)[0]!;
          if (name && !name.startsWith('type ')) add(pkg!, name);
        }
      }
      for (const [, alias, pkg] of text.matchAll(/import \* as (\w+) from '([^']+)'/g)) {
        for (const [, chain] of text.matchAll(
          new RegExp(`\\b${alias}\\.([\\w$]+(?:\\.[\\w$]+)*)`, 'g'),
        )) {
          // Types have no value to keep: zod's helpers (z.infer, z.input, z.output) and its
          // classes' names (z.core.$ZodType, z.core.SomeType).
          const parts = chain!.split('.');
          const isType =
            ['infer', 'input', 'output'].includes(parts[0]!) ||
            parts.some((part) => /^[A-Z$]/.test(part));
          if (!isType) add(pkg!, `*${chain}`);
        }
      }
    }
  }
  return used;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter(
      (entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name),
    )
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** An entry that imports the given packages' used exports and keeps each. */
function entrySource(used: Map<string, Set<string>>, packages: string[], english: boolean): string {
  const imports: string[] = [];
  const kept: string[] = [];
  packages.forEach((pkg, index) => {
    const names = [...(used.get(pkg) ?? [])].sort();
    const named = names.filter((name) => !name.startsWith('*'));
    const members = names.filter((name) => name.startsWith('*')).map((name) => name.slice(1));
    if (named.length > 0) {
      imports.push(
        `import { ${named.map((name, i) => `${name} as p${index}_${i}`).join(', ')} } from '${pkg}';`,
      );
      kept.push(...named.map((_, i) => `p${index}_${i}`));
    }
    if (members.length > 0) {
      imports.push(`import * as ns${index} from '${pkg}';`);
      kept.push(...members.map((member) => `ns${index}.${member}`));
      // What api/english-messages.ts does where a form checks its fields.
      if (english && pkg === 'zod/mini') kept.push(`ns${index}.config(ns${index}.locales.en())`);
    }
  });
  // Handed to the page's global object: Vite drops an app entry's exports, not its side effects.
  return `${imports.join('\n')}\nglobalThis.floor = [${kept.join(', ')}];\n`;
}

async function builtGzip(repoRoot: string, entry: string, source: string): Promise<number> {
  await writeFile(entry, source);
  const result = await build({
    configFile: false,
    root: repoRoot,
    logLevel: 'silent',
    build: {
      write: false,
      rolldownOptions: {
        input: entry,
        // As vite.config.ts: a client-only SPA has no "use client" boundaries to keep.
        checks: { moduleLevelDirective: false },
        output: { codeSplitting: false },
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunks = outputs.flatMap((output) => output.output).filter((item) => item.type === 'chunk');
  return chunks.reduce((sum, chunk) => sum + gzipSync(chunk.code).length, 0);
}
