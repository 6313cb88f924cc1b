import * as z from 'zod/mini';
import { pickSingle } from '../api/client.ts';
import { ACCOUNT_ID_PARAM } from '../api/constants.ts';
import { MessageImageQuery } from '../api/schemas/message.ts';
import { API_ROOT, type UpstreamAnswer } from './proxy.ts';
import { fetchMessageImage, RemoteImageError, type RemoteImageOptions } from './remote-image.ts';

/**
 * The gateway's image proxy (GATEWAY_PATHS.messageImage): the same rules as the reference server's
 * extension `messages.image` (./remote-image.ts), but the message comes from the upstream, read
 * with the session's own credential, so it works in front of any API v2 server.
 */

/** `?message=<id>&url=<address>[&account_id=<id>]`: a message id is one path segment. */
export const GatewayImageQuery = z.extend(MessageImageQuery, {
  message: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'is not a message id')),
  [ACCOUNT_ID_PARAM]: z.optional(
    z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'is not an account id')),
  ),
});
export type GatewayImageQuery = z.infer<typeof GatewayImageQuery>;

/** Spec §4.5 get one, on the account the dashboard is working on (spec §4.8). */
export function messagePath(query: GatewayImageQuery): string {
  const account = query[ACCOUNT_ID_PARAM];
  const search = account === undefined ? '' : `?${ACCOUNT_ID_PARAM}=${encodeURIComponent(account)}`;
  return `${API_ROOT}messages/${encodeURIComponent(query.message)}/${search}`;
}

/** What of a message the proxy needs: its HTML, whatever else the upstream sends. */
const MessageHtml = z.looseObject({ content_html: z.string() });

export interface ImageAnswer {
  status: number;
  body: unknown;
}

/**
 * The answer to the browser, from the upstream's answer to the message: the image, or why not.
 * The upstream's refusal (404, 403, 429…) is the browser's too, passed on by the caller.
 */
export async function imageOfMessage(
  message: UpstreamAnswer,
  url: string,
  options: Pick<RemoteImageOptions, 'allowPrivate' | 'allowRanges'>,
): Promise<ImageAnswer> {
  let payload: unknown;
  try {
    payload = JSON.parse(message.body.toString('utf8'));
  } catch {
    payload = undefined;
  }
  const parsed = MessageHtml.safeParse(pickSingle(payload));
  if (!parsed.success)
    return problem(502, 'The API server answered no message HTML for this message');
  try {
    return { status: 200, body: await fetchMessageImage(parsed.data.content_html, url, options) };
  } catch (error) {
    if (!(error instanceof RemoteImageError)) throw error;
    // Refused: the request is not allowed (400). Failed: the remote host did not deliver (502).
    if (error.kind === 'refused') return problem(400, `url: ${error.message}`);
    return problem(502, `The image could not be fetched: ${error.message}`);
  }
}

function problem(status: number, message: string): ImageAnswer {
  return { status, body: { is_error: true, message } };
}
