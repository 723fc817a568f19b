import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Live activity (issue 9): one row per point, device (or user), kind and hour. The primary key is the
 * "once per device per point per hour" rule for promo impressions and clicks: a second insert in the
 * same hour does nothing. The same rows, summed over the last hours, rank hot points (views, clicks,
 * chats).
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('live_activity')
    .addColumn('point_id', 'text', (c) => c.notNull().references('points.id').onDelete('cascade'))
    /** the device id of a promo impression or click, or 'u:<user id>' for a chat line. */
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('impression', 'click', 'view', 'chat')`))
    /** epoch milliseconds rounded down to the hour (UTC). */
    .addColumn('hour', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('live_activity_pk', ['point_id', 'device_id', 'kind', 'hour'])
    .execute();
  await db.schema
    .createIndex('live_activity_hour')
    .on('live_activity')
    .columns(['hour', 'point_id'])
    .execute();
}
