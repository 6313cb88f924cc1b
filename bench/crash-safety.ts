// Crash safety, large (issue #10 item 1): `npm run bench -- --crash N` kills the server N times on
// SQLite, and server and database N times on PostgreSQL, and checks every acknowledged write and
// its audit entry (issue 26 item 4).
import { runCrashRounds } from '../src/server/test/crash-harness.ts';
import { postgresAvailable } from '../src/server/test/postgres-cluster.ts';
import type { SectionResult } from './section.ts';

export async function crashSafety(rounds: number): Promise<SectionResult> {
  const lines = ['| database | kills | acknowledged writes | missing | half-written | without audit entry | integrity |', '| --- | ---: | ---: | ---: | ---: | ---: | --- |'];
  let ok = true;
  const unavailable = postgresAvailable();
  for (const dialect of ['sqlite', 'postgres'] as const) {
    if (dialect === 'postgres' && unavailable) {
      lines.push(`| postgres | skipped: ${unavailable} | | | | | |`);
      continue;
    }
    const report = await runCrashRounds(dialect, rounds);
    ok &&= report.missing === 0 && report.halfWritten === 0 && report.unrecorded === 0 && report.integrity === 'ok';
    lines.push(`| ${dialect} | ${rounds} | ${report.acknowledged} | ${report.missing} | ${report.halfWritten} | ${report.unrecorded} | ${report.integrity} |`);
  }
  return { name: 'Crash safety', ok, text: lines.join('\n') };
}
