import { z } from 'zod';
import { POINT_SUPERTYPES, type PointSupertype } from '../domain/supertypes';
import { postPageSchema } from './posts';

/**
 * GET /v1/users/{username}: a public profile (issue 3, social §2, map-and-search §2 `/u/{username}`).
 * Never carries an email address or a password hash: this is what anyone may see of a person.
 */

/** Social §2 and §9: profile pages default to page 1 of 12. */
export const PROFILE_DEFAULT_PAGENUMBER = 1;
export const PROFILE_DEFAULT_PAGESIZE = 12;
/** The largest page a client may ask for; beyond it the default is used. */
export const PROFILE_MAX_PAGESIZE = 48;
/** Pages past this are refused the same way (an offset that large is never a person paging). */
export const PROFILE_MAX_PAGENUMBER = 100_000;
/** How many of the user's newest posts come with the profile (page 1 of the posts list). */
export const PROFILE_POSTS_LIMIT = 12;

/**
 * Reads a paging value from a query string. A missing, non-numeric or out-of-range value falls back
 * to the default rather than failing: profile links are kept and shared (social §2 keeps them when a
 * person returns after an edit), and a stale or hand-edited link should still show the profile.
 */
export function parsePagingValue(raw: unknown, fallback: number, max: number): number {
  if (typeof raw !== 'string' || !/^\d{1,6}$/.test(raw)) return fallback;
  const value = Number(raw);
  return value >= 1 && value <= max ? value : fallback;
}

/** The supertype filter of the points list; an unknown value is ignored (all supertypes). */
export function parseSupertypeFilter(raw: unknown): PointSupertype | undefined {
  return typeof raw === 'string' && (POINT_SUPERTYPES as readonly string[]).includes(raw)
    ? (raw as PointSupertype)
    : undefined;
}

export interface ProfileQuery {
  pagenumber: number;
  pagesize: number;
  supertype?: PointSupertype;
}

export function parseProfileQuery(query: Record<string, unknown>): ProfileQuery {
  const supertype = parseSupertypeFilter(query['supertype']);
  return {
    pagenumber: parsePagingValue(query['pagenumber'], PROFILE_DEFAULT_PAGENUMBER, PROFILE_MAX_PAGENUMBER),
    pagesize: parsePagingValue(query['pagesize'], PROFILE_DEFAULT_PAGESIZE, PROFILE_MAX_PAGESIZE),
    ...(supertype ? { supertype } : {}),
  };
}

/** The route's contract: lenient as parseProfileQuery is; the object documents what it yields. */
export const profileQuerySchema = z.preprocess(
  (query) => parseProfileQuery(query && typeof query === 'object' ? (query as Record<string, unknown>) : {}),
  z.object({
    pagenumber: z
      .number()
      .int()
      .min(1)
      .max(PROFILE_MAX_PAGENUMBER)
      .meta({
        description: `page of the points list, from ${PROFILE_DEFAULT_PAGENUMBER}; a bad value means ${PROFILE_DEFAULT_PAGENUMBER}`,
      }),
    pagesize: z
      .number()
      .int()
      .min(1)
      .max(PROFILE_MAX_PAGESIZE)
      .meta({
        description: `points per page; a bad value means ${PROFILE_DEFAULT_PAGESIZE}`,
      }),
    supertype: z
      .enum(POINT_SUPERTYPES)
      .optional()
      .meta({ description: 'only points of this supertype; an unknown one is ignored' }),
  }),
);

export const profileUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  fullname: z.string(),
  /** a URL path such as /media/<sha256>.webp, or null. */
  avatar: z.string().nullable(),
  /** one of the user statuses (shown as owner_status on the user's points). */
  status: z.string(),
  /** epoch milliseconds. */
  createdAt: z.number(),
});
export type ProfileUser = z.infer<typeof profileUserSchema>;

export const profilePointSchema = z.object({
  id: z.string(),
  supertype: z.string(),
  type: z.string(),
  title: z.string(),
  tagline: z.string().nullable(),
  /** the canonical /{prefix}/{id} detail address. */
  url: z.string(),
  /** url_cover_image, or null. */
  cover: z.string().nullable(),
  city: z.string().nullable(),
});
export type ProfilePoint = z.infer<typeof profilePointSchema>;

export const profileResponseSchema = z.object({
  user: profileUserSchema,
  points: z.object({
    items: z.array(profilePointSchema),
    total: z.number(),
    pagenumber: z.number(),
    pagesize: z.number(),
  }),
  /**
   * Page 1 of the user's posts as GET /v1/posts/user/{username} answers it (issue 17): newest first,
   * PROFILE_POSTS_LIMIT of them, expired ones marked `expired`, hidden ones only for their author and
   * admins; later pages come from that call.
   */
  posts: postPageSchema,
  counts: z.object({ followers: z.number(), following: z.number(), reviews: z.number() }),
  /** whether the viewer follows this person (issue 18; 0 for a visitor and on one's own profile) */
  isfollowed: z.union([z.literal(0), z.literal(1)]).optional(),
});
export type ProfileResponse = z.infer<typeof profileResponseSchema>;
