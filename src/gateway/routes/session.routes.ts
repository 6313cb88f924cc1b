import type { FastifyInstance } from 'fastify';
import { GATEWAY_PATHS, type GatewaySession } from '../../api/gateway.ts';
import { endSession, sessionOf, sessionView } from '../browser-session.ts';
import type { GatewayContext } from '../gateway-context.ts';
import { refuseCrossSite } from '../replies.ts';
import { endUpstreamSignIn } from '../upstream-sign-out.ts';

/** The dashboard's configuration, who is signed in, and sign-out (src/api/gateway.ts). */
export function registerSessionRoutes(app: FastifyInstance, context: GatewayContext): void {
  const { config, upstream, refresher, cookies } = context;

  app.get(GATEWAY_PATHS.config, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send({
      mode: 'gateway',
      api_base_url: '',
      oauth: upstream.oauthOffered,
      upstream_name: config.upstreamName,
    }),
  );

  app.get(GATEWAY_PATHS.session, async (request, reply) => {
    const session = await sessionOf(context, request);
    if (!session && request.cookies[cookies.session] !== undefined)
      await endSession(context, reply, null);
    const view: GatewaySession = session ? sessionView(config, session) : { signed_in: false };
    return reply.header('cache-control', 'no-store').send(view);
  });

  // SECURITY.md 25: the row goes, so every tab and every gateway process sees the end at once;
  // first the upstream's grant and sign-in end, with a token refreshed on that row if need be.
  app.post(GATEWAY_PATHS.logout, async (request, reply) => {
    if (refuseCrossSite(request, reply, config.publicUrl)) return reply;
    const session = await sessionOf(context, request);
    if (session) await endUpstreamSignIn(session, refresher, upstream);
    await endSession(context, reply, session);
    return reply.header('cache-control', 'no-store').send({ success: 1 });
  });
}
