import { z } from 'zod';
import { isValidId } from '../domain/ids';
import { idSchema, text } from './writes';
import { formBoolean, formNumber, formText, withFieldErrors } from './contract';
import { myLikeSchema } from './likes';

/**
 * Contracts of the reviews API (issue 18; social §2, §3, §7, §8, §9; map-and-search §2, §3, §6).
 * The spec's call keeps its path and fields; where it says "HTML fragment" it answers JSON that the
 * reviews modal renders:
 *
 *   POST /review/reviews        {appid, pagenumber 1, pagesize 20, prefix, mustRenderViewScripts}
 *                               the point's summary, the viewer's own review and rights, a page of reviews
 *   POST /v1/reviews/add        {appid, stars, text}   the viewer's one review of a point (a second: 18102)
 *   POST /v1/reviews/edit       {appid, stars, text}   changes the viewer's review
 *   POST /v1/reviews/delete     {appid}                removes the viewer's review
 *   POST /v1/reviews/reply      {reviewid, text}       a controller's public answer (one per review; again edits it)
 *   POST /v1/reviews/reply/delete {reviewid}           removes that answer
 *   GET  /Review/InviteReview?appid=   (Accept: application/json) the link that opens the review form, and its QR code
 *
 * Add and edit are two calls, as the like and comment calls are (add / edit / remove), rather than one
 * upsert: a create that finds a review already there is refused, so a second tab or a stale form never
 * overwrites what the person wrote elsewhere without saying so.
 */

/** Social §9: a page of 20 reviews by default. */
export const REVIEWS_PAGE_SIZE = 20;
export const REVIEWS_MAX_PAGE_SIZE = 50;
export const REVIEW_TEXT_MAX_LENGTH = 4000;
export const REVIEW_REPLY_MAX_LENGTH = 4000;
export const REVIEW_MIN_STARS = 1;
export const REVIEW_MAX_STARS = 5;
/** A reviews cursor is "{created_at}.{review id}": at most 16 digits, a dot and an id. */
export const REVIEWS_CURSOR_MAX_LENGTH = 81;
export { REVIEW_INVITE_VALUE, REVIEW_OPEN_PARAM, REVIEW_OPEN_VALUE } from './wire';

/** Social §8: what the modal says when the answer is empty or does not fit, and when loading fails. */
export const REVIEWS_EMPTY_ANSWER = 'Server Returned Invalid response! (Null/Empty).';
export const REVIEWS_EMPTY_ANSWER_CODE = 447;
export const reviewsLoadFailure = (detail: string): string =>
  `Error load Reviews (110933:), server error: ${detail}`;
/** Social §5: how the client prints a missing or malformed app id. */
export const reviewsInvalidAppMessage = (detail: string): string =>
  `[loadReviews] action failed! ERR: ${detail}`;

/** A point id; missing or malformed is the spec's 6705 'Param [xpointId] is invalid!'. */
const appIdSchema = z.preprocess(formText, idSchema());

const starsSchema = z.preprocess(
  formNumber,
  z
    .number({ error: (issue) => (issue.input === undefined ? 'is required.' : 'must be a number.') })
    .int('must be a whole number from 1 to 5.')
    .min(REVIEW_MIN_STARS, 'must be a whole number from 1 to 5.')
    .max(REVIEW_MAX_STARS, 'must be a whole number from 1 to 5.'),
);

const reviewTextSchema = z.preprocess(
  (value) => formText(value) ?? '',
  text({ multiline: true })
    .trim()
    .max(REVIEW_TEXT_MAX_LENGTH, `must be at most ${REVIEW_TEXT_MAX_LENGTH} characters long.`),
);

/**
 * A reviews call's contract with a missing or malformed point id answered as the spec's client
 * prints it (social §5): 6705 'Param [xpointId] is invalid!'. Applied to the route's outermost schema.
 */
export function reviewsContract<S extends z.ZodType>(schema: S): S {
  return withFieldErrors(schema, { appid: 'invalidParam' });
}

// ---------------------------------------------------------------------------------------------
// requests

export const reviewsRequestSchema = z.object({
  appid: appIdSchema,
  pagenumber: z.preprocess(
    (v) => formNumber(v) ?? 1,
    z.number().int('must be a whole number.').min(1).max(100_000),
  ),
  pagesize: z.preprocess(
    (v) => formNumber(v) ?? REVIEWS_PAGE_SIZE,
    z.number().int('must be a whole number.').min(1).max(REVIEWS_MAX_PAGE_SIZE),
  ),
  /** the element id prefix the spec's modal uses ('mdl'); echoed back */
  prefix: z.preprocess((v) => formText(v) ?? '', z.string().max(20, 'must be at most 20 characters long.')),
  /** the spec's flag for its HTML fragment; a JSON answer has no scripts, so it changes nothing */
  mustRenderViewScripts: z.preprocess(
    (v) => formBoolean(v) ?? true,
    z.boolean({ error: 'must be true or false.' }),
  ),
  /** keyset paging (newest first on created_at, id): the `next` of the previous page */
  before: z.preprocess(
    formText,
    z.string().max(REVIEWS_CURSOR_MAX_LENGTH, 'is not a position this list gave.').optional().meta({
      description:
        'The `next` of the previous answer: the page of reviews written before that one, newest first (keyset on created_at, id; a deep page costs what page one costs). Use it instead of `pagenumber`, which stays for the spec (an OFFSET); both at once is 18501.',
    }),
  ),
});
export type ReviewsRequest = z.infer<typeof reviewsRequestSchema>;

