import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

// Playwright cannot download its browser here: use the system Chromium when there is one,
// Playwright's own (`npx playwright install chromium`) otherwise.
const systemChromium =
  process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

const chromiumArgs = [
  // Chromium refuses to sandbox as root (containers, CI).
  ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** scripts/test.ts reads this report to count the tests. */
export const jsonReportFile =
  process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ?? 'playwright-report/results.json';

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  // No retries: a flaky test is a failing test, and the counts stay honest.
  retries: 0,
  workers: 2,
  // Two workers, two servers and two browsers share a 2-core CI machine; the axe runs and the
  // 300–1000-contact set-ups take 10–15 s when it is quiet. Twice Playwright's defaults keeps a
  // busy moment from failing a test, while a real hang still fails.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: jsonReportFile }]],
  use: {
    // Each worker starts its own server; the baseURL fixture in e2e/fixtures/server.ts points here.
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        // Issue 17: every item is proved at 1440×900; the phone tests set their own 390×844.
        viewport: { width: 1440, height: 900 },
        launchOptions: {
          ...(systemChromium ? { executablePath: systemChromium } : {}),
          args: chromiumArgs,
        },
      },
    },
  ],
});
