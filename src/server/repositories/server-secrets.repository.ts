import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The installation's secret named `name`, made from `fresh` the first time it is asked for. Several
 * processes starting at once each try to insert theirs; the first insert wins and all read it back.
 */
export async function installationSecret(
  db: Kysely<Database>,
  name: string,
  fresh: () => string,
): Promise<string> {
  await db
    .insertInto('server_secrets')
    .values({ name, value: fresh() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}
