import { z } from 'zod';
import { POST_CATEGORIES } from '../domain/enums';
import { AppError } from '../errors';
import { dateProblem, parseDate } from '../validation/points';
import { formBoolean, formNumber, formText, withFieldErrors } from './contract';
import { myLikeSchema } from './likes';
import { DESCRIPTION_MAX_LENGTH, TITLE_MAX_LENGTH, latSchema, lonSchema, text } from './writes';

/**
 * Contracts of the posts API (issue 17; social §1-§9). The spec's calls keep their paths and field
 * names; where it says "HTML fragment" the same path answers JSON that a React component renders
 * (DESIGN.md):
 *
 *   GET  /myposts/details?id=                          the post result record (+ what the viewer may do)
 *   GET  /myposts/edit?id=&resultMode=&returnUrl=      the post's editable fields and the form to post them to
 *   POST /myposts/new      {id, resultMode, returnUrl} the empty form for a new post with the client's GUID
 *   POST /myposts/delete   {id, resultMode, returnUrl} deletes the author's (or, for admins, any) post
 *   POST /myposts/save     multipart (the form's own action): creates, edits or renews; answers per mode
 *   POST /myposts/hide     {id, hidden}                admins hide or show a post
 *   POST /v1/locations/nearby {lat, lon, max_locations} the points a post can be attached to
 *   GET  /v1/posts/point/{xpointid}?pagenumber=&pagesize=   a point's live posts, newest first
 *   GET  /v1/posts/user/{username}?pagenumber=&pagesize=    a profile's posts, expired ones marked
 *
 * The rules (lengths, dates, sizes) are written once here and used by the server and the form.
 */

// ---------------------------------------------------------------------------------------------
// limits (social §5, §9)

export const POST_TITLE_MAX_LENGTH = TITLE_MAX_LENGTH;
export const POST_DESCRIPTION_MAX_LENGTH = DESCRIPTION_MAX_LENGTH;
/** Social §5: a cover at most 10 MB; its size from base64 is length / 1.3333. */
export const POST_IMAGE_MAX_BYTES = 10_485_760;
/** Social §5: a video at most 100 MB, and never 0 bytes. */
export const POST_VIDEO_MAX_BYTES = 104_857_600;
/** Social §9: the crop's output. */
export const COVER_CROP_SIZE = 512;
/** Social §7, §9: the create form asks for 30 nearby places. */
export const NEARBY_MAX_LOCATIONS = 30;
/** Renew brings an expired (or any) post back to the top at most once per 48 hours. */
export const RENEW_INTERVAL_MS = 48 * 3600 * 1000;
/** Social §9: profile and post lists default to page 1 of 12. */
export const POSTS_PAGE_SIZE = 12;
export const POSTS_MAX_PAGE_SIZE = 48;
/**
 * A list's total is counted up to this many posts (83 pages of 12): counting an author's 20,000
 * posts cost p50 3.2 ms on PostgreSQL against 1.1 ms for the whole page of an author with 100
 * (bench/posts.ts), and nobody pages that far; `total_capped` says when there are more.
 */
export const POSTS_COUNT_CAP = 1000;
/** The crop's "delete" sets the hidden base64 field to this (social §4): back to the default picture. */
export const EMPTY_MEDIA = 'EMPTY';

export const POST_RESULT_MODES = ['DoRedirect', 'ReturnUrl', 'ReturnJson'] as const;
export type PostResultMode = (typeof POST_RESULT_MODES)[number];
export const POST_WORK_MODES = ['OnlyDetailsModal', 'AllFeatures'] as const;
export type PostWorkMode = (typeof POST_WORK_MODES)[number];

/** Social §4 expiry select: empty, 3000-01-01 and 0001-01-01 all mean "not set". */
export const EXPIRY_NOT_SET_VALUES = ['', '3000-01-01', '0001-01-01'] as const;
/** The same values, also as the midnight date-times a date picker may send. */
const EXPIRY_NOT_SET = /^(?:|(?:3000|0001)-01-01(?:[T ]00:00(?::00(?:\.0+)?)?(?:Z|[+-]00:?00)?)?)$/i;

