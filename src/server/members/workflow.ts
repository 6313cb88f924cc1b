import type { Kysely } from 'kysely';
import { EmailAddress } from '../../api/primitives.ts';
import type { Database } from '../db/schema.ts';
import {
  findMemberOfList,
  type MemberOfList,
} from '../repositories/member-directory.repository.ts';
import {
  deleteRequest,
  findRequestById,
  insertRequestOnce,
  moveToModeration,
  type MemberRequestKind,
  type MemberRequestRow,
} from '../repositories/member-requests.repository.ts';
import { emailKey } from '../repositories/emails.repository.ts';
import { subscriptionAddressAllowed } from '../services/contact-address-rules.ts';
import { expiryDay, signLink } from '../tokens/signed-link.ts';
import { issueStoredToken, peekStoredToken, takeStoredToken } from '../tokens/stored-token.ts';
import { DAY_MS, LIFETIMES } from './lifetimes.ts';
import type { MemberLinks } from './links.ts';
import {
  queueAlreadyMember,
  queueConfirmation,
  queueMemberPageLink,
  queueNotAMember,
  queueRequestOutcome,
  queueSubscriptionNotice,
  queueWelcomeAfterConfirmation,
} from './member-mail.ts';
import { joinList, leaveList } from './membership-changes.ts';
import { opennessOf, type PublicList } from './public-list.ts';
import { takeAddressMail } from './throttle.ts';
import type { AuditActor } from '../audit/audit-record.ts';
import { askedRecord, confirmedRecord, membershipRecord } from '../audit/member-records.ts';
import { recordAudit } from '../audit/record.ts';

/**
 * Joining and leaving, after Mailman 3's subscription workflow (issue 25, STYLE.md): a request
 * names a list, an address and a kind; the address confirms it with a token mailed to it (so a
 * forged form or `From:` alone makes nobody join or leave, SECURITY.md 44); then, when the list's
 * policy is `open+confirm`, a moderator decides; then the membership changes. Each step runs in
 * the caller's transaction, and every answer to a stranger is the same whether or not the address
 * is a member (SECURITY.md 41).
 */
export interface MembersContext {
  db: Kysely<Database>;
  now: Date;
  links: MemberLinks;
  /** The installation's link key (tokens/signed-link.ts), for member-page links in mail. */
  linkKey: Buffer;
}

export type RequestSource = MemberRequestRow['source'];

/** What the person who asked is told; never whether the address is a member. */
export type AskOutcome =
  | { kind: 'mailed' }
  | { kind: 'closed' }
  | { kind: 'refused'; why: 'address' | 'restricted' };

/** Spec §2.4 subscriptions: a request to join, to be confirmed by the address. */
export async function askToJoin(
  ctx: MembersContext,
  list: PublicList,
  typed: string,
  source: RequestSource,
): Promise<AskOutcome> {
  if (opennessOf(list, 'join') === 'closed') return { kind: 'closed' };
  const address = typed.trim();
  if (!EmailAddress.safeParse(address).success) return { kind: 'refused', why: 'address' };
  // Spec §2.7 restrict_contact_subscription (and restrict_contact): re2js, as for taboo rules.
  if (!subscriptionAddressAllowed(list.accountSettingsText, address))
    return { kind: 'refused', why: 'restricted' };
  const member = await findMemberOfList(ctx.db, list.accountId, list.id, {
    addressKey: emailKey(address),
  });
  if (!(await takeAddressMail(ctx.db, emailKey(address), ctx.now))) return { kind: 'mailed' };
  if (member?.membershipId != null) {
    await queueAlreadyMember(ctx.db, list, member.email, memberPageLink(ctx, list, member), ctx.now);
    return { kind: 'mailed' };
  }
  await mailConfirmation(ctx, list, 'join', address, source);
  return { kind: 'mailed' };
}

