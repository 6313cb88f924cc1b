import * as z from 'zod/mini';
import {
  MESSAGE_CONTENT_MAX_LENGTH,
  MESSAGE_DIRECTIONS,
  PAGE_LIMITS,
  PROXIED_IMAGE_TYPES,
  SHORT_TEXT_MAX_LENGTH,
  URL_MAX_LENGTH,
} from '../constants.ts';
import { EmailAddress, Id, ListName, pageOf, pageQuery, readOnly, text } from '../primitives.ts';

/** Spec §2.5. Content of a complex message is a simplified version. */
export const Message = z.looseObject({
  id: Id,
  subject: z.string(),
  from_phrase: z.string(),
  from_address: z.string(),
  list: z.string(),
  time: z.int(),
  message_id: z.string(),
  thread_id: Id,
  content_plain: z.string(),
  content_html: z.string(),
  // "If any" (§2.5): a server may leave it out; read as null, which the dashboard tests for.
  parent: z.pipe(
    z.optional(z.nullable(Id)),
    z.transform((parent) => parent ?? null),
  ),
});
export type Message = z.infer<typeof Message>;

/**
 * Spec §4.5 send: at minimum `list` and one of `content_plain` or `content_html`; the HTML is
 * generated from the plain text when absent. The answer is only `{success: 1}`.
 */
export const MessageSend = z
  .strictObject({
    id: readOnly(),
    time: readOnly(),
    message_id: readOnly(),
    thread_id: readOnly(),
    list: ListName,
    subject: z.optional(text(SHORT_TEXT_MAX_LENGTH)),
    from_phrase: z.optional(text(SHORT_TEXT_MAX_LENGTH)),
    from_address: z.optional(EmailAddress),
    content_plain: z.optional(text(MESSAGE_CONTENT_MAX_LENGTH)),
    content_html: z.optional(text(MESSAGE_CONTENT_MAX_LENGTH)),
    parent: z.optional(Id),
  })
  .check(
    z.refine((m) => Boolean(m.content_plain) || Boolean(m.content_html), {
      message: 'content_plain or content_html is required',
      path: ['content_plain'],
    }),
  );
export type MessageSend = z.infer<typeof MessageSend>;

/** Spec §4.5 get many. */
export const MessageQuery = z.strictObject({
  ...pageQuery(PAGE_LIMITS.messages.max),
  direction: z.optional(z.enum(MESSAGE_DIRECTIONS)),
});
export type MessageQuery = z.infer<typeof MessageQuery>;

export const MessagePage = pageOf(Message);
export type MessagePage = z.infer<typeof MessagePage>;

/** The longest image address the image proxy takes. */
export const IMAGE_URL_MAX_LENGTH = URL_MAX_LENGTH;

/**
 * Reference-server extension (operations.ts `messages.image`): one remote image of a message, named
 * by its address as the message's HTML writes it (http or https).
 */
export const MessageImageQuery = z.strictObject({
  url: z
    .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
    .check(z.maxLength(IMAGE_URL_MAX_LENGTH, `has at most ${IMAGE_URL_MAX_LENGTH} characters`)),
});
export type MessageImageQuery = z.infer<typeof MessageImageQuery>;

const IMAGE_DATA_URL = new RegExp(
  `^data:(?:${PROXIED_IMAGE_TYPES.map((type) => type.replace(/[/+.]/g, '\\$&')).join('|')});base64,[A-Za-z0-9+/]*={0,2}$`,
);

/**
 * The image, fetched by the server, as a `data:` URL of a raster type: the one kind of image
 * source the dashboard's CSP (`img-src 'self' data:`, SECURITY.md 24) lets a message frame show.
 */
export const MessageImage = z.looseObject({
  url: z.string(),
  data_url: z.string().check(z.regex(IMAGE_DATA_URL, 'is not a data: URL of a raster image')),
});
export type MessageImage = z.infer<typeof MessageImage>;
