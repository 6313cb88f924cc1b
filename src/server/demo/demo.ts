import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import * as z from 'zod';
import type { Permission, Notification } from '../../api/constants.ts';
import { hashPassword } from '../auth/keys.ts';
import type { DatabaseHandle } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { renderAllMissingDocumentsWithin } from '../services/background-document-renderer.ts';
import { HttpError } from '../http/http-error.ts';
import { ACCOUNT_DEFAULTS, type AccountSettings } from '../repositories/accounts.mapper.ts';
import {
  findAccountByName,
  insertAccount,
  type AccountRow,
} from '../repositories/accounts.repository.ts';
import { insertAdministrator } from '../repositories/administrators.repository.ts';
import {
  BATCH_SIZE,
  countAllContacts,
  countContacts,
  countMessagesOf,
  existingEmailKeys,
  findDemoAdministrator,
  insertContactValueRows,
  insertContactsReturningIds,
  insertEmailRows,
  insertMembershipRows,
  raiseMaxContacts,
  refreshPlannerStatistics,
  sampleMembers,
  setPasswordHash,
  withDeferredSearchIndex,
  withSearchIndexesBuiltAfter,
} from '../repositories/demo.repository.ts';
import { emailKey } from '../repositories/emails.repository.ts';
import { LIST_DEFAULTS, type ListSettings } from '../repositories/lists.mapper.ts';
import { findListByName, insertList } from '../repositories/lists.repository.ts';
import { insertMessage, setThread } from '../repositories/messages.repository.ts';
import { API_PERSON } from '../repositories/users.mapper.ts';
import { usernameTaken } from '../repositories/users.repository.ts';
import { createCustomField, listCustomFields } from '../services/custom-fields.service.ts';
import { MESSAGE_ID_DOMAIN } from '../services/messages.service.ts';
import { seedDemoMail } from './demo-mail.ts';
import { plainToHtml } from '../../api/message-content.ts';
import {
  DEFAULT_MAX_CONTACTS,
  createApiKeyAdministrator,
  issueKey,
} from '../services/provisioning.service.ts';
import {
  DEMO_FIELDS,
  demoBody,
  demoPerson,
  demoSubject,
  pick,
  seededRandom,
  type FieldSpec,
} from './demo-data.ts';

/**
 * `listkeeper demo [--contacts N]`: one group with two accounts (`demo`, `demo-west`), lists with
 * realistic settings, N contacts (default 300) in `demo`, custom fields, message threads,
 * administrators, and fresh keys. Idempotent: the accounts are found by name and reused; contacts
 * are only added up to N, lists, fields and administrators only when missing, threads only into an
 * empty archive. Keys are never stored in plain, so every run prints new ones, and resets the demo
 * administrator's password to a new one it prints.
 */

export const DEMO_ACCOUNT = 'demo';
export const DEMO_WEST_ACCOUNT = 'demo-west';
export const DEMO_ADMINISTRATOR = 'admin@demo.example';
export const DEFAULT_DEMO_CONTACTS = 300;
const MAX_DEMO_CONTACTS = 1_000_000;

export interface DemoResult {
  global_key: string;
  account_key: string;
  account: string;
  account_ids: Record<string, number>;
  administrator: { username: string; password: string };
  /** Everyone the demo lets sign in with a password, with what each may do (issue 17 item 7). */
  people: DemoPerson[];
}

export interface DemoPerson {
  username: string;
  password: string;
  /** The account's name, or null for a global administrator of the whole group. */
  account: string | null;
  /** In words: what this person can do, for `npm start` to print. */
  role: string;
}

interface AccountPlan {
  name: string;
  description: string;
  domain: string;
  maxContacts: number;
  contacts: number;
  /** Seeds this account's population: the same index gives the same person on every run. */
  salt: number;
  settings: Partial<AccountSettings>;
  lists: (Partial<ListSettings> & { name: string })[];
  fields: FieldSpec[];
  people: PersonPlan[];
}

interface PersonPlan {
  username: string;
  firstname: string;
  surname: string;
  permissions: Permission[];
  notifications: Notification[];
  limitLists?: string[];
  /** In words, for the sign-in summary `npm start` prints. */
  role: string;
}

const FOOTER =
  '--\nYou receive this as a member of the Demo association.\nTo leave, reply with "unsubscribe".';
