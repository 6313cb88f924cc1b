import type { Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { DialectName } from './dialect.ts';
import { initial } from './migrations/2026-11-21T0000-initial.ts';
import { contactsSearchTrigram } from './migrations/2026-11-21T0100-contacts-search-trigram.ts';
import { messageIndexes } from './migrations/2026-11-21T0110-message-indexes.ts';
import { oauth } from './migrations/2026-11-21T0200-oauth.ts';
import { contactsSearchFts } from './migrations/2026-11-21T0300-contacts-search-fts.ts';
import { apiKeysAdministratorIndex } from './migrations/2026-11-21T0400-api-keys-administrator-index.ts';
import { contactsFtsExact } from './migrations/2026-11-21T0400-contacts-fts-exact.ts';
import { contactCounts } from './migrations/2026-11-21T0410-contact-counts.ts';
import { contactDocuments } from './migrations/2026-11-21T0500-contact-documents.ts';
import { contactSearch } from './migrations/2026-11-24T0100-contact-search.ts';
import { heldMessages } from './migrations/2026-11-25T0000-held-messages.ts';
import { mailOutbox } from './migrations/2026-11-25T0100-mail-outbox.ts';
import { outboxLease } from './migrations/2026-11-25T0200-outbox-lease.ts';
import { contactSearchAccountIndex } from './migrations/2026-11-25T0300-contact-search-account-index.ts';
import { documentVersions } from './migrations/2026-11-26T0000-document-versions.ts';
import { contactSearchShortTerms } from './migrations/2026-11-27T0000-contact-search-short-terms.ts';
import { members } from './migrations/2026-11-29T0000-members.ts';
import { heldAnswerable } from './migrations/2026-11-29T0200-held-answerable.ts';
import { heldStoredOnce } from './migrations/2026-11-29T0210-held-stored-once.ts';
import { archive } from './migrations/2026-11-29T0500-archive.ts';
import { audit } from './migrations/2026-11-29T0600-audit.ts';
import { customFieldValuesIndex } from './migrations/2026-11-29T0700-custom-field-values-index.ts';
import { administratorMail } from './migrations/2026-11-29T0710-administrator-mail.ts';
import { bounces } from './migrations/2026-11-29T0800-bounces.ts';
import { receivedAuthentication } from './migrations/2026-11-29T0900-received-authentication.ts';
import { publicMailTimes } from './migrations/2026-11-29T1000-public-mail-times.ts';
import { contactSearchSerial } from './migrations/2026-11-29T1010-contact-search-serial.ts';

/** Every migration, named by timestamp, listed here rather than discovered from the file system. */
function migrations(dialect: DialectName): Record<string, Migration> {
  return {
    '2026-11-21T0000-initial': initial(dialect),
    '2026-11-21T0100-contacts-search-trigram': contactsSearchTrigram(dialect),
    '2026-11-21T0110-message-indexes': messageIndexes,
    '2026-11-21T0200-oauth': oauth(dialect),
    '2026-11-21T0300-contacts-search-fts': contactsSearchFts(dialect),
    '2026-11-21T0400-api-keys-administrator-index': apiKeysAdministratorIndex,
    '2026-11-21T0400-contacts-fts-exact': contactsFtsExact(dialect),
    '2026-11-21T0410-contact-counts': contactCounts(dialect),
    '2026-11-21T0500-contact-documents': contactDocuments(dialect),
    '2026-11-24T0100-contact-search': contactSearch(dialect),
    '2026-11-25T0000-held-messages': heldMessages(dialect),
    '2026-11-25T0100-mail-outbox': mailOutbox(dialect),
    '2026-11-25T0200-outbox-lease': outboxLease,
    '2026-11-25T0300-contact-search-account-index': contactSearchAccountIndex(dialect),
    '2026-11-26T0000-document-versions': documentVersions(dialect),
    '2026-11-27T0000-contact-search-short-terms': contactSearchShortTerms(dialect),
    '2026-11-29T0000-members': members(dialect),
    '2026-11-29T0200-held-answerable': heldAnswerable,
    '2026-11-29T0210-held-stored-once': heldStoredOnce(dialect),
    '2026-11-29T0500-archive': archive(dialect),
    '2026-11-29T0600-audit': audit(dialect),
    '2026-11-29T0700-custom-field-values-index': customFieldValuesIndex,
    '2026-11-29T0710-administrator-mail': administratorMail(dialect),
    '2026-11-29T0800-bounces': bounces,
    '2026-11-29T0900-received-authentication': receivedAuthentication,
    '2026-11-29T1000-public-mail-times': publicMailTimes,
    '2026-11-29T1010-contact-search-serial': contactSearchSerial(dialect),
  };
}

export async function migrateToLatest(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations(dialect)) };
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    // The cause's text is part of the message: whoever prints only `message` still sees why.
    const cause =
      error instanceof Error
        ? `: ${error.message}`
        : error === undefined
          ? ''
          : `: ${JSON.stringify(error)}`;
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed${cause}`, { cause: error });
  }
}
