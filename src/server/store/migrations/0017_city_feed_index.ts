import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * The home page's city feed (issue 19, POST /asidelandingfeed) reads a city's live posts newest
 * first, a keyset page at a time: `city_id = ? and (listed_at, id) < (before, beforeid)` minus hidden
 * and expired posts. Like the point and profile lists (migration 0012), the index carries the columns
 * the filter tests, so a page at any depth is a short walk of the index and the table is read only
 * for the ten rows shown.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.dropIndex('posts_city_listed').execute();
  await db.schema
    .createIndex('posts_city_listed')
    .on('posts')
    .columns(['city_id', 'listed_at', 'id', 'expires_at', 'hidden_at'])
    .execute();
}
