// `npm run bench`: builds the dashboard, runs every benchmark section, prints one report and writes
// the same text to bench/report.md. Naming sections runs only those (and writes no report.md):
//   --check-bundle  only the bundle-size section; exit 1 when the initial JS or a page is over budget (CI).
//   --reuse-dist    skip the build when dist/ already has a manifest.
//   --server        server throughput beside bare node:http (--contacts N, --duration S per endpoint).
//   --search        search at 100,000 and 1,000,000 contacts on SQLite and PostgreSQL, every query
//                   shape at 1 connection (--search-sizes N,M for other sizes, e.g. 20000 first;
//                   --search-databases sqlite or postgres for one of them).
//   --load          load: --clients N (50) for --load-seconds S (60) on two processes on PostgreSQL,
//                   then one on SQLite.
//   --lighthouse    Lighthouse on the sign-in, contacts, list settings and message pages.
//   --render        the contacts table with 1000 rows.
//   --crash N       crash safety, N kills per database (the full run does 20).
//   --mail          mail: SMTP in, a fan-out to 100,000 addresses into the sink, policy decisions.
//   --audit         the audit log's cost: writes per second with and without recording, alternating
//                   (--clients N, 8 unless given; --audit-seconds S a mode a round, 10; 3 rounds).
// Progress goes to stderr; the report to stdout.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'vite';
import * as z from 'zod';
import { auditCost } from './audit-cost.ts';
import { bundleSize } from './bundle-size.ts';
import { contactsRender } from './contacts-render.ts';
import { crashSafety } from './crash-safety.ts';
import { lighthouseSection } from './lighthouse.ts';
import { loadSection } from './load.ts';
import { machineHeader } from './machine.ts';
import { mailSection } from './mail.ts';
import { markdownTable } from './markdown-table.ts';
import { searchAtScale } from './search.ts';
import { serverThroughput } from './server-throughput.ts';
import type { SectionResult } from './section.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');
const distDir = path.join(repoRoot, 'dist');
const reportFile = path.join(import.meta.dirname, 'report.md');

const { values: flags } = parseArgs({
  options: {
    'check-bundle': { type: 'boolean', default: false },
    'reuse-dist': { type: 'boolean', default: false },
    server: { type: 'boolean', default: false },
    contacts: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    search: { type: 'boolean', default: false },
    'search-sizes': { type: 'string', default: '100000,1000000' },
    'search-databases': { type: 'string', default: 'sqlite,postgres' },
    load: { type: 'boolean', default: false },
    clients: { type: 'string', default: '50' },
    'load-seconds': { type: 'string', default: '60' },
    lighthouse: { type: 'boolean', default: false },
    render: { type: 'boolean', default: false },
    crash: { type: 'string' },
    mail: { type: 'boolean', default: false },
    audit: { type: 'boolean', default: false },
    'audit-seconds': { type: 'string', default: '10' },
  },
});

const started = Date.now();
function progress(line: string): void {
  const elapsed = Math.round((Date.now() - started) / 1000);
  console.error(
    `[${String(Math.floor(elapsed / 60)).padStart(2, '0')}:${String(elapsed % 60).padStart(2, '0')}] ${line}`,
  );
}

const header = await machineHeader();
if (!(flags['reuse-dist'] && existsSync(path.join(distDir, '.vite/manifest.json')))) {
  progress('building the dashboard');
  await build({ root: repoRoot, logLevel: 'warn' });
}

const sections: { id: string; chosen: boolean; run: () => Promise<SectionResult> }[] = [
  { id: 'bundle', chosen: flags['check-bundle'], run: () => bundleSize(distDir, repoRoot) },
  { id: 'render', chosen: flags.render, run: () => contactsRender(distDir) },
  {
    id: 'server',
    chosen: flags.server,
    run: () =>
      serverThroughput({
        contacts: Number(flags.contacts),
        duration: Number(flags.duration),
        connections: 10,
      }),
  },
  {
    id: 'search',
    chosen: flags.search,
    run: () =>
      searchAtScale({
        sizes: flags['search-sizes'].split(',').map(Number),
        databases: z.array(z.enum(['sqlite', 'postgres'])).parse(flags['search-databases'].split(',')),
        seconds: 5,
        progress,
      }),
  },
  {
    id: 'lighthouse',
    chosen: flags.lighthouse,
    run: () => lighthouseSection({ distDir, runs: Number(process.env.LIGHTHOUSE_RUNS ?? 3), progress }),
  },
  {
    id: 'load',
    chosen: flags.load,
    run: () =>
      loadSection({
        clients: Number(flags.clients),
        seconds: Number(flags['load-seconds']),
        progress,
      }),
  },
  { id: 'mail', chosen: flags.mail, run: () => mailSection(progress) },
  {
    id: 'audit',
    chosen: flags.audit,
    run: () =>
      auditCost({
        // The load section's 50 clients would measure the machine's two cores, not the log.
        clients: process.argv.includes('--clients') ? Number(flags.clients) : 8,
        seconds: Number(flags['audit-seconds']),
        rounds: 3,
        progress,
      }),
  },
  {
    id: 'crash',
    chosen: flags.crash !== undefined,
    run: () => crashSafety(Number(flags.crash ?? 20)),
  },
];
const full = sections.every(({ chosen }) => !chosen);
const selected = full ? sections : sections.filter(({ chosen }) => chosen);

const parts = [header];
console.log(header);
let allOk = true;
const verdicts: string[][] = [];
for (const section of selected) {
  progress(`section ${section.id}`);
  // A section that throws is reported as failed; the others still run.
  const result = await section.run().catch((error: unknown): SectionResult => ({
    name: section.id,
    ok: false,
    text: `The section failed: ${error instanceof Error ? error.message : String(error)}`,
  }));
  allOk &&= result.ok;
  verdicts.push([result.name, result.ok ? 'within' : 'below (see the section)']);
  const text = `\n## ${result.name}${result.ok ? '' : ' (below its budget or threshold)'}\n\n${result.text}\n`;
  parts.push(text);
  console.log(text);
}
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
const summary = `\n## Summary\n\nThe run took ${minutes} min.\n\n${markdownTable(['section', 'budgets and thresholds'], verdicts)}\n`;
parts.push(summary);
console.log(summary);
progress(`done in ${minutes} min`);

if (full) {
  await writeFile(reportFile, `${parts.join('\n').trimEnd()}\n`);
  progress(`wrote ${path.relative(repoRoot, reportFile)}`);
}
// Reports are informative by default; --check-bundle turns the budget into a gate.
if (flags['check-bundle'] && !allOk) process.exitCode = 1;
