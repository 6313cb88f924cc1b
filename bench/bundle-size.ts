// Bundle section: size of every JS chunk, raw and gzip, and the initial-JS budget check.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { markdownTable } from './markdown-table.ts';
import type { SectionResult } from './section.ts';
import { stackFloor } from './stack-floor.ts';

/** Gzipped JS the browser must load before the first page renders (kB = 1000 bytes, as Vite). */
export const initialJsBudgetBytes = 120_000;

/**
 * The signed-in shell before its first paint. Over the 120 kB of issue #5 since it reads who is
 * signed in and the contract's permission table before painting (issue 17 item 2: the navigation
 * shows only what the person may open) and gained the phone menu and the Held section; TanStack
 * Query's core (about 8 kB) now loads with it; +0.1 for the audit log's navigation item and the
 * loaders of the extensions' operation tables (issue 26 item 4). A ceiling to win back, not a new
 * budget.
 */
// +0.1 for the Custom fields item (its navigation part loads lazily with the Held count) and the
// welcome email's details in the caller's read (issue 27 items 1 and 4); +0.2 for the Requests
// item, its route and its shortcut (issue 25 item 5); measured 123.41 with bounces merged.
export const appShellCeilingBytes = 123_500;

/** Every page's JavaScript, shell included, gzip (issue 17 item 9). */
export const pageJsBudgetBytes = 150_000;

/**
 * Pages still over the page budget, each held to a ceiling so that it can only shrink: at most
 * 0.5 kB above its weight when last measured, no room for a new library. The section measures what
 * is under every page (bench/stack-floor.ts): the stack a page with a form loads (react, react-dom,
 * react-router, TanStack Query, zod/mini, react-hook-form with its zod resolver) is 134 kB alone,
 * leaving 16 kB of the 150 for the shell's own code (14 above its own stack), the contract and the
 * page; so no page with a form fits under this stack. Lower a ceiling when a page gets lighter. A
 * page not named here (a new one) gets 166: the stack plus a page's own code; name it once it has a
 * weight.
 */
