import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../../api/client.ts';
import { parseForm } from '../../../../api/form-encoding.ts';
import { RequestBulk, RequestReject, type MemberRequest } from '../../../../api/schemas/request.ts';
import { sendRequestAction } from './use-request-action.ts';

/**
 * Which calls an action on the requests queue makes, over real HTTP to a recording server
 * (node:http on a free port, as src/api/client.test.ts does): one request by its own path, several
 * by `/requests/bulk/`, REQUEST_BULK_MAX a call.
 */

interface Recorded {
  method: string;
  path: string;
  body: string;
}

let server: Server;
let origin: string;
let recorded: Recorded[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const body = Buffer.concat(chunks).toString('utf8');
      recorded.push({ method: req.method ?? '', path, body });
      const outcome = (id: number) => ({ id, action: 'approve', kind: 'join', address: 'a@x.org' });
      const answer = path.endsWith('/bulk/')
        ? { results: new URLSearchParams(body).getAll('ids').map(Number).map(outcome) }
        : outcome(Number(path.split('/').at(-3)));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve, reject) =>
    server.close((error) => (error ? reject(error) : resolve())),
  );
});

beforeEach(() => {
  recorded = [];
});

const api = () => createApiClient({ baseUrl: origin, auth: { kind: 'bearer', token: 't' } });

const request = (id: number): MemberRequest => ({
  id,
  list: 'news',
  kind: 'join',
  address: `person${id}@example.org`,
  source: 'web',
  created: '2026-03-01T10:00:00.000Z',
  confirmed: '2026-03-01T10:05:00.000Z',
  expires: '2026-03-04T10:05:00.000Z',
});

const form = (body: string) => new URLSearchParams(body);

describe('sendRequestAction', () => {
  it('answers one request by its own path; a reject carries the reason', async () => {
    await sendRequestAction(api(), { action: 'approve', items: [request(7)] });
    await sendRequestAction(api(), { action: 'discard', items: [request(8)] });
    await sendRequestAction(api(), { action: 'reject', items: [request(9)], reason: 'Not here' });
    await sendRequestAction(api(), { action: 'reject', items: [request(10)] });
    expect(recorded.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'POST /api/2/requests/7/approve/',
      'POST /api/2/requests/8/discard/',
      'POST /api/2/requests/9/reject/',
      'POST /api/2/requests/10/reject/',
    ]);
    expect(parseForm(RequestReject, form(recorded[2]?.body ?? ''))).toEqual({
      success: true,
      data: { reason: 'Not here' },
    });
    expect(parseForm(RequestReject, form(recorded[3]?.body ?? ''))).toEqual({
      success: true,
      data: {},
    });
  });

  it('answers several in one bulk call, all or none, and more than 100 in calls of 100', async () => {
    const few = [1, 2, 3].map(request);
    const outcomes = await sendRequestAction(api(), { action: 'reject', items: few, reason: 'No' });
    expect(outcomes.map((outcome) => outcome.id)).toEqual([1, 2, 3]);
    expect(recorded.map(({ path }) => path)).toEqual(['/api/2/requests/bulk/']);
    expect(parseForm(RequestBulk, form(recorded[0]?.body ?? ''))).toEqual({
      success: true,
      data: { action: 'reject', ids: [1, 2, 3], reason: 'No' },
    });

    recorded = [];
    const many = Array.from({ length: 150 }, (_, index) => request(index + 1));
    expect(await sendRequestAction(api(), { action: 'approve', items: many })).toHaveLength(150);
    const bulks = recorded.map(({ body }) => parseForm(RequestBulk, form(body)));
    expect(bulks.map((bulk) => (bulk.success ? bulk.data.ids.length : 0))).toEqual([100, 50]);
    expect(bulks[1]).toMatchObject({ success: true, data: { action: 'approve' } });
    expect(bulks[1]?.success && bulks[1].data.ids[0]).toBe(101);
  });
});
