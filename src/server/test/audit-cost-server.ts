import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';

/**
 * A server process for bench/audit-cost.ts: `listkeeper serve`'s API on the same database, built
 * with the audit log (`AUDIT_LOG=on`) or without it (`off`), so that the bench measures writes per
 * second with and without recording, in one run. Only the bench sets AUDIT_LOG: the product has
 * no way to turn the log off. Prints nothing; the bench waits for the port to answer.
 */
const config = loadConfig();
const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
const app = await buildApp({ config, database, auditLog: process.env.AUDIT_LOG !== 'off' });
await app.listen({ port: config.port, host: config.host });
process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .finally(() => process.exit(0));
});