const newPageCeilingBytes = 166_000;
const pageCeilingBytes: Record<string, number> = {
  'shell + home': pageJsBudgetBytes,
  'shell + not-found': pageJsBudgetBytes,
  'shell + account-switcher (lazy)': pageJsBudgetBytes,
  'shell + sign-out (lazy)': pageJsBudgetBytes,
  // Within the budget since the contract moved to zod/mini (−9 kB on every page that reads the API,
  // issue 17 item 9); their dialogs' forms load when a dialog opens (components/form/lazy-form.tsx).
  'shell + accounts': pageJsBudgetBytes,
  'shell + lists': pageJsBudgetBytes,
  // Within it since the shell is one chunk (vite.config.ts, −4.7 kB on every page that reads the
  // API) and a message's HTML tab loads the sanitizer when it shows.
  'shell + accounts-administrators': pageJsBudgetBytes,
  'shell + administrators': pageJsBudgetBytes,
  // The custom fields (issue 27 item 1): its form loads when a dialog opens.
  'shell + fields': pageJsBudgetBytes,
  // +0.3 kB at most: undo, the bulk count, the sender rule's offer (issue 27 item 3) and the
  // shell's Account link (item 5).
  // +0.2 kB on every page that reads the API: the client's operation table carries the join and
  // leave queue (requests.*, issue 25 item 5), whose schemas load with the client.
  // +0.45 since the extensions' operation tables load with their first call, each in a chunk of its
  // own (src/api/extension-operations/): the held queue's is part of this page now, −0.33 on every
  // page that does not call an extension.
  // +0.1 for the source as received, on demand (held-source.tsx, issue 27 item 3).
  // +0.3 at most for the shell's Custom fields item and the welcome email's details (issue 27
  // items 1 and 4); the fields' schemas load with their page (src/api/extension-operations/).
  // +1.6: the triage it shares with the Requests page, logic and views (components/triage/,
  // lib/use-triage-queue.ts), loads as a chunk of their own; and the shell's Requests item
  // (issue 25 item 5).
  'shell + held': 153_000,
  // Over the budget by the join and leave queue's operation table, which loads with it (issue 25
  // item 5, src/api/extension-operations/requests.ts), and the triage it shares with Held.
  'shell + requests': 150_900,
  'shell + message': pageJsBudgetBytes,
  // Within it since bulk jobs, their panel and the CSV parser load when a user starts one.
  'shell + contact-import': pageJsBudgetBytes,
  // +0.3 kB at most: the members page's key factory is a chunk it shares with the contacts page,
  // and the shell gained the Held count's loader (issue 27 items 7 and 3).
  // +0.3 more: the member just added is a link to them, a removal is said (issue 27 item 6).
  // +0.2 kB on every page that reads the API: the client's operation table carries the join and
  // leave queue (requests.*, issue 25 item 5), whose schemas load with the client.
  // +0.3 at most for the shell's Custom fields item and the welcome email's details (issue 27
  // items 1 and 4); the fields' schemas load with their page (src/api/extension-operations/).
  // +0.2 kB for the shell's Requests item, its route and `g r` (issue 25 item 5).
  // +0.15 for the bounce markers' lazy loader and their place beside each address (issue 26 item
  // 1), and 0.1 of room for chunk names that change with every merge; a lazy import's preload
  // list leaves out what its importer loaded (vite.config.ts), which took 0.1–0.2 off every page.
  // Measured 151.25 with the Requests item and the bounce markers both (their two raises met).
  'shell + list-members': 151_300,
  // And since the contacts table's virtualizer loads with the first page of more than 100 rows.
  // +0.3 kB at most: a list-limited principal's scope (issue 27 item 2) and the shell's Held
  // count loader and Account item (items 3 and 5).
  // +0.2 kB on every page that reads the API: the client's operation table carries the join and
  // leave queue (requests.*, issue 25 item 5), whose schemas load with the client.
  // +0.2 kB for the shell's Requests item, its route and `g r` (issue 25 item 5).
  // Measured 150.70 with bounces merged (issue 26 item 1).
  'shell + contacts': 150_800,
  // Since zod's English messages load with the form kit and the reasons for the server's
  // extensions stay on the server (api/extension-reasons.ts): −1.3 kB on every page without a form.
  // +0.3 kB at most: its controller hook apart from its view, and the shell's Held count loader
  // (issue 27 items 7 and 3).
  // +0.2 kB on every page that reads the API: the client's operation table carries the join and
  // leave queue (requests.*, issue 25 item 5), whose schemas load with the client.
  // +0.3 at most for the shell's Custom fields item and the welcome email's details (issue 27
  // items 1 and 4); the fields' schemas load with their page (src/api/extension-operations/).
  // +0.2 kB for the shell's Requests item, its route and `g r` (issue 25 item 5).
  'shell + messages': 151_000,
  // Weights with the shell in one chunk, +0.5 kB at most (issue 17 item 9); +0.4 kB on every
  // page since answers are read by JSON type only, so that another API v2 server's lists,
  // accounts and administrators show (the contract's read settings, api/schemas/list.ts).
  // +0.5 since the new-contact form and the contact page share their inputs and the membership
  // mutations are written once (issue 27 item 7): modules two pages share load as a chunk of
  // their own. +0.3 for the shell's Held count loader and Account link (issue 27 items 3 and 5).
  // +0.2 kB on every page that reads the API: the client's operation table carries the join and
  // leave queue (requests.*, issue 25 item 5), whose schemas load with the client.
  // +0.45 on each since the audit log (issue 26 item 4): its operation's schemas in the table the
  // API client loads (0.28 kB on every page that reads the API), its permission, routes and
  // navigation link in the shell (0.14); its page is within 150 on its own.
  'shell + contact-new': 164_150,
  // +0.5 for the focus that stays in the addresses table when one is deleted
  // (lib/focus-after-removal.ts); +0.4 for the shared inputs and membership mutations as above;
  // +0.9 for saying on the field what the server did not store (X-Ignored-Fields) and offering
  // the custom fields the account is known to have (issue 27 item 1).
  // +0.2 for the bounce markers' lazy loader beside each address (issue 26 item 1) with the
  // shell's Requests item (issue 25 item 5): measured 169.61 with both.
  'shell + contact': 169_650,
  // +0.4 for saying on the field what the server did not store (issue 27 item 1); +0.3 for the
  // shell's Account link (item 5).
  'shell + list-settings': 173_550,
  // +0.2 kB for the shell's Requests item, its route and `g r` (issue 25 item 5).
  'shell + message-new': 165_400,
};

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

