import type { Kysely, Updateable } from 'kysely';
import type { Email, EmailCreate, EmailUpdate } from '../../api/schemas/email.ts';
import type { Principal } from '../auth/principal.ts';
import { forgetBounces } from '../bounces/clear.ts';
import type { Database, EmailsTable } from '../db/schema.ts';
import { badRequest, notFound } from '../http/http-error.ts';
import type { AccountRow } from '../repositories/accounts.repository.ts';
import {
  deleteContact,
  findContactByRef,
  lockContactRow,
  parseServiceId,
} from '../repositories/contacts.repository.ts';
import { toEmail } from '../repositories/emails.mapper.ts';
import {
  countEmailsOfContact,
  deleteEmail as deleteEmailRow,
  emailKey,
  findEmailByAddress,
  findEmailById,
  insertEmails,
  updateEmail as updateEmailRow,
  type EmailWithContactRow,
} from '../repositories/emails.repository.ts';
import { assertContactManageable } from './contact-access.ts';
import { assertAddressesAllowed, assertAddressesFree } from './contact-address-rules.ts';
import { contactRef } from './contact-ref.ts';
import { translateUniqueViolation } from './write-conflict.ts';

/** Spec §4.2: `:id` is a service email identifier, or (with an `@`) the URL-encoded address. */
export async function findEmail(
  db: Kysely<Database>,
  account: AccountRow,
  idOrAddress: string,
): Promise<EmailWithContactRow> {
  let row: EmailWithContactRow | undefined;
  if (idOrAddress.includes('@')) {
    row = await findEmailByAddress(db, account.id, idOrAddress);
  } else {
    const id = parseServiceId(idOrAddress);
    row = id === null ? undefined : await findEmailById(db, account.id, id);
  }
  if (!row) throw notFound('Email');
  return row;
}

function present(account: AccountRow, row: EmailWithContactRow): Email {
  return toEmail(row, contactRef(account, { id: row.contact_id, ccid: row.contact_ccid }));
}

const flag = (value: boolean) => (value ? 1 : 0);

export async function getEmail(
  db: Kysely<Database>,
  account: AccountRow,
  idOrAddress: string,
): Promise<Email> {
  return present(account, await findEmail(db, account, idOrAddress));
}

/** Spec §4.2 create: at minimum `email` and `contact`; the address is unique within the account. */
export async function createEmail(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  body: EmailCreate,
): Promise<Email> {
  const contact = await findContactByRef(db, account, body.contact);
  if (!contact) throw badRequest(`contact: no contact ${body.contact} in this account`);
  await assertContactManageable(db, principal, contact.id);
  assertAddressesAllowed(account, [body.email]);
  await assertAddressesFree(db, account, [body.email]);
  try {
    const [row] = await insertEmails(db, [
      {
        account_id: account.id,
        contact_id: contact.id,
        email: body.email,
        email_key: emailKey(body.email),
        digest: flag(body.digest ?? false),
        paused: flag(body.paused ?? false),
        ceid: body.ceid ?? null,
      },
    ]);
    return present(account, { ...(row as EmailWithContactRow), contact_ccid: contact.ccid });
  } catch (error) {
    throw translateUniqueViolation(error);
  }
}

/** Spec §4.2 update: digest, paused, ceid and the address itself; `confirmed` stays read-only. */
export async function updateEmail(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  idOrAddress: string,
  body: EmailUpdate,
): Promise<Email> {
  const row = await findEmail(db, account, idOrAddress);
  await assertContactManageable(db, principal, row.contact_id);
  const patch: Updateable<EmailsTable> = {};
  if (body.email !== undefined && body.email !== row.email) {
    assertAddressesAllowed(account, [body.email]);
    await assertAddressesFree(db, account, [body.email], row.id);
    patch.email = body.email;
    patch.email_key = emailKey(body.email);
  }
  if (body.digest !== undefined) patch.digest = flag(body.digest);
  if (body.paused !== undefined) patch.paused = flag(body.paused);
  if (body.ceid !== undefined) patch.ceid = body.ceid;
  try {
    await updateEmailRow(db, account.id, row.id, patch);
  } catch (error) {
    throw translateUniqueViolation(error);
  }
  // Issue 26: a pause set or lifted by hand, or a new address, ends what bounces recorded.
  if (patch.email !== undefined || (patch.paused !== undefined && patch.paused !== row.paused))
    await forgetBounces(db, row.id);
  return present(account, { ...row, ...patch });
}

/** Spec §4.2 rule: deleting a contact's last address deletes the contact too (same transaction). */
export async function deleteEmail(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  idOrAddress: string,
): Promise<void> {
  const row = await findEmail(db, account, idOrAddress);
  await assertContactManageable(db, principal, row.contact_id);
  // Two deletes of a contact's last two addresses must not both see the other one still there.
  await lockContactRow(db, row.contact_id);
  if ((await countEmailsOfContact(db, row.contact_id)) <= 1) {
    await deleteContact(db, account.id, row.contact_id);
    return;
  }
  await deleteEmailRow(db, account.id, row.id);
}
