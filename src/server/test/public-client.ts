import type { ManualClock } from '../lib/clock.ts';
import type { TestServer } from './harness.ts';

/**
 * A person at the members' public pages (issue 25) of a test server: no Authorization header, no
 * cookie, forms sent as a browser sends them. The server's clock is moved past the forms' minimum
 * time (public/bot-traps.ts) as a person would take it to type an address.
 */
export interface PublicAnswer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | number | undefined>;
}

export function publicClient(server: TestServer, clock: ManualClock) {
  const inject = async (
    method: 'GET' | 'POST',
    url: string,
    options: { form?: Record<string, string>; body?: string; contentType?: string; remoteAddress?: string } = {},
  ): Promise<PublicAnswer> => {
    const payload = options.form ? new URLSearchParams(options.form).toString() : options.body;
    const response = await server.app.inject({
      method,
      url,
      payload,
      headers:
        payload === undefined
          ? {}
          : { 'content-type': options.contentType ?? 'application/x-www-form-urlencoded' },
      remoteAddress: options.remoteAddress ?? '203.0.113.7',
    });
    return { status: response.statusCode, body: response.body, headers: response.headers };
  };
  return {
    get: (url: string) => inject('GET', url),
    post: inject,
    /** Fills one of the list page's forms as a person does: read the page, type, send. */
    async fill(
      listAddress: string,
      form: 'join' | 'leave' | 'manage',
      email: string,
      options: { remoteAddress?: string; seconds?: number } = {},
    ): Promise<PublicAnswer> {
      const page = await inject('GET', `/l/${listAddress}/`);
      const started = /name="started" value="([^"]+)"/.exec(page.body)?.[1];
      if (!started) throw new Error(`no form on /l/${listAddress}/: ${page.status} ${page.body.slice(0, 200)}`);
      clock.advance((options.seconds ?? 5) * 1000);
      return inject('POST', `/l/${listAddress}/${form}`, {
        form: { email, started, website: '' },
        remoteAddress: options.remoteAddress,
      });
    },
  };
}

/** The mails queued for `to` so far (the notices the outbox worker sends), newest last. */
export async function mailsTo(server: TestServer, to: string) {
  return server.database.db
    .selectFrom('notices')
    .select(['id', 'kind', 'from_address', 'to_address', 'subject', 'body', 'reply_to'])
    .where('to_address', '=', to)
    .orderBy('id')
    .execute();
}

/** The first link under /l/ in a mail's text. */
export function linkIn(body: string, kind: 'confirm' | 'member' | 'unsubscribe'): string {
  const found = new RegExp(`https?://[^\\s]+/l/[^\\s]+/${kind}/[A-Za-z0-9_-]+`).exec(body)?.[0];
  if (!found) throw new Error(`no ${kind} link in: ${body}`);
  return new URL(found).pathname;
}
