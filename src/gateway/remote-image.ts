import dns from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { PROXIED_IMAGE_MAX_BYTES, PROXIED_IMAGE_TYPES } from '../api/constants.ts';
import { refersToAddress } from '../api/message-content.ts';
import type { MessageImage } from '../api/schemas/message.ts';

/**
 * The image proxy's outbound side: fetches one image a message references, for the dashboard to
 * show after "show images" (SECURITY.md 13). The gateway's own image proxy uses it, and so does the
 * reference server's extension `messages.image` (the server may import the gateway). A server
 * that fetches URLs chosen by mail senders is an SSRF target, so: http and https only, public
 * unicast addresses only (checked on the address actually connected to, so a DNS answer cannot
 * rebind to an internal host; every redirect is checked again), raster image types only, a size
 * cap, a deadline over the whole exchange, no cookies or credentials sent.
 */

export interface RemoteImageOptions {
  /** Also fetch from private, loopback and other non-public addresses (tests, a trusted intranet). */
  allowPrivate: boolean;
  /**
   * Non-public ranges (CIDR) fetched from all the same, when `allowPrivate` is off: one trusted
   * intranet host, or a test's own image server while every other private address stays refused.
   */
  allowRanges?: readonly string[];
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
}

export interface RemoteImage {
  contentType: (typeof PROXIED_IMAGE_TYPES)[number];
  bytes: Buffer;
}

/**
 * Why an image was not fetched: `refused` when the request itself is not allowed (a private
 * address, a scheme), `failed` when the remote host did not deliver an image.
 */
export class RemoteImageError extends Error {
  readonly kind: 'refused' | 'failed';
  constructor(kind: 'refused' | 'failed', message: string) {
    super(message);
    this.kind = kind;
  }
}

/**
 * IPv6 ranges that carry (or route to) an IPv4 address, or stay inside a site, which ipaddr.js does
 * not name as such in every case: `::/96` (IPv4-compatible, RFC 4291 §2.5.5.1, deprecated) is
 * "unicast" to it, so `::7f00:1` reached 127.0.0.1 on some stacks (issue 16 finding 13). Listed
 * whole, so that a future ipaddr.js naming one "unicast" cannot reopen the hole.
 */
const REFUSED_IPV6 = [
  '::/96', // IPv4-compatible (and :: itself)
  '::ffff:0:0/96', // IPv4-mapped: process() turns these into IPv4 first; kept as a backstop
  '::ffff:0:0:0/96', // IPv4-translated (RFC 2765)
  '64:ff9b::/96', // NAT64 well-known prefix (RFC 6052)
  '64:ff9b:1::/48', // NAT64 local-use (RFC 8215)
  '2002::/16', // 6to4 (RFC 3056)
  '2001::/32', // Teredo (RFC 4380)
  'fc00::/7', // unique-local (RFC 4193)
  'fe80::/10', // link-local
  'fec0::/10', // site-local (deprecated)
].map((cidr) => ipaddr.IPv6.parseCIDR(cidr));

/** Public unicast only: not loopback, private, link-local, CGNAT, multicast, reserved, 6to4, NAT64… */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // process() reads an IPv4-mapped IPv6 address (::ffff:10.0.0.1) as the IPv4 address it is.
  const parsed = ipaddr.process(address);
  if (
    parsed.kind() === 'ipv6' &&
    REFUSED_IPV6.some((range) => (parsed as ipaddr.IPv6).match(range))
  )
    return false;
  return parsed.range() === 'unicast';
}

