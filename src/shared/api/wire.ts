/**
 * Names and numbers of the API that the app's first screen needs without the API's schemas (issue 23):
 * a module that defines zod schemas runs zod's classic API as it loads (about 24 KB gzip, whose methods
 * cannot be shaken out), so the first screen imports these from here and loads the schemas when it
 * reads an answer (src/web/lib/schemas.ts). The schema modules re-export them.
 */

/** The header a browser sends the anti-forgery token in on every state-changing call. */
export const ANTIFORGERY_HEADER = 'RequestVerificationToken';

/** The `kind` of the `social` push on `user:{id}` when a person's unread conversations change. */
export const CHAT_UNREAD_KIND = 'chat';

/** The live push on `user:{id}` when a notification is taken back (an unfollow). */
export const NOTIFICATION_WITHDRAWN_KIND = 'notification_withdrawn';

/** POST: the pinger's call (social §9). */
export const PING_PATH = '/v1/webonly/ping';
/** Social §9: every 27 s while the connection is OK, every 17 s after a failure. */
export const PING_INTERVAL_MS = 27_000;
export const PING_ERROR_INTERVAL_MS = 17_000;
/** Social §9: a custom interval must exceed 10 s. */
export const PING_MIN_CUSTOM_INTERVAL_MS = 10_000;

/** The address flag that opens the point's panel with the review form ready (the invite link). */
export const REVIEW_OPEN_PARAM = 'review';
export const REVIEW_OPEN_VALUE = 'open';
/** The same flag's value that opens the reviews with the invite box (where /Review/InviteReview leads a browser). */
export const REVIEW_INVITE_VALUE = 'invite';