export async function bundleSize(distDir: string, repoRoot: string): Promise<SectionResult> {
  const manifest = JSON.parse(
    await readFile(path.join(distDir, '.vite/manifest.json'), 'utf8'),
  ) as Record<string, ManifestChunk>;
  const initial = initialFiles(manifest);

  const assetsDir = path.join(distDir, 'assets');
  const files = (await readdir(assetsDir)).filter((name) => name.endsWith('.js'));
  const rows = await Promise.all(
    files.map(async (name) => {
      const content = await readFile(path.join(assetsDir, name));
      const file = `assets/${name}`;
      // What the gateway sends a browser: the build's Brotli copy (src/gateway/precompress.ts), or
      // the file itself when it is too small to have one.
      const brotli = await readFile(path.join(assetsDir, `${name}.br`)).then(
        (copy) => copy.length,
        () => content.length,
      );
      return {
        file,
        raw: content.length,
        gzip: gzipSync(content).length,
        brotli,
        initial: initial.has(file),
      };
    }),
  );
  rows.sort((a, b) => b.gzip - a.gzip);

  const gzipOf = new Map(rows.map((row) => [row.file, row.gzip]));
  const brotliOf = new Map(rows.map((row) => [row.file, row.brotli]));
  const sumOf = (set: Set<string>, sizes = gzipOf) =>
    [...set].reduce((sum, file) => sum + (sizes.get(file) ?? 0), 0);
  const initialGzip = sumOf(initial);

  // What a page needs before it renders: the entry, the page's lazy route chunks, and all their
  // static imports. Issue #5 budgets the sign-in page and the app shell; feature pages and the
  // shell's lazy parts are shown.
  const sources = await chunkSources(assetsDir, files);
  const floor = await stackFloor(repoRoot);
  const pages = pageClosures(manifest);
  const pageRows = await Promise.all(
    pages.map(async ({ name, files, budgeted }) => {
      const gzip = sumOf(files);
      const shellBudget = name === 'app shell' ? appShellCeilingBytes : initialJsBudgetBytes;
      const shellVerdict = budgeted ? (gzip <= shellBudget ? 'PASS' : 'FAIL') : '';
      const ceiling = pageCeilingBytes[name] ?? newPageCeilingBytes;
      const pageVerdict =
        gzip > ceiling
          ? `FAIL (over ${kB(ceiling)})`
          : gzip > pageJsBudgetBytes
            ? `over budget, within its ceiling ${kB(ceiling)}`
            : 'PASS';
      const brotli = sumOf(files, brotliOf);
      const stack = await floor.weigh([...files].flatMap((file) => sources.get(file) ?? []));
      return { name, gzip, brotli, stack, shellVerdict, pageVerdict, failed: gzip > ceiling };
    }),
  ).finally(() => floor.close());
  const classic = files
    .filter((name) =>
      sources.get(`assets/${name}`)?.some((source) => source.includes('/zod/v4/classic/')),
    )
    .map((name) => `assets/${name}`);
  // The gate (CI): the entry, the sign-in page and the app shell (issue #5 item 6), every page
  // within the page budget or its ceiling, and no classic zod in any chunk (issue 17 item 9).
  const ok =
    initialGzip <= initialJsBudgetBytes &&
    pageRows.every((row) => row.shellVerdict !== 'FAIL' && !row.failed) &&
    classic.length === 0;
  const lines = [
    markdownTable(
      ['chunk', 'raw kB', 'gzip kB', 'initial'],
      rows.map((row) => [row.file, kB(row.raw), kB(row.gzip), row.initial ? 'yes' : '']),
    ),
    '',
    markdownTable(
      [
        'page (entry + route chunks + static imports)',
        'gzip kB',
        'sent kB (Brotli)',
        'its stack kB',
        'above its stack kB',
        `shell budget ${kB(initialJsBudgetBytes)} kB`,
        `page budget ${kB(pageJsBudgetBytes)} kB`,
      ],
      pageRows.map((row) => [
        row.name,
        kB(row.gzip),
        kB(row.brotli),
        kB(row.stack.gzip),
        kB(row.gzip - row.stack.gzip),
        row.shellVerdict,
        row.pageVerdict,
      ]),
    ),
    '',
    stackNote(pageRows),
    '',
    `initial JS (entry): ${kB(initialGzip)} kB gzip, budget ${kB(initialJsBudgetBytes)} kB: ${initialGzip <= initialJsBudgetBytes ? 'PASS' : 'FAIL'}`,
    classic.length === 0
      ? 'classic zod in the browser build: none, PASS'
      : `classic zod in the browser build: FAIL, in ${classic.join(', ')} (import zod/mini)`,
  ];
  return { name: 'bundle size', ok, text: lines.join('\n') };
}

