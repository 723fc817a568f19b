import { sql, type Kysely, type Transaction } from 'kysely';
import type { LikeObjectType, LikeType, Liker, MyLike } from '../../../shared/api/likes';
import type { Database } from '../../store/schema';

/**
 * The likes store (issue 18). A like is one row per (user, object_type, object_id) (the unique key
 * `likes_one_per_user`), and `like_counts` holds each object's up and down counts, changed in the
 * transaction that writes the like and only when a row was really inserted, changed or deleted: a
 * double click, a retry or two tabs can neither make two likes nor count one twice. Every write locks
 * the like's row first and the counts' row second, so two writes never wait on each other in a circle.
 */

type Db = Kysely<Database>;

/** What a like's object is: who wrote it (the one told about a like) and whether it is hidden. */
export interface LikeTarget {
  authorId: string;
  /** posts only: an admin hid it (then only its author and admins see it). */
  hiddenAt: number | null;
}

export async function findTarget(db: Db, type: LikeObjectType, id: string): Promise<LikeTarget | undefined> {
  if (type === 'P') {
    const post = await db
      .selectFrom('posts')
      .select(['user_id', 'hidden_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    return post ? { authorId: post.user_id, hiddenAt: num(post.hidden_at) } : undefined;
  }
  const table = type === 'R' ? 'reviews' : 'comments';
  const row = await db.selectFrom(table).select('user_id').where('id', '=', id).executeTakeFirst();
  return row ? { authorId: row.user_id, hiddenAt: null } : undefined;
}

export async function userCreatedAt(db: Db, userId: string): Promise<number | undefined> {
  const row = await db.selectFrom('users').select('created_at').where('id', '=', userId).executeTakeFirst();
  return row ? Number(row.created_at) : undefined;
}

export interface StoredLike {
  id: string;
  objectType: LikeObjectType;
  objectId: string;
  likeType: LikeType;
}

export interface Counts {
  up: number;
  down: number;
}

export interface LikeWrite {
  like: StoredLike;
  /** false when the like already stood as asked: nothing was written. */
  changed: boolean;
  counts: Counts;
}

/** The viewer's like of an object, if any. */
export async function findOwnLike(
  db: Db,
  userId: string,
  type: LikeObjectType,
  objectId: string,
): Promise<StoredLike | undefined> {
  const row = await db
    .selectFrom('likes')
    .select(['id', 'object_type', 'object_id', 'like_type'])
    .where('user_id', '=', userId)
    .where('object_type', '=', type)
    .where('object_id', '=', objectId)
    .executeTakeFirst();
  return row ? storedLike(row) : undefined;
}

/**
 * Adds the like, or answers the one that stands: a like of the other type is changed. Under any
 * number of identical adds at once exactly one inserts (ON CONFLICT DO NOTHING waits for the first
 * to commit, then does nothing) and only that one counts.
 */
export async function addLike(
  db: Db,
  row: { id: string; user_id: string; object_type: LikeObjectType; object_id: string; like_type: LikeType },
  now: number,
): Promise<LikeWrite> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('likes')
      .values({ ...row, created_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'object_type', 'object_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    const like: StoredLike = {
      id: row.id,
      objectType: row.object_type,
      objectId: row.object_id,
      likeType: row.like_type,
    };
    if (inserted) {
      const counts = await bump(trx, like.objectType, like.objectId, delta(row.like_type, 1));
      return { like, changed: true, counts };
    }
    const existing = await findOwnLike(trx, row.user_id, row.object_type, row.object_id);
    // removed between the insert and this read (another tab): the caller answers a conflict
    if (!existing) throw new NoSuchLike();
    if (existing.likeType === row.like_type)
      return { like: existing, changed: false, counts: await countsOf(trx, row.object_type, row.object_id) };
    return changeInTx(trx, existing.id, row.user_id, row.like_type);
  });
}

/** Changes the user's own like to `likeType`; undefined when they have no like with this id. */
export async function changeLikeType(
  db: Db,
  likeId: string,
  userId: string,
  likeType: LikeType,
): Promise<LikeWrite | undefined> {
  try {
    return await db.transaction().execute((trx) => changeInTx(trx, likeId, userId, likeType));
  } catch (error) {
    if (error instanceof NoSuchLike) return undefined;
    throw error;
  }
}

