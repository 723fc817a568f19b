import { sql, type Kysely, type Transaction } from 'kysely';
import type { Booking, BookingState } from '../../../shared/api/bookings';
import type { Database } from '../../store/schema';

/**
 * The bookings store (issue 22). A booking that holds its nights (requested or accepted) has one
 * `booking_nights` row per night under the key (rental_id, night): `insertBooking` writes them in the
 * booking's transaction with ON CONFLICT DO NOTHING and rolls everything back when fewer rows went
 * in than the stay has nights, so a night someone else holds refuses the whole request and nothing
 * is stored. PostgreSQL makes a second writer of the same key wait for the first to commit, SQLite
 * runs one write transaction at a time: either way exactly one of many requests for a night wins.
 */

type Db = Kysely<Database> | Transaction<Database>;

export interface AvailabilityRange {
  seq: number;
  start_date: string;
  end_date: string;
  is_open: number;
  nightly_price: number;
  hourly_price: number | null;
  currency: string;
}

/** Availability ranges of a rental that touch [from, to), oldest first (a newer one overrides). */
export async function rangesTouching(db: Db, rentalId: string, from: string, to: string) {
  const rows = await db
    .selectFrom('rental_availability')
    .select(['seq', 'start_date', 'end_date', 'is_open', 'nightly_price', 'hourly_price', 'currency'])
    .where('rental_id', '=', rentalId)
    .where('start_date', '<', to)
    .where('end_date', '>', from)
    .orderBy('seq')
    .execute();
  return rows.map((row) => ({
    ...row,
    seq: Number(row.seq),
    is_open: Number(row.is_open),
    nightly_price: Number(row.nightly_price),
    hourly_price: row.hourly_price === null ? null : Number(row.hourly_price),
  })) as AvailabilityRange[];
}

/** Nights of a rental held in [from, to) (the primary key's range). */
export async function heldNights(db: Db, rentalId: string, from: string, to: string): Promise<string[]> {
  const rows = await db
    .selectFrom('booking_nights')
    .select('night')
    .where('rental_id', '=', rentalId)
    .where('night', '>=', from)
    .where('night', '<', to)
    .execute();
  return rows.map((row) => row.night);
}

export async function addAvailability(
  db: Db,
  row: Omit<AvailabilityRange, 'seq'> & { rental_id: string; created_by: string; created_at: number },
): Promise<void> {
  await db.insertInto('rental_availability').values(row).execute();
}

/** The rental's nights were held by someone else when the booking went in: nothing was written. */
export class NightsTaken extends Error {
  constructor() {
    super('nights taken');
  }
}

export interface NewBooking {
  id: string;
  rental_id: string;
  guest_userid: string;
  start_date: string;
  end_date: string;
  nights: number;
  total: number;
  currency: string;
  created_at: number;
}

/**
 * Writes a requested booking and its nights in `trx`; throws NightsTaken (rolling the transaction
 * back) when any night is already held.
 */
export async function insertBooking(trx: Transaction<Database>, booking: NewBooking, nights: string[]) {
  await trx
    .insertInto('bookings')
    .values({ ...booking, state: 'requested', updated_at: booking.created_at, version: 0 })
    .execute();
  const result = await trx
    .insertInto('booking_nights')
    .values(nights.map((night) => ({ rental_id: booking.rental_id, night, booking_id: booking.id })))
    .onConflict((oc) => oc.columns(['rental_id', 'night']).doNothing())
    .executeTakeFirst();
  if (Number(result.numInsertedOrUpdatedRows ?? 0) !== nights.length) throw new NightsTaken();
}

export interface BookingRow {
  id: string;
  rental_id: string;
  guest_userid: string;
  state: string;
  version: number;
}

