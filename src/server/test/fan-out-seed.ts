import type { Kysely } from 'kysely';
import { openDatabase, type DatabaseOptions } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { acceptMail } from '../mail/accept.ts';

/**
 * The database `target` names (SQLite in its DATA_DIR, or DATABASE_URL) with one list of
 * `addresses` members (`m<i>@crash.example`) and one accepted message to it: `addresses` pending
 * deliveries (the crash tests and the mail bench).
 */
export async function seedFanOut(
  target: DatabaseOptions,
  addresses: number,
  options: { message: boolean } = { message: true },
): Promise<void> {
  const database = await openDatabase(target);
  try {
    await seedFanOutInto(database.db, addresses, options);
  } finally {
    await database.close();
  }
}

/** As `seedFanOut`, into an open database. */
export async function seedFanOutInto(
  db: Kysely<Database>,
  addresses: number,
  options: { message: boolean } = { message: true },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    const account = await trx
      .insertInto('accounts')
      .values({ name: 'crash', max_contacts: 100_000, created: now, domain: 'crash.example' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const list = await trx
      .insertInto('lists')
      .values({ account_id: account.id, name: 'all', created: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (let start = 0; start < addresses; start += 500) {
      const contacts = await trx
        .insertInto('contacts')
        .values(
          Array.from({ length: Math.min(500, addresses - start) }, () => ({
            account_id: account.id,
            created: now,
          })),
        )
        .returning('id')
        .execute();
      await trx
        .insertInto('emails')
        .values(
          contacts.map((contact, index) => ({
            account_id: account.id,
            contact_id: contact.id,
            email: `m${start + index}@crash.example`,
            email_key: `m${start + index}@crash.example`,
          })),
        )
        .execute();
      await trx
        .insertInto('memberships')
        .values(
          contacts.map((contact) => ({
            account_id: account.id,
            contact_id: contact.id,
            list_id: list.id,
            digest: null,
          })),
        )
        .execute();
    }
    if (options.message)
      await acceptMail(
        trx,
        account.id,
        list.id,
        {
          subject: 'To everyone, once',
          fromPhrase: 'Sender',
          fromAddress: 'sender@crash.example',
          messageId: '<crash-fan-out@crash.example>',
          answers: [],
          contentPlain: 'Each of you gets this exactly once.',
          contentHtml: '',
        },
        new Date(),
      );
  });
}
