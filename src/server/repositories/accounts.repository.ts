import type { Kysely, Selectable } from 'kysely';
import type { AccountsTable, Database } from '../db/schema.ts';

export type AccountRow = Selectable<AccountsTable>;

export function findAccountById(db: Kysely<Database>, id: number): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findAccountByName(db: Kysely<Database>, name: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('name', '=', name).executeTakeFirst();
}
