// `npm test`: every check the repo has, in order, streaming each step's output. It keeps going
// after a failure so one run shows all of them, and ends with exactly one line
// `N passed, M failed[, K skipped]` (exit status 1 when anything failed).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { DATE_SENSITIVE_TESTS, TEST_DATES } from '../src/server/test/date-runs.ts';

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

interface Run {
  command: string[];
  env?: Record<string, string>;
  /** Reads the run's report; without it the run counts as one check. */
  count?: () => Promise<Counts>;
}

interface Step extends Run {
  name: string;
  /** Runs in turn instead of `command`, their counts added up (the server tests on other dates). */
  runs?: Run[];
}

const repoRoot = path.resolve(import.meta.dirname, '..');
const reportDir = await mkdtemp(path.join(tmpdir(), 'listkeeper-test-'));
const vitestReport = path.join(reportDir, 'vitest.json');
const playwrightReport = path.join(reportDir, 'playwright.json');

// `--fast` (`npm run test:fast`, issue 16 §4): typecheck, lint and the unit and server tests on
// SQLite only, for every commit; `npm test` stays the whole suite and CI's command.
const fast = process.argv.includes('--fast');

const allSteps: Step[] = [
  { name: 'typecheck', command: ['npm', 'run', '--silent', 'typecheck'] },
  { name: 'lint', command: ['npm', 'run', '--silent', 'lint'] },
  {
    name: 'unit tests',
    command: [
      'npm',
      'run',
      '--silent',
      'test:unit',
      '--',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${vitestReport}`,
    ],
    count: () => countVitest(vitestReport),
  },
  {
    // Issue 28 item 1: the tests whose outcome can hang on the date, again on SQLite with the
    // server's clock on 29 February, 31 March and 30 November (src/server/test/date-runs.ts says
    // which and why; date-runs.test.ts fails when a test that reads a date is in neither list).
    name: 'server tests on other dates',
    command: [],
    runs: TEST_DATES.map((date, index) => {
      const report = path.join(reportDir, `vitest-date-${index}.json`);
      return {
        command: [
          'npx',
          'vitest',
          'run',
          '--project',
          'server',
          ...DATE_SENSITIVE_TESTS.map((file) => `src/server/${file}`),
          `--maxWorkers=${Math.max(2, availableParallelism() - 1)}`,
          '--reporter=default',
          '--reporter=json',
          `--outputFile.json=${report}`,
        ],
        env: { TEST_DIALECTS: 'sqlite', TEST_SERVER_DATE: date },
        // The PostgreSQL halves, skipped here, ran in the unit tests step: not counted twice.
        count: async () => ({ ...(await countVitest(report)), skipped: 0 }),
      };
    }),
  },
  { name: 'build', command: ['npm', 'run', '--silent', 'build'] },
  // The initial-JavaScript budget (issue #5), checked on the build just made.
  { name: 'bundle budget', command: ['node', 'bench/run.ts', '--check-bundle', '--reuse-dist'] },
  {
    name: 'e2e tests',
    command: ['npx', 'playwright', 'test'],
    env: { PLAYWRIGHT_JSON_OUTPUT_FILE: playwrightReport },
    count: () => countPlaywright(playwrightReport),
  },
];

/**
 * Left out of the fast run, which must end within two minutes (issue 16 §4): each starts server
 * processes, kills them or seeds thousands of rows. `npm test` runs them. (Server tests, src/server/.)
 */
const HEAVY_TESTS = [
  'archive-scale.test.ts',
  'test/crash.test.ts',
  'test/mail-crash.test.ts',
  'test/load.test.ts',
  'test/search-isolation.test.ts',
  'test/startup.test.ts',
];

const steps = fast ? fastSteps(allSteps) : allSteps;

/** The fast run: no build or browser; server tests on SQLite, the heavy ones left out; lint reuses its cache. */
function fastSteps(all: Step[]): Step[] {
  return all
    .filter((step) => ['typecheck', 'lint', 'unit tests'].includes(step.name))
    .map((step) => {
      if (step.name === 'lint')
        return {
          ...step,
          command: [
            'npx',
            'eslint',
            '--max-warnings',
            '0',
            '--cache',
            '--cache-location',
            'node_modules/.cache/eslint/',
            '.',
          ],
        };
      if (step.name === 'unit tests')
        return {
          ...step,
          name: `unit tests (not run: ${HEAVY_TESTS.map((file) => path.basename(file)).join(', ')})`,
          command: [
            ...step.command,
            // Globs match within each project's root (src/server/ for these).
            ...HEAVY_TESTS.flatMap((file) => ['--exclude', `**/${file}`]),
            // Vitest runs one file at a time on two cores (one fewer than it has); much of a server
            // test waits on its database or sockets, so two at a time end sooner.
            `--maxWorkers=${Math.max(2, availableParallelism() - 1)}`,
          ],
          env: { TEST_DIALECTS: 'sqlite' },
        };
      return step;
    });
}

const total: Counts = { passed: 0, failed: 0, skipped: 0 };
const summary: string[] = [];
let buildFailed = false;

for (const step of steps) {
  if (step.name === 'e2e tests' && buildFailed) {
    // Testing a stale dist/ would report on code that is not the code under test.
    summary.push(`${step.name}: not run (the build failed)`);
    continue;
  }
  const stepCounts = counts(0, 0);
  let exitCode = 0;
  for (const part of step.runs ?? [step]) {
    // A step of several runs says what sets each apart (its TEST_SERVER_DATE).
    const env = step.runs
      ? Object.entries(part.env ?? {}).map(([name, value]) => `${name}=${value} `)
      : [];
    console.log(`\n=== ${step.name}: ${env.join('')}${part.command.join(' ')}\n`);
    const partExit = await run(part.command, part.env);
    const partCounts = await countStep(part, partExit);
    stepCounts.passed += partCounts.passed;
    stepCounts.failed += partCounts.failed;
    stepCounts.skipped += partCounts.skipped;
    if (exitCode === 0) exitCode = partExit;
  }
  if (step.name === 'build' && exitCode !== 0) buildFailed = true;
  total.passed += stepCounts.passed;
  total.failed += stepCounts.failed;
  total.skipped += stepCounts.skipped;
  summary.push(`${step.name}: ${format(stepCounts)}${exitCode === 0 ? '' : ` (exit ${exitCode})`}`);
}

await rm(reportDir, { recursive: true, force: true });
console.log(`\n=== summary\n${summary.map((line) => `  ${line}`).join('\n')}\n`);
console.log(format(total));
process.exitCode = total.failed > 0 ? 1 : 0;

function format({ passed, failed, skipped }: Counts): string {
  return `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
}

/** A failing step always counts at least one failure, even when its report is missing or clean. */
async function countStep(step: Run, exitCode: number): Promise<Counts> {
  if (!step.count) return exitCode === 0 ? counts(1, 0) : counts(0, 1);
  let reported: Counts;
  try {
    reported = await step.count();
  } catch {
    return counts(0, 1);
  }
  if (exitCode !== 0 && reported.failed === 0) reported.failed = 1;
  return reported;
}

function counts(passed: number, failed: number, skipped = 0): Counts {
  return { passed, failed, skipped };
}

function run(command: string[], env: Record<string, string> = {}): Promise<number> {
  const [file = '', ...args] = command;
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      cwd: repoRoot,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    child.on('error', (error) => {
      console.error(`could not start ${file}: ${error.message}`);
      resolve(127);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await readFile(file, 'utf8')) as unknown;
}

async function countVitest(file: string): Promise<Counts> {
  const report = (await readJson(file)) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    testResults: { status: string; assertionResults: { status: string }[] }[];
  };
  // A file that fails to load (syntax, import, hook error) fails without failing any test.
  const brokenFiles = report.testResults.filter(
    (result) =>
      result.status === 'failed' &&
      !result.assertionResults.some((test) => test.status === 'failed'),
  ).length;
  return counts(
    report.numPassedTests,
    report.numFailedTests + brokenFiles,
    report.numPendingTests + report.numTodoTests,
  );
}

async function countPlaywright(file: string): Promise<Counts> {
  const report = (await readJson(file)) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    errors?: unknown[];
  };
  const { expected, unexpected, flaky, skipped } = report.stats;
  // Errors outside any test (config, global setup) fail the run without failing a test.
  const runErrors = unexpected === 0 ? (report.errors?.length ?? 0) : 0;
  return counts(expected, unexpected + flaky + runErrors, skipped);
}
