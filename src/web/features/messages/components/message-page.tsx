import '../messages.css';
import '../../../components/safe-html/safe-html-frame.css';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useDeferredValue, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../../../api/errors.ts';
import type { Message } from '../../../../api/schemas/message.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { PageHeading } from '../../../components/page-heading.tsx';
import { ParentLink } from '../../../components/parent-link.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import { Tabs } from '../../../components/tabs.tsx';
import { sectionPath } from '../../../lib/account-scope.ts';
import type { AccountId } from '../../../lib/api-client.ts';
import { usePageShortcuts } from '../../../lib/page-shortcuts.ts';
import { usePainted } from '../../../lib/use-painted.ts';
import { isDeleted } from '../api/deleted-messages.ts';
import { messageQueries, senderContactQuery } from '../api/message-queries.ts';
import { useMessageNeighbours, type Neighbour } from '../api/use-message-neighbours.ts';
import { sentAt, subjectOf } from '../lib/format.ts';
import { readMessageSearch, writeMessageSearch } from '../lib/search-params.ts';
import { DeleteMessageDialog } from './delete-message-dialog.tsx';
import { MessageStepper } from './message-stepper.tsx';
import { MessageThread } from './message-thread.tsx';

// The HTML tab carries the sanitizer (DOMPurify and parse5, about 57 kB gzip): loaded when a
// message with HTML first shows it, not with the page (issue 17 item 9), and once its headers are
// on screen, so that it does not share a phone's connection with them (issue 27 item 8).
const MessageHtml = lazy(() =>
  import('./message-html.tsx').then((module) => ({ default: module.MessageHtml })),
);

/**
 * Where a deletion leaves the moderator: the message to show next (`null`: back to the list), or
 * `undefined` while no deletion is asked for.
 */
type AfterDelete = Neighbour | null | undefined;

/**
 * One message (spec §2.5): its headers, its content as plain text and HTML, its thread; the next
 * and previous message of the list it was opened from (`j`, `k`), and delete-and-next.
 */
export function MessagePage({ accountId, messageId }: { accountId: AccountId; messageId: string }) {
  const message = useQuery(messageQueries.detail(accountId, messageId));
  // The message's page renders in the background once it is in, in slices the browser can answer
  // between, not as one long task (issue 27 item 8).
  const shown = useDeferredValue(message.data);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const search = readMessageSearch(params);
  const listSearch = writeMessageSearch(search).toString();
  const neighbours = useMessageNeighbours(accountId, messageId, search);
  // Captured when the deletion is asked for: once deleted, the message has no place in the list.
  const [deleting, setDeleting] = useState<AfterDelete>(undefined);
  const show = (neighbour: Neighbour) =>
    void navigate(
      {
        pathname: `../${encodeURIComponent(String(neighbour.message.id))}`,
        search: writeMessageSearch(neighbour.search).toString(),
      },
      { relative: 'path' },
    );
  const deleteAndNext = () => setDeleting(neighbours.next ?? neighbours.previous ?? null);

  usePageShortcuts([
    {
      keys: ['j'],
      description: 'Next message',
      run: () => neighbours.next && show(neighbours.next),
    },
    {
      keys: ['k'],
      description: 'Previous message',
      run: () => neighbours.previous && show(neighbours.previous),
    },
    {
      keys: ['Delete'],
      description: 'Delete the message and show the next (asks first)',
      run: () => message.isSuccess && deleteAndNext(),
    },
  ]);

  // Deleted in this tab (and not by the deletion under way here): never asked for again.
  if (isDeleted(accountId, messageId) && deleting === undefined)
    return (
      <>
        <ParentLink label="All messages" search={listSearch} />
        <PageHeading title="Message" />
        <p className="notice">This message was deleted.</p>
      </>
    );
  // The list's page comes with the message (the route's loader asks for both at once): the page
  // waits for it, so the stepper above the headers does not push them down when it arrives (a
  // layout shift of 0.1 on a phone, issue 27 item 8).
  const loading = (
    <>
      <PageHeading title="Message" />
      <TableSkeleton label="Loading the message…" />
    </>
  );
  if (message.isPending || (neighbours.loading && !message.isError)) return loading;
  if (message.isError)
    return (
      <>
        <ParentLink label="All messages" search={listSearch} />
        <PageHeading title="Message" />
        <MessageStepper neighbours={neighbours} />
        <ErrorMessage error={message.error} onRetry={() => void message.refetch()} />
      </>
    );

  const data = shown;
  if (!data) return loading;
  return (
    <>
      <ParentLink label="All messages" search={listSearch} />
      <PageHeading title={subjectOf(data)} />
      <div className="message-page">
        <MessageStepper neighbours={neighbours} />
        <MessageHeaders accountId={accountId} message={data} />
        <section aria-labelledby="message-content-heading" className="stack">
          <h2 id="message-content-heading">Content</h2>
          <Tabs
            label="Content"
            tabs={[
              ...(data.content_html.trim()
                ? [
                    {
                      id: 'html',
                      label: 'HTML',
                      content: <HtmlTab accountId={accountId} message={data} />,
                    },
                  ]
                : []),
              {
                id: 'plain',
                label: 'Plain text',
                content: <pre className="message-plain">{data.content_plain || '(empty)'}</pre>,
              },
            ]}
          />
        </section>
        <MessageThread accountId={accountId} message={data} />
        <section className="actions danger-zone" aria-label="Delete the message">
          <button type="button" className="button danger" onClick={() => setDeleting(null)}>
            Delete the message
          </button>
          {neighbours.next && (
            <button type="button" className="button danger" onClick={deleteAndNext}>
              Delete and show the next
            </button>
          )}
        </section>
      </div>
      <DeleteMessageDialog
        accountId={accountId}
        message={deleting === undefined ? null : data}
        onClose={() => setDeleting(undefined)}
        onDeleted={() => {
          if (deleting) show(deleting);
          else void navigate({ pathname: '..', search: listSearch }, { relative: 'path' });
        }}
      />
    </>
  );
}