/** Spec §2.4 unsubscriptions: a request to leave, to be confirmed by the address. */
export async function askToLeave(
  ctx: MembersContext,
  list: PublicList,
  typed: string,
  source: RequestSource,
): Promise<AskOutcome> {
  if (opennessOf(list, 'leave') === 'closed') return { kind: 'closed' };
  const address = typed.trim();
  if (!EmailAddress.safeParse(address).success) return { kind: 'refused', why: 'address' };
  const member = await findMemberOfList(ctx.db, list.accountId, list.id, {
    addressKey: emailKey(address),
  });
  if (!(await takeAddressMail(ctx.db, emailKey(address), ctx.now))) return { kind: 'mailed' };
  if (member?.membershipId == null) {
    await queueNotAMember(ctx.db, list, address, ctx.links.list(list.address), ctx.now);
    return { kind: 'mailed' };
  }
  await mailConfirmation(ctx, list, 'leave', member.email, source);
  return { kind: 'mailed' };
}

/** The member's own page, mailed to a member's address on request (never shown on the page). */
export async function askForMemberPage(
  ctx: MembersContext,
  list: PublicList,
  typed: string,
): Promise<AskOutcome> {
  const address = typed.trim();
  if (!EmailAddress.safeParse(address).success) return { kind: 'refused', why: 'address' };
  const member = await findMemberOfList(ctx.db, list.accountId, list.id, {
    addressKey: emailKey(address),
  });
  // A stranger's address gets nothing: the page would only say it is not a member.
  if (member?.membershipId == null) return { kind: 'mailed' };
  if (!(await takeAddressMail(ctx.db, emailKey(address), ctx.now))) return { kind: 'mailed' };
  const link = memberPageLink(ctx, list, member, LIFETIMES.memberPageMailDays);
  await queueMemberPageLink(ctx.db, list, member.email, link, LIFETIMES.memberPageMailDays, ctx.now);
  return { kind: 'mailed' };
}

async function mailConfirmation(
  ctx: MembersContext,
  list: PublicList,
  kind: MemberRequestKind,
  address: string,
  source: RequestSource,
): Promise<void> {
  const request = await insertRequestOnce(ctx.db, {
    account_id: list.accountId,
    list_id: list.id,
    kind,
    address,
    address_key: emailKey(address),
    state: 'confirm',
    source,
    created: ctx.now.toISOString(),
    confirmed: null,
    expires_at: new Date(ctx.now.getTime() + LIFETIMES.confirmDays * DAY_MS).toISOString(),
  });
  // A request already with a moderator needs no second confirmation.
  if (request.state !== 'confirm') return;
  await recordAudit(ctx.db, ctx.now, [askedRecord(list, request)]);
  const token = await issueStoredToken(
    ctx.db,
    {
      purpose: 'confirm',
      accountId: list.accountId,
      listId: list.id,
      addressKey: request.address_key,
      requestId: request.id,
    },
    ctx.now,
    LIFETIMES.confirmDays * DAY_MS,
  );
  await queueConfirmation(
    ctx.db,
    list,
    {
      kind,
      to: request.address,
      link: ctx.links.confirm(list.address, token),
      token,
      validDays: LIFETIMES.confirmDays,
    },
    ctx.now,
  );
}

/** What a confirmation link asks, read without using it: the page shows a button (SECURITY.md 41). */
export async function readConfirmation(
  db: Kysely<Database>,
  list: PublicList,
  token: string,
  now: Date,
): Promise<MemberRequestRow | null> {
  const found = await peekStoredToken(db, token, 'confirm', now);
  if (!found || found.list_id !== list.id || found.request_id === null) return null;
  const request = await findRequestById(db, found.request_id);
  return request?.state === 'confirm' ? request : null;
}

export type StepOutcome =
  | { kind: 'joined' | 'left' | 'waiting'; request: Pick<MemberRequestRow, 'kind' | 'address'> }
  | { kind: 'closed' | 'invalid' };