const FOOTER_HTML =
  '<hr><p>You receive this as a member of the Demo association. To leave, reply with “unsubscribe”.</p>';

function plans(contacts: number): AccountPlan[] {
  return [
    {
      name: DEMO_ACCOUNT,
      description: 'Demo association: main office',
      domain: 'lists.demo.example',
      maxContacts: Math.max(DEFAULT_MAX_CONTACTS, contacts),
      contacts,
      salt: 0x5eed,
      settings: {
        timezone: 'Europe/Lisbon',
        subscriptions: 'open+confirm',
        confirmation_subject: 'Please confirm your subscription',
        confirmation_message: 'Click the link below to confirm that you want to join.',
        welcome_message: 'Welcome to the Demo association!',
        send_welcome_message_confirmation: true,
        list_delegation: true,
      },
      lists: [
        {
          name: 'announcements',
          description: 'News from the board',
          subject_prefix: '[Announce]',
          // Spec §2.4: specific senders (2) from the allowed addresses (8).
          moderate: 2 | 8,
          restrict_post_allowed_emails: ['board@demo.example', DEMO_ADMINISTRATOR],
          message_rejections: 2,
          reply_to: 'board@demo.example',
          message_footer: FOOTER,
          message_footer_html: FOOTER_HTML,
          notify_approval: 1,
          welcome_message_subject: 'Welcome to the announcements',
          welcome_message: 'You will hear from the board about once a month.',
        },
        {
          name: 'community',
          description: 'Open discussion between members',
          subject_prefix: '[Community]',
          moderate: 0,
          taboo_body: ['\\b(viagra|casino|crypto giveaway)\\b'],
          taboo_headers: ['^X-Spam-Flag:\\s*YES', '^Precedence:\\s*(bulk|junk)'],
          restrict_post_banned_emails: ['troll@example.net'],
          message_rejections: 1,
          memberview: 'all-noemail',
          maxlength: 2048,
          message_footer: FOOTER,
          message_footer_html: FOOTER_HTML,
        },
        {
          name: 'staff',
          description: 'Staff only',
          notes: 'Members are added by the office',
          // Specific senders (2): members of the lists in restrict_post_lists (4).
          moderate: 2 | 4,
          restrict_post_lists: ['staff'],
          message_rejections: 0,
          subscriptions: 'closed',
          unsubscriptions: 'open+confirm',
          memberview: 'withemail',
          archive_protected: true,
          archive_memberview: true,
          archive_index_noshow: true,
        },
        {
          name: 'weekly-digest',
          description: 'The week in the association',
          moderate: 1,
          truncate: 20_000,
          maxlength: 512,
          strip_attachments: true,
          message_fronter: 'This week in the association:',
          message_fronter_html: '<p><strong>This week in the association:</strong></p>',
          subscriptions: 'open+confirm',
          welcome_message_subject: 'Welcome to the weekly digest',
          send_hold_message: true,
        },
      ],
      fields: DEMO_FIELDS.demo,
      people: [
        {
          username: DEMO_ADMINISTRATOR,
          firstname: 'Demo',
          surname: 'Administrator',
          permissions: ['superadmin'],
          notifications: ['account', 'list_manager'],
          role: 'superadmin of the demo account: everything, administrators included',
        },
        {
          username: 'moderator@demo.example',
          firstname: 'Mona',
          surname: 'Moderator',
          permissions: ['approval', 'messages', 'list_settings', 'limit_lists'],
          notifications: ['approval'],
          limitLists: ['announcements', 'community'],
          role: 'moderator of announcements and community: held and archived messages, those lists\' settings',
        },
        {
          username: 'community-admin@demo.example',
          firstname: 'Lee',
          surname: 'Lister',
          permissions: ['contact', 'membership', 'list_settings', 'limit_lists'],
          notifications: ['subscription'],
          limitLists: ['community'],
          role: 'list-limited administrator of community only: its members and settings',
        },
        {
          username: 'support@demo.example',
          firstname: 'Sam',
          surname: 'Support',
          permissions: ['contact', 'membership'],
          notifications: ['subscription', 'bounce'],
          role: 'support: contacts and memberships, no list settings or messages',
        },
      ],
    },
    {
      name: DEMO_WEST_ACCOUNT,
      description: 'Demo association: west chapter',
      domain: 'west.demo.example',
      maxContacts: DEFAULT_MAX_CONTACTS,
      contacts: Math.min(contacts, 60),
      salt: 0x3e57,
      settings: {
        timezone: 'America/Los_Angeles',
        require_list_approval: true,
        notify_approval: 3,
      },
      lists: [
        {
          name: 'west-news',
          description: 'Chapter news',
          subject_prefix: '[West]',
          moderate: 2 | 8,
          restrict_post_allowed_emails: ['west-admin@demo.example'],
          message_rejections: 3,
        },
        {
          name: 'west-volunteers',
          description: 'Volunteer rota',
          hold_replies: true,
          taboo_body: ['unsubscribe me'],
          memberview: 'all-withemail',
          send_reject_message: false,
        },
      ],
      fields: DEMO_FIELDS['demo-west'],
      people: [
        {
          username: 'west-admin@demo.example',
          firstname: 'Wes',
          surname: 'Turner',
          permissions: ['superadmin'],
          notifications: ['account'],
          role: 'superadmin of the demo-west account',
        },
      ],
    },
  ];
}

