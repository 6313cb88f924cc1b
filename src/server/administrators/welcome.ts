import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AdministratorRow } from '../repositories/administrators.repository.ts';
import { administratorMailFrom, queueWelcomeMail } from './administrator-mail.ts';
import { issuePasswordLink, PASSWORD_LINK_DAYS } from './password-links.ts';

/** Where a welcome is sent from: the public origin and the account (null: the group's). */
export interface WelcomeContext {
  origin: string;
  account: { name: string; domain: string | null } | null;
}

/**
 * Spec §2.6 `welcome_email` for a person just created without a password (issue 27 item 4): a
 * one-time link to set one, mailed to their username, in the transaction that creates them.
 */
export async function welcomeAdministrator(
  db: Kysely<Database>,
  administrator: AdministratorRow & { username: string },
  context: WelcomeContext,
  now: Date,
): Promise<void> {
  const origin = context.origin.replace(/\/+$/, '');
  const link = await issuePasswordLink(
    db,
    { id: administrator.id, accountId: administrator.account_id, username: administrator.username },
    origin,
    now,
  );
  await queueWelcomeMail(
    db,
    {
      accountId: administrator.account_id,
      accountName: context.account?.name ?? null,
      from: administratorMailFrom(context.account?.domain ?? null, origin),
      to: administrator.username,
      firstname: administrator.firstname,
      link,
      validDays: PASSWORD_LINK_DAYS,
      signInUrl: `${origin}/`,
    },
    now,
  );
}
