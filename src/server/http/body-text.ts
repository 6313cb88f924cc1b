import { TextDecoder } from 'node:util';
import { badRequest, HttpError } from './http-error.ts';

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;
const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/** A body's text and the decoder of its declared charset, for its percent-escapes. */
export interface BodyText {
  text: string;
  decoder: TextDecoder;
}

/**
 * Reads a body in the charset its Content-Type names (UTF-8 when none; a BOM is dropped, RFC 8259
 * §8.1). Strictly: a byte that is not of that charset is a 400, never a silent U+FFFD in what is
 * stored; a charset the runtime cannot read is a 415.
 */
export function decodeBody(body: Buffer, contentType: string | undefined): BodyText {
  const label = CHARSET.exec(contentType ?? '')?.[1] ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label, { fatal: true });
  } catch {
    throw new HttpError(415, `The body's charset ${label} is unknown: send UTF-8`);
  }
  return { text: strictly(decoder, body), decoder };
}

/**
 * A form body's text with its percent-escapes checked in the body's charset (a Latin-1 form's
 * `%E9` is é) and, for another charset than UTF-8, written again as the UTF-8 escapes that
 * URLSearchParams reads.
 */
export function formText({ text, decoder }: BodyText): string {
  return text.replace(PERCENT_RUN, (run) => {
    const decoded = strictly(decoder, Buffer.from(run.replaceAll('%', ''), 'hex'));
    return decoder.encoding === 'utf-8' ? run : encodeURIComponent(decoded);
  });
}

function strictly(decoder: TextDecoder, bytes: Buffer): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw badRequest(
      `The body is not valid ${decoder.encoding}: send its charset in the Content-Type`,
    );
  }
}
