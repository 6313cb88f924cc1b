import type { FastifyReply } from 'fastify';
import type { ReactElement } from 'react';
import { HttpError } from '../../http/http-error.ts';
import { MessagePage } from '../pages/message-page.ts';
import { h, renderDocument } from './html.ts';

/** A public page, never kept by a cache (its forms carry a signed moment, its links are personal). */
export function sendPage(
  reply: FastifyReply,
  status: number,
  page: ReactElement,
  headers: Record<string, string> = {},
): FastifyReply {
  return reply
    .status(status)
    .headers({ 'cache-control': 'no-store', ...headers })
    .type('text/html; charset=utf-8')
    .send(renderDocument(page));
}

/** A form that cannot be read (400, 413, 415) is answered as a page: its reader is a person. */
export async function answeringForm(
  reply: FastifyReply,
  work: () => Promise<FastifyReply>,
): Promise<FastifyReply> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof HttpError) || error.status >= 500) throw error;
    return sendPage(
      reply,
      error.status,
      MessagePage({ title: 'This request cannot be read', children: h('p', null, error.message) }),
    );
  }
}
