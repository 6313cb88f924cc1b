import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { Message } from '../../../../api/schemas/message.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { remoteImagesIn, SafeHtmlFrame } from '../../../components/safe-html/safe-html-frame.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { messageImagesQuery } from '../api/message-images.ts';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * A message's HTML, sanitized in its sandboxed frame (SECURITY.md 12). Remote images stay blocked
 * until the user asks (SECURITY.md 13): then the server fetches them (its image proxy) and they
 * are shown as `data:` URLs; the browser never contacts the sender's hosts.
 */
export function MessageHtml({ accountId, message }: { accountId: AccountId; message: Message }) {
  const remote = useMemo(() => remoteImagesIn(message.content_html), [message.content_html]);
  const [show, setShow] = useState(false);
  const images = useQuery({
    ...messageImagesQuery(accountId, message.id, remote),
    enabled: show && remote.length > 0,
  });
  const fetched = images.data;

  return (
    <div className="stack">
      {remote.length > 0 && (
        <div className="notice image-notice">
          {!show ? (
            <>
              <p>
                {plural(remote.length, 'remote image is', 'remote images are')} blocked, so the
                sender cannot tell that the message was opened.
              </p>
              <button type="button" className="button" onClick={() => setShow(true)}>
                Show images
              </button>
            </>
          ) : images.isPending ? (
            <p role="status">Fetching the images through the server…</p>
          ) : images.isError ? (
            <ErrorMessage error={images.error} onRetry={() => void images.refetch()} />
          ) : fetched?.unsupported ? (
            <p role="status">
              This server cannot show remote images: it has no image proxy, and the dashboard does
              not load them from the sender&rsquo;s hosts itself.
            </p>
          ) : (
            <>
              <p role="status">
                {plural(fetched?.shown.size ?? 0, 'image', 'images')} shown, fetched through the
                server.
                {(fetched?.failed.length ?? 0) > 0 &&
                  ` ${plural(fetched?.failed.length ?? 0, 'image', 'images')} could not be fetched.`}
              </p>
              {(fetched?.failed.length ?? 0) > 0 && (
                <details>
                  <summary>Why</summary>
                  <ul className="image-failures">
                    {fetched?.failed.map((failure) => (
                      <li key={failure.url}>
                        <span className="address">{failure.url}</span>: {failure.reason}
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </>
          )}
        </div>
      )}
      <SafeHtmlFrame
        html={message.content_html}
        images={fetched?.shown}
        title="The message as HTML"
        className="message-frame"
      />
    </div>
  );
}
