import { z } from 'zod';

/**
 * Contracts of follows (issue 18; social §3, §4, §7, §8):
 *
 *   POST /v1/follow/add      {user_id}   follow a person: answers their follower count (an integer)
 *   POST /v1/follow/unfollow {user_id}   stop following: answers their follower count (an integer)
 *   GET  /v1/users/{username}/followers?pagenumber=&pagesize=   who follows them, newest first
 *   GET  /v1/users/{username}/following?pagenumber=&pagesize=   whom they follow, newest first
 *
 * A refusal carries both shapes: the project's {errorcode, error} and the spec's {isSuccess: false,
 * errorcode, errorMessage}, with a fitting HTTP status; 122 means "already followed" and the web
 * shows the person as followed. Unfollowing someone one does not follow succeeds (idempotent: a
 * retry after a lost answer must not fail).
 */

export const FOLLOWS_PAGE_SIZE = 20;
export const FOLLOWS_MAX_PAGE_SIZE = 50;
/** Social §8: the web's alert when a feed item has no owner id. */
export const FOLLOW_MISSING_USER_ID = 'Can not follow this user. Missing user id!';

/** `user_id` is read leniently so that a missing one is answered in the spec's words (18403). */
export const followRequestSchema = z.object({
  user_id: z.unknown().optional().meta({ description: 'the id of the person to follow or unfollow' }),
});

export const followResultSchema = z.number().int().meta({ description: "the person's follower count" });

/** A refusal: the catalogue's {errorcode, error, field?} and the spec's {isSuccess, errorMessage}. */
export const followErrorBodySchema = z.object({
  errorcode: z.number().int(),
  error: z.string(),
  field: z.string().optional(),
  /** the spec's fields: on every refusal of the call itself (a malformed request body may lack them). */
  isSuccess: z.literal(false).optional(),
  errorMessage: z.string().optional(),
});
export type FollowErrorBody = z.infer<typeof followErrorBodySchema>;

export const followListQuerySchema = z.object({
  pagenumber: z.coerce.number().int().min(1).max(10_000).optional(),
  pagesize: z.coerce.number().int().min(1).max(FOLLOWS_MAX_PAGE_SIZE).optional(),
});

export const followPersonSchema = z.object({
  id: z.string(),
  username: z.string(),
  fullname: z.string(),
  avatar_url: z.string().nullable(),
  /** whether the viewer follows this person (0 for a visitor). */
  isfollowed: z.union([z.literal(0), z.literal(1)]),
});
export type FollowPerson = z.infer<typeof followPersonSchema>;

export const followListSchema = z.object({
  items: z.array(followPersonSchema),
  total: z.number().int(),
  pagenumber: z.number().int(),
  pagesize: z.number().int(),
});
export type FollowList = z.infer<typeof followListSchema>;

/** The `data` of the live {kind: 'follows'} push on `social:U:{id}`. */
export const followsPushSchema = z.object({
  user_id: z.string(),
  followers: z.number().int(),
  following: z.number().int(),
});
