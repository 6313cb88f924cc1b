import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { recordRefusal } from '../bounces/refusal.ts';
import { BOUNCE_DEFAULTS, type BounceSettings } from '../bounces/settings.ts';
import type { Database } from '../db/schema.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import { settingsOf, type ListSettings } from '../repositories/lists.mapper.ts';
import { findListForLinks } from '../repositories/member-directory.repository.ts';
import {
  claimNotice,
  markNoticeFailed,
  markNoticeSent,
  renewNoticeLease,
  type NoticeRow,
} from '../repositories/notices.repository.ts';
import {
  claimBatch,
  claimExpiredBatch,
  findPostForDelivery,
  finishBatch,
  markBatchSent,
  renewBatchLease,
  type ClaimedBatch,
  type ClaimedDelivery,
  type Unsent,
} from '../repositories/outbox.repository.ts';
import { accountSettingsOf } from '../repositories/accounts.mapper.ts';
import { emailKey } from '../repositories/emails.repository.ts';
import { memberLinks, type MemberLinks } from '../members/links.ts';
import { LIFETIMES } from '../members/lifetimes.ts';
import { expiryDay, linkKey, signLink } from '../tokens/signed-link.ts';
import { listAddressOf } from './list-address.ts';
import { readAuthentication } from './received-authentication.ts';
import { personalParts } from './outgoing/personal.ts';
import { buildPostTemplate, personalize, type PostTemplate } from './outgoing/template.ts';
import { bounceAddress, renderNotice } from './render.ts';
import { verpAddress } from './verp.ts';
import type { MailTransport, Refused } from './transport.ts';

/**
 * Retries wait 1 min, 2, 4, … up to 6 h; the 12th failed attempt (about 20 h after the first) fails
 * the row for good. `attempts`: the attempts made so far, the one that just failed included.
 */
export const MAX_ATTEMPTS = 12;
export function retryDelayMs(attempts: number): number {
  return Math.min(60_000 * 2 ** (attempts - 1), 6 * 3600_000);
}

/** A delivery that did not go: retried after its back-off, or failed after the last attempt. */
function unsent(row: Pick<ClaimedDelivery, 'id' | 'attempts'>, now: number): Unsent {
  const attempts = row.attempts + 1;
  return attempts >= MAX_ATTEMPTS
    ? { id: row.id, status: 'failed', at: now }
    : { id: row.id, status: 'pending', at: now + retryDelayMs(attempts) };
}

/** Spec §2.4 unsubscriptions, else the account's (§2.7): a closed list offers no one-click. */
function canLeave(settings: ListSettings, accountSettings: string): boolean {
  const leaving = settings.unsubscriptions ?? accountSettingsOf({ settings: accountSettings }).unsubscriptions;
  return leaving === 'open' || leaving === 'open+confirm';
}

/** A 5xx refusal of a recipient is permanent (RFC 5321 §4.2.1): it is not tried again. */
const permanent = (refused: Refused) => refused.code !== null && refused.code >= 500;

export interface OutboxWorkerOptions {
  db: Kysely<Database>;
  transport: MailTransport;
  batchSize: number;
  /** How long an idle worker waits before it looks again, in ms. */
  idleMs?: number;
  /**
   * How long a claim lasts unless renewed, in ms (MAIL_LEASE_SECONDS): a dead worker's rows wait
   * this long before another worker (or the restarted one) sends them. Renewed every third of it.
   */
  leaseMs?: number;
  /** The clock due times and leases are read on, in Unix ms: tests move it past a back-off. */
  now?: () => number;
  /**
   * The origin of the members' pages (PUBLIC_URL, else the server's own): every delivery links
   * there for its recipient's one-click leave and own page (issue 25).
   */
  publicOrigin: () => string;
  /** Deliveries of one batch sent at once, each its own SMTP transaction over pooled connections. */
  concurrency?: number;
  /** The bounce score's settings: a 5xx at RCPT TO counts as a bounce (issue 26). */
  bounces?: BounceSettings;
  /** The writes' unit of work, for such a bounce (it may pause the address); a bare transaction by default. */
  writes?: UnitOfWork;
  onError?: (error: unknown) => void;
}

