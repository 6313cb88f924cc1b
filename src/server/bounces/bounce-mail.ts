import type { Kysely } from 'kysely';
import { oneLine } from '../../api/posting-policy/notice.ts';
import type { Database } from '../db/schema.ts';
import { commandAddress } from '../members/links.ts';
import type { PublicList } from '../members/public-list.ts';
import { notificationRecipients } from '../repositories/member-directory.repository.ts';
import { insertNotices } from '../repositories/notices.repository.ts';
import type { BounceRow } from '../repositories/bounces.repository.ts';
import type { BounceSettings } from './settings.ts';

/**
 * The mails of bounce processing (issue 26 item 1), queued in the transaction of what they tell
 * of: the administrators hear of a pause (spec §2.6 `bounce`) and of a removal
 * (`bounce_removal`), the address is warned. Plain text from the list's `-request` address, sent
 * from its plain bounce address (outbox.ts), whose bounces name nobody and are dropped: a warning
 * that bounces makes no loop. Every value from outside is one line (SECURITY.md 37).
 */
export type BounceNoticeKind = 'bounce' | 'bounce_removal' | 'bounce-warning';

async function queue(
  db: Kysely<Database>,
  list: PublicList,
  kind: BounceNoticeKind,
  to: readonly string[],
  subject: string,
  body: string,
  now: Date,
): Promise<void> {
  await insertNotices(
    db,
    to.map((address) => ({
      account_id: list.accountId,
      kind,
      from_address: commandAddress(list.address, 'request'),
      to_address: address,
      subject: oneLine(subject),
      body,
      list_address: list.address,
      created: now.toISOString(),
    })),
  );
}

/** The administrators of any of `lists` who take `kind`, each once (limit_lists respected). */
async function administratorsOf(
  db: Kysely<Database>,
  lists: readonly PublicList[],
  kind: 'bounce' | 'bounce_removal',
): Promise<string[]> {
  const all = new Set<string>();
  for (const list of lists)
    for (const to of await notificationRecipients(db, list.accountId, kind, list.name)) all.add(to);
  return [...all];
}

function lastBounce(state: BounceRow): string {
  const status = state.last_status ? `${state.last_status}: ` : '';
  return `${state.last_at.slice(0, 16).replace('T', ' ')} UTC, ${oneLine(`${status}${state.last_reason}`)}`;
}

const names = (lists: readonly PublicList[]) => lists.map((list) => list.address).join(', ');

/** Spec §2.6 `bounce`: the address reached the threshold and is paused. */
export async function queuePauseNotice(
  db: Kysely<Database>,
  lists: readonly PublicList[],
  address: string,
  state: BounceRow,
  settings: BounceSettings,
  now: Date,
): Promise<void> {
  const [list] = lists;
  if (!list) return;
  const to = await administratorsOf(db, lists, 'bounce');
  if (to.length === 0) return;
  const who = oneLine(address);
  const body = [
    `Mail to ${who} has bounced on ${state.score} days (the threshold is ${settings.threshold}): delivery to it is paused.`,
    '',
    `Last bounce: ${lastBounce(state)}`,
    `Lists whose mail bounced: ${names(lists)}`,
    '',
    `The address is warned ${settings.warnings} ${settings.warnings === 1 ? 'time' : 'times'}, ${settings.warningIntervalDays} days apart; unless its mail is resumed, it then leaves those lists.`,
    'To resume it now, clear its bounces on the list’s Members page or on the contact’s page of the dashboard.',
  ].join('\n');
  await queue(db, list, 'bounce', to, `Bounces paused ${who} on ${list.address}`, body, now);
}

/** The warning to the paused address itself: what happened and how to resume (its page). */
export async function queueWarning(
  db: Kysely<Database>,
  lists: readonly PublicList[],
  address: string,
  state: BounceRow,
  input: { memberPage: string; warning: number; removalOn: Date },
  now: Date,
): Promise<void> {
  const [list] = lists;
  if (!list) return;
  const body = [
    `Mail from ${names(lists)} to ${oneLine(address)} has been bouncing, so its delivery is paused.`,
    '',
    `The last bounce: ${lastBounce(state)}`,
    '',
    'If you read this, the address works again. To resume your mail, open your page and press "Resume my mail":',
    input.memberPage,
    '',
    `Unless your mail is resumed, this address leaves ${lists.length === 1 ? 'the list' : 'these lists'} on ${input.removalOn.toISOString().slice(0, 10)}.`,
    'The link is yours alone. Do not forward this mail.',
  ].join('\n');
  await queue(
    db,
    list,
    'bounce-warning',
    [address],
    `Your mail from ${list.address} is paused (warning ${input.warning})`,
    body,
    now,
  );
}

/** Spec §2.6 `bounce_removal`: the warnings ran out and the address left the lists. */
export async function queueRemovalNotice(
  db: Kysely<Database>,
  left: readonly PublicList[],
  address: string,
  state: BounceRow,
  now: Date,
): Promise<void> {
  const [list] = left;
  if (!list) return;
  const to = await administratorsOf(db, left, 'bounce_removal');
  if (to.length === 0) return;
  const who = oneLine(address);
  const body = [
    `${who} left ${names(left)}: its mail bounced, delivery was paused on ${(state.paused_at ?? '').slice(0, 10)}, and ${state.warnings} ${state.warnings === 1 ? 'warning' : 'warnings'} went unanswered.`,
    '',
    `Last bounce: ${lastBounce(state)}`,
    '',
    'The contact stays in the address book, its address paused.',
  ].join('\n');
  await queue(db, list, 'bounce_removal', to, `Bounces removed ${who} from ${list.address}`, body, now);
}