/**
 * The address confirms its request (the confirmation page's button, a reply to the mail): the
 * token is used once, and the request goes on by the list's policy as it is now.
 */
export async function confirmRequest(
  ctx: MembersContext,
  list: PublicList,
  token: string,
  how: string,
  /** By mail, only the address the request is for confirms it (SECURITY.md 44). */
  from?: string,
): Promise<StepOutcome> {
  if (from !== undefined) {
    const pending = await peekStoredToken(ctx.db, token, 'confirm', ctx.now);
    if (!pending || pending.address_key !== emailKey(from)) return { kind: 'invalid' };
  }
  const used = await takeStoredToken(ctx.db, token, 'confirm', ctx.now);
  if (!used || used.list_id !== list.id || used.request_id === null) return { kind: 'invalid' };
  const request = await findRequestById(ctx.db, used.request_id);
  if (request?.state !== 'confirm') return { kind: 'invalid' };
  const policy = opennessOf(list, request.kind);
  if (policy === 'closed') {
    await deleteRequest(ctx.db, request.id);
    await recordAudit(ctx.db, ctx.now, [confirmedRecord(list, request, 'closed')]);
    return { kind: 'closed' };
  }
  if (policy === 'open+confirm') {
    await moveToModeration(
      ctx.db,
      request.id,
      ctx.now.toISOString(),
      new Date(ctx.now.getTime() + LIFETIMES.moderationDays * DAY_MS).toISOString(),
    );
    await queueSubscriptionNotice(
      ctx.db,
      list,
      { kind: request.kind, address: request.address, what: 'waits', how },
      ctx.now,
    );
    await recordAudit(ctx.db, ctx.now, [confirmedRecord(list, request, 'waiting')]);
    return { kind: 'waiting', request };
  }
  return carryOut(ctx, list, request, how);
}

/** Ends the request and makes its change; another process that ended it first wins. */
async function carryOut(
  ctx: MembersContext,
  list: PublicList,
  request: MemberRequestRow,
  how: string,
): Promise<StepOutcome> {
  if (!(await deleteRequest(ctx.db, request.id))) return { kind: 'invalid' };
  return applyRequest(ctx, list, request, how, { type: 'address', address: request.address });
}

/**
 * The request's change, made: the member joins (and is welcomed when the account says so) or
 * leaves, and the administrators who asked hear of it. `by` is who made it, for the audit log:
 * the address, or (undefined) the moderator the transaction's trail names.
 */
async function applyRequest(
  ctx: MembersContext,
  list: PublicList,
  request: MemberRequestRow,
  how: string,
  by: AuditActor | undefined,
): Promise<StepOutcome> {
  if (request.kind === 'join') {
    const { joined, member, newContact } = await joinList(ctx.db, list, request.address, ctx.now);
    if (joined) {
      await recordAudit(ctx.db, ctx.now, [
        membershipRecord(list, 'join', member, by, { new_contact: newContact, request: request.id }),
      ]);
      await queueWelcomeAfterConfirmation(ctx.db, list, request.address, ctx.now);
      await queueSubscriptionNotice(
        ctx.db,
        list,
        { kind: 'join', address: request.address, what: 'done', how },
        ctx.now,
      );
    }
    return { kind: 'joined', request };
  }
  const member = await findMemberOfList(ctx.db, list.accountId, list.id, {
    addressKey: request.address_key,
  });
  if (member && (await leaveList(ctx.db, list, member))) {
    await recordAudit(ctx.db, ctx.now, [
      membershipRecord(list, 'leave', member, by, { request: request.id }),
    ]);
    await queueSubscriptionNotice(
      ctx.db,
      list,
      { kind: 'leave', address: member.email, what: 'done', how },
      ctx.now,
    );
  }
  return { kind: 'left', request };
}

