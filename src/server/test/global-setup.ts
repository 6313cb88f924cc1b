import type { TestProject } from 'vitest/node';
import { postgresAvailable, startPostgresCluster, type PostgresCluster } from './postgres-cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The throwaway cluster's URL, or '' when PostgreSQL is not available here. */
    pgUrl: string;
    pgUnavailable: string;
  }
}

let cluster: PostgresCluster | undefined;

/** One PostgreSQL cluster for the whole server test run; each test file creates its own database. */
export async function setup(project: TestProject): Promise<void> {
  // `npm run test:fast` runs one database (issue 16 §4); its PostgreSQL tests count as skipped.
  // So do `npm test`'s runs on other dates (date-runs.ts), after the full run on both.
  const unavailable =
    process.env.TEST_DIALECTS === 'sqlite'
      ? process.env.TEST_SERVER_DATE
        ? `not run on ${process.env.TEST_SERVER_DATE}: the date runs are on SQLite`
        : 'not run by npm run test:fast'
      : postgresAvailable();
  if (unavailable) {
    if (process.env.CI && process.env.TEST_DIALECTS !== 'sqlite') throw new Error(`PostgreSQL is required in CI: ${unavailable}`);
    console.warn(`PostgreSQL tests skipped: ${unavailable}`);
    project.provide('pgUrl', '');
    project.provide('pgUnavailable', unavailable);
    return;
  }
  cluster = await startPostgresCluster();
  project.provide('pgUrl', cluster.url);
  project.provide('pgUnavailable', '');
}

export function teardown(): void {
  cluster?.stop();
}
