import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AuditRecord } from './audit-record.ts';
import { recordAudit } from './record.ts';

/*
 * Mail's changes in the audit log (issue 26 item 4): what the posting policy decided of each
 * message that came in by SMTP, and what bounce processing did to an address. The mail pipeline
 * and the bounce processor call these inside the transaction that acts, so the entry commits with
 * the change or not at all, as an API write's does.
 */

/** Subjects can be long; an entry keeps what names the message. */
const SUBJECT_KEPT = 998;

/** One inbound message and what the posting policy made of it (src/api/posting-policy). */
export interface MailDecision {
  accountId: number;
  list: { id: number; name: string };
  decision: 'accept' | 'hold' | 'reject' | 'discard';
  /** The sender's address (the `From:` the policy decided on). */
  sender: string;
  /** The SMTP client's IP address, as the listener saw it. */
  peer: string | null;
  /** The message's Message-ID. */
  messageId: string;
  subject: string;
  /** accept: the archived message's id (spec §2.5). */
  archived?: number;
  /** hold: the held message's id (extension `held.*`). */
  held?: number;
  /** The deciding rule, its setting and its sentence, as the held queue shows them. */
  rule?: string | null;
  setting?: string | null;
  reason?: string | null;
}

/**
 * Records a posting decision (`mail.accept`, `mail.hold`, `mail.reject`, `mail.discard`) in the
 * pipeline's transaction `trx`: the sender is its actor, by address; `now` is the server's clock.
 * A repeat the pipeline drops (a Message-ID it already has) is no decision and is not recorded.
 */
export function recordMailDecision(
  trx: Kysely<Database>,
  now: Date,
  decision: MailDecision,
): Promise<void> {
  const object: AuditRecord['object'] =
    decision.decision === 'accept'
      ? { type: 'message', id: decision.archived ?? null }
      : decision.decision === 'hold'
        ? { type: 'held_message', id: decision.held ?? null }
        : { type: 'message', id: null };
  return recordAudit(trx, now, [
    {
      accountId: decision.accountId,
      operation: `mail.${decision.decision}`,
      object: { ...object, listId: decision.list.id, list: decision.list.name },
      details: {
        from: decision.sender,
        subject: decision.subject.slice(0, SUBJECT_KEPT),
        message_id: decision.messageId,
        ...(decision.rule == null ? {} : { rule: decision.rule }),
        ...(decision.setting == null ? {} : { setting: decision.setting }),
        ...(decision.reason == null ? {} : { reason: decision.reason }),
      },
      actor: { type: 'address', address: decision.sender },
      service: 'mail',
      address: decision.peer,
    },
  ]);
}

/** What bounce processing did to one address of one list (issue 26 item 1). */
export interface BounceAction {
  accountId: number;
  list: { id: number; name: string };
  address: string;
  emailId: number;
  /** The membership a removal ended. */
  membershipId?: number | null;
  /** pause: spec §2.2 `paused` set; warn: the member was warned; remove: the membership ended. */
  action: 'pause' | 'warn' | 'remove';
  /** The address's bounce score when it acted. */
  score: number;
  /** The last bounce's status or diagnostic, as the DSN gave it. */
  reason?: string | null;
}

/**
 * Records a bounce action (`bounce.pause`, `bounce.warn`, `bounce.remove`) in the transaction
 * `trx` that makes it: the system's, by mail. A pause names the address and shows `paused` going
 * from false to true; a removal names the membership it ended.
 */
export function recordBounceAction(
  trx: Kysely<Database>,
  now: Date,
  bounce: BounceAction,
): Promise<void> {
  const onList = { listId: bounce.list.id, list: bounce.list.name };
  return recordAudit(trx, now, [
    {
      accountId: bounce.accountId,
      operation: `bounce.${bounce.action}`,
      object:
        bounce.action === 'remove'
          ? { type: 'membership', id: bounce.membershipId ?? null, ...onList }
          : { type: 'email', id: bounce.emailId, ...onList },
      ...(bounce.action === 'pause'
        ? { changes: [{ field: 'paused', old: false, new: true }] }
        : {}),
      details: {
        address: bounce.address,
        email: bounce.emailId,
        score: bounce.score,
        ...(bounce.reason == null ? {} : { reason: bounce.reason }),
      },
      actor: { type: 'system' },
      service: 'mail',
      address: null,
    },
  ]);
}
