import { fetchAnswer } from '../../../../api/client.ts';
import { ApiContractError } from '../../../../api/errors.ts';
import { GATEWAY_PATHS } from '../../../../api/gateway.ts';
import { ACCOUNT_ID_PARAM } from '../../../../api/constants.ts';
import type { Id } from '../../../../api/primitives.ts';
import { MessageImage } from '../../../../api/schemas/message.ts';
import type { AccountId } from '../../../lib/api-client.ts';
import { fetchThroughGateway } from '../../../lib/gateway-fetch.ts';

/**
 * One remote image of a message through the gateway's own image proxy (GATEWAY_PATHS.messageImage):
 * it reads the message from the API server itself, so images show in front of any API v2 server,
 * with or without the reference server's extension.
 */
export async function fetchGatewayImage(
  accountId: AccountId,
  messageId: Id,
  url: string,
  signal: AbortSignal,
): Promise<MessageImage> {
  const query = new URLSearchParams({ message: String(messageId), url });
  if (accountId !== null) query.set(ACCOUNT_ID_PARAM, accountId);
  const { response, payload } = await fetchAnswer(
    fetchThroughGateway,
    `${GATEWAY_PATHS.messageImage}?${query}`,
    {
      headers: { accept: 'application/json' },
      signal,
    },
  );
  const parsed = MessageImage.safeParse(payload);
  if (!parsed.success)
    throw new ApiContractError(
      response.status,
      'The image proxy answered something other than an image.',
    );
  return parsed.data;
}