// ---------------------------------------------------------------------------------------------
// shared field schemas

/**
 * A post call's contract with its errors named as the spec's client prints them (social §5): a
 * missing or malformed post id is 6705 'Param [postid] is invalid!' (the catalogue's parameter error,
 * which says 'Param [xpointId] is invalid!' for a point id), and 19812 with the same message on delete.
 */
export function postContract<S extends z.ZodType>(schema: S, call: 'delete' | 'other' = 'other'): S {
  return withFieldErrors(schema, {
    id: call === 'delete' ? 'invalidPostId' : { error: 'invalidParam', values: { param: 'postid' } },
  });
}

/** A post id: the GUID the client generated for a new post (social §3). */
export const postIdSchema = z
  .string({ error: 'is required.' })
  .trim()
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'must be a GUID.')
  .transform((id) => id.toLowerCase());

export const postCategorySchema = z.enum(POST_CATEGORIES, {
  error: `must be one of ${POST_CATEGORIES.join(', ')}.`,
});

export const resultModeSchema = z.preprocess(
  (value) => formText(value) ?? 'ReturnJson',
  z.enum(POST_RESULT_MODES, { error: `must be one of ${POST_RESULT_MODES.join(', ')}.` }),
);

/** Where to go after a save or delete: a path on this site only (never another origin). */
export const returnUrlSchema = z.preprocess(
  (value) => formText(value) ?? '',
  z
    .string()
    .max(2000, 'must be at most 2000 characters long.')
    // a browser reads `/\host` as `//host` (another site), and a Location header carries only
    // printable ASCII: a path of this site is '/' then printable ASCII, never '//' or a backslash
    .refine(
      (url) => url === '' || (/^\/(?![/\\])[\x21-\x7e]*$/.test(url) && !url.includes('\\')),
      'must be a path on this site.',
    ),
);

// ---------------------------------------------------------------------------------------------
// records

export const videoStateSchema = z.enum(['uploading', 'queued', 'processing', 'ready', 'failed']);
export type VideoState = z.infer<typeof videoStateSchema>;

/** Social §3's post result record, with what the page needs besides. */
export const postResultSchema = z.object({
  postid: z.string(),
  title: z.string(),
  description: z.string(),
  type: postCategorySchema,
  city_forurl: z.string().nullable(),
  city_id: z.number().nullable(),
  city_name: z.string().nullable(),
  /** the detail-sized cover, or the category's placeholder cover */
  image_url: z.string(),
  /** a data: URL of a few hundred bytes, painted until the cover arrives */
  image_placeholder: z.string().nullable(),
  image_variants: z
    .object({ map: z.string(), feed: z.string(), detail: z.string(), fallback: z.string() })
    .nullable(),
  /** bit 1: has image, bit 2: has video */
  fileResourceBitMask: z.number().int(),
  has_image: z.boolean(),
  has_video: z.boolean(),
  /** set when the video is ready */
  video_url: z.string().nullable(),
  video_poster_url: z.string().nullable(),
  /** null: no video */
  video_state: videoStateSchema.nullable(),
  /** why the video failed, for its author */
  video_error: z.string().nullable(),
  error_n: z.number().int(),
  error_msg: z.string(),
  user_id: z.string(),
  user_username: z.string(),
  user_displayname: z.string(),
  user_avatar: z.string().nullable(),
  /** epoch ms */
  addedon: z.number(),
  updatedon: z.number(),
  /** the point it is attached to, or null */
  xpointid: z.string().nullable(),
  xpoint_title: z.string().nullable(),
  parent_type: z.string().nullable(),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  /** epoch ms, or null when not set */
  expireson: z.number().nullable(),
  expired: z.boolean(),
  /** an admin hid it (only its author and admins see it) */
  hidden: z.boolean(),
  /** when renew is next allowed (epoch ms); null: now */
  renewable_at: z.number().nullable(),
  version: z.number().int(),
  /** its comments in all (features/comments keeps the counter) */
  comments_count: z.number().int(),
  /** /post/{id}: the app with the post open in its modal (the link "copy link" copies) */
  url: z.string(),
  viewer: z.object({ can_edit: z.boolean(), can_delete: z.boolean(), can_hide: z.boolean() }),
  /** social §3: whether the viewer follows the author (0 for a visitor and on the author's own posts) */
  isfollowed: z.union([z.literal(0), z.literal(1)]),
  /** likes (issue 18, api/likes.ts): the counts and the viewer's own like, null when none or a visitor */
  likes_up: z.number().int(),
  likes_down: z.number().int(),
  my_like: myLikeSchema.nullable(),
});
export type PostResult = z.infer<typeof postResultSchema>;