/**
 * Drains the outbox into the transport (SECURITY.md 38). A batch's rows are marked `sending` in a
 * committed statement before the SMTP transaction and `sent` after it; nothing is sent before it is
 * recorded as being sent, and nothing recorded sent goes again. The claim is a lease the worker
 * renews while it sends, so any number of workers (`serve` processes on one database) share the
 * outbox and each row has one sender at a time. After a crash, a batch still `sending` is taken
 * over once its lease has run out and sent again, whole, under its own key (the sink replaces its
 * file; over SMTP the message keeps its Message-ID).
 */
export class OutboxWorker {
  private readonly options: Required<Omit<OutboxWorkerOptions, 'onError'>> &
    Pick<OutboxWorkerOptions, 'onError'>;
  private readonly rendered = new Map<number, PostTemplate>();
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;

  constructor(options: OutboxWorkerOptions) {
    this.options = {
      idleMs: 1000,
      leaseMs: 60_000,
      now: Date.now,
      concurrency: 8,
      bounces: BOUNCE_DEFAULTS,
      writes: (job) => options.db.transaction().execute(job),
      ...options,
    };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Ask the worker to look now (after a commit that queued mail). */
  nudge(): void {
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.nudge();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let worked = 0;
      try {
        worked = await this.drainOnce();
      } catch (error) {
        this.options.onError?.(error);
      }
      if (worked === 0 && this.running) await this.sleep(this.options.idleMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = () => {
        if (this.timer) clearTimeout(this.timer);
        this.wake = null;
        resolve();
      };
      this.timer = setTimeout(() => this.wake?.(), ms);
    });
  }

  /**
   * One round: a batch whose worker died (lease run out) or else a new batch of deliveries, and a
   * notice, if due. Answers how many deliveries it tried, sent or not (0: nothing was due).
   */
  async drainOnce(): Promise<number> {
    const { db, batchSize, leaseMs } = this.options;
    const now = this.options.now();
    let worked = 0;
    const batch =
      (await claimExpiredBatch(db, now, now + leaseMs)) ??
      (await claimBatch(
        db,
        now,
        batchSize,
        now + leaseMs,
        (message) => `m${message}-${randomUUID()}`,
      ));
    if (batch) {
      await this.sendBatch(batch);
      worked += batch.rows.length;
    }
    const notice = await claimNotice(db, now, now + leaseMs);
    if (notice) {
      await this.sendNotice(notice);
      worked += 1;
    }
    return worked;
  }

  /** Runs `send` while renewing the claim's lease, so no other worker takes it over meanwhile. */
  private async leased<T>(renew: (leaseUntil: number) => Promise<void>, send: () => Promise<T>) {
    const { leaseMs } = this.options;
    const timer = setInterval(() => {
      renew(this.options.now() + leaseMs).catch((error: unknown) => this.options.onError?.(error));
    }, leaseMs / 3);
    try {
      return await send();
    } finally {
      clearInterval(timer);
    }
  }

  /** Drains until nothing is due (tests and the bench). */
  async drainAll(): Promise<void> {
    while ((await this.drainOnce()) > 0);
  }

