import type { Id } from '../../api/primitives.ts';
import type { BounceState } from '../../api/schemas/bounce.ts';

/** How far bounces went with an address, worst first (its marker's look follows it). */
export type BounceTone = 'removed' | 'paused' | 'bouncing' | 'delayed';

/** What an address's marker says: a short label, then the score and the last bounce. */
export interface BounceWords {
  tone: BounceTone;
  label: string;
  detail: string;
}

const LABELS: Record<BounceTone, string> = {
  removed: 'Removed after bounces',
  paused: 'Paused by bounces',
  bouncing: 'Bouncing',
  // Only temporary failures so far: recorded, never counted (issue 26 item 1).
  delayed: 'Delivery delayed',
};

const KINDS: Record<string, string> = { hard: 'permanent failure', temporary: 'temporary failure' };

export function toneOf(state: BounceState): BounceTone {
  if (state.removed !== null) return 'removed';
  if (state.paused_since !== null) return 'paused';
  return state.score > 0 ? 'bouncing' : 'delayed';
}

/**
 * The marker's words, all of them text (no colour or icon alone says anything): e.g. "Paused by
 * bounces" and "Score 5; last bounce 2 Mar 2026, 09:00: permanent failure 5.1.1, user unknown;
 * 1 warning sent".
 */
export function describeBounce(
  state: BounceState,
  locale?: string,
  timeZone?: string,
): BounceWords {
  const tone = toneOf(state);
  const when = new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  }).format(new Date(state.last_bounce));
  const kind = [KINDS[state.last_kind] ?? state.last_kind, state.last_status]
    .filter(Boolean)
    .join(' ');
  const reason = state.last_reason.trim();
  const parts = [
    `Score ${state.score}`,
    `last bounce ${when}: ${kind}${reason ? `, ${reason}` : ''}`,
  ];
  if (state.warnings_sent > 0)
    parts.push(`${state.warnings_sent} ${state.warnings_sent === 1 ? 'warning' : 'warnings'} sent`);
  return { tone, label: LABELS[tone], detail: parts.join('; ') };
}

/** The state of one address (spec §2.2 `id`), if its mail bounced. */
export function stateOf(states: readonly BounceState[], email: Id): BounceState | undefined {
  return states.find((state) => String(state.email) === String(email));
}

/** What the page says once an address's bounces are cleared (the server's `paused` after it). */
export function clearedWords(address: string, pausedStill: boolean): string {
  return pausedStill
    ? `Bounces cleared for ${address}. It stays paused: the pause was not made by bounces.`
    : `Bounces cleared for ${address}; its delivery resumes.`;
}
