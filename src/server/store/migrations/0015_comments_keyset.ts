import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';
import { commentTimePrefix } from '../../features/comments/ids';

/**
 * Comments page by keyset on their id (issue 18, features/comments): ids start with the time they
 * were written, and the index (object_type, object_id, id) serves "the newest 10 older than
 * beforeid" of any thread at any depth. Rows written before this migration get their time in front
 * of the id they had (likes of a comment and their counts follow). Each post keeps its number of comments beside it
 * (`comments_count`, changed in the transaction that adds or removes one), as Mastodon keeps
 * status_stats, so no page counts rows to show it.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  const store = db as Kysely<{
    comments: { id: string; created_at: number };
    likes: { object_id: string; object_type: string };
    like_counts: { object_id: string; object_type: string };
  }>;
  const old = await store.selectFrom('comments').select(['id', 'created_at']).execute();
  for (const row of old) {
    const id = (commentTimePrefix(Number(row.created_at)) + row.id.toLowerCase()).slice(0, 64);
    await store.updateTable('comments').set({ id }).where('id', '=', row.id).execute();
    await store
      .updateTable('likes')
      .set({ object_id: id })
      .where('object_type', '=', 'C')
      .where('object_id', '=', row.id)
      .execute();
    // the counts of 0014 follow their likes
    await store
      .updateTable('like_counts')
      .set({ object_id: id })
      .where('object_type', '=', 'C')
      .where('object_id', '=', row.id)
      .execute();
  }
  await db.schema.dropIndex('comments_object_created').execute();
  await db.schema
    .createIndex('comments_object_id')
    .on('comments')
    .columns(['object_type', 'object_id', 'id'])
    .execute();

  await db.schema
    .alterTable('posts')
    .addColumn('comments_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update posts set comments_count = (select count(*) from comments c where c.object_type = 'P' and c.object_id = posts.id)`.execute(
    db,
  );
}