  /**
   * Sends a claimed batch, each delivery its own SMTP transaction (issue 25: every copy is
   * personal), a few at once over the transport's pooled connections, while the batch's lease is
   * renewed. A refused recipient is settled alone (a 5xx fails it, a 4xx retries it); a
   * transaction that fails as a whole (no connection, AUTH, the relay's refusal of MAIL FROM or
   * DATA) stops the batch: that delivery and those not yet tried wait for their retry, as a batch
   * did when it was one transaction. Those sent are sent.
   */
  private async sendBatch(batch: ClaimedBatch): Promise<void> {
    const { db, transport, concurrency } = this.options;
    const template = await this.render(batch.messageId);
    if (!template) {
      // The message was deleted meanwhile (its rows cascade); nothing is left to send.
      await markBatchSent(db, batch.batch);
      return;
    }
    const key = await linkKey(db);
    const links = memberLinks(this.options.publicOrigin());
    const notSent = new Map<number, Unsent>();
    let failure: unknown = null;
    let next = 0;
    const sendOne = async (row: ClaimedDelivery): Promise<void> => {
      const raw = personalize(template, this.personalOf(template, row, key, links));
      // VERP: the return path names this delivery's list and address (issue 26).
      const from = verpAddress(
        key,
        template.list,
        { emailId: row.email_id, address: row.address },
        new Date(this.options.now()),
      );
      try {
        const { refused } = await transport.send(
          { from, to: [row.address] },
          raw,
          `${batch.batch}-${row.id}`,
          template.arc,
        );
        const [refusal] = refused;
        if (refusal) {
          const now = this.options.now();
          notSent.set(
            row.id,
            permanent(refusal) ? { id: row.id, status: 'failed', at: now } : unsent(row, now),
          );
          await this.bounced(template.list.id, row.email_id, refusal);
        }
      } catch (error) {
        failure ??= error;
        notSent.set(row.id, unsent(row, this.options.now()));
      }
    };
    const lane1 = async () => {
      const row = batch.rows[0];
      next = 1;
      if (row) await sendOne(row);
    };
    const lane = async () => {
      while (failure === null && next < batch.rows.length) {
        const row = batch.rows[next] as ClaimedDelivery;
        next += 1;
        await sendOne(row);
      }
    };
    await this.leased(
      (until) => renewBatchLease(db, batch.batch, until),
      async () => {
        // The first delivery goes alone: a relay that is down or refuses us is tried once, not
        // by every lane at once.
        await lane1();
        await Promise.all(Array.from({ length: Math.min(concurrency, batch.rows.length) }, lane));
      },
    );
    if (failure !== null) {
      // The relay is down or refuses us: what was not tried waits with the one that failed.
      const now = this.options.now();
      for (const row of batch.rows.slice(next)) notSent.set(row.id, unsent(row, now));
      this.options.onError?.(failure);
    }
    await finishBatch(db, batch.batch, [...notSent.values()]);
  }

  /** The recipient's own links: one-click leave (when members may leave) and the member's page. */
  private personalOf(
    template: Pick<PostTemplate, 'list' | 'canLeave'>,
    row: Pick<ClaimedDelivery, 'email_id' | 'address'>,
    key: Buffer,
    links: MemberLinks,
  ) {
    const today = new Date(this.options.now());
    const expiresDay = expiryDay(today, LIFETIMES.deliveryLinkDays);
    const sign = (purpose: 'unsubscribe' | 'member') =>
      signLink(key, { purpose, listId: template.list.id, emailId: row.email_id, expiresDay }, emailKey(row.address)).toString('base64url');
    return personalParts(template.list, {
      oneClick: template.canLeave ? links.unsubscribe(template.list.address, sign('unsubscribe')) : null,
      memberPage: links.member(template.list.address, sign('member')),
    });
  }

