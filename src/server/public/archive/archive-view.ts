import type { ArchivedSummary } from '../../repositories/archive.repository.ts';
import { shownText } from './hide-addresses.ts';

/**
 * A message as an archive page may show it: every text that came with the mail passes through
 * `shownText`, so under `archive_spammode` no page can show an address it forgot to hide
 * (SECURITY.md 48); the pages get these, never the rows.
 */
export interface ShownMessage {
  id: number;
  threadId: number;
  parentId: number | null;
  subject: string;
  /** The sender's name, else the sender's address (hidden under spammode). */
  sender: string;
  address: string;
  time: number;
}

export function showMessage(row: ArchivedSummary, spammode: boolean): ShownMessage {
  const address = shownText(row.from_address, spammode);
  return {
    id: row.id,
    threadId: row.thread_id,
    parentId: row.parent_id,
    subject: shownText(row.subject.trim(), spammode) || '(no subject)',
    sender: shownText(row.from_phrase.trim(), spammode) || address || '(unknown sender)',
    address,
    time: row.time,
  };
}

const DATE = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  dateStyle: 'medium',
  timeStyle: 'short',
});
const MONTH = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', month: 'long', year: 'numeric' });

/** Dates are UTC, as the months are: every reader sees the same page. */
export function shownDate(time: number): string {
  return `${DATE.format(new Date(time * 1000))} UTC`;
}

export function isoDate(time: number): string {
  return new Date(time * 1000).toISOString();
}

/** `YYYY-MM` of a time, in UTC. */
export function monthOf(time: number): string {
  return new Date(time * 1000).toISOString().slice(0, 7);
}

/** A month's first second and the next month's, in Unix seconds. */
export function monthRange(month: string): { from: number; to: number } {
  const [year = 0, index = 1] = month.split('-').map(Number);
  return { from: Date.UTC(year, index - 1, 1) / 1000, to: Date.UTC(year, index, 1) / 1000 };
}

export function monthName(month: string): string {
  return MONTH.format(new Date(monthRange(month).from * 1000));
}

/** `YYYY-MM` of a month the archive may have: from 1970 to 9999. */
export const MONTH_SHAPE = /^(19[7-9]\d|[2-9]\d{3})-(0[1-9]|1[0-2])$/;
