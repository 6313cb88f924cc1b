import { useEffect, useRef, useState } from 'react';
import { createApiClient, type ApiClient } from '../../api/client.ts';
import { dashboardFetch, type AccountId } from './api-client.ts';
import { getConfig } from './config.ts';
import { authorization } from './session.ts';

/** How long an action waits for a change of mind before it is sent. */
export const UNDO_SECONDS = 5;

/** What a moderator does to what waits in a queue (held messages, join and leave requests). */
export type TriageAction = 'approve' | 'reject' | 'discard';

export interface TriageInput<T> {
  action: TriageAction;
  items: readonly T[];
  /** Reject only: told to whom it concerns. */
  reason?: string;
}

export interface PendingAction<T> extends TriageInput<T> {
  key: number;
  /** What the toast says: `“Subject”` or `3 messages`. */
  what: string;
}

/**
 * Queue actions you can take back (issue 27 item 3): an action waits UNDO_SECONDS before it is
 * sent; meanwhile its items are hidden (`hidden`, by `keyOf`) and `undo` brings the latest back.
 * What was decided is never dropped unsaid: leaving the page sends what is still waiting at once
 * (unmount), and so does closing the tab (pagehide, through a keepalive request that outlives the
 * page, `sendAtPageHide`): the undo window ends early, as if its seconds had run out.
 *
 * @example
 * const undoable = useUndoableActions({ accountId, keyOf, send: (input, done) => act.mutate(input, { onSuccess: done }), sendAtPageHide, onSent });
 * undoable.schedule({ action: 'discard', items: [message] }, '“Hello”');
 */
export function useUndoableActions<T>({
  accountId,
  keyOf,
  send: sendNow,
  sendAtPageHide,
  onSent,
}: {
  accountId: AccountId;
  keyOf: (item: T) => string;
  /** Sends an action now (the page's mutation); `sent` once the server took it. */
  send: (input: TriageInput<T>, sent: () => void) => void;
  /** Sends an action with `api`, whose requests outlive the page (the tab is closing). */
  sendAtPageHide: (api: ApiClient, input: TriageInput<T>) => Promise<unknown>;
  onSent: (action: PendingAction<T>) => void;
}) {
  const [pending, setPending] = useState<PendingAction<T>[]>([]);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const waiting = useRef<PendingAction<T>[]>([]);
  const next = useRef(0);
  // The latest callbacks, for timers set by earlier renders.
  const latest = useRef({ sendNow, sendAtPageHide, onSent });
  useEffect(() => {
    latest.current = { sendNow, sendAtPageHide, onSent };
  });

  const forget = (key: number) => {
    clearTimeout(timers.current.get(key));
    timers.current.delete(key);
    waiting.current = waiting.current.filter((entry) => entry.key !== key);
    setPending(waiting.current);
  };

  const send = (entry: PendingAction<T>) => {
    forget(entry.key);
    const { action, items, reason } = entry;
    latest.current.sendNow({ action, items, ...(reason === undefined ? {} : { reason }) }, () =>
      latest.current.onSent(entry),
    );
  };

  // Leaving the page (another page of the dashboard) sends what waits; so does closing the tab.
  useEffect(() => {
    const timersNow = timers.current;
    const onPageHide = () => {
      // Fetch `keepalive`: the requests outlive the page that sends them.
      const api = createApiClient({
        baseUrl: getConfig().apiBaseUrl,
        auth: authorization,
        accountId,
        fetch: (input, init) => dashboardFetch()(input, { ...init, keepalive: true }),
      });
      for (const entry of waiting.current)
        void latest.current.sendAtPageHide(api, entry).catch(() => undefined);
      for (const timer of timersNow.values()) clearTimeout(timer);
      timersNow.clear();
      waiting.current = [];
    };
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      for (const entry of waiting.current) send(entry);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- send reads refs only
  }, [accountId]);

  return {
    pending,
    /** The keys of the items whose action waits: not shown in the queue. */
    hidden: new Set<string>(pending.flatMap((entry) => entry.items.map(keyOf))),
    /** Schedules an action; sent after UNDO_SECONDS unless taken back. */
    schedule(input: TriageInput<T>, what: string): PendingAction<T> {
      const entry: PendingAction<T> = { ...input, key: (next.current += 1), what };
      waiting.current = [...waiting.current, entry];
      setPending(waiting.current);
      timers.current.set(
        entry.key,
        setTimeout(() => send(entry), UNDO_SECONDS * 1000),
      );
      return entry;
    },
    /** Takes back an action still waiting (the latest when none is named); null when none. */
    undo(key?: number): PendingAction<T> | null {
      const entry =
        key === undefined
          ? waiting.current.at(-1)
          : waiting.current.find((candidate) => candidate.key === key);
      if (!entry) return null;
      forget(entry.key);
      return entry;
    },
  };
}
