import { type ColumnDataType, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * The point and event write API (issue 8):
 * - events get the optimistic-concurrency `version` points already have, so two people editing one
 *   event never silently overwrite each other;
 * - point_claims keeps who claimed an unowned point, when, and the claim text experiences and
 *   rentals take (map-and-search §6);
 * - "my points" lists a user's events by owner;
 * - points keep the city as the add-new form's person typed it (city_name); city_id still links the
 *   nearest known city, which may be another name for the same place.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const time: ColumnDataType = 'bigint';

  await db.schema
    .alterTable('events')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('points').addColumn('city_name', 'text').execute();
  await db.schema.createIndex('events_owner').on('events').columns(['owner_userid']).execute();

  const claims = db.schema.createTable('point_claims');
  await (
    dialect === 'postgres'
      ? claims.addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : claims.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('point_id', 'text', (c) => c.notNull().references('points.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('text', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('point_claims_point').on('point_claims').columns(['point_id']).execute();
}
