import type { ColumnDataType, Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Rental bookings (issue 22):
 * - `rental_availability`: date ranges a rental's controllers open (or close) with a nightly price
 *   and an optional hourly one; on a day several ranges cover, the newest (highest seq) says;
 * - `bookings`: a guest's stay, `end_date` exclusive, with its total and state;
 * - `booking_nights`: one row per night a requested or accepted booking holds, primary key
 *   (rental_id, night). Written in the booking's transaction and deleted when it is declined or
 *   cancelled, so two people can never hold the same night whatever the page did: the store refuses
 *   it, on SQLite and PostgreSQL alike. The key is also the month view's index (taken nights).
 * Days are text YYYY-MM-DD: they sort and compare as dates on both dialects.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const time: ColumnDataType = 'bigint';
  const table = db.schema.createTable('rental_availability');
  await (
    dialect === 'postgres'
      ? table.addColumn('seq', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : table.addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('rental_id', 'text', (c) => c.notNull().references('points.id').onDelete('cascade'))
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    .addColumn('is_open', 'integer', (c) => c.notNull())
    .addColumn('nightly_price', 'integer', (c) => c.notNull())
    .addColumn('hourly_price', 'integer')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('rental_availability_by_rental')
    .on('rental_availability')
    .columns(['rental_id', 'start_date'])
    .execute();
  await db.schema
    .createTable('bookings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('rental_id', 'text', (c) => c.notNull().references('points.id').onDelete('cascade'))
    .addColumn('guest_userid', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    .addColumn('nights', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('bookings_by_rental')
    .on('bookings')
    .columns(['rental_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('bookings_by_guest')
    .on('bookings')
    .columns(['guest_userid', 'created_at'])
    .execute();
  await db.schema
    .createTable('booking_nights')
    .addColumn('rental_id', 'text', (c) => c.notNull().references('points.id').onDelete('cascade'))
    .addColumn('night', 'text', (c) => c.notNull())
    .addColumn('booking_id', 'text', (c) => c.notNull().references('bookings.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('booking_nights_pk', ['rental_id', 'night'])
    .execute();
  await db.schema
    .createIndex('booking_nights_by_booking')
    .on('booking_nights')
    .column('booking_id')
    .execute();
}