  private async sendNotice(notice: NoticeRow): Promise<void> {
    const { db, transport } = this.options;
    const at = notice.list_address?.lastIndexOf('@') ?? -1;
    const domain = at === -1 ? 'listkeeper.local' : (notice.list_address ?? '').slice(at + 1);
    const personal = await this.digestLinks(notice);
    const raw = await renderNotice({
      from: notice.from_address,
      to: notice.to_address,
      subject: notice.subject,
      body: personal ? `${notice.body}${personal.parts.footerText}` : notice.body,
      ...(personal
        ? { listUnsubscribe: { value: personal.parts.listUnsubscribe, oneClick: personal.canLeave } }
        : {}),
      listAddress: notice.list_address,
      autoSubmitted:
        notice.kind === 'hold' || notice.kind === 'reject' ? 'auto-replied' : 'auto-generated',
      // The same id however often it is sent: a receiver can tell a repeat.
      messageId: `<notice-${notice.id}@${domain}>`,
      replyTo: notice.reply_to,
    });
    // Notices about a message go from the list's bounce address: an answering bounce is dropped.
    // A digest is a delivery to a member: its return path names them (VERP, issue 26).
    const from = personal
      ? verpAddress(
          await linkKey(db),
          personal.list,
          { emailId: personal.emailId, address: notice.to_address },
          new Date(this.options.now()),
        )
      : notice.list_address
        ? bounceAddress({ address: notice.list_address })
        : notice.from_address;
    let refused: Refused[];
    try {
      ({ refused } = await this.leased(
        (until) => renewNoticeLease(db, notice.id, until),
        () => transport.send({ from, to: [notice.to_address] }, raw, `n${notice.id}`),
      ));
    } catch (error) {
      await this.retryNotice(notice, false);
      this.options.onError?.(error);
      return;
    }
    const [refusal] = refused;
    if (refusal) await this.retryNotice(notice, permanent(refusal));
    else await markNoticeSent(db, notice.id);
    // A digest is a delivery to a member: its refusal is that member's bounce too.
    if (refusal && personal) await this.bounced(personal.list.id, personal.emailId, refusal);
  }

  /** A recipient the relay refused with a 5xx counts as its bounce (issue 26, listmonk #2623). */
  private async bounced(listId: number, emailId: number, refusal: Refused): Promise<void> {
    if (!permanent(refusal)) return;
    const now = new Date(this.options.now());
    const { db, writes } = this.options;
    await recordRefusal(db, writes, { listId, emailId }, refusal, now, this.options.bounces).catch(
      (error: unknown) => this.options.onError?.(error),
    );
  }

  /** A digest is a delivery to one member: it carries their one-click leave and page (issue 25). */
  private async digestLinks(notice: NoticeRow) {
    if (notice.kind !== 'digest' || notice.list_id === null || notice.email_id === null) return null;
    const list = await findListForLinks(this.options.db, notice.list_id);
    if (!list) return null;
    const settings = settingsOf(list);
    const template = {
      list: { id: list.id, name: list.name, address: listAddressOf(list.name, list.domain), settings },
      canLeave: canLeave(settings, list.account_settings),
    };
    const row = { email_id: notice.email_id, address: notice.to_address };
    const parts = this.personalOf(
      template,
      row,
      await linkKey(this.options.db),
      memberLinks(this.options.publicOrigin()),
    );
    return { parts, canLeave: template.canLeave, list: template.list, emailId: notice.email_id };
  }

  private async retryNotice(notice: NoticeRow, giveUp: boolean): Promise<void> {
    const next = unsent(notice, this.options.now());
    await markNoticeFailed(this.options.db, notice.id, {
      at: next.at,
      giveUp: giveUp || next.status === 'failed',
    });
  }

  /** One template per message serves its whole fan-out; a few are kept. */
  private async render(messageId: number): Promise<PostTemplate | null> {
    const cached = this.rendered.get(messageId);
    if (cached) return cached;
    const row = await findPostForDelivery(this.options.db, messageId);
    if (!row) return null;
    const settings = settingsOf({ settings: row.list_settings });
    const template = await buildPostTemplate(
      { id: row.list_id, name: row.list_name, address: listAddressOf(row.list_name, row.domain), settings },
      {
        subject: row.subject,
        fromPhrase: row.from_phrase,
        fromAddress: row.from_address,
        messageId: row.message_id,
        contentPlain: row.content_plain,
        contentHtml: row.content_html,
        ...(row.source ? { source: Buffer.from(row.source, 'base64') } : {}),
        // Found when it came in (issue 26 item 2): the fan-out asks no DNS.
        received: readAuthentication(row.received),
      },
      { now: new Date(this.options.now()), canLeave: canLeave(settings, row.account_settings) },
    );
    if (this.rendered.size >= 8) this.rendered.delete(this.rendered.keys().next().value ?? 0);
    this.rendered.set(messageId, template);
    return template;
  }
}
