import type { Kysely } from 'kysely';
import { oneLine } from '../../../api/posting-policy/notice.ts';
import type { Database } from '../../db/schema.ts';
import { commandAddress } from '../../members/links.ts';
import type { PublicList } from '../../members/public-list.ts';
import { insertNotices } from '../../repositories/notices.repository.ts';
import { PASS_DAYS } from './archive-pass.ts';

export const ARCHIVE_LINK_HOURS = 24;

/**
 * The member's way into a protected archive (spec §2.4 `archive_memberview`), asked for on its
 * door and mailed to the member's address only, from the list's `-request` address like every
 * mail of the members' side, queued in the caller's transaction.
 */
export async function queueArchiveLink(
  db: Kysely<Database>,
  list: PublicList,
  to: string,
  link: string,
  now: Date,
): Promise<void> {
  const body = [
    `Someone, probably you, asked to read the archive of ${list.address} as a member.`,
    '',
    'Open this link and press the button on the page:',
    link,
    '',
    `The link works once, for ${ARCHIVE_LINK_HOURS} hours, and opens the archive in that browser for ${PASS_DAYS} days.`,
    'If you did not ask for it, ignore this mail: nobody else receives the link.',
  ].join('\n');
  await insertNotices(db, [
    {
      account_id: list.accountId,
      kind: 'archive',
      from_address: commandAddress(list.address, 'request'),
      to_address: to,
      subject: oneLine(`Your link to the archive of ${list.address}`),
      body,
      list_address: list.address,
      reply_to: null,
      created: now.toISOString(),
    },
  ]);
}