/**
 * Each chunk's sources, read from its source map (vite.config.ts emits them): which libraries a
 * page loads. The browser's schemas are zod/mini: classic's methods, on every schema, never
 * tree-shake, so one stray import (ESLint bans it in src/api and src/web; a library could still
 * bring it) costs a page 15 kB gzip (the contact page with one classic import in its controller:
 * 170 → 185); the gate fails on any chunk built from it.
 */
async function chunkSources(assetsDir: string, files: string[]): Promise<Map<string, string[]>> {
  const found = await Promise.all(
    files.map(async (name) => {
      // Rolldown's own runtime chunk comes without a map: it has no library in it.
      const text = await readFile(path.join(assetsDir, `${name}.map`), 'utf8').catch(() => '{}');
      const map = JSON.parse(text) as { sources?: string[] };
      return [`assets/${name}`, map.sources ?? []] as const;
    }),
  );
  return new Map(found);
}

/** The chunks of the given manifest keys and everything they import statically. */
function closure(manifest: Record<string, ManifestChunk>, keys: string[]): Set<string> {
  return new Set([...closureKeys(manifest, keys)].map((key) => manifest[key]?.file ?? key));
}

/** The manifest keys of the given keys and of everything they import statically. */
function closureKeys(manifest: Record<string, ManifestChunk>, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    manifest[key].imports?.forEach(visit);
  };
  keys.forEach(visit);
  return seen;
}

/** The entry chunks and everything they import statically (dynamic imports load later). */
function initialFiles(manifest: Record<string, ManifestChunk>): Set<string> {
  const entries = Object.entries(manifest)
    .filter(([, chunk]) => chunk.isEntry)
    .map(([key]) => key);
  return closure(manifest, entries);
}

const ROUTES = 'src/web/app/routes/';

/**
 * The sign-in page, the app shell (the entry and the signed-in frame: header, navigation, the data
 * layer), the parts the shell loads lazily beside the page (the account switcher of global
 * principals), and each page inside the shell, the index route included, each in its own chunk.
 */
function pageClosures(manifest: Record<string, ManifestChunk>) {
  const entries = Object.entries(manifest)
    .filter(([, chunk]) => chunk.isEntry)
    .map(([key]) => key);
  const shell = [`${ROUTES}shell.tsx`];
  const sections = Object.keys(manifest)
    .filter(
      (key) => key.startsWith(ROUTES) && manifest[key]?.file && !/(shell|sign-in|auth-)/.test(key),
    )
    .sort();
  // What the shell's chunks load lazily (vite.config.ts groups the shell's modules into one).
  const early = closureKeys(manifest, entries);
  const lazyParts = [...closureKeys(manifest, shell)]
    .filter((key) => !early.has(key))
    .flatMap((key) => manifest[key]?.dynamicImports ?? [])
    .filter((key) => key.startsWith('src/'));
  return [
    {
      name: 'sign-in page',
      files: closure(manifest, [...entries, `${ROUTES}sign-in.tsx`]),
      budgeted: true,
    },
    { name: 'app shell', files: closure(manifest, [...entries, ...shell]), budgeted: true },
    ...lazyParts.map((key) => ({
      name: `shell + ${path.basename(key).replace(/\.tsx?$/, '')} (lazy)`,
      files: closure(manifest, [...entries, ...shell, key]),
      budgeted: false,
    })),
    ...sections.map((key) => ({
      name: `shell + ${key.slice(ROUTES.length).replace(/\.tsx$/, '')}`,
      files: closure(manifest, [...entries, ...shell, key]),
      budgeted: false,
    })),
  ];
}

/**
 * What "its stack" means, with the weights of the stacks the pages use: under the page budget, what
 * is left for a page's own code (bench/stack-floor.ts).
 */
function stackNote(rows: { stack: { libraries: string[]; gzip: number } }[]): string {
  const stacks = new Map(rows.map((row) => [row.stack.libraries.join(', '), row.stack.gzip]));
  return [
    '"Its stack": the libraries the page loads from the stack DESIGN.md chooses, with exactly the exports the dashboard imports from them, built alone in one chunk as `vite build` does (bench/stack-floor.ts). "Above its stack": the page\'s own code, the contract, other libraries it loads (DOMPurify, Papa Parse…) and the cost of loading it in several chunks. Left for those under the page budget:',
    '',
    ...[...stacks].map(
      ([libraries, gzip]) =>
        `- ${libraries || 'none'}: ${kB(gzip)} kB, leaving ${kB(pageJsBudgetBytes - gzip)} kB`,
    ),
  ].join('\n');
}

function kB(bytes: number): string {
  return (bytes / 1000).toFixed(2);
}
