import type { Kysely, Selectable } from 'kysely';
import type { Database, OAuthClientsTable } from '../db/schema.ts';

export type OAuthClientRow = Selectable<OAuthClientsTable>;

export interface NewClient {
  client_id: string;
  name: string;
  secret_hash: string | null;
  first_party: number;
  created: string;
}

export async function insertClient(
  db: Kysely<Database>,
  client: NewClient,
  redirectUris: readonly { redirect_uri: string; origin: string }[],
): Promise<OAuthClientRow> {
  const row = await db.insertInto('oauth_clients').values(client).returningAll().executeTakeFirstOrThrow();
  await insertRedirectUris(db, row.id, redirectUris);
  return row;
}

/**
 * Creates the client or refreshes its name, secret and redirect URIs. One statement decides, so
 * several processes starting together on one PostgreSQL do not trip over each other.
 */
export async function upsertClient(
  db: Kysely<Database>,
  client: NewClient,
  redirectUris: readonly { redirect_uri: string; origin: string }[],
): Promise<OAuthClientRow> {
  const row = await db
    .insertInto('oauth_clients')
    .values(client)
    .onConflict((oc) =>
      oc.column('client_id').doUpdateSet({ name: client.name, secret_hash: client.secret_hash, first_party: client.first_party }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  await db.deleteFrom('oauth_redirect_uris').where('client_id', '=', row.id).execute();
  await insertRedirectUris(db, row.id, redirectUris);
  return row;
}

async function insertRedirectUris(
  db: Kysely<Database>,
  clientRowId: number,
  redirectUris: readonly { redirect_uri: string; origin: string }[],
): Promise<void> {
  if (redirectUris.length === 0) return;
  await db
    .insertInto('oauth_redirect_uris')
    .values(redirectUris.map((uri) => ({ client_id: clientRowId, ...uri })))
    .execute();
}

export function findClient(db: Kysely<Database>, clientId: string): Promise<OAuthClientRow | undefined> {
  return db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

/** SECURITY.md 1: an exact string match with one of the client's registered URIs. */
export async function hasRedirectUri(db: Kysely<Database>, clientRowId: number, redirectUri: string): Promise<boolean> {
  const row = await db
    .selectFrom('oauth_redirect_uris')
    .select('id')
    .where('client_id', '=', clientRowId)
    .where('redirect_uri', '=', redirectUri)
    .executeTakeFirst();
  return row !== undefined;
}

export async function listRedirectUris(db: Kysely<Database>, clientRowId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('oauth_redirect_uris')
    .select('redirect_uri')
    .where('client_id', '=', clientRowId)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.redirect_uri);
}

/** SECURITY.md 7: whether any registered client redirects to this origin. */
export async function isClientOrigin(db: Kysely<Database>, origin: string): Promise<boolean> {
  const row = await db.selectFrom('oauth_redirect_uris').select('id').where('origin', '=', origin).executeTakeFirst();
  return row !== undefined;
}