const GLOBAL_PEOPLE: PersonPlan[] = [
  {
    username: 'operator@demo.example',
    firstname: 'Ola',
    surname: 'Operator',
    permissions: ['superadmin', 'account'],
    notifications: ['account'],
    role: 'global operator: every account of the group, switching with `s`',
  },
];

const Args = z.object({
  contacts: z.coerce.number().int().min(0).max(MAX_DEMO_CONTACTS).default(DEFAULT_DEMO_CONTACTS),
});

export async function runDemo(args: string[], database: DatabaseHandle): Promise<DemoResult> {
  const { values } = parseArgs({ args, options: { contacts: { type: 'string' } } });
  const parsed = Args.safeParse(values);
  if (!parsed.success)
    throw new HttpError(400, `--contacts: a whole number from 0 to ${MAX_DEMO_CONTACTS}`);
  const { contacts } = parsed.data;

  // One transaction: a run that fails leaves nothing half-written, and one commit is one fsync.
  const result = await database.db.transaction().execute(async (db) => {
    const accountIds: Record<string, number> = {};
    // At least doubling the contacts: the search indexes are built after the load, not row by row.
    const rebuild = contacts >= 2 * (await countAllContacts(db));
    await withSearchIndexesBuiltAfter(db, rebuild, async () => {
      for (const plan of plans(contacts)) {
        const { row, existed } = await ensureAccount(db, plan);
        accountIds[plan.name] = row.id;
        const listIds = await ensureLists(db, row.id, plan.lists);
        const fieldIds = await ensureFields(db, row.id, plan.fields);
        await withDeferredSearchIndex(db, () =>
          topUpContacts(db, {
            accountId: row.id,
            plan,
            listIds,
            fieldIds,
            checkCollisions: existed,
          }),
        );
        if ((await countMessagesOf(db, row.id)) === 0) await seedThreads(db, row, listIds);
        for (const person of plan.people) await ensurePerson(db, row.id, person);
      }
    });
    for (const person of GLOBAL_PEOPLE) await ensurePerson(db, null, person);
    // The bulk load stored no documents (migration 0500); the first GETs should not render them.
    await renderAllMissingDocumentsWithin(db);

    const demoId = accountIds[DEMO_ACCOUNT] ?? 0;
    const globalKey = await freshKey(db, null, 'Demo global key', ['superadmin', 'account']);
    const accountKey = await freshKey(db, demoId, 'Demo account key', ['superadmin']);
    // Every demo person gets a new password on each run, so the printed ones are the ones that work.
    const people: DemoPerson[] = [];
    for (const plan of plans(contacts)) {
      for (const person of plan.people)
        people.push(await freshPassword(db, accountIds[plan.name] ?? 0, plan.name, person));
    }
    for (const person of GLOBAL_PEOPLE) people.push(await freshPassword(db, null, null, person));
    const administrator = people.find((p) => p.username === DEMO_ADMINISTRATOR);
    if (!administrator) throw new Error(`${DEMO_ADMINISTRATOR} is missing from the demo account`);
    return {
      global_key: globalKey,
      account_key: accountKey,
      account: DEMO_ACCOUNT,
      account_ids: accountIds,
      administrator: { username: administrator.username, password: administrator.password },
      people,
    };
  });
  // Mail through the pipeline (its own transactions), so the held queue is not empty.
  for (const plan of plans(contacts)) await seedDemoMail(database.db, plan.domain);
  // PostgreSQL plans a bulk-loaded table from no statistics until autovacuum's next pass (it then
  // scanned 100k contacts for a search its trigram index answers in a third of the time).
  await refreshPlannerStatistics(database.db);
  return result;
}