export const postPageSchema = z.object({
  items: z.array(postResultSchema),
  /** how many posts the list holds, counted up to POSTS_COUNT_CAP */
  total: z.number().int(),
  /** true when the list holds more than `total` (show "1,000+"; later pages still answer) */
  total_capped: z.boolean().optional(),
  pagenumber: z.number().int(),
  pagesize: z.number().int(),
});
export type PostPage = z.infer<typeof postPageSchema>;

// ---------------------------------------------------------------------------------------------
// requests

export const postDetailsQuerySchema = z.object({ id: postIdSchema });

export const postEditQuerySchema = z.object({
  id: postIdSchema,
  resultMode: resultModeSchema,
  returnUrl: returnUrlSchema,
});

/** Social §3: the edit/new/delete request. */
export const postActionRequestSchema = z.object({
  id: postIdSchema,
  resultMode: resultModeSchema,
  returnUrl: returnUrlSchema,
});
export type PostActionRequest = z.infer<typeof postActionRequestSchema>;

export const postHideRequestSchema = z.object({
  id: postIdSchema,
  hidden: z.preprocess(formBoolean, z.boolean({ error: 'must be true or false.' })),
});

export const nearbyRequestSchema = z.object({
  lat: latSchema,
  lon: lonSchema,
  max_locations: z.preprocess(
    (value) => formNumber(value) ?? NEARBY_MAX_LOCATIONS,
    z.number().int('must be a whole number.').min(1).max(NEARBY_MAX_LOCATIONS),
  ),
});

export const nearbyPlaceSchema = z.object({
  xpointid: z.string(),
  title: z.string(),
  supertype: z.string(),
  type: z.string(),
  address: z.string().nullable(),
  lat: z.number(),
  lon: z.number(),
  distance_m: z.number(),
  city_forurl: z.string().nullable(),
});
export const nearbyResponseSchema = z.array(nearbyPlaceSchema);
export type NearbyPlace = z.infer<typeof nearbyPlaceSchema>;

export const postListQuerySchema = z.object({
  pagenumber: z.preprocess((v) => formNumber(v) ?? 1, z.number().int().min(1).max(100_000)),
  pagesize: z.preprocess(
    (v) => formNumber(v) ?? POSTS_PAGE_SIZE,
    z.number().int().min(1).max(POSTS_MAX_PAGE_SIZE),
  ),
});

/**
 * The fields of the post form (social §3), sent as multipart/form-data to POST /myposts/save (or as
 * JSON by an API client). A new post has no `version`; an edit names the version it read. The cover
 * comes as `cover_image` (the crop's base64 without its prefix; `EMPTY` back to the default picture;
 * absent keeps it) or as a file part `cover_file`; the video is uploaded resumably first and named by
 * `video_id` (`EMPTY` removes it).
 */