/**
 * Leaving by a link only this address received (RFC 8058 one-click, the member's page): the link
 * is the confirmation, so an `open` list lets the member go at once; `open+confirm` hands the
 * request to a moderator; `closed` keeps the member (spec §2.4 unsubscriptions).
 */
export async function leaveByLink(
  ctx: MembersContext,
  list: PublicList,
  member: MemberOfList,
  source: 'one-click' | 'web',
): Promise<StepOutcome> {
  const request = { kind: 'leave' as const, address: member.email };
  if (member.membershipId === null) return { kind: 'left', request };
  const policy = opennessOf(list, 'leave');
  if (policy === 'closed') return { kind: 'closed' };
  const how = source === 'one-click' ? 'one-click' : "the member's page";
  if (policy === 'open+confirm') {
    const waiting = await insertRequestOnce(ctx.db, {
      account_id: list.accountId,
      list_id: list.id,
      kind: 'leave',
      address: member.email,
      address_key: emailKey(member.email),
      state: 'moderate',
      source,
      created: ctx.now.toISOString(),
      confirmed: ctx.now.toISOString(),
      expires_at: new Date(ctx.now.getTime() + LIFETIMES.moderationDays * DAY_MS).toISOString(),
    });
    if (waiting.state === 'confirm')
      await moveToModeration(
        ctx.db,
        waiting.id,
        ctx.now.toISOString(),
        new Date(ctx.now.getTime() + LIFETIMES.moderationDays * DAY_MS).toISOString(),
      );
    // The link confirmed it: asked and confirmed at once, it waits for a moderator.
    await recordAudit(ctx.db, ctx.now, [askedRecord(list, { ...waiting, source })]);
    await queueSubscriptionNotice(
      ctx.db,
      list,
      { kind: 'leave', address: member.email, what: 'waits', how },
      ctx.now,
    );
    return { kind: 'waiting', request };
  }
  await leaveList(ctx.db, list, member);
  await recordAudit(ctx.db, ctx.now, [
    membershipRecord(list, 'leave', member, { type: 'address', address: member.email }, { source }),
  ]);
  await queueSubscriptionNotice(
    ctx.db,
    list,
    { kind: 'leave', address: member.email, what: 'done', how },
    ctx.now,
  );
  return { kind: 'left', request };
}

/**
 * A moderator's decision on a request that waits for one (the Requests queue). False when another
 * moderator decided it meanwhile: nothing is done twice.
 */
export async function decideRequest(
  ctx: MembersContext,
  list: PublicList,
  request: MemberRequestRow,
  decision: { action: 'approve' | 'reject' | 'discard'; reason?: string | undefined },
): Promise<boolean> {
  if (!(await deleteRequest(ctx.db, request.id))) return false;
  if (decision.action === 'approve') {
    await applyRequest(ctx, list, request, 'approved by a moderator', undefined);
    await queueRequestOutcome(
      ctx.db,
      list,
      { to: request.address, kind: request.kind, outcome: 'approved' },
      ctx.now,
    );
  }
  if (decision.action === 'reject')
    await queueRequestOutcome(
      ctx.db,
      list,
      {
        to: request.address,
        kind: request.kind,
        outcome: 'rejected',
        ...(decision.reason === undefined ? {} : { reason: decision.reason }),
      },
      ctx.now,
    );
  return true;
}

/** A link to the member's own page for `member`, valid `days` (a delivery's lasts longer). */
export function memberPageLink(
  ctx: Pick<MembersContext, 'linkKey' | 'links' | 'now'>,
  list: PublicList,
  member: Pick<MemberOfList, 'emailId' | 'email'>,
  days: number = LIFETIMES.deliveryLinkDays,
): string {
  const signed = signLink(
    ctx.linkKey,
    { purpose: 'member', listId: list.id, emailId: member.emailId, expiresDay: expiryDay(ctx.now, days) },
    emailKey(member.email),
  );
  return ctx.links.member(list.address, signed.toString('base64url'));
}
