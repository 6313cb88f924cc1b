import type { FastifyRequest } from 'fastify';

/**
 * The address a request comes from, the one a `cidr` restriction (spec §2.6) is checked against:
 * the socket's, or, only when the socket is a proxy named in TRUST_PROXY, the last address that
 * proxy appended to X-Forwarded-For (SECURITY.md 18; app.ts gives Fastify the trusted proxies).
 * Every check and the `caller.get` extension read it here, so what the dashboard is told is what
 * the checks see.
 */
export function callerAddress(request: FastifyRequest): string {
  return request.ip;
}
