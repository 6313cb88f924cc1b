import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The moment a public form was shown, signed with the installation's key, so that a post can be
 * timed (SECURITY.md 43): a bot posts at once, or posts a form it fetched long ago; a person
 * types an address first. A filled honeypot field (`website`) marks a bot too.
 */
export const FORM_MIN_SECONDS = 2;
export const FORM_MAX_SECONDS = 86_400;

function macOf(key: Buffer, millis: string): string {
  return createHmac('sha256', key).update(`form-started:${millis}`).digest('base64url').slice(0, 22);
}

export function formStarted(key: Buffer, now: Date): string {
  const millis = String(now.getTime());
  return `${millis}.${macOf(key, millis)}`;
}

/** The post came from a person, by what the traps can tell. */
export function looksHuman(
  key: Buffer,
  form: ReadonlyMap<string, string>,
  now: Date,
): boolean {
  if ((form.get('website') ?? '') !== '') return false;
  const [millis = '', mac = ''] = (form.get('started') ?? '').split('.');
  const expected = macOf(key, millis);
  if (mac.length !== expected.length || !timingSafeEqual(Buffer.from(mac), Buffer.from(expected)))
    return false;
  const elapsed = (now.getTime() - Number(millis)) / 1000;
  return elapsed >= FORM_MIN_SECONDS && elapsed <= FORM_MAX_SECONDS;
}
