import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { startMail } from '../mail/mail-service.ts';

/**
 * What `listkeeper serve` runs for mail (startMail: the outbox worker, the digest timer, the SMTP
 * listener when SMTP_IN_PORT is set), on the database and with the configuration its environment
 * names, without the HTTP server: the crash tests kill it with -9 and start it again, and it is up
 * in half the time `serve` takes. SIGTERM closes it.
 */
const config = loadConfig();
const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
const mail = await startMail(config, database.db, {
  onError: (error) => console.error(error),
});
process.once('SIGTERM', () => {
  void mail
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