export const postFormSchema = z.object({
  id: postIdSchema,
  version: z.preprocess(formNumber, z.number().int().min(1).optional()),
  title: z.preprocess(
    formText,
    text()
      .trim()
      .min(1, 'Field is required!')
      .max(POST_TITLE_MAX_LENGTH, 'Please enter valid text. Text is too long!'),
  ),
  description: z.preprocess(
    formText,
    text({ multiline: true })
      .trim()
      .min(1, 'Field is required!')
      .max(POST_DESCRIPTION_MAX_LENGTH, 'Please enter valid text. Text is too long!'),
  ),
  type: z.preprocess(formText, postCategorySchema),
  /** a date (ISO or epoch ms), or one of the "not set" values; before 1901 is invalid */
  expireson: z.preprocess(formText, z.union([z.string(), z.number()]).optional()),
  /** the point the post is about; `EMPTY` takes an edited post off its point (absent keeps it) */
  xpointid: z.preprocess(
    (v) => (formText(v) === '' ? undefined : formText(v)),
    z.string().max(64).optional(),
  ),
  city_forurl: z.preprocess(
    (v) => (formText(v) === '' ? undefined : formText(v)),
    z.string().max(200).optional(),
  ),
  cover_image: z.preprocess(formText, z.string().optional()),
  video_id: z.preprocess(
    (v) => (formText(v) === '' ? undefined : formText(v)),
    z.string().max(200).optional(),
  ),
  torenew: z.preprocess(formBoolean, z.boolean().optional()),
  resultMode: resultModeSchema,
  returnUrl: returnUrlSchema,
});
export type PostForm = z.infer<typeof postFormSchema>;

/**
 * Social §4's expiry select as a stored value: undefined when the field is absent (an edit keeps the
 * expiry), null when "not set" (empty, 3000-01-01, 0001-01-01), else epoch ms. ISO dates and
 * date-times and epoch ms are accepted; a date at or before now is allowed (the post is then
 * expired); before 1901 is refused (social §5) with the field named.
 */
export function parseExpiry(value: string | number | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value.trim() : value;
  if (typeof text === 'string' && EXPIRY_NOT_SET.test(text)) return null;
  const ms = parseDate(text);
  if (ms === undefined)
    throw new AppError('invalidField', {
      field: 'expireson',
      reason: 'Please enter a valid date (ISO 8601 or epoch milliseconds).',
    });
  const problem = dateProblem(ms);
  if (problem === 'before1901') throw new AppError('dateBefore1901', { field: 'expireson' });
  if (problem === 'tooLate')
    throw new AppError('invalidField', { field: 'expireson', reason: 'must be before the year 10000.' });
  return ms;
}

/** When a post renewed at `renewedAt` may be renewed again (epoch ms); null: now. */
export function renewableAt(renewedAt: number | null, now: number): number | null {
  if (renewedAt === null) return null;
  const next = renewedAt + RENEW_INTERVAL_MS;
  return next > now ? next : null;
}

/** What POST /myposts/new and GET /myposts/edit answer: the form's state and where to post it. */
export const postFormStateSchema = z.object({
  action: z.literal('/myposts/save'),
  id: z.string(),
  resultMode: z.enum(POST_RESULT_MODES),
  returnUrl: z.string(),
  /** null for a new post */
  post: postResultSchema.nullable(),
  categories: z.array(postCategorySchema),
  limits: z.object({
    title: z.number(),
    description: z.number(),
    image_bytes: z.number(),
    video_bytes: z.number(),
    crop_size: z.number(),
  }),
});
export type PostFormState = z.infer<typeof postFormStateSchema>;

/** ReturnJson answers of save and delete (social §5: error_n above 0 is an error showing error_msg). */
export const postSaveResponseSchema = z.object({
  error_n: z.number().int(),
  error_msg: z.string(),
  post: postResultSchema.nullable(),
  /** where DoRedirect would have gone */
  redirect: z.string(),
});
export type PostSaveResponse = z.infer<typeof postSaveResponseSchema>;

export const postDeleteResponseSchema = z.object({
  error_n: z.number().int(),
  error_msg: z.string(),
  id: z.string(),
  redirect: z.string(),
});