export async function findBookingRow(db: Db, id: string): Promise<BookingRow | undefined> {
  const row = await db
    .selectFrom('bookings')
    .select(['id', 'rental_id', 'guest_userid', 'state', 'version'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? { ...row, version: Number(row.version) } : undefined;
}

/**
 * Moves a booking from `from` to `to` if it is still in `from` at `version`; a state that no longer
 * holds nights frees them in the same transaction. Answers false when someone else moved it first.
 */
export async function moveBooking(
  trx: Transaction<Database>,
  row: BookingRow,
  to: BookingState,
  now: number,
  freeNights: boolean,
): Promise<boolean> {
  const result = await trx
    .updateTable('bookings')
    .set({ state: to, updated_at: now, version: row.version + 1 })
    .where('id', '=', row.id)
    .where('state', '=', row.state)
    .where('version', '=', row.version)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  if (freeNights) await trx.deleteFrom('booking_nights').where('booking_id', '=', row.id).execute();
  return true;
}

function bookingsQuery(db: Db) {
  return db
    .selectFrom('bookings')
    .innerJoin('points', 'points.id', 'bookings.rental_id')
    .innerJoin('users', 'users.id', 'bookings.guest_userid')
    .select([
      'bookings.id',
      'bookings.rental_id',
      'points.title',
      'bookings.guest_userid',
      'users.username',
      'bookings.start_date',
      'bookings.end_date',
      'bookings.nights',
      'bookings.total',
      'bookings.currency',
      'bookings.state',
      'bookings.created_at',
      'bookings.version',
    ]);
}

type ListedRow = Awaited<ReturnType<ReturnType<typeof bookingsQuery>['execute']>>[number];

function toBooking(row: ListedRow): Booking {
  return {
    id: row.id,
    rentalid: row.rental_id,
    rentaltitle: row.title,
    guest: { id: row.guest_userid, username: row.username },
    start: row.start_date,
    end: row.end_date,
    nights: Number(row.nights),
    total: Number(row.total),
    currency: row.currency,
    state: row.state as BookingState,
    created: Number(row.created_at),
    version: Number(row.version),
  };
}

export async function bookingById(db: Db, id: string): Promise<Booking | undefined> {
  const row = await bookingsQuery(db).where('bookings.id', '=', id).executeTakeFirst();
  return row ? toBooking(row) : undefined;
}

/** A rental's bookings, newest first; only `guestId`'s when given. */
export async function bookingsOfRental(db: Db, rentalId: string, guestId: string | null, limit: number) {
  let query = bookingsQuery(db).where('bookings.rental_id', '=', rentalId);
  if (guestId !== null) query = query.where('bookings.guest_userid', '=', guestId);
  const rows = await query
    .orderBy('bookings.created_at', 'desc')
    .orderBy('bookings.id')
    .limit(limit)
    .execute();
  return rows.map(toBooking);
}

export async function bookingsOfGuest(db: Db, guestId: string, limit: number) {
  const rows = await bookingsQuery(db)
    .where('bookings.guest_userid', '=', guestId)
    .orderBy('bookings.created_at', 'desc')
    .orderBy('bookings.id')
    .limit(limit)
    .execute();
  return rows.map(toBooking);
}

/** Bookings of the rentals `userId` owns or consults, newest first. */
export async function bookingsOnRentalsOf(db: Db, userId: string, limit: number) {
  const rows = await bookingsQuery(db)
    .where((eb) =>
      eb.or([eb('points.owner_userid', '=', userId), eb('points.consultant_userid', '=', userId)]),
    )
    .orderBy('bookings.created_at', 'desc')
    .orderBy('bookings.id')
    .limit(limit)
    .execute();
  return rows.map(toBooking);
}

export async function titleOf(db: Db, pointId: string): Promise<string> {
  const row = await db.selectFrom('points').select('title').where('id', '=', pointId).executeTakeFirst();
  return row?.title ?? '';
}

/** A point's supertype (undefined: no such point): all the month view needs to know of it. */
export async function supertypeOf(db: Db, pointId: string): Promise<string | undefined> {
  const row = await db.selectFrom('points').select('supertype').where('id', '=', pointId).executeTakeFirst();
  return row?.supertype;
}

interface MonthRow {
  kind: 'p' | 'r' | 'n';
  a: string;
  b: string | null;
  is_open: number | null;
  price: number | null;
  hourly: number | null;
  currency: string | null;
  seq: number | string;
}

/**
 * The month view's read in one statement (one round trip, the budget's call): the point's supertype,
 * the availability ranges touching [from, to) on (rental_id, start_date) and the held nights on the
 * primary key (rental_id, night). Undefined supertype: no such point.
 */
export async function monthOf(db: Db, rentalId: string, from: string, to: string) {
  const { rows } = await sql<MonthRow>`
    select 'p' as kind, supertype as a, null as b, null as is_open, null as price, null as hourly,
      null as currency, 0 as seq
    from points where id = ${rentalId}
    union all
    select 'r', start_date, end_date, is_open, nightly_price, hourly_price, currency, seq
    from rental_availability
    where rental_id = ${rentalId} and start_date < ${to} and end_date > ${from}
    union all
    select 'n', night, null, null, null, null, null, 0
    from booking_nights
    where rental_id = ${rentalId} and night >= ${from} and night < ${to}`.execute(db);
  let supertype: string | undefined;
  const ranges: AvailabilityRange[] = [];
  const held: string[] = [];
  for (const row of rows) {
    if (row.kind === 'p') supertype = row.a;
    else if (row.kind === 'n') held.push(row.a);
    else
      ranges.push({
        seq: Number(row.seq),
        start_date: row.a,
        end_date: row.b!,
        is_open: Number(row.is_open),
        nightly_price: Number(row.price),
        hourly_price: row.hourly === null ? null : Number(row.hourly),
        currency: row.currency!,
      });
  }
  ranges.sort((x, y) => x.seq - y.seq);
  return { supertype, ranges, held };
}
