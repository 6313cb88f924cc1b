import type { FastifyInstance } from 'fastify';
import { OPERATIONS, type OperationName } from '../../api/operations.ts';
import type { AppDeps } from '../http/app-deps.ts';
import { registerAccountsRoutes } from './accounts.routes.ts';
import { registerAuditRoutes } from './audit.routes.ts';
import { registerBouncesRoutes } from './bounces.routes.ts';
import { registerCallerRoutes } from './caller.routes.ts';
import { registerContactsRoutes } from './contacts.routes.ts';
import { registerEmailsRoutes } from './emails.routes.ts';
import { registerFieldsRoutes } from './fields.routes.ts';
import { registerHeldRoutes } from './held.routes.ts';
import { registerListsRoutes } from './lists.routes.ts';
import { registerMembershipRoutes } from './membership.routes.ts';
import { registerMessagesRoutes } from './messages.routes.ts';
import { registerOAuthRoutes } from './oauth.routes.ts';
import { registerRequestsRoutes } from './requests.routes.ts';
import { registerUsersRoutes } from './users.routes.ts';

/** Registers the routes of every resource; each module is listed, so where a route comes from is plain. */
export function registerRoutes(app: FastifyInstance, deps: AppDeps): void {
  registerContactsRoutes(app, deps);
  registerEmailsRoutes(app, deps);
  registerMembershipRoutes(app, deps);
  registerListsRoutes(app, deps);
  registerMessagesRoutes(app, deps);
  registerHeldRoutes(app, deps);
  registerRequestsRoutes(app, deps);
  registerFieldsRoutes(app, deps);
  registerBouncesRoutes(app, deps);
  registerUsersRoutes(app, deps);
  registerAccountsRoutes(app, deps);
  registerAuditRoutes(app, deps);
  registerCallerRoutes(app, deps);
  registerOAuthRoutes(app, deps);
}

/**
 * The operations without a route. `users.retrieveKey` shares PUT /users/:id/ with `users.update`
 * (spec §4.6), so one registration answers both.
 */
export function missingOperations(app: FastifyInstance): OperationName[] {
  return (Object.keys(OPERATIONS) as OperationName[]).filter((name) => {
    const op = OPERATIONS[name];
    return !app.hasRoute({ method: op.method, url: `/api/2${op.path}` });
  });
}
