/** How long the members' links and requests last (issue 25), in one place. */
export const LIFETIMES = {
  /** A confirmation link, and the request waiting for it (issue 25: "expire after 3 days"). */
  confirmDays: 3,
  /** A confirmed request waiting for a moderator: a month, then it is dropped as stale. */
  moderationDays: 30,
  /** The one-click leave link and the member's page link in a delivery. */
  deliveryLinkDays: 90,
  /** A member's page link mailed on request from the list's page. */
  memberPageMailDays: 7,
} as const;

export const DAY_MS = 86_400_000;