/** Whether the options let the proxy connect to `address`. */
function isAllowedAddress(address: string, options: RemoteImageOptions): boolean {
  if (options.allowPrivate || isPublicAddress(address)) return true;
  if (!options.allowRanges?.length || !ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return options.allowRanges.some((cidr) => {
    const range = ipaddr.parseCIDR(cidr);
    return range[0].kind() === parsed.kind() && parsed.match(range);
  });
}

/** Whether `text` is a CIDR range (`10.0.0.0/8`, `::1/128`) or an address, read as ipaddr.js reads them. */
export function isAddressRange(text: string): boolean {
  return ipaddr.isValidCIDR(text);
}

/** The proxy's bounds: a mail's tracking pixel or banner, not a download service. */
export const IMAGE_FETCH_LIMITS = {
  timeoutMs: 10_000,
  maxRedirects: 3,
  maxBytes: PROXIED_IMAGE_MAX_BYTES,
} as const;

/**
 * One remote image of a message as a `data:` URL, so the dashboard can show it under its CSP
 * (SECURITY.md 13, 24). Only an address the message's HTML holds is fetched: the proxy is no open
 * relay for whoever may read messages. Throws RemoteImageError (`refused` for that too).
 */
export async function fetchMessageImage(
  html: string,
  url: string,
  options: Pick<RemoteImageOptions, 'allowPrivate' | 'allowRanges'>,
): Promise<MessageImage> {
  if (!refersToAddress(html, url))
    throw new RemoteImageError('refused', 'is not an address this message refers to');
  const image = await fetchRemoteImage(url, { ...IMAGE_FETCH_LIMITS, ...options });
  return { url, data_url: `data:${image.contentType};base64,${image.bytes.toString('base64')}` };
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function fetchRemoteImage(
  url: string,
  options: RemoteImageOptions,
): Promise<RemoteImage> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let target = parseHttpUrl(url);
  for (let redirects = 0; ; redirects += 1) {
    const response = await get(target, options, signal);
    if (REDIRECTS.has(response.statusCode ?? 0)) {
      response.destroy();
      const location = response.headers.location;
      if (!location)
        throw new RemoteImageError(
          'failed',
          `${target.host} answered a redirect without a Location`,
        );
      if (redirects >= options.maxRedirects) {
        throw new RemoteImageError('failed', `more than ${options.maxRedirects} redirects`);
      }
      target = parseHttpUrl(new URL(location, target).href);
      continue;
    }
    if (response.statusCode !== 200) {
      response.destroy();
      throw new RemoteImageError(
        'failed',
        `${target.host} answered ${response.statusCode ?? 'nothing'}`,
      );
    }
    const contentType = imageTypeOf(response.headers['content-type']);
    if (!contentType) {
      response.destroy();
      throw new RemoteImageError(
        'failed',
        `${target.host} answered ${response.headers['content-type'] ?? 'no content type'}, not a raster image`,
      );
    }
    return { contentType, bytes: await readCapped(response, options.maxBytes, signal) };
  }
}

function parseHttpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RemoteImageError('refused', 'is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RemoteImageError(
      'refused',
      `${url.protocol} URLs are not fetched; only http and https`,
    );
  }
  if (url.username || url.password)
    throw new RemoteImageError('refused', 'URLs with credentials are not fetched');
  return url;
}

function get(url: URL, options: RemoteImageOptions, signal: AbortSignal): Promise<IncomingMessage> {
  // An address written in the URL is connected to without a lookup: check it here.
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(literal) && !isAllowedAddress(literal, options)) {
    return Promise.reject(refusedAddress(url.host));
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(
      url,
      {
        // A connection of its own: nothing pooled from (or left for) another request.
        agent: false,
        signal,
        lookup: options.allowPrivate ? undefined : allowedLookup(options),
        headers: { accept: PROXIED_IMAGE_TYPES.join(', '), 'user-agent': 'Listkeeper image proxy' },
      },
      resolve,
    );
    request.on('error', (error) => reject(asRemoteImageError(error, url, signal)));
  });
}

/** dns.lookup, refusing every answer that holds a refused address (a rebinding attempt or an internal name). */
function allowedLookup(proxy: RemoteImageOptions): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const [first] = addresses;
      if (!first || addresses.some((entry) => !isAllowedAddress(entry.address, proxy))) {
        return callback(refusedAddress(hostname), '');
      }
      // Node asks for every address (happy eyeballs) or for one; answer in the form it asked for.
      if (options.all) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

function refusedAddress(host: string): RemoteImageError {
  return new RemoteImageError(
    'refused',
    `${host} is a private, loopback or reserved address; only public hosts are fetched`,
  );
}

function asRemoteImageError(error: unknown, url: URL, signal: AbortSignal): RemoteImageError {
  if (error instanceof RemoteImageError) return error;
  if (signal.aborted) return new RemoteImageError('failed', `${url.host} did not answer in time`);
  const code = (error as { code?: unknown }).code;
  return new RemoteImageError(
    'failed',
    `${url.host} could not be reached${typeof code === 'string' ? ` (${code})` : ''}`,
  );
}

/** The media type of a Content-Type header, if it is one of the proxied raster types. */
export function imageTypeOf(header: string | undefined): RemoteImage['contentType'] | null {
  const type = header?.split(';')[0]?.trim().toLowerCase() ?? '';
  return PROXIED_IMAGE_TYPES.find((candidate) => candidate === type) ?? null;
}

function readCapped(
  response: IncomingMessage,
  maxBytes: number,
  signal: AbortSignal,
): Promise<Buffer> {
  const tooLarge = () =>
    new RemoteImageError('failed', `the image is larger than ${maxBytes} bytes`);
  const brokeOff = () =>
    new RemoteImageError(
      'failed',
      signal.aborted ? 'the image did not arrive in time' : 'the image download broke off',
    );
  if (Number(response.headers['content-length']) > maxBytes) {
    response.destroy();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(tooLarge());
        response.destroy();
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks)));
    // The deadline covers the body too; a destroyed response may end with `close` alone.
    response.on('error', () => reject(brokeOff()));
    response.on('close', () => {
      if (!response.complete) reject(brokeOff());
    });
  });
}