async function ensureAccount(
  db: Kysely<Database>,
  plan: AccountPlan,
): Promise<{ row: AccountRow; existed: boolean }> {
  const existing = await findAccountByName(db, plan.name);
  if (existing) {
    // A larger population needs a larger plan (spec §8 rule 2 allowance follows it).
    await raiseMaxContacts(db, existing.id, plan.maxContacts);
    return { row: existing, existed: true };
  }
  const row = await insertAccount(db, {
    name: plan.name,
    description: plan.description,
    domain: plan.domain,
    max_contacts: plan.maxContacts,
    ccid: 0,
    settings: JSON.stringify({ ...ACCOUNT_DEFAULTS, ...plan.settings }),
    created: new Date().toISOString(),
  });
  return { row, existed: false };
}

/** The plan's lists, created when missing; answers their ids in the plan's order. */
async function ensureLists(
  db: Kysely<Database>,
  accountId: number,
  lists: AccountPlan['lists'],
): Promise<number[]> {
  const ids: number[] = [];
  for (const { name, ...settings } of lists) {
    const existing = await findListByName(db, accountId, name);
    const row =
      existing ??
      (await insertList(db, {
        account_id: accountId,
        name,
        created: new Date().toISOString(),
        settings: JSON.stringify({ ...LIST_DEFAULTS, ...settings }),
        archive_password_hash: null,
      }));
    ids.push(row.id);
  }
  return ids;
}

/** The plan's custom fields, defined when missing; answers their ids in the plan's order. */
async function ensureFields(
  db: Kysely<Database>,
  accountId: number,
  fields: readonly FieldSpec[],
): Promise<number[]> {
  const existing = await listCustomFields(db, accountId);
  const ids: number[] = [];
  for (const spec of fields) {
    const found = existing.find((field) => field.name === spec.name);
    ids.push(
      (
        found ??
        (await createCustomField(db, { accountId, name: spec.name, identifier: spec.identifier }))
      ).id,
    );
  }
  return ids;
}

/**
 * Adds contacts until the account holds the plan's number, in batches: one INSERT per batch and
 * table. On an account that existed, candidates whose addresses are already taken (someone added
 * or edited contacts in between) are skipped rather than colliding.
 */
async function topUpContacts(
  db: Kysely<Database>,
  input: {
    accountId: number;
    plan: AccountPlan;
    listIds: number[];
    fieldIds: number[];
    checkCollisions: boolean;
  },
): Promise<void> {
  const { accountId, plan, listIds, fieldIds } = input;
  let missing = plan.contacts - (await countContacts(db, accountId));
  let index = plan.contacts - missing;
  const created = new Date().toISOString();
  while (missing > 0) {
    const size = Math.min(BATCH_SIZE, missing);
    let people = Array.from({ length: size }, (_, k) =>
      demoPerson(index + k, plan.salt, listIds.length, plan.fields),
    );
    index += size;
    if (input.checkCollisions) {
      const taken = await existingEmailKeys(
        db,
        accountId,
        people.flatMap((p) => p.emails.map((e) => emailKey(e.email))),
      );
      people = people.filter((p) => !p.emails.some((e) => taken.has(emailKey(e.email))));
      if (people.length === 0) continue;
    }
    const contactIds = await insertContactsReturningIds(
      db,
      people.map((p) => ({
        account_id: accountId,
        ccid: null,
        firstname: p.firstname,
        surname: p.surname,
        notes: p.notes,
        created,
      })),
    );
    const owned = people.map((person, k) => ({ person, contactId: contactIds[k] ?? 0 }));
    await insertEmailRows(
      db,
      owned.flatMap(({ person, contactId }) =>
        person.emails.map((e) => ({
          account_id: accountId,
          contact_id: contactId,
          email: e.email,
          email_key: emailKey(e.email),
          digest: e.digest,
          paused: e.paused,
          confirmed: e.confirmed,
          ceid: null,
        })),
      ),
    );
    await insertMembershipRows(
      db,
      owned.flatMap(({ person, contactId }) =>
        person.lists.map((m) => ({
          account_id: accountId,
          contact_id: contactId,
          list_id: listIds[m.list] ?? 0,
          digest: m.digest,
        })),
      ),
    );
    await insertContactValueRows(
      db,
      owned.flatMap(({ person, contactId }) =>
        [...person.values].map(([position, value]) => ({
          contact_id: contactId,
          field_id: fieldIds[position] ?? 0,
          value,
        })),
      ),
    );
    missing -= people.length;
  }
}

