import { sql, type ColumnDataType, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Callback requests and the in-app inbox (issue 7, map-and-search §2 request-callback modal, §7
 * /v1/webonly/meonmap/requestimmunizationcard), and the verified health photos of points (§3
 * healthdata, §7 /v1/webonly/xpointdetails/healthphoto).
 *
 * A callback request is stored once in callback_requests; delivering it to the provider is an
 * inbox_messages row for the provider's user, written in the same transaction, so a request is
 * never stored without being delivered, nor delivered without being stored.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const time: ColumnDataType = 'bigint';

  await db.schema
    .createTable('callback_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('to_userid', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('xpoint_id', 'text', (c) => c.references('points.id').onDelete('set null'))
    .addColumn('service_name', 'text', (c) => c.notNull())
    .addColumn('from_userid', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('name', 'text')
    .addColumn('phone', 'text')
    .addColumn('email', 'text')
    .addColumn('message', 'text')
    .addColumn('ip', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  // duplicates within a minute are found by provider and time
  await db.schema
    .createIndex('callback_requests_to_created')
    .on('callback_requests')
    .columns(['to_userid', 'created_at'])
    .execute();

  const inbox = db.schema.createTable('inbox_messages');
  await (
    dialect === 'postgres'
      ? inbox.addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : inbox.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('callback_request')`))
    .addColumn('callback_id', 'text', (c) => c.references('callback_requests.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('read_at', time)
    .execute();
  // the inbox is read newest first, one user at a time
  await db.schema
    .createIndex('inbox_messages_user')
    .on('inbox_messages')
    .columns(['user_id', 'id'])
    .execute();

  await db.schema
    .createTable('point_health_photos')
    .addColumn('point_id', 'text', (c) => c.notNull().references('points.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().check(sql`position between 1 and 20`))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('verified_at', time)
    .addPrimaryKeyConstraint('point_health_photos_pk', ['point_id', 'position'])
    .execute();
}
