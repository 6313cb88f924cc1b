import { useQuery } from '@tanstack/react-query';
import type { HeldMessage } from '../../../../api/schemas/held.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { LazySafeHtmlFrame } from '../../../components/safe-html/lazy-safe-html-frame.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { heldQueries } from '../api/held-queries.ts';
import { HeldSourceView } from './held-source.tsx';

/**
 * The held message the cursor is on: every reason it was held, then its content in the same
 * sanitizing frame as archived messages (SECURITY.md 12, 40), or its plain text.
 */
export function HeldPreview({
  accountId,
  message,
}: {
  accountId: AccountId;
  message: HeldMessage;
}) {
  const detail = useQuery(heldQueries.detail(accountId, message.id));
  const subject = message.subject.trim() || '(no subject)';
  return (
    <section className="held-preview stack" aria-labelledby="held-preview-heading">
      <h2 id="held-preview-heading">{subject}</h2>
      <dl className="facts">
        <dt>Date</dt>
        <dd>
          <time dateTime={new Date(message.received * 1000).toISOString()}>
            {new Date(message.received * 1000).toLocaleString()}
          </time>
        </dd>
        <dt>From</dt>
        <dd>
          {message.from_phrase.trim() && `${message.from_phrase} `}
          <span className="address">&lt;{message.from_address}&gt;</span>
        </dd>
        <dt>To</dt>
        <dd>{detail.data ? headerOf(detail.data.headers, 'To') || '(none)' : '…'}</dd>
        <dt>List</dt>
        <dd>{message.list}</dd>
        <dt>Size</dt>
        <dd>{formatSize(message.size)}</dd>
      </dl>
      <div>
        <h3>Why it was held</h3>
        <ul className="held-reasons">
          {(message.reasons.length > 0
            ? message.reasons
            : [{ rule: message.rule, setting: message.setting, reason: message.reason }]
          ).map((reason, index) => (
            <li key={index}>
              {reason.reason}
              {reason.setting !== null && <span className="hint"> (setting {reason.setting})</span>}
            </li>
          ))}
        </ul>
      </div>
      {detail.isPending ? (
        <TableSkeleton label="Loading the message…" />
      ) : detail.isError ? (
        <ErrorMessage error={detail.error} onRetry={() => void detail.refetch()} />
      ) : detail.data.content_html.trim() ? (
        <>
          <p className="hint">Scripts and remote images are not shown.</p>
          <LazySafeHtmlFrame
            html={detail.data.content_html}
            title="The held message as HTML"
            className="message-frame"
          />
        </>
      ) : (
        <pre className="message-plain">{detail.data.content_plain || '(empty)'}</pre>
      )}
      {detail.data && (
        <details className="held-headers">
          <summary>All headers ({detail.data.headers.length})</summary>
          <pre className="held-headers-text">
            {detail.data.headers.map((field) => `${field.name}: ${field.value}`).join('\n')}
          </pre>
        </details>
      )}
      <HeldSourceView key={message.id} accountId={accountId} id={message.id} />
    </section>
  );
}

/** The first header field of that name (unfolded, as the server answers them). */
function headerOf(headers: readonly { name: string; value: string }[], name: string): string {
  return headers.find((field) => field.name.toLowerCase() === name.toLowerCase())?.value ?? '';
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