export const reviewWriteSchema = z.object({ appid: appIdSchema, stars: starsSchema, text: reviewTextSchema });
export type ReviewWrite = z.infer<typeof reviewWriteSchema>;

export const reviewDeleteSchema = z.object({ appid: appIdSchema });

const reviewIdSchema = z.preprocess(formText, idSchema());

export const reviewReplySchema = z.object({
  reviewid: reviewIdSchema,
  text: z.preprocess(
    formText,
    text({ multiline: true })
      .trim()
      .min(1, 'is required.')
      .max(REVIEW_REPLY_MAX_LENGTH, `must be at most ${REVIEW_REPLY_MAX_LENGTH} characters long.`),
  ),
});
export type ReviewReply = z.infer<typeof reviewReplySchema>;

export const reviewReplyDeleteSchema = z.object({ reviewid: reviewIdSchema });

export const inviteReviewQuerySchema = reviewsContract(z.object({ appid: appIdSchema }));

// ---------------------------------------------------------------------------------------------
// answers

export const reviewPersonSchema = z.object({
  id: z.string(),
  username: z.string(),
  displayname: z.string(),
  avatar: z.string().nullable(),
});

/** Map-and-search §3: the rating is kept 0-100 on the point and shown as /20 with one decimal. */
export const reviewsSummarySchema = z.object({
  /** 0-5, one decimal (0 when there is no review) */
  avgRating: z.number(),
  /** 0-100 (0 when there is no review) */
  avgRatingPercent: z.number().int(),
  reviewsCount: z.number().int(),
});
export type ReviewsSummary = z.infer<typeof reviewsSummarySchema>;

export const reviewSchema = z.object({
  reviewid: z.string(),
  appid: z.string(),
  stars: z.number().int(),
  text: z.string(),
  /** epoch ms */
  addedon: z.number(),
  updatedon: z.number(),
  author: reviewPersonSchema,
  /** the point's owner, consultant or an admin answering in public (one per review) */
  reply: z
    .object({ text: z.string(), addedon: z.number(), updatedon: z.number(), by: reviewPersonSchema })
    .nullable(),
  viewer: z.object({
    /** the viewer wrote it: edit and delete */
    is_own: z.boolean(),
    /** the viewer controls the point: reply, edit or delete the reply */
    can_reply: z.boolean(),
  }),
  /**
   * likes of the review (objecttype R, api/likes.ts: "was this helpful"): a page carries the counts
   * and the viewer's own like; the answer to a write has none
   */
  likes_up: z.number().int().default(0),
  likes_down: z.number().int().default(0),
  my_like: myLikeSchema.nullable().default(null),
});
export type Review = z.infer<typeof reviewSchema>;

export const reviewsPageSchema = z.object({
  appid: z.string(),
  title: z.string(),
  prefix: z.string(),
  summary: reviewsSummarySchema,
  viewer: z.object({
    signed_in: z.boolean(),
    /** signed in and not a controller of the point */
    can_review: z.boolean(),
    /** the point's owner, consultant or an admin */
    can_reply: z.boolean(),
    /** the viewer's own review of the point, whichever page it is on */
    own: reviewSchema.nullable(),
  }),
  /** newest first */
  reviews: z.array(reviewSchema),
  pagenumber: z.number().int(),
  pagesize: z.number().int(),
  hasmore: z.boolean(),
  /** what to send as `before` for the next page (keyset); null on the last */
  next: z.string().nullable(),
});
export type ReviewsPage = z.infer<typeof reviewsPageSchema>;

/** Social §3: the reviews change event, as the write answers it and as open pages hear it. */
export const reviewsChangeSchema = reviewsSummarySchema.extend({
  actionType: z.enum(['add', 'update', 'delete', 'reply']),
  /** the stars of the review written or removed (0 for a reply) */
  actionRating: z.number().int(),
  reviewid: z.string(),
});
export type ReviewsChange = z.infer<typeof reviewsChangeSchema>;

/** What a write answers: the change event, and the review as it now stands (null once deleted). */
export const reviewWriteResponseSchema = z.object({
  change: reviewsChangeSchema,
  review: reviewSchema.nullable(),
});
export type ReviewWriteResponse = z.infer<typeof reviewWriteResponseSchema>;

export const inviteReviewResponseSchema = z.object({
  appid: z.string(),
  title: z.string(),
  /** absolute: the point's panel with the review form open */
  url: z.string(),
  /** the QR code of `url`, a PNG data URL drawn on the server */
  qr: z.string(),
});
export type InviteReview = z.infer<typeof inviteReviewResponseSchema>;

/** The live message kind on `social:X:{pointId}` (social-live.ts). */
export const REVIEWS_LIVE_KIND = 'reviews';

/** Rating 0-100 as the spec shows it: average/20, one decimal (map-and-search §3, §9). */
export function starsOfPercent(percent: number): number {
  return Math.round(Math.min(100, Math.max(0, percent)) / 2) / 10;
}

/** The keyset position of a review in a point's list (newest first): "{created_at}.{id}". */
export interface ReviewsCursor {
  at: number;
  id: string;
}

export function reviewsCursorText(cursor: ReviewsCursor): string {
  return `${cursor.at}.${cursor.id}`;
}

/** Reads a `before` the list gave, or null when it is not one. */
export function parseReviewsCursor(text: string): ReviewsCursor | null {
  const dot = text.indexOf('.');
  if (dot < 1) return null;
  const digits = text.slice(0, dot);
  const id = text.slice(dot + 1);
  if (!/^\d{1,16}$/.test(digits) || !isValidId(id)) return null;
  const at = Number(digits);
  return Number.isSafeInteger(at) ? { at, id } : null;
}
