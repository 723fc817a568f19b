import { z } from 'zod';
import { isValidId } from '../domain/ids';
import { bodyContract, formNumber, formText, withFieldErrors } from './contract';

/**
 * Contracts of the likes API (issue 18; social §3, §4, §7, §8). The spec's calls keep their paths and
 * field names; `/likes/list` answers JSON that the likers dialog renders:
 *
 *   POST /v1/webonly/like/add         {objectid, objecttype = P, liketype}  the like (replid = likeid)
 *   POST /v1/webonly/like/remove      {likeid}                              the object's counts after it
 *   POST /v1/webonly/like/changetype  {likeid, newliketype}                 the like after the change
 *   POST /likes/list                  {objectid, objecttype, liketype?, before?}  the likers, newest first
 *
 * A like is one per person and object (a unique key in the store): `add` on an existing like of the
 * same type answers that like, of the other type changes it. Every answer carries the object's counts
 * as they are after the call, so a page that applied the change optimistically sets the true numbers.
 */

/** P a post (the default, social §3), R a review, C a comment. */
export const LIKE_OBJECT_TYPES = ['P', 'R', 'C'] as const;
export type LikeObjectType = (typeof LIKE_OBJECT_TYPES)[number];
/** Social §3: 0 up, 1 down. */
export const LIKE_UP = 0;
export const LIKE_DOWN = 1;
export type LikeType = typeof LIKE_UP | typeof LIKE_DOWN;

/** Likers per page of /likes/list (as the reviews page, social §9). */
export const LIKERS_PAGE_SIZE = 20;
/**
 * Likes a day per person (Discourse's rule): 50 for an account younger than 7 days, when most
 * scripted abuse happens, and 500 for older ones; past it the refusal says when to like again.
 */
export const LIKES_PER_DAY_NEW_ACCOUNT = 50;
export const LIKES_PER_DAY = 500;
export const NEW_ACCOUNT_AGE_MS = 7 * 24 * 3600_000;
export const LIKES_LIMIT_WINDOW_MS = 24 * 3600_000;

const idOf = z.preprocess(formText, z.string().refine(isValidId, 'is invalid.'));
const likeTypeOf = z.preprocess(
  formNumber,
  z.union([z.literal(LIKE_UP), z.literal(LIKE_DOWN)], { error: 'must be 0 (up) or 1 (down).' }),
);
const objectTypeOf = z.preprocess(
  (value) => formText(value) ?? 'P',
  z.enum(LIKE_OBJECT_TYPES, { error: 'must be P, R or C.' }),
);

/**
 * A likes call's body contract with its errors as the catalogue names them: a missing or malformed
 * id is the spec's 6705 naming the parameter ('Param [objectid] is invalid!'), a like type other than
 * 0 or 1 and an unknown object type their own entries.
 */
export function likeContract<S extends z.ZodType>(schema: S) {
  return withFieldErrors(bodyContract(schema), {
    objectid: { error: 'invalidParam', values: { param: 'objectid' } },
    likeid: { error: 'invalidParam', values: { param: 'likeid' } },
    objecttype: 'likeObjectTypeInvalid',
    liketype: 'likeTypeInvalid',
    newliketype: 'likeTypeInvalid',
  });
}

export const likeAddRequestSchema = z.object({
  objectid: idOf,
  objecttype: objectTypeOf,
  liketype: likeTypeOf,
});
export type LikeAddRequest = z.infer<typeof likeAddRequestSchema>;

export const likeRemoveRequestSchema = z.object({ likeid: idOf });
export type LikeRemoveRequest = z.infer<typeof likeRemoveRequestSchema>;

export const likeChangeTypeRequestSchema = z.object({ likeid: idOf, newliketype: likeTypeOf });
export type LikeChangeTypeRequest = z.infer<typeof likeChangeTypeRequestSchema>;

export const likersRequestSchema = z.object({
  objectid: idOf,
  objecttype: objectTypeOf,
  /** absent: both kinds. */
  liketype: likeTypeOf.optional(),
  /** the `next` of the previous page. */
  before: z.preprocess(formText, z.string().max(120, 'is invalid.').optional()),
});
export type LikersRequest = z.infer<typeof likersRequestSchema>;

const likeTypeSchema = z.union([z.literal(LIKE_UP), z.literal(LIKE_DOWN)]);

/** An object's counts; every answer carries them as they stand after the call. */
export const likeCountsSchema = z.object({
  objecttype: z.enum(LIKE_OBJECT_TYPES),
  objectid: z.string(),
  up: z.number().int(),
  down: z.number().int(),
});
export type LikeCounts = z.infer<typeof likeCountsSchema>;

/** The answer of add and changetype: the viewer's like (`replid` is its `likeid`, social §4). */
export const likeResultSchema = likeCountsSchema.extend({
  replid: z.string(),
  likeid: z.string(),
  liketype: likeTypeSchema,
  /** false when the like already stood as asked (a double click, a retry, another tab). */
  changed: z.boolean(),
});
export type LikeResult = z.infer<typeof likeResultSchema>;

export const likeRemoveResultSchema = likeCountsSchema.extend({ likeid: z.string() });
export type LikeRemoveResult = z.infer<typeof likeRemoveResultSchema>;

/** The viewer's own like of an object, as post records (and reviews, comments) carry it. */
export const myLikeSchema = z.object({ likeid: z.string(), liketype: likeTypeSchema });
export type MyLike = z.infer<typeof myLikeSchema>;

export const likerSchema = z.object({
  id: z.string(),
  username: z.string(),
  displayname: z.string(),
  avatar: z.string().nullable(),
  liketype: likeTypeSchema,
  likedon: z.number(),
  /** 1 when the viewer follows this person (social §3's feed item attribute), else 0. */
  isfollowed: z.union([z.literal(0), z.literal(1)]),
});
export type Liker = z.infer<typeof likerSchema>;

export const likersPageSchema = likeCountsSchema.extend({
  items: z.array(likerSchema),
  hasmore: z.boolean(),
  /** what to send as `before` for the next page; null on the last. */
  next: z.string().nullable(),
});
export type LikersPage = z.infer<typeof likersPageSchema>;

/** The live message on `social:{type}:{id}` when an object's counts change (kind 'likes'). */
export const likesLiveDataSchema = likeCountsSchema;
