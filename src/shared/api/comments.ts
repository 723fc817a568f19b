import { z } from 'zod';
import { bodyContract, formNumber, formText, withFieldErrors } from './contract';
import { myLikeSchema } from './likes';
import { postIdSchema } from './posts';
import { userText } from './text';

/**
 * Contracts of the comments API (issue 18; social §3, §4, §7, §9). The spec's four calls keep their
 * paths and field names:
 *
 *   POST /v1/webonly/comment/loadpage_beforeid {objectid, objecttype, beforeid, pagesize}  a page, newest first
 *   POST /v1/webonly/comment/add               {objectid, objecttype, text}               replid (+ text)
 *   POST /v1/webonly/comment/edit              {commentid, newtext}                        text
 *   POST /v1/webonly/comment/remove            {commentid}                                 the new count
 *
 * Pages are keyset pages on the comment id: ids are time-ordered (features/comments/ids.ts), so
 * "older than `beforeid`" is `id < beforeid` on the index (object_type, object_id, id) and a deep
 * page costs what page one costs.
 */

/** Social §9: a comments page holds 10. */
export const COMMENT_PAGE_SIZE = 10;
export const COMMENT_MAX_PAGE_SIZE = 50;
export const COMMENT_MAX_LENGTH = 2000;
/** Discourse's rule: one comment per person every 5 seconds. */
export const COMMENT_INTERVAL_MS = 5000;
/** Discourse's rule: the same text by the same person on the same object not twice within 5 minutes. */
export const COMMENT_DUPLICATE_WINDOW_MS = 5 * 60_000;

/** Objects that carry comments: posts. */
export const COMMENT_OBJECT_TYPES = ['P'] as const;
export type CommentObjectType = (typeof COMMENT_OBJECT_TYPES)[number];

/** A comment id: 16 letters and digits, the first 9 the time it was written (base 36 ms). */
export const COMMENT_ID_PATTERN = /^[0-9a-z]{1,64}$/;
const commentIdSchema = z
  .string({ error: 'is required.' })
  .trim()
  .regex(COMMENT_ID_PATTERN, 'must be a comment id.');

const objectTypeSchema = z.preprocess(
  (value) => formText(value) ?? 'P',
  z.enum(COMMENT_OBJECT_TYPES, { error: `must be one of ${COMMENT_OBJECT_TYPES.join(', ')}.` }),
);

const commentText = userText({ multiline: true })
  .trim()
  .min(1, 'write something first.')
  .max(COMMENT_MAX_LENGTH, `must be at most ${COMMENT_MAX_LENGTH} characters long.`);

/**
 * A comment call's body contract: a missing or malformed id is the spec's 6705, naming the
 * parameter (social §5: 'Param [objectid] is invalid!'); other fields answer 1003 naming the field.
 */
export function commentContract<S extends z.ZodType>(schema: S) {
  return withFieldErrors(bodyContract(schema), {
    objectid: { error: 'invalidParam', values: { param: 'objectid' } },
    commentid: { error: 'invalidParam', values: { param: 'commentid' } },
    beforeid: { error: 'invalidParam', values: { param: 'beforeid' } },
  });
}

export const commentPageRequestSchema = z.object({
  objectid: postIdSchema,
  objecttype: objectTypeSchema,
  /** empty or absent: the newest page */
  beforeid: z.preprocess(
    (value) => (formText(value) === '' ? undefined : formText(value)),
    commentIdSchema.optional(),
  ),
  pagesize: z.preprocess(
    (value) => formNumber(value) ?? COMMENT_PAGE_SIZE,
    z
      .number({ error: 'must be a number.' })
      .int('must be a whole number.')
      .min(1, 'must be at least 1.')
      .max(COMMENT_MAX_PAGE_SIZE, `must be at most ${COMMENT_MAX_PAGE_SIZE}.`),
  ),
});
export type CommentPageRequest = z.infer<typeof commentPageRequestSchema>;

export const commentAddRequestSchema = z.object({
  objectid: postIdSchema,
  objecttype: objectTypeSchema,
  text: commentText,
});
export type CommentAddRequest = z.infer<typeof commentAddRequestSchema>;

export const commentEditRequestSchema = z.object({ commentid: commentIdSchema, newtext: commentText });
export type CommentEditRequest = z.infer<typeof commentEditRequestSchema>;

export const commentRemoveRequestSchema = z.object({ commentid: commentIdSchema });
export type CommentRemoveRequest = z.infer<typeof commentRemoveRequestSchema>;

/** Social §3's Comment (replid, objectid, objecttype, text, author.id) with what the list shows. */
export const commentItemSchema = z.object({
  replid: z.string(),
  objectid: z.string(),
  objecttype: z.enum(COMMENT_OBJECT_TYPES),
  /** plain text; the page turns links into safe links */
  text: z.string(),
  author: z.object({
    id: z.string(),
    username: z.string(),
    displayname: z.string(),
    avatar: z.string().nullable(),
  }),
  /** epoch ms */
  addedon: z.number(),
  /** epoch ms of the last edit, or null */
  editedon: z.number().nullable(),
  /** social §6: edit only on one's own; remove also for the post's author and admins */
  viewer: z.object({ can_edit: z.boolean(), can_remove: z.boolean() }),
  /**
   * likes of the comment (objecttype C, api/likes.ts): a page carries the counts and the viewer's
   * own like; a new comment and a live push have none yet
   */
  likes_up: z.number().int().default(0),
  likes_down: z.number().int().default(0),
  my_like: myLikeSchema.nullable().default(null),
});
export type CommentItem = z.infer<typeof commentItemSchema>;

export const commentPageSchema = z.object({
  data: z.array(commentItemSchema),
  hasmore: z.boolean(),
  /** the object's comments in all */
  count: z.number().int(),
});
export type CommentPage = z.infer<typeof commentPageSchema>;

export const commentAddResponseSchema = z.object({
  replid: z.string(),
  text: z.string(),
  comment: commentItemSchema,
  count: z.number().int(),
});
export type CommentAddResponse = z.infer<typeof commentAddResponseSchema>;

export const commentEditResponseSchema = z.object({ text: z.string(), comment: commentItemSchema });
export type CommentEditResponse = z.infer<typeof commentEditResponseSchema>;

export const commentRemoveResponseSchema = z.object({ commentid: z.string(), count: z.number().int() });
export type CommentRemoveResponse = z.infer<typeof commentRemoveResponseSchema>;

/** The `data` of the `comment` message on `social:P:{postid}` (social-live.ts). */
export const commentLiveSchema = z.object({
  action: z.enum(['add', 'edit', 'remove']),
  commentid: z.string(),
  /** add and edit: the comment as a visitor sees it (the page works out its own viewer flags) */
  comment: commentItemSchema.optional(),
  count: z.number().int(),
});
export type CommentLive = z.infer<typeof commentLiveSchema>;
