/**
 * Every fixed value of the API v2 contract, stated once. The server validates with these, the
 * dashboard builds its choices from them, and the tests read the spec's tables against them.
 */

/** Spec §8: page sizes. */
export const PAGE_LIMITS = {
  contacts: { default: 100, max: 1000 },
  accounts: { default: 100, max: 1000 },
  messages: { default: 10, max: 100 },
} as const;

/** Spec §2.4 and §8: list (and account) names. */
export const NAME_MAX_LENGTH = 64;
export const NAME_PATTERN = /^[A-Za-z0-9_.-]+$/;

/** Spec §4.6 and §8: key retrieval. */
export const EXPIRY_MONTHS = [1, 3, 6, 12] as const;

/** Spec §2.4: `moderate` bit flags; they may be ORed (10 = 2 + 8). */
export const MODERATE = {
  none: 0,
  holdAll: 1,
  specificSenders: 2,
  listMembers: 4,
  allowedEmails: 8,
} as const;
/** Every bit ORed: the largest value `moderate` can hold. */
export const MODERATE_MAX =
  MODERATE.holdAll | MODERATE.specificSenders | MODERATE.listMembers | MODERATE.allowedEmails;

/** Spec §2.4: what happens to messages that fail the posting restrictions (null: account default). */
export const MESSAGE_REJECTIONS = {
  holdUnpermitted: 0,
  holdFromContactsElseReject: 1,
  rejectUnpermitted: 2,
  holdAllRejectUnpermitted: 3,
} as const;
export const MESSAGE_REJECTIONS_VALUES = [0, 1, 2, 3] as const;

/** Spec §2.4: list `notify_approval` (null: account default). */
export const LIST_NOTIFY_APPROVAL_VALUES = [0, 1] as const;

/** Spec §2.7: account `notify_approval`. */
export const ACCOUNT_NOTIFY_APPROVAL = {
  none: 0,
  notifyListManager: 1,
  deleteAllHeld: 2,
  deleteHeldFromNonMembers: 3,
} as const;
export const ACCOUNT_NOTIFY_APPROVAL_VALUES = [0, 1, 2, 3] as const;

/** Spec §2.4 and §2.7: subscription and unsubscription modes (lists may also use null). */
export const SUBSCRIPTION_MODES = ['open', 'open+confirm', 'closed'] as const;

/** Spec §2.4: `memberview`; the empty string disables it. */
export const MEMBERVIEW_VALUES = ['', 'noemail', 'withemail', 'all-noemail', 'all-withemail'] as const;

/** Spec §2.6: administrator notification kinds. */
export const NOTIFICATIONS = [
  'list_manager',
  'account',
  'subscription',
  'bounce_removal',
  'bounce',
  'approval',
] as const;

/** Spec §2.6: administrator permissions. */
export const PERMISSIONS = [
  'superadmin',
  'account',
  'list',
  'general_settings',
  'list_settings',
  'approval',
  'messages',
  'contact',
  'alias',
  'membership',
  'audit',
  'billing',
  'limit_lists',
  'limit_metadata',
] as const;

/** Spec §2.6: multi-factor kinds (absent: none). */
export const MFA_TYPES = ['otp', 'sms'] as const;

/** Spec §4.5: message ordering by time. */
export const MESSAGE_DIRECTIONS = ['asc', 'desc'] as const;

/**
 * Reference-server extension (operations.ts `messages.image`): the image types the server fetches
 * for a message's remote images, and the largest it fetches. Raster types only: an SVG can carry
 * scripts and references of its own.
 */
export const PROXIED_IMAGE_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
] as const;
export const PROXIED_IMAGE_MAX_BYTES = 2 * 1024 * 1024;

/** Spec §7: the one error text the spec fixes. */
export const AUTHENTICATION_FAILED = 'Authentication failed';

/** Spec §4.9: the OAuth endpoints, relative to the base URL. */
export const OAUTH_PATHS = {
  authorize: '/api/2/oauth/authorize/',
  token: '/api/2/oauth/token/',
  refresh: '/api/2/oauth/refresh/',
} as const;

/** Spec §9: every path starts with this. */
export const API_PREFIX = '/api/2';

export type Permission = (typeof PERMISSIONS)[number];
export type Notification = (typeof NOTIFICATIONS)[number];
export type SubscriptionMode = (typeof SUBSCRIPTION_MODES)[number];
export type Memberview = (typeof MEMBERVIEW_VALUES)[number];