/** The HTML tab: the frame's own height while the page paints and the sanitizer loads. */
function HtmlTab({ accountId, message }: { accountId: AccountId; message: Message }) {
  const painted = usePainted();
  // The frame's own height meanwhile, so nothing below it moves.
  const loading = (
    <p className="safe-html-frame-loading message-frame" role="status">
      Loading…
    </p>
  );
  if (!painted) return loading;
  return (
    <Suspense fallback={loading}>
      <MessageHtml accountId={accountId} message={message} />
    </Suspense>
  );
}

/** The message's headers as a definition list, the sender linked to their contact when they are one. */
function MessageHeaders({ accountId, message }: { accountId: AccountId; message: Message }) {
  const sent = sentAt(message);
  return (
    <section aria-labelledby="message-headers-heading">
      <h2 id="message-headers-heading" className="visually-hidden">
        Headers
      </h2>
      <dl className="message-headers facts">
        <dt>From</dt>
        <dd>
          {message.from_phrase.trim() && (
            <span className="sender-phrase">{message.from_phrase} </span>
          )}
          <span className="address">&lt;{message.from_address}&gt;</span>
          <SenderContact accountId={accountId} address={message.from_address} />
        </dd>
        <dt>List</dt>
        <dd>{message.list}</dd>
        <dt>Sent</dt>
        <dd>
          <RelativeTime time={sent} />
        </dd>
        {message.parent !== null && (
          <>
            <dt>In reply to</dt>
            <dd>
              <Link to={`../${encodeURIComponent(String(message.parent))}`} relative="path">
                The message it answers
              </Link>
            </dd>
          </>
        )}
        <dt>Message-ID</dt>
        <dd className="address">{message.message_id}</dd>
      </dl>
    </section>
  );
}

/**
 * A link to the sender's contact (spec §4.2: the address names its email object, which names the
 * contact). Nothing when the sender is no contact, or the key may not read contacts.
 */
function SenderContact({ accountId, address }: { accountId: AccountId; address: string }) {
  const contact = useQuery({ ...senderContactQuery(accountId, address), enabled: address !== '' });
  if (contact.isError) {
    const forbidden = contact.error instanceof ApiError && contact.error.status === 403;
    return forbidden ? null : (
      <span className="hint"> (whether the sender is a contact is unknown)</span>
    );
  }
  if (!contact.data) return null;
  return (
    <>
      {' · '}
      <Link
        to={`${sectionPath(accountId, 'contacts')}/${encodeURIComponent(String(contact.data.contact))}`}
      >
        The sender&rsquo;s contact
      </Link>
    </>
  );
}
