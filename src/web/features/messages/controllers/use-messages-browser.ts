import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { Message } from '../../../../api/schemas/message.ts';
import type { AccountId } from '../../../lib/api-client.ts';
import type { Job } from '../../../lib/job-runner.ts';
import { usePageShortcuts } from '../../../lib/page-shortcuts.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { useStartJob } from '../../../lib/start-job.ts';
import { useJobState } from '../../../lib/use-job.ts';
import { useSelection } from '../../../lib/use-selection.ts';
import { useTriageCursor } from '../../../lib/use-triage-cursor.ts';
import { isDeleted } from '../api/deleted-messages.ts';
import { startBulkDelete } from '../api/delete-message.ts';
import { messageQueries } from '../api/message-queries.ts';
import { messageKey } from '../lib/message-key.ts';
import {
  readMessageSearch,
  toMessageQuery,
  writeMessageSearch,
  type MessageSearch,
} from '../lib/search-params.ts';
import { visibleMessages } from '../lib/visible-messages.ts';

/**
 * The archive page's controller (logic apart from the view, as react-admin's ra-core does): the
 * order, page size, list and search in the URL, the page's query and what of it is shown, the
 * selection, the triage cursor and its keys (j, k, Enter, Delete, x), and the bulk deletion.
 */
export function useMessagesBrowser(accountId: AccountId) {
  const [params, setParams] = useSearchParams();
  const { may } = usePermissions();
  const state = readMessageSearch(params);
  const messages = useQuery({
    ...messageQueries.list(accountId, toMessageQuery(state)),
    placeholderData: keepPreviousData,
  });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const tableRef = useRef<HTMLTableElement>(null);

  const selection = useSelection(messageKey);
  const [deleting, setDeleting] = useState<Message | null>(null);
  const [confirmBulk, setConfirmBulk] = useState(false);
  const [job, setJob] = useState<Job<Message> | null>(null);
  const jobState = useJobState(job);
  const startJob = useStartJob();

  const update = (change: Partial<MessageSearch>) =>
    setParams(writeMessageSearch({ ...state, page: 1, ...change }));
  /** The list filter and the search narrow the loaded page: the page stays, history is spared. */
  const narrow = (change: Pick<Partial<MessageSearch>, 'list' | 'q'>) =>
    setParams(writeMessageSearch({ ...state, ...change }), { replace: true });
  /** What a message's link carries, so its page steps through this list (next, previous). */
  const search = writeMessageSearch(state).toString();
  const toggle = selection.toggle;

  const page = messages.data;
  const visible = page
    ? visibleMessages(page, state, (message) => isDeleted(accountId, message.id))
    : null;
  const pages = visible?.pages ?? 1;
  const groups = visible?.groups ?? [];
  const rows = visible?.rows ?? [];
  const narrowed = state.list !== null || state.q !== '';
  // The list filter offers the lists of this page, and the one chosen even when none is left.
  const lists = [
    ...new Set([...(visible?.lists ?? []), ...(state.list === null ? [] : [state.list])]),
  ].sort();
  // Paused while the delete dialog is open: triage goes on once it has closed.
  const cursor = useTriageCursor({
    rows,
    keyOf: messageKey,
    container: tableRef,
    paused: deleting !== null,
  });
  const currentMessage = cursor.currentItem;

  const chosen = [...selection.selected.values()];

  usePageShortcuts([
    { keys: ['j'], description: 'Next message', run: () => cursor.move(1) },
    { keys: ['k'], description: 'Previous message', run: () => cursor.move(-1) },
    {
      keys: ['Enter'],
      description: 'Open the message',
      run: () =>
        currentMessage &&
        void navigate({ pathname: encodeURIComponent(messageKey(currentMessage)), search }),
    },
    // Only to whom may delete (issue 27 item 6: the help lists what the person may use).
    ...(may('messages.delete')
      ? [
          {
            keys: ['Delete'],
            description: 'Delete the message (asks first)',
            run: () => currentMessage && setDeleting(currentMessage),
          },
        ]
      : []),
    {
      keys: ['x'],
      description: 'Select or unselect the message',
      run: () => currentMessage && toggle([currentMessage], !selection.has(currentMessage)),
    },
  ]);

  const deleteChosen = () =>
    void startBulkDelete(startJob.start, queryClient, accountId, chosen).then(setJob);

  return {
    state,
    messages,
    tableRef,
    selection,
    deleting,
    setDeleting,
    confirmBulk,
    setConfirmBulk,
    job,
    setJob,
    jobState,
    startJob,
    update,
    narrow,
    search,
    toggle,
    pages,
    groups,
    rows,
    narrowed,
    lists,
    cursor,
    chosen,
    may,
    deleteChosen,
  };
}
