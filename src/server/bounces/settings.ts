/**
 * The bounce score's settings (issue 26 item 1, Mailman 3's `bounce_score_threshold`,
 * `bounce_info_stale_after`, `bounce_you_are_disabled_warnings` and `…_interval`), each with its
 * default here and its variable in config.ts (README "Configuration").
 */
export interface BounceSettings {
  /** BOUNCE_SCORE_THRESHOLD: the score at which the address is paused. */
  threshold: number;
  /** BOUNCE_STALE_DAYS: a score whose last count is older starts again. */
  staleDays: number;
  /** BOUNCE_WARNINGS: warnings mailed to a paused address before its memberships are removed. */
  warnings: number;
  /** BOUNCE_WARNING_INTERVAL_DAYS: days between two warnings, and from the last to the removal. */
  warningIntervalDays: number;
  /** BOUNCE_SWEEP_SECONDS: how often the mail service sends the warnings and removals due. */
  sweepSeconds: number;
}

export const BOUNCE_DEFAULTS: BounceSettings = {
  threshold: 5,
  staleDays: 7,
  warnings: 3,
  warningIntervalDays: 7,
  sweepSeconds: 3600,
};

export const DAY_MS = 86_400_000;
