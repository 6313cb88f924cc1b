import { GATEWAY_PATHS } from '../api/gateway.ts';
import { buildGateway } from './app.ts';
import { loadGatewayConfig } from './config.ts';
import { openSessionStore } from './open-session-store.ts';

/** `listkeeper dashboard`: runs the gateway until SIGTERM or SIGINT; prints one JSON line when ready. */
export async function serveGateway(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const config = loadGatewayConfig(env);
  if (config.port === 0 && !env.PUBLIC_URL)
    throw new Error('PORT=0 needs PUBLIC_URL: the OAuth redirect URI names the port');
  const store = await openSessionStore(config);
  const app = await buildGateway({ config, store });
  const shutdown = async () => {
    await app.close();
    await store.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
  const address = await app.listen({ port: config.port, host: config.host });
  // SECURITY.md 28: what it runs against, never the client secret or the session secret.
  console.log(
    JSON.stringify({
      listening: address,
      public_url: config.publicUrl,
      upstream: config.upstreamUrl,
      oauth: config.oauthClient !== null,
      redirect_uri: config.oauthClient ? `${config.publicUrl}${GATEWAY_PATHS.callback}` : null,
    }),
  );
}
