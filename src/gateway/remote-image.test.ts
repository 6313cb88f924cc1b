import { beforeAll, describe, expect, it } from 'vitest';
import { PIXEL_GIF, imageHost, type ImageHost } from './test/image-host.ts';
import {
  fetchMessageImage,
  fetchRemoteImage,
  imageTypeOf,
  isPublicAddress,
  RemoteImageError,
  type RemoteImageOptions,
} from './remote-image.ts';

const OPEN: RemoteImageOptions = {
  allowPrivate: true,
  maxBytes: 2 * 1024 * 1024,
  timeoutMs: 5_000,
  maxRedirects: 3,
};

/** The error a fetch ends with, asserted to be a RemoteImageError. */
async function failure(url: string, options: RemoteImageOptions = OPEN): Promise<RemoteImageError> {
  try {
    await fetchRemoteImage(url, options);
  } catch (error) {
    if (error instanceof RemoteImageError) return error;
    throw error;
  }
  throw new Error(`${url}: expected the fetch to fail`);
}

describe('the image proxy fetcher (extension messages.image)', () => {
  let host: ImageHost;
  beforeAll(async () => {
    host = await imageHost();
  });

  it('counts only public unicast addresses as public', () => {
    for (const address of ['8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    const internal = [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '192.0.2.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::',
      '::7f00:1',
      '64:ff9b:1::a00:1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      'not an address',
    ];
    for (const address of internal) expect(isPublicAddress(address), address).toBe(false);
  });

  it('reads the media type of a Content-Type, raster images only', () => {
    expect(imageTypeOf('image/GIF; charset=binary')).toBe('image/gif');
    expect(imageTypeOf('image/svg+xml')).toBeNull();
    expect(imageTypeOf('text/html')).toBeNull();
    expect(imageTypeOf(undefined)).toBeNull();
  });

  it('fetches an image, and follows a redirect', async () => {
    const direct = await fetchRemoteImage(`${host.origin}/pixel/direct.gif`, OPEN);
    expect(direct).toEqual({ contentType: 'image/gif', bytes: PIXEL_GIF });
    const target = encodeURIComponent(`${host.origin}/pixel/after-redirect.gif`);
    const redirected = await fetchRemoteImage(`${host.origin}/redirect?to=${target}`, OPEN);
    expect(redirected.bytes).toEqual(PIXEL_GIF);
    expect(host.hits.get('/pixel/after-redirect.gif')).toBe(1);
  });

  it('refuses private and loopback hosts, by address or by name, before any request', async () => {
    const closed = { ...OPEN, allowPrivate: false };
    const before = host.hits.get('/pixel/private.gif') ?? 0;
    for (const url of [
      `${host.origin}/pixel/private.gif`,
      `http://localhost:${new URL(host.origin).port}/pixel/private.gif`,
      `http://[::1]:${new URL(host.origin).port}/pixel/private.gif`,
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      const error = await failure(url, closed);
      expect([error.kind, error.message], url).toEqual([
        'refused',
        expect.stringContaining('private') as unknown,
      ]);
    }
    expect(host.hits.get('/pixel/private.gif') ?? 0).toBe(before);
  });

  it('refuses other schemes and URLs with credentials', async () => {
    for (const url of [
      'ftp://example.org/a.gif',
      'file:///etc/passwd',
      'http://user:pw@example.org/a.gif',
    ]) {
      expect((await failure(url)).kind, url).toBe('refused');
    }
    // A redirect to another scheme is refused too.
    const error = await failure(
      `${host.origin}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`,
    );
    expect(error.kind).toBe('refused');
  });

  it('fails on a non-image, an error status, an oversized image, too many redirects, and a stall', async () => {
    expect((await failure(`${host.origin}/page`)).message).toMatch(
      /text\/html, not a raster image/,
    );
    expect((await failure(`${host.origin}/missing`)).message).toMatch(/answered 404/);
    expect((await failure(`${host.origin}/huge`)).message).toMatch(/larger than 2097152 bytes/);
    let loop = `${host.origin}/pixel/end.gif`;
    for (let i = 0; i < 4; i += 1) loop = `${host.origin}/redirect?to=${encodeURIComponent(loop)}`;
    expect((await failure(loop)).message).toMatch(/more than 3 redirects/);
    const started = Date.now();
    const stalled = await failure(`${host.origin}/stall`, { ...OPEN, timeoutMs: 300 });
    expect(stalled.message).toMatch(/did not answer in time/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('fetches from an allowed range only, and refuses every other private address, by address, name or redirect', async () => {
    const port = new URL(host.origin).port;
    const trusted = { ...OPEN, allowPrivate: false, allowRanges: ['127.0.0.1/32'] };
    expect((await fetchRemoteImage(`${host.origin}/pixel/trusted.gif`, trusted)).bytes).toEqual(
      PIXEL_GIF,
    );
    expect(
      (
        await fetchRemoteImage(`http://localhost:${port}/pixel/trusted-name.gif`, {
          ...trusted,
          allowRanges: ['127.0.0.1/32', '::1/128'],
        })
      ).bytes,
    ).toEqual(PIXEL_GIF);
    const before = host.hits.get('/pixel/untrusted.gif') ?? 0;
    for (const url of [
      `http://127.0.0.2:${port}/pixel/untrusted.gif`,
      `http://[::1]:${port}/pixel/untrusted.gif`,
      'http://10.0.0.1/pixel/untrusted.gif',
      `${host.origin}/redirect?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`,
    ]) {
      const error = await failure(url, trusted);
      expect([error.kind, error.message], url).toEqual([
        'refused',
        expect.stringContaining('private') as unknown,
      ]);
    }
    expect(host.hits.get('/pixel/untrusted.gif') ?? 0).toBe(before);
  });

  it("fetches only an address the message's HTML refers to, as a data: URL", async () => {
    const url = `${host.origin}/pixel/own.gif?a=1&b=2`;
    const html = `<p>Hi</p><img src="${url.replace('&', '&amp;')}">`;
    const trusted = { allowPrivate: false, allowRanges: ['127.0.0.1/32'] };
    expect(await fetchMessageImage(html, url, trusted)).toEqual({
      url,
      data_url: `data:image/gif;base64,${PIXEL_GIF.toString('base64')}`,
    });
    const other = `${host.origin}/pixel/not-in-the-message.gif`;
    await expect(fetchMessageImage(html, other, trusted)).rejects.toMatchObject({
      kind: 'refused',
      message: 'is not an address this message refers to',
    });
    expect(host.hits.get('/pixel/not-in-the-message.gif')).toBeUndefined();
  });
});
