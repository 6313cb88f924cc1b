/** Unit sizes in seconds, largest first (a month of 30 days, a year of 365: close enough to read). */
const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/**
 * One exact formatter per locale and zone: making one (full date, long time) costs a few
 * milliseconds, as much as the rest of a message page's render on a phone (issue 27 item 8), and a
 * page shows dozens of times.
 */
const exactFormats = new Map<string, Intl.DateTimeFormat>();

/** `5 minutes ago`, `yesterday`, `in 2 hours`: the largest unit that fits, rounded down. */
export function formatRelative(time: Date, now: Date, locale?: string): string {
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const seconds = (time.getTime() - now.getTime()) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(Math.trunc(seconds), 'second');
}

/** The exact date and time, with the time zone: what hovering or a screen reader gets. */
export function formatExact(time: Date, locale?: string, timeZone?: string): string {
  const key = `${locale ?? ''} ${timeZone ?? ''}`;
  let format = exactFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'long', timeZone });
    exactFormats.set(key, format);
  }
  return format.format(time);
}
