import { OAUTH_PATHS } from '../../api/constants.ts';

/** Spec §4.9 endpoints (from the contract) and the reference server's own pages beside them. */
export const OAUTH_PAGE_PATHS = {
  ...OAUTH_PATHS,
  login: '/api/2/oauth/login/',
  consent: '/api/2/oauth/consent/',
  logout: '/api/2/oauth/logout/',
  stylesheet: '/api/2/oauth/pages.css',
  /** The session cookie is sent to these pages only. */
  cookiePath: '/api/2/oauth/',
  metadata: '/.well-known/oauth-authorization-server',
  dashboardConfig: '/config.json',
} as const;
