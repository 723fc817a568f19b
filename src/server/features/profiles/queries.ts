import type { Store } from '../../store/store';

/** Profile queries: Kysely only, no rules. */

export interface ProfileUserRow {
  id: string;
  username: string;
  fullname: string;
  avatar_url: string | null;
  status: string;
  created_at: number;
}

/** By username, case-insensitively (usernames are unique that way). Public columns only. */
export async function findUserByUsername(
  store: Store,
  username: string,
): Promise<ProfileUserRow | undefined> {
  const row = await store.db
    .selectFrom('users')
    .select(['id', 'username', 'fullname', 'avatar_url', 'status', 'created_at'])
    .where('username_lower', '=', username.toLowerCase())
    .executeTakeFirst();
  return row ? { ...row, created_at: Number(row.created_at) } : undefined;
}

export interface ProfilePointRow {
  id: string;
  supertype: string;
  type: string;
  title: string;
  tagline: string | null;
  url_cover_image: string | null;
  city: string | null;
}

/** One page of the points the user owns, newest first (id breaks ties so pages never overlap). */
export async function ownedPoints(
  store: Store,
  userId: string,
  page: { offset: number; limit: number; supertype?: string },
): Promise<ProfilePointRow[]> {
  let query = store.db
    .selectFrom('points')
    .leftJoin('cities', 'cities.id', 'points.city_id')
    .select([
      'points.id',
      'points.supertype',
      'points.type',
      'points.title',
      'points.tagline',
      'points.url_cover_image',
      'cities.city as city',
    ])
    .where('points.owner_userid', '=', userId);
  if (page.supertype) query = query.where('points.supertype', '=', page.supertype);
  return query
    .orderBy('points.created_at', 'desc')
    .orderBy('points.id', 'asc')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
}

export async function countOwnedPoints(store: Store, userId: string, supertype?: string): Promise<number> {
  let query = store.db
    .selectFrom('points')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('owner_userid', '=', userId);
  if (supertype) query = query.where('supertype', '=', supertype);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** Followers, following and reviews written, in one round trip (posts are counted by their list). */
export async function profileCounts(
  store: Store,
  userId: string,
): Promise<{ followers: number; following: number; reviews: number }> {
  const row = await store.db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('follows')
        .select(eb.fn.countAll().as('n'))
        .where('followee_id', '=', userId)
        .as('followers'),
      eb
        .selectFrom('follows')
        .select(eb.fn.countAll().as('n'))
        .where('follower_id', '=', userId)
        .as('following'),
      eb.selectFrom('reviews').select(eb.fn.countAll().as('n')).where('user_id', '=', userId).as('reviews'),
    ])
    .executeTakeFirstOrThrow();
  return {
    followers: Number(row.followers ?? 0),
    following: Number(row.following ?? 0),
    reviews: Number(row.reviews ?? 0),
  };
}
