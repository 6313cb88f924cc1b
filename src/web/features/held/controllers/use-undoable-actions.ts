import { useEffect, useRef, useState } from 'react';
import type { Id } from '../../../../api/primitives.ts';
import { createApiClient } from '../../../../api/client.ts';
import { dashboardFetch, type AccountId } from '../../../lib/api-client.ts';
import { getConfig } from '../../../lib/config.ts';
import { authorization } from '../../../lib/session.ts';
import { sendHeldAction, useHeldAction, type HeldActionInput } from '../api/use-held-action.ts';

/** How long an action waits for a change of mind before it is sent. */
export const UNDO_SECONDS = 5;

export interface PendingAction extends HeldActionInput {
  key: number;
  /** What the toast says: `“Subject”` or `3 messages`. */
  what: string;
}

/**
 * Held-queue actions you can take back (issue 27 item 3): an action waits UNDO_SECONDS before it
 * is sent; meanwhile its messages are hidden (`hidden`) and `undo` brings the latest back. What
 * was decided is never dropped unsaid: leaving the page sends what is still waiting at once
 * (unmount), and so does closing the tab (pagehide, through a keepalive request that outlives
 * the page): the undo window ends early, as if its seconds had run out.
 */
export function useUndoableActions(accountId: AccountId, onSent: (action: PendingAction) => void) {
  const act = useHeldAction(accountId);
  const [pending, setPending] = useState<PendingAction[]>([]);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const waiting = useRef<PendingAction[]>([]);
  const next = useRef(0);
  // The latest callbacks, for timers set by earlier renders.
  const latest = useRef({ act, onSent });
  useEffect(() => {
    latest.current = { act, onSent };
  });

  const forget = (key: number) => {
    clearTimeout(timers.current.get(key));
    timers.current.delete(key);
    waiting.current = waiting.current.filter((entry) => entry.key !== key);
    setPending(waiting.current);
  };

  const send = (entry: PendingAction) => {
    forget(entry.key);
    const { action, messages, reason } = entry;
    latest.current.act.mutate(
      { action, messages, ...(reason === undefined ? {} : { reason }) },
      { onSuccess: () => latest.current.onSent(entry) },
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
      for (const entry of waiting.current) void sendHeldAction(api, entry).catch(() => undefined);
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

  const hidden = new Set<string>(
    pending.flatMap((entry) => entry.messages.map((message) => String(message.id))),
  );

  return {
    act,
    pending,
    /** The ids of the messages whose action waits: not shown in the queue. */
    hidden,
    isHidden: (id: Id) => hidden.has(String(id)),
    /** Schedules an action; sent after UNDO_SECONDS unless taken back. */
    schedule(input: HeldActionInput, what: string) {
      const entry: PendingAction = { ...input, key: (next.current += 1), what };
      waiting.current = [...waiting.current, entry];
      setPending(waiting.current);
      timers.current.set(
        entry.key,
        setTimeout(() => send(entry), UNDO_SECONDS * 1000),
      );
      return entry;
    },
    /** Takes back an action still waiting (the latest when none is named); false when none. */
    undo(key?: number): PendingAction | null {
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
