import { sql, type ColumnDataType, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Claims and consultant requests become requests (issue 16, finding 1):
 * - a claim waits for an admin (`status` pending, approved or declined); the claims made before this
 *   migration took effect at once, so they are approved. `previous_health_status` is what a decline
 *   restores (a pending claim shows the point as "verification pending", map-and-search §3);
 * - consultant_requests: a signed-in user's request to consult an owned point, which its owner accepts
 *   or declines.
 * One pending claim and one pending request per (point, user): a partial unique index, so a double click
 * or two racing requests never make two.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const time: ColumnDataType = 'bigint';
  await db.schema
    .alterTable('point_claims')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('approved'))
    .execute();
  await db.schema.alterTable('point_claims').addColumn('previous_health_status', 'integer').execute();
  await db.schema.alterTable('point_claims').addColumn('decided_at', time).execute();
  await db.schema.alterTable('point_claims').addColumn('decided_by', 'text').execute();
  await sql`create unique index point_claims_pending on point_claims (point_id, user_id) where status = 'pending'`.execute(
    db,
  );
  await sql`create index point_claims_queue on point_claims (status, created_at)`.execute(db);

  const requests = db.schema.createTable('consultant_requests');
  await (
    dialect === 'postgres'
      ? requests.addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : requests.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('point_id', 'text', (c) => c.notNull().references('points.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'accepted', 'declined')`))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('decided_at', time)
    .execute();
  await sql`create unique index consultant_requests_pending on consultant_requests (point_id, user_id) where status = 'pending'`.execute(
    db,
  );
  await db.schema
    .createIndex('consultant_requests_user')
    .on('consultant_requests')
    .columns(['user_id', 'status'])
    .execute();
}
