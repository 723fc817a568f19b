import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * In-app notifications (issue 18): one row per person told, act and actor — someone liked,
 * commented on or reviewed something of theirs, or followed them. The unique key (recipient,
 * action, object, actor) makes a repeated event (a double emit, a like taken back and given again)
 * land on the same row. `group_key` is how the list folds rows the way Mastodon does: likes of one
 * object on one day, follows on one day ("Ana and 3 others liked your post"); comments and reviews
 * keep one item per actor and object.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const table = db.schema.createTable('notifications');
  await (
    dialect === 'postgres'
      ? table.addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('recipient_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('actor_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('object_type', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('group_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('read_at', 'bigint')
    .execute();
  await sql`create unique index notifications_once on notifications (recipient_id, action, object_type, object_id, actor_id)`.execute(
    db,
  );
  // the list (groups newest first) and the unread count read only this index
  await sql`create index notifications_recipient on notifications (recipient_id, group_key, created_at)`.execute(
    db,
  );
  await sql`create index notifications_unread on notifications (recipient_id, read_at, id)`.execute(db);
  await sql`create index notifications_object on notifications (object_type, object_id)`.execute(db);
}
