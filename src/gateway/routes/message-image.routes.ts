import type { FastifyInstance } from 'fastify';
import { GATEWAY_PATHS } from '../../api/gateway.ts';
import { sendAsSession } from '../as-session.ts';
import type { GatewayContext } from '../gateway-context.ts';
import { GatewayImageQuery, imageOfMessage, messagePath } from '../message-image.ts';
import { refuseCrossSite, sendError } from '../replies.ts';

/** The image proxy, here rather than at the upstream: the message is read with the session's credential. */
export function registerMessageImage(app: FastifyInstance, context: GatewayContext): void {
  const { config } = context;
  app.get(GATEWAY_PATHS.messageImage, async (request, reply) => {
    if (refuseCrossSite(request, reply, config.publicUrl)) return reply;
    const query = GatewayImageQuery.safeParse(request.query);
    if (!query.success) {
      const issue = query.error.issues[0];
      return sendError(
        reply,
        400,
        `${issue?.path.join('.') ?? 'query'}: ${issue?.message ?? 'is invalid'}`,
      );
    }
    const message = await sendAsSession(context, request, reply, {
      method: 'GET',
      url: messagePath(query.data),
      body: undefined,
    });
    if (!message) return reply;
    if (message.status !== 200)
      return reply.status(message.status).headers(message.headers).send(message.body);
    const image = await imageOfMessage(message, query.data.url, config.imageProxy);
    return reply.status(image.status).header('cache-control', 'no-store').send(image.body);
  });
}
