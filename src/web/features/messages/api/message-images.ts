import { queryOptions } from '@tanstack/react-query';
import { RateLimitedError } from '../../../../api/errors.ts';
import type { Id } from '../../../../api/primitives.ts';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import { describeError } from '../../../lib/api-error-message.ts';
import { getConfig } from '../../../lib/config.ts';
import { isMissingOperation } from '../../../lib/extensions.ts';
import { fetchGatewayImage } from './gateway-image.ts';
import { refuseDeleted } from './deleted-messages.ts';
import { messageQueries } from './message-queries.ts';

/** Image requests in flight at once. */
const CONCURRENCY = 4;

export interface FetchedImages {
  /** Remote address → `data:` URL, for the frame to show (components/safe-html). */
  shown: ReadonlyMap<string, string>;
  /** Addresses the server could not fetch, with why. */
  failed: { url: string; reason: string }[];
  /** The server has no image proxy (a server other than the reference one): none can be shown. */
  unsupported: boolean;
}

/**
 * A message's remote images, fetched as `data:` URLs through the gateway's image proxy when a
 * gateway serves the page, else through the reference server's (extension `messages.image`):
 * the browser itself never requests them (SECURITY.md 13), and
 * the page's CSP needs no exception (SECURITY.md 24). Each image costs one object of the hourly
 * allowance; a 429 stops the whole fetch (the banner says until when).
 */
export function messageImagesQuery(accountId: AccountId, messageId: Id, urls: readonly string[]) {
  return queryOptions({
    queryKey: [...messageQueries.all(accountId), 'images', String(messageId), urls] as const,
    queryFn: async ({ signal }): Promise<FetchedImages> => {
      refuseDeleted(accountId, messageId);
      const shown = new Map<string, string>();
      const failed: FetchedImages['failed'] = [];
      let unsupported = false;
      const queue = [...urls];
      const worker = async () => {
        for (let url = queue.shift(); url !== undefined && !unsupported; url = queue.shift()) {
          try {
            const image = getConfig().gateway
              ? await fetchGatewayImage(accountId, messageId, url, signal)
              : await apiFor(accountId).call('messages.image', {
                  params: { id: messageId },
                  query: { url },
                  signal,
                });
            shown.set(url, image.data_url);
          } catch (error) {
            if (error instanceof RateLimitedError) throw error;
            // No such route: a server without the extension (the message itself was just read).
            if (isMissingOperation(error)) {
              unsupported = true;
              return;
            }
            failed.push({ url, reason: describeError(error) });
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, urls.length) }, worker));
      return { shown, failed, unsupported };
    },
    // Fetched once per message view: images do not change, and each one costs allowance.
    staleTime: Infinity,
  });
}
