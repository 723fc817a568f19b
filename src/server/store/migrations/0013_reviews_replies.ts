import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Reviews (issue 18): a point's owner, consultant or an admin answers each review once, in public
 * (Yelp's owner reply), kept on the review's own row since there is at most one. The reviews modal
 * pages a point's reviews newest first; (point_id, created_at, id) gives that order from the index
 * alone, with the id breaking ties between reviews written in the same millisecond.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('reviews').addColumn('reply_text', 'text').execute();
  await db.schema
    .alterTable('reviews')
    .addColumn('reply_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.alterTable('reviews').addColumn('reply_at', 'bigint').execute();
  await db.schema.alterTable('reviews').addColumn('reply_updated_at', 'bigint').execute();
  await db.schema.dropIndex('reviews_point_created').execute();
  await db.schema
    .createIndex('reviews_point_created')
    .on('reviews')
    .columns(['point_id', 'created_at', 'id'])
    .execute();
}