async function changeInTx(
  trx: Transaction<Database>,
  likeId: string,
  userId: string,
  likeType: LikeType,
): Promise<LikeWrite> {
  // the type is tested in the update itself: of two changes at once, only the first changes a row
  const changed = await trx
    .updateTable('likes')
    .set({ like_type: likeType })
    .where('id', '=', likeId)
    .where('user_id', '=', userId)
    .where('like_type', '<>', likeType)
    .returning(['id', 'object_type', 'object_id', 'like_type'])
    .executeTakeFirst();
  if (changed) {
    const like = storedLike(changed);
    const counts = await bump(trx, like.objectType, like.objectId, {
      up: likeType === 0 ? 1 : -1,
      down: likeType === 1 ? 1 : -1,
    });
    return { like, changed: true, counts };
  }
  const like = await ownLikeById(trx, likeId, userId);
  if (!like) throw new NoSuchLike();
  return { like, changed: false, counts: await countsOf(trx, like.objectType, like.objectId) };
}

/** Removes the user's own like; undefined when they have none with this id (already removed included). */
export async function removeLike(
  db: Db,
  likeId: string,
  userId: string,
): Promise<{ like: StoredLike; counts: Counts } | undefined> {
  return db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('likes')
      .where('id', '=', likeId)
      .where('user_id', '=', userId)
      .returning(['id', 'object_type', 'object_id', 'like_type'])
      .executeTakeFirst();
    if (!removed) return undefined;
    const like = storedLike(removed);
    return { like, counts: await bump(trx, like.objectType, like.objectId, delta(like.likeType, -1)) };
  });
}

/** Thrown inside a transaction when the like named is not the user's (nothing was written). */
export class NoSuchLike extends Error {}

export async function countsOf(db: Db, type: string, objectId: string): Promise<Counts> {
  const row = await db
    .selectFrom('like_counts')
    .select(['up', 'down'])
    .where('object_type', '=', type)
    .where('object_id', '=', objectId)
    .executeTakeFirst();
  return { up: Number(row?.up ?? 0), down: Number(row?.down ?? 0) };
}

/** What an object's card shows of its likes: the counts and the viewer's own like. */
export interface LikeSummary {
  likes_up: number;
  likes_down: number;
  my_like: MyLike | null;
}

export const NO_LIKES: LikeSummary = { likes_up: 0, likes_down: 0, my_like: null };

/**
 * The like summaries of a page of objects of one type, by id (ids without likes are absent: use
 * NO_LIKES). Two indexed reads whatever the page: the counters, and the viewer's likes by the
 * unique key. Posts, reviews and comments call this for the records they answer.
 */
export async function likeSummaries(
  db: Db,
  objectType: LikeObjectType,
  ids: readonly string[],
  viewerId: string | null | undefined,
): Promise<Map<string, LikeSummary>> {
  const out = new Map<string, LikeSummary>();
  if (ids.length === 0) return out;
  const unique = [...new Set(ids)];
  const [counts, mine] = await Promise.all([
    db
      .selectFrom('like_counts')
      .select(['object_id', 'up', 'down'])
      .where('object_type', '=', objectType)
      .where('object_id', 'in', unique)
      .execute(),
    viewerId
      ? db
          .selectFrom('likes')
          .select(['id', 'object_id', 'like_type'])
          .where('user_id', '=', viewerId)
          .where('object_type', '=', objectType)
          .where('object_id', 'in', unique)
          .execute()
      : Promise.resolve([]),
  ]);
  const entry = (id: string) => {
    let summary = out.get(id);
    if (!summary) out.set(id, (summary = { ...NO_LIKES }));
    return summary;
  };
  for (const row of counts) {
    const summary = entry(row.object_id);
    summary.likes_up = Number(row.up);
    summary.likes_down = Number(row.down);
  }
  for (const row of mine)
    entry(row.object_id).my_like = { likeid: row.id, liketype: Number(row.like_type) as LikeType };
  return out;
}

