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

/**
 * SECURITY.md 21: every string and array a client sends has a maximum, so that no field can carry
 * unbounded work (a 14 kB search stalled the server; 8,192 addresses in one contact were a 500:
 * issue 16 findings 1 and 5). The spec fixes only list and account names (§8, above); email
 * addresses follow RFC 5321 §4.5.3.1.3; the rest are generous but finite, and stated once here.
 */
/** An email address (RFC 5321: a path of 256 octets, less its angle brackets). */
export const EMAIL_MAX_LENGTH = 254;
/** Identifiers sent as text, custom identifiers (ccid, ceid) included. */
export const ID_MAX_LENGTH = 255;
/** Names, subjects, key descriptions, time zones, domains, CIDR ranges, query filters. */
export const SHORT_TEXT_MAX_LENGTH = 1_000;
/** Free text: notes, descriptions, footers, the messages a list sends, custom field values. */
export const TEXT_MAX_LENGTH = 100_000;
/** The content of a message sent to a list (spec §4.5); the 1 MB body limit bounds it as well. */
export const MESSAGE_CONTENT_MAX_LENGTH = 1_000_000;
/** Spec §4.1 `search`: terms, not documents. */
export const SEARCH_MAX_LENGTH = 256;
/** A URL (an account's custom image, an image of a message). */
export const URL_MAX_LENGTH = 2_048;
/** One regular expression (spec §2.4 taboo rules, §2.7 restrict_contact*). */
export const PATTERN_MAX_LENGTH = 1_000;
/** Regular expressions per field: each one runs on every address or message. */
export const PATTERNS_MAX_ITEMS = 100;
/** Addresses of one contact (spec §4.1 create). */
export const CONTACT_EMAILS_MAX_ITEMS = 100;
/** Any other array: list names, addresses of a posting restriction, metadata names. */
export const ARRAY_MAX_ITEMS = 1_000;
/** Spec §2.6 `password` (reference server's sign-in; scrypt reads all of it). */
export const PASSWORD_MAX_LENGTH = 1_024;
/** The reference server's rule for a sign-in password: the API, the CLI and the set-password page. */
export const PASSWORD_MIN_LENGTH = 12;

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

/** Spec §4.8: `account_id` selects the account of a global key, on every endpoint. */
export const ACCOUNT_ID_PARAM = 'account_id';

export type Permission = (typeof PERMISSIONS)[number];
export type Notification = (typeof NOTIFICATIONS)[number];
export type SubscriptionMode = (typeof SUBSCRIPTION_MODES)[number];
export type Memberview = (typeof MEMBERVIEW_VALUES)[number];
