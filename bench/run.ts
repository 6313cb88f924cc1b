// `npm run bench`: builds the dashboard and prints each benchmark section's report.
//   --check-bundle  only the bundle-size section; exit 1 when the initial JS is over budget (CI).
//   --reuse-dist    skip the build when dist/ already has a manifest.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'vite';
import { bundleSize } from './bundle-size.ts';
import { serverThroughput } from './server-throughput.ts';
import { crashSafety } from './crash-safety.ts';
import { contactsRender } from './contacts-render.ts';
import type { SectionResult } from './section.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');
const distDir = path.join(repoRoot, 'dist');

const { values: flags } = parseArgs({
  options: {
    'check-bundle': { type: 'boolean', default: false },
    'reuse-dist': { type: 'boolean', default: false },
    contacts: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    crash: { type: 'string' },
  },
});

if (!(flags['reuse-dist'] && existsSync(path.join(distDir, '.vite/manifest.json')))) {
  await build({ root: repoRoot, logLevel: 'warn' });
}

// New sections (e.g. server throughput) are added here as modules of bench/.
const sections: { id: string; run: () => Promise<SectionResult> }[] = [
  { id: 'bundle', run: () => bundleSize(distDir) },
  { id: 'contacts-render', run: () => contactsRender(distDir) },
  {
    id: 'server',
    run: () =>
      serverThroughput({ contacts: Number(flags.contacts), duration: Number(flags.duration), connections: 10 }),
  },
];
if (flags.crash !== undefined) sections.push({ id: 'crash', run: () => crashSafety(Number(flags.crash)) });
const selected = flags['check-bundle'] ? sections.filter(({ id }) => id === 'bundle') : sections;

let allOk = true;
for (const section of selected) {
  const result = await section.run();
  allOk &&= result.ok;
  console.log(`\n## ${result.name}\n\n${result.text}`);
}

// Reports are informative by default; --check-bundle turns the budget into a gate.
if (flags['check-bundle'] && !allOk) process.exitCode = 1;
