import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Likes become writable (issue 18):
 * - `like_counts`: each object's up and down counts beside the likes, changed in the same transaction
 *   as the like that changes them (Mastodon's `status_stats`), so a feed reads two numbers instead of
 *   counting rows; filled here from the likes already stored;
 * - the likers list pages newest first by (created_at, id) within an object: an index in that order.
 * One like per person and object was already a unique key (migration 0001, `likes_one_per_user`).
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('like_counts')
    .addColumn('object_type', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('up', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('down', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('like_counts_pk', ['object_type', 'object_id'])
    .execute();
  await sql`insert into like_counts (object_type, object_id, up, down)
    select object_type, object_id,
      sum(case when like_type = 0 then 1 else 0 end), sum(case when like_type = 1 then 1 else 0 end)
    from likes group by object_type, object_id`.execute(db);
  await db.schema
    .createIndex('likes_object_created')
    .on('likes')
    .columns(['object_type', 'object_id', 'created_at', 'id'])
    .execute();
}