/**
 * A few weeks of conversation on every list: threads of a root message and replies, each reply
 * answering an earlier message of its thread. Written as POST /messages/ writes them (HTML from the
 * plain text, Message-IDs, threads), but without pending deliveries: this is the archive of mail
 * delivered long ago, and a later delivery worker must not send it again.
 */
async function seedThreads(
  db: Kysely<Database>,
  account: AccountRow,
  listIds: number[],
): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const day = 86_400;
  for (const listId of listIds) {
    const random = seededRandom(listId * 7919 + account.id);
    const members = await sampleMembers(db, listId, 40);
    const senders =
      members.length > 0
        ? members.map((m) => ({ phrase: `${m.firstname} ${m.surname}`, address: m.email }))
        : [{ phrase: 'Demo Administrator', address: DEMO_ADMINISTRATOR }];
    const threads = 4 + Math.floor(random() * 4);
    for (let t = 0; t < threads; t += 1) {
      let time = now - 60 * day + Math.floor(((t + random()) / threads) * 55 * day);
      const subject = demoSubject(random);
      const thread: { id: number; phrase: string }[] = [];
      const replies = Math.floor(random() * 5);
      for (let r = 0; r <= replies; r += 1) {
        const sender = pick(random, senders);
        const parent = r === 0 ? null : pick(random, thread);
        const plain = demoBody(
          random,
          parent ? (parent.phrase.split(' ')[0] ?? 'all') : 'all',
          sender.phrase,
        );
        const id = await insertMessage(db, {
          account_id: account.id,
          list_id: listId,
          subject: parent ? `Re: ${subject}` : subject,
          from_phrase: sender.phrase,
          from_address: sender.address,
          time: Math.min(time, now),
          message_id: `<${randomUUID()}@${MESSAGE_ID_DOMAIN}>`,
          thread_id: thread[0]?.id ?? 0,
          parent_id: parent?.id ?? null,
          content_plain: plain,
          content_html: plainToHtml(plain),
        });
        if (!parent) await setThread(db, id, id);
        thread.push({ id, phrase: sender.phrase });
        time += 600 + Math.floor(random() * day);
      }
    }
  }
}

/** A person administrator of the scope (null: global), created when missing. */
async function ensurePerson(
  db: Kysely<Database>,
  accountId: number | null,
  person: PersonPlan,
): Promise<void> {
  if (await findDemoAdministrator(db, accountId, { username: person.username })) return;
  if (await usernameTaken(db, person.username)) {
    throw new HttpError(
      409,
      `${person.username} already administers something outside the demo ${accountId === null ? 'group' : 'account'}`,
    );
  }
  await insertAdministrator(db, {
    account_id: accountId,
    username: person.username,
    firstname: person.firstname,
    surname: person.surname,
    api: API_PERSON,
    permissions: JSON.stringify(person.permissions),
    notifications: JSON.stringify(person.notifications),
    limit_lists: JSON.stringify(person.limitLists ?? []),
    created: new Date().toISOString(),
  });
}

/** Sets a new random password for a demo person and says who they are. */
async function freshPassword(
  db: Kysely<Database>,
  accountId: number | null,
  account: string | null,
  person: PersonPlan,
): Promise<DemoPerson> {
  const row = await findDemoAdministrator(db, accountId, { username: person.username });
  if (!row) throw new Error(`${person.username} is missing from the demo`);
  const password = randomBytes(18).toString('base64url');
  await setPasswordHash(db, row.id, await hashPassword(password));
  return { username: person.username, password, account, role: person.role };
}

/** A new key for the demo's key administrator of the scope, created on the first run. */
async function freshKey(
  db: Kysely<Database>,
  accountId: number | null,
  description: string,
  permissions: Permission[],
): Promise<string> {
  const existing = await findDemoAdministrator(db, accountId, { description });
  if (existing) return (await issueKey(db, existing.id, new Date())).key;
  return (
    await createApiKeyAdministrator(db, { accountId, permissions, description, now: new Date() })
  ).key;
}
