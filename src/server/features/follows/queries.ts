import { sql } from 'kysely';
import type { Store } from '../../store/store';

/** Follow queries: Kysely only, no rules (those are in service.ts). */

export async function findUserById(store: Store, id: string) {
  return store.db.selectFrom('users').where('id', '=', id).select(['id', 'username']).executeTakeFirst();
}

export async function findUserByUsername(store: Store, username: string) {
  return store.db
    .selectFrom('users')
    .where('username_lower', '=', username.toLowerCase())
    .select(['id', 'username'])
    .executeTakeFirst();
}

/** Adds the follow; false when it was there already (the primary key keeps one per pair). */
export async function addFollow(store: Store, followerId: string, followeeId: string, at: number) {
  const inserted = await store.db
    .insertInto('follows')
    .values({ follower_id: followerId, followee_id: followeeId, created_at: at })
    .onConflict((conflict) => conflict.columns(['follower_id', 'followee_id']).doNothing())
    .returning('follower_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function removeFollow(store: Store, followerId: string, followeeId: string) {
  const result = await store.db
    .deleteFrom('follows')
    .where('follower_id', '=', followerId)
    .where('followee_id', '=', followeeId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function followCounts(store: Store, userId: string) {
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
    ])
    .executeTakeFirstOrThrow();
  return { followers: Number(row.followers ?? 0), following: Number(row.following ?? 0) };
}

/** Of `ids`, those the viewer follows. */
export async function followedAmong(store: Store, viewerId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await store.db
    .selectFrom('follows')
    .where('follower_id', '=', viewerId)
    .where('followee_id', 'in', ids)
    .select('followee_id')
    .execute();
  return new Set(rows.map((row) => row.followee_id));
}

/** One page of a person's followers (`side` followers) or of whom they follow, newest first. */
export async function followPage(
  store: Store,
  userId: string,
  side: 'followers' | 'following',
  offset: number,
  limit: number,
) {
  const [mine, theirs] =
    side === 'followers'
      ? (['followee_id', 'follower_id'] as const)
      : (['follower_id', 'followee_id'] as const);
  return store.db
    .selectFrom('follows as f')
    .innerJoin('users as u', 'u.id', `f.${theirs}`)
    .where(`f.${mine}`, '=', userId)
    .orderBy('f.created_at', 'desc')
    .orderBy(sql.ref(`f.${theirs}`), 'desc')
    .offset(offset)
    .limit(limit)
    .select(['u.id', 'u.username', 'u.fullname', 'u.avatar_url'])
    .execute();
}

/** Sets each post record's `isfollowed` (social §3) from the viewer's follows: one query per list. */
export async function markFollowed<T extends { user_id: string; isfollowed: 0 | 1 }>(
  store: Store,
  viewer: { id: string } | null,
  records: T[],
): Promise<T[]> {
  if (!viewer || records.length === 0) return records;
  const followed = await followedAmong(store, viewer.id, [...new Set(records.map((r) => r.user_id))]);
  return records.map((record) => ({ ...record, isfollowed: followed.has(record.user_id) ? 1 : 0 }));
}
