import type { Transaction } from 'kysely';
import type { ReviewsCursor } from '../../../shared/api/reviews';
import type { Database } from '../../store/schema';
import type { Store } from '../../store/store';

/** The reviews' SQL (issue 18); the rules are in service.ts. */

type Db = Store['db'] | Transaction<Database>;

/** A point as the reviews need it: its title, supertype, rating and the names of those who control it. */
export async function findPoint(db: Db, id: string) {
  return db
    .selectFrom('points')
    .leftJoin('users as owner', 'owner.id', 'points.owner_userid')
    .leftJoin('users as consultant', 'consultant.id', 'points.consultant_userid')
    .select([
      'points.id',
      'points.title',
      'points.supertype',
      'points.allow_consulting',
      'points.owner_userid',
      'points.consultant_userid',
      'points.rating',
      'points.rating_count',
      'owner.username as owner_username',
      'consultant.username as consultant_username',
    ])
    .where('points.id', '=', id)
    .executeTakeFirst();
}
export type ReviewPoint = NonNullable<Awaited<ReturnType<typeof findPoint>>>;

function reviewsWithPeople(db: Db) {
  return db
    .selectFrom('reviews')
    .innerJoin('users as author', 'author.id', 'reviews.user_id')
    .leftJoin('users as replier', 'replier.id', 'reviews.reply_user_id')
    .select([
      'reviews.id',
      'reviews.point_id',
      'reviews.user_id',
      'reviews.stars',
      'reviews.text',
      'reviews.created_at',
      'reviews.updated_at',
      'reviews.reply_text',
      'reviews.reply_user_id',
      'reviews.reply_at',
      'reviews.reply_updated_at',
      'author.username as author_username',
      'author.fullname as author_fullname',
      'author.avatar_url as author_avatar',
      'replier.username as replier_username',
      'replier.fullname as replier_fullname',
      'replier.avatar_url as replier_avatar',
    ]);
}
export type ReviewRow = NonNullable<Awaited<ReturnType<typeof findReview>>>;

export async function findReview(db: Db, id: string) {
  return reviewsWithPeople(db).where('reviews.id', '=', id).executeTakeFirst();
}

export async function findOwnReview(db: Db, pointId: string, userId: string) {
  return reviewsWithPeople(db)
    .where('reviews.point_id', '=', pointId)
    .where('reviews.user_id', '=', userId)
    .executeTakeFirst();
}

/** One page of a point's reviews, newest first, and one more row to tell whether more follow. */
export async function reviewsPage(db: Db, pointId: string, pagenumber: number, pagesize: number) {
  return reviewsWithPeople(db)
    .where('reviews.point_id', '=', pointId)
    .orderBy('reviews.created_at', 'desc')
    .orderBy('reviews.id', 'desc')
    .limit(pagesize + 1)
    .offset((pagenumber - 1) * pagesize)
    .execute();
}

/**
 * The `limit` newest reviews of a point written before `cursor` (keyset on created_at, id): one range
 * of the index (point_id, created_at, id) walked backwards from the cursor, so a page 90% deep costs
 * what page one costs, where OFFSET walks and throws away every newer review first. The row-value
 * comparison is read as a range of the index by both engines.
 */
export async function reviewsBefore(
  db: Db,
  pointId: string,
  cursor: ReviewsCursor | undefined,
  limit: number,
) {
  let query = reviewsWithPeople(db).where('reviews.point_id', '=', pointId);
  if (cursor)
    query = query.where(
      (eb) => eb.refTuple('reviews.created_at', 'reviews.id'),
      '<',
      (eb) => eb.tuple(cursor.at, cursor.id),
    );
  return query.orderBy('reviews.created_at', 'desc').orderBy('reviews.id', 'desc').limit(limit).execute();
}

/**
 * Takes the point's row for this transaction: on PostgreSQL two reviews of one point written at once
 * would otherwise each count the other's review as absent and leave the last writer's stale average;
 * SQLite has one writer at a time.
 */
export async function lockPoint(trx: Transaction<Database>, dialect: Store['dialect'], id: string) {
  const query = trx.selectFrom('points').select('id').where('id', '=', id);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

/**
 * Counts the point's reviews again and writes its rating (0-100, the average of the stars times 20,
 * rounded) and count on the point, in the caller's transaction: the points trigger records the change,
 * so search, tiles and details follow through the change feed. `updated_at` (the page's lastmodified)
 * stays: a new review is not an edit of the point.
 */
export async function refreshRating(trx: Transaction<Database>, pointId: string) {
  const totals = await trx
    .selectFrom('reviews')
    .select([
      (eb) => eb.fn.countAll<number | string>().as('n'),
      (eb) => eb.fn.sum<number | string | null>('stars').as('total'),
    ])
    .where('point_id', '=', pointId)
    .executeTakeFirstOrThrow();
  const count = Number(totals.n);
  const rating = count === 0 ? null : Math.round((Number(totals.total) / count) * 20);
  await trx.updateTable('points').set({ rating, rating_count: count }).where('id', '=', pointId).execute();
  return { rating, count };
}

export async function insertReview(
  trx: Transaction<Database>,
  row: { id: string; point_id: string; user_id: string; stars: number; text: string | null; now: number },
): Promise<boolean> {
  const inserted = await trx
    .insertInto('reviews')
    .values({
      id: row.id,
      point_id: row.point_id,
      user_id: row.user_id,
      stars: row.stars,
      text: row.text,
      created_at: row.now,
      updated_at: row.now,
    })
    .onConflict((oc) => oc.columns(['point_id', 'user_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function updateReview(
  trx: Transaction<Database>,
  id: string,
  changes: { stars: number; text: string | null; now: number },
) {
  await trx
    .updateTable('reviews')
    .set({ stars: changes.stars, text: changes.text, updated_at: changes.now })
    .where('id', '=', id)
    .execute();
}

export async function deleteReview(trx: Transaction<Database>, id: string): Promise<boolean> {
  const result = await trx.deleteFrom('reviews').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function setReply(
  db: Db,
  id: string,
  reply: { text: string; userId: string; now: number } | null,
  firstAt: number | null,
) {
  await db
    .updateTable('reviews')
    .set(
      reply
        ? {
            reply_text: reply.text,
            reply_user_id: reply.userId,
            reply_at: firstAt ?? reply.now,
            reply_updated_at: reply.now,
          }
        : { reply_text: null, reply_user_id: null, reply_at: null, reply_updated_at: null },
    )
    .where('id', '=', id)
    .execute();
}