/** The position of the last liker of a page: created_at and id, newest first. */
export interface LikersCursor {
  at: number;
  id: string;
}

export async function likers(
  db: Db,
  query: {
    objectType: LikeObjectType;
    objectId: string;
    likeType: LikeType | undefined;
    before: LikersCursor | undefined;
    viewerId: string | null;
    limit: number;
  },
): Promise<Array<Liker & { likeId: string }>> {
  let select = db
    .selectFrom('likes as l')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select([
      'l.id as like_id',
      'l.like_type',
      'l.created_at',
      'u.id',
      'u.username',
      'u.fullname',
      'u.avatar_url',
    ])
    .where('l.object_type', '=', query.objectType)
    .where('l.object_id', '=', query.objectId);
  if (query.likeType !== undefined) select = select.where('l.like_type', '=', query.likeType);
  if (query.before) {
    const { at, id } = query.before;
    select = select.where((eb) =>
      eb.or([eb('l.created_at', '<', at), eb.and([eb('l.created_at', '=', at), eb('l.id', '<', id)])]),
    );
  }
  const viewerId = query.viewerId;
  const rows = await (
    viewerId
      ? select.select((eb) =>
          eb
            .exists(
              eb
                .selectFrom('follows as f')
                .select(sql<number>`1`.as('one'))
                .where('f.follower_id', '=', viewerId)
                .whereRef('f.followee_id', '=', 'u.id'),
            )
            .as('followed'),
        )
      : select.select(sql<boolean>`0`.as('followed'))
  )
    .orderBy('l.created_at', 'desc')
    .orderBy('l.id', 'desc')
    .limit(query.limit)
    .execute();
  return rows.map((row) => ({
    likeId: row.like_id,
    id: row.id,
    username: row.username,
    displayname: row.fullname,
    avatar: row.avatar_url,
    liketype: Number(row.like_type) as LikeType,
    likedon: Number(row.created_at),
    isfollowed: row.followed && Number(row.followed) ? 1 : 0,
  }));
}

/**
 * Sets every object's counts from the likes themselves: after the demo data is written in bulk
 * (the seed writes likes without going through addLike) and by a repair after a restore.
 */
export async function recountLikes(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('like_counts').execute();
    await sql`insert into like_counts (object_type, object_id, up, down)
      select object_type, object_id,
        sum(case when like_type = 0 then 1 else 0 end), sum(case when like_type = 1 then 1 else 0 end)
      from likes group by object_type, object_id`.execute(trx);
  });
}

async function ownLikeById(db: Db, likeId: string, userId: string): Promise<StoredLike | undefined> {
  const row = await db
    .selectFrom('likes')
    .select(['id', 'object_type', 'object_id', 'like_type'])
    .where('id', '=', likeId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? storedLike(row) : undefined;
}

/** Adds the deltas to the object's counts (creating its row at the first like) and answers them. */
async function bump(trx: Transaction<Database>, type: string, objectId: string, d: Counts): Promise<Counts> {
  const row = await trx
    .insertInto('like_counts')
    .values({ object_type: type, object_id: objectId, up: d.up, down: d.down })
    .onConflict((oc) =>
      oc.columns(['object_type', 'object_id']).doUpdateSet({
        up: sql<number>`like_counts.up + ${d.up}`,
        down: sql<number>`like_counts.down + ${d.down}`,
      }),
    )
    .returning(['up', 'down'])
    .executeTakeFirstOrThrow();
  return { up: Number(row.up), down: Number(row.down) };
}

function delta(likeType: LikeType, by: 1 | -1): Counts {
  return likeType === 0 ? { up: by, down: 0 } : { up: 0, down: by };
}

function storedLike(row: {
  id: string;
  object_type: string;
  object_id: string;
  like_type: number | string;
}): StoredLike {
  return {
    id: row.id,
    objectType: row.object_type as LikeObjectType,
    objectId: row.object_id,
    likeType: Number(row.like_type) as LikeType,
  };
}

function num(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}
