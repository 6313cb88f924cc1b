// Lighthouse (issue #10 item 4): performance, accessibility and best practices of the built
// dashboard served as `npm start` serves it (the gateway in front of the real server), in headless
// Chromium (CHROME_PATH), with Lighthouse's desktop preset (an administrator's desktop tool) and
// its mobile preset (a phone on simulated 4G with a 4× slower CPU; issue 27 item 8).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse, { desktopConfig, type Config } from 'lighthouse';
import puppeteer, { type Page } from 'puppeteer-core';
import * as z from 'zod';
import { MessagePage } from '../src/api/schemas/message.ts';
import { runCliJson, startServerProcess } from '../src/server/test/server-process.ts';
import { startInProcessGateway } from '../src/gateway/in-process.ts';
import { markdownTable } from './markdown-table.ts';
import type { SectionResult } from './section.ts';

export interface LighthouseOptions {
  distDir: string;
  /** Runs per page; the row shows the run with the median performance score. */
  runs: number;
  progress: (line: string) => void;
}

const DemoOutput = z.object({
  global_key: z.string(),
  account_ids: z.object({ demo: z.number() }),
});
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;

/** Lighthouse's two presets: its own desktop config, and its default (mobile) one. */
const PRESETS: readonly { name: string; config: Config | undefined }[] = [
  { name: 'desktop', config: desktopConfig },
  { name: 'mobile', config: undefined },
];

interface PageToAudit {
  name: string;
  path: string;
  signedIn: boolean;
}

interface Audited {
  scores: Record<(typeof CATEGORIES)[number], number>;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  finalPath: string;
}

/** The demo account's newest message (spec §4.5: newest first), through the API. */
async function newestMessageId(
  origin: string,
  demo: { global_key: string; account_ids: { demo: number } },
): Promise<string> {
  const url = `${origin}/api/2/messages/?limit=1&direction=desc&account_id=${demo.account_ids.demo}`;
  const response = await fetch(url, { headers: { authorization: `Bearer ${demo.global_key}` } });
  const page = MessagePage.parse(await response.json());
  const [message] = page.data;
  if (!message) throw new Error('the demo account has no message to audit');
  return String(message.id);
}

export async function lighthouseSection(options: LighthouseOptions): Promise<SectionResult> {
  // Lighthouse and the section launch the same browser: the system Chromium unless told otherwise.
  const chromePath = (process.env.CHROME_PATH ??= '/usr/bin/chromium');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-bench-lighthouse-'));
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    STATIC_DIR: options.distDir,
    LOG_LEVEL: 'silent',
  };
  const demo = DemoOutput.parse(await runCliJson(env, ['demo', '--contacts', '1000']));
  const server = await startServerProcess(env);
  const gateway = await startInProcessGateway({
    upstreamUrl: server.url,
    staticDir: options.distDir,
  }).catch(async (error: unknown) => {
    await server.stop();
    throw error;
  });
  const browser = await puppeteer.launch({
    executablePath: chromePath,
    headless: true,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
  try {
    const account = `/a/${demo.account_ids.demo}`;
    const pages: PageToAudit[] = [
      { name: 'sign-in', path: '/sign-in', signedIn: false },
      { name: 'contacts', path: `${account}/contacts`, signedIn: true },
      { name: 'list settings', path: `${account}/lists/announcements`, signedIn: true },
      {
        name: 'a message',
        path: `${account}/messages/${await newestMessageId(server.url, demo)}`,
        signedIn: true,
      },
    ];
    // The session cookie is the browser context's: the sign-in page is audited in another one.
    const anonymous = await (await browser.createBrowserContext()).newPage();
    const signedIn = await browser.newPage();
    await signIn(signedIn, gateway.url, demo.global_key);
    const rows: (string | number)[][] = [];
    let ok = true;
    for (const preset of PRESETS)
      for (const page of pages) {
        const runs: Audited[] = [];
        for (let run = 0; run < options.runs; run++) {
          options.progress(
            `lighthouse: ${page.name} (${preset.name}), run ${run + 1} of ${options.runs}`,
          );
          runs.push(
            await auditWithRetry(
              page.signedIn ? signedIn : anonymous,
              `${gateway.url}${page.path}`,
              preset.config,
            ),
          );
        }
        const median = runs.toSorted((a, b) => a.scores.performance - b.scores.performance)[
          Math.floor(runs.length / 2)
        ];
        if (!median) continue;
        // A signed-in page that ended on the sign-in page measured the wrong page.
        const landed = median.finalPath === page.path;
        ok &&= landed;
        rows.push([
          preset.name,
          page.name,
          `\`${page.path}\`${landed ? '' : ` (ended on \`${median.finalPath}\`)`}`,
          ...CATEGORIES.map((category) => median.scores[category]),
          median.fcp.toFixed(0),
          median.lcp.toFixed(0),
          median.tbt.toFixed(0),
          median.cls.toFixed(3),
        ]);
      }
    const version = await browser.version();
    const text = [
      `Lighthouse's desktop and mobile presets (simulated throttling; mobile: a phone on 4G with a 4× slower CPU), ${version} headless; the median of ${options.runs} runs by performance score. ` +
        `Demo data with 1,000 contacts on SQLite; signed in with a global key through the gateway, in process, as \`npm start\` serves the dashboard. Scores out of 100 (no budget is set for them).`,
      '',
      markdownTable(
        [
          'preset',
          'page',
          'path',
          'performance',
          'accessibility',
          'best practices',
          'FCP ms',
          'LCP ms',
          'TBT ms',
          'CLS',
        ],
        rows,
      ),
    ];
    return { name: 'Lighthouse', ok, text: text.join('\n') };
  } finally {
    await browser.close();
    await gateway.stop();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Signs in with the key form at the gateway: its session cookie signs in every later load. */
async function signIn(page: Page, url: string, key: string): Promise<void> {
  await page.goto(`${url}/sign-in`);
  await page.locator('input[name="key"]').fill(key);
  await page.locator('form:has(input[name="key"]) button[type="submit"]').click();
  await page.locator('::-p-aria(Sign out)').wait();
}

/** Lighthouse's trace recording sometimes fails on a busy machine ("run Lighthouse again"). */
async function auditWithRetry(
  page: Page,
  url: string,
  config: Config | undefined,
): Promise<Audited> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await audit(page, url, config);
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

async function audit(page: Page, url: string, config: Config | undefined): Promise<Audited> {
  // A background tab never paints: Lighthouse measures the tab in front.
  await page.bringToFront();
  const result = await lighthouse(
    url,
    { logLevel: 'error', output: 'json', onlyCategories: [...CATEGORIES] },
    config,
    page,
  );
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`Lighthouse returned nothing for ${url}`);
  if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
  // LIGHTHOUSE_REPORT_DIR keeps each run's whole report, to read why a page scored as it did.
  const reportDir = process.env.LIGHTHOUSE_REPORT_DIR;
  if (reportDir) {
    const name = `${new URL(url).pathname.replaceAll('/', '_')}-${Date.now()}.json`;
    fs.writeFileSync(path.join(reportDir, name), JSON.stringify(lhr));
  }
  const score = (category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
  const value = (audit: string) => lhr.audits[audit]?.numericValue ?? Number.NaN;
  return {
    scores: {
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
    },
    fcp: value('first-contentful-paint'),
    lcp: value('largest-contentful-paint'),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    finalPath: new URL(lhr.finalDisplayedUrl).pathname,
  };
}
