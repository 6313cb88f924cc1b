import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../http/app-deps.ts';
import { defineRoute } from '../http/define-route.ts';
import {
  deleteMessage,
  getMessage,
  getMessageImage,
  getMessages,
  sendMessage,
} from '../services/messages.service.ts';
import { requireAccount } from './route-support.ts';

/** Spec §4.5: the messages endpoints. */
export function registerMessagesRoutes(app: FastifyInstance, deps: AppDeps): void {
  defineRoute(app, deps, 'messages.list', (ctx) =>
    getMessages(ctx.db, requireAccount(ctx.account).id, ctx.principal, ctx.query, ctx.meter),
  );

  defineRoute(app, deps, 'messages.get', (ctx) =>
    getMessage(ctx.db, requireAccount(ctx.account).id, ctx.principal, ctx.params.id),
  );

  // Spec §4.5: only the success object; the message is not returned (the audit log names it).
  defineRoute(app, deps, 'messages.send', async (ctx) => {
    ctx.audit.objectId = await sendMessage(
      ctx.db,
      requireAccount(ctx.account),
      ctx.principal,
      ctx.body,
      ctx.now,
    );
    return { success: 1 } as const;
  });

  defineRoute(app, deps, 'messages.delete', async (ctx) => {
    await deleteMessage(ctx.db, requireAccount(ctx.account).id, ctx.principal, ctx.params.id);
    return { success: 1 } as const;
  });

  // Reference-server extension (operations.ts): a remote image of the message, as a data: URL.
  defineRoute(app, deps, 'messages.image', (ctx) =>
    getMessageImage(
      ctx.db,
      requireAccount(ctx.account).id,
      ctx.principal,
      ctx.params.id,
      ctx.query.url,
      {
        allowPrivate: deps.config.imageProxyAllowPrivate,
      },
    ),
  );
}
