import { randomUUID } from 'node:crypto';
import {
  AVAILABILITY_MAX_DAYS,
  BOOKING_MAX_NIGHTS,
  addDays,
  nightsBetween,
  nightsOf,
  todayIso,
  type AvailabilityDay,
  type AvailabilityMonth,
  type AvailabilityMonthQuery,
  type AvailabilitySetRequest,
  type AvailabilitySetResult,
  type Booking,
  type BookingAction,
  type BookingRequest,
  type BookingState,
  type MyBookings,
  type RentalBookings,
} from '../../../shared/api/bookings';
import { AppError } from '../../../shared/errors';
import { canControlPoint, type PointSubject, type Viewer } from '../../../shared/permissions';
import { requireViewer } from '../../auth/hook';
import type { Store } from '../../store/store';
import { findPointSubject } from '../permissions/queries';
import * as q from './queries';

/** How many bookings a list answers (newest first). */
export const BOOKINGS_LIST_LIMIT = 100;

type Action = 'accept' | 'decline' | 'cancel';
const MOVES: Record<Action, { from: BookingState[]; to: BookingState; past: string }> = {
  accept: { from: ['requested'], to: 'accepted', past: 'accepted' },
  decline: { from: ['requested'], to: 'declined', past: 'declined' },
  cancel: { from: ['requested', 'accepted'], to: 'cancelled', past: 'cancelled' },
};

/**
 * Each day of [from, to): its nightly price from the newest availability range covering it (closed
 * when none does or the newest closes it), taken when a booking holds it, past before `today`.
 */
export function daysOf(
  ranges: q.AvailabilityRange[],
  held: Iterable<string>,
  from: string,
  to: string,
  today: string,
): AvailabilityDay[] {
  const taken = new Set(held);
  return nightsOf(from, to).map((date) => {
    let range: q.AvailabilityRange | undefined;
    // ranges come oldest first: the last that covers the day says
    for (const candidate of ranges)
      if (candidate.start_date <= date && date < candidate.end_date) range = candidate;
    const open = range !== undefined && range.is_open === 1;
    const state = date < today ? 'past' : taken.has(date) ? 'taken' : open ? 'free' : 'closed';
    return {
      date,
      state,
      price: open ? range!.nightly_price : null,
      hourlyprice: open ? range!.hourly_price : null,
      currency: open ? range!.currency : null,
    };
  });
}

/**
 * The rules of rental bookings (issue 22): rentals only; their controllers (owner, consultant,
 * admin) set availability and accept or decline; any other signed-in person requests free, open
 * nights from today on; the guest or a controller cancels. Requests hold their nights at once.
 */
export class BookingService {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  private async rental(id: string): Promise<PointSubject> {
    const point = await findPointSubject(this.store, id);
    if (!point) throw new AppError('pointNotFound', { id });
    if (point.supertype !== 'rental')
      throw new AppError('bookingNotRental', { id, supertype: point.supertype });
    return point;
  }

  private checkStay(start: string, end: string, max: number, what: string): number {
    const nights = nightsBetween(start, end);
    if (nights <= 0) throw new AppError('bookingEndBeforeStart');
    if (start < todayIso(this.now())) throw new AppError('bookingInPast', { date: start });
    if (nights > max) throw new AppError('bookingTooLong', { max, what });
    return nights;
  }

  async setAvailability(viewer: Viewer, input: AvailabilitySetRequest): Promise<AvailabilitySetResult> {
    const user = requireViewer(viewer);
    const rental = await this.rental(input.rentalid);
    if (!canControlPoint(user, rental)) throw new AppError('availabilityForbidden');
    const days = this.checkStay(input.start, input.end, AVAILABILITY_MAX_DAYS, 'one availability range is');
    await q.addAvailability(this.store.db, {
      rental_id: input.rentalid,
      start_date: input.start,
      end_date: input.end,
      is_open: input.open ? 1 : 0,
      nightly_price: input.nightlyprice,
      hourly_price: input.hourlyprice ?? null,
      currency: input.currency,
      created_by: user.id,
      created_at: this.now(),
    });
    return { rentalid: input.rentalid, start: input.start, end: input.end, days, open: input.open };
  }

  async month(input: AvailabilityMonthQuery): Promise<AvailabilityMonth> {
    const from = `${input.month}-01`;
    const to = addDays(from, 31).slice(0, 7) + '-01';
    // the hot read (p99 budget 5 ms): the point's supertype, its ranges and held nights in one statement
    const { supertype, ranges, held } = await q.monthOf(this.store.db, input.rentalid, from, to);
    if (supertype === undefined) throw new AppError('pointNotFound', { id: input.rentalid });
    if (supertype !== 'rental') throw new AppError('bookingNotRental', { id: input.rentalid, supertype });
    return {
      rentalid: input.rentalid,
      month: input.month,
      days: daysOf(ranges, held, from, to, todayIso(this.now())),
    };
  }

  async request(viewer: Viewer, input: BookingRequest): Promise<Booking> {
    const user = requireViewer(viewer);
    const rental = await this.rental(input.rentalid);
    if (canControlPoint(user, rental)) throw new AppError('bookingOwnRental');
    const nights = this.checkStay(input.start, input.end, BOOKING_MAX_NIGHTS, 'a booking is');
    const id = randomUUID();
    const stay = nightsOf(input.start, input.end);
    try {
      await this.store.db.transaction().execute(async (trx) => {
        const ranges = await q.rangesTouching(trx, input.rentalid, input.start, input.end);
        const days = daysOf(ranges, [], input.start, input.end, input.start);
        const closed = days.filter((day) => day.state !== 'free').map((day) => day.date);
        if (closed.length > 0) throw new AppError('bookingNightsClosed', { nights: listOf(closed) });
        const currencies = [...new Set(days.map((day) => day.currency!))];
        if (currencies.length > 1)
          throw new AppError('bookingMixedCurrency', { currencies: currencies.join(', ') });
        await q.insertBooking(
          trx,
          {
            id,
            rental_id: input.rentalid,
            guest_userid: user.id,
            start_date: input.start,
            end_date: input.end,
            nights,
            total: days.reduce((sum, day) => sum + day.price!, 0),
            currency: currencies[0]!,
            created_at: this.now(),
          },
          stay,
        );
      });
    } catch (error) {
      if (!(error instanceof q.NightsTaken)) throw error;
      const held = await q.heldNights(this.store.db, input.rentalid, input.start, input.end);
      throw new AppError('bookingNightsTaken', { nights: listOf(held.length > 0 ? held.sort() : stay) });
    }
    return (await q.bookingById(this.store.db, id))!;
  }

  accept(viewer: Viewer, input: BookingAction) {
    return this.move(viewer, input.bookingid, 'accept');
  }

  decline(viewer: Viewer, input: BookingAction) {
    return this.move(viewer, input.bookingid, 'decline');
  }

  cancel(viewer: Viewer, input: BookingAction) {
    return this.move(viewer, input.bookingid, 'cancel');
  }

  private async move(viewer: Viewer, bookingId: string, action: Action): Promise<Booking> {
    const user = requireViewer(viewer);
    const move = MOVES[action];
    const row = await q.findBookingRow(this.store.db, bookingId);
    if (!row) throw new AppError('bookingNotFound', { id: bookingId });
    const rental = await findPointSubject(this.store, row.rental_id);
    const controls = rental !== undefined && canControlPoint(user, rental);
    if (action === 'cancel') {
      if (!controls && row.guest_userid !== user.id) throw new AppError('bookingCancelForbidden');
    } else if (!controls) throw new AppError('bookingNotController', { action });
    if (!move.from.includes(row.state as BookingState))
      throw new AppError('bookingStateInvalid', { state: row.state, action: move.past });
    const moved = await this.store.db
      .transaction()
      .execute((trx) =>
        q.moveBooking(trx, row, move.to, this.now(), move.to === 'declined' || move.to === 'cancelled'),
      );
    if (!moved) throw new AppError('conflict');
    return (await q.bookingById(this.store.db, bookingId))!;
  }

  async ofRental(viewer: Viewer, rentalId: string): Promise<RentalBookings> {
    const rental = await this.rental(rentalId);
    const controls = canControlPoint(viewer, rental);
    const guest = viewer?.id ?? null;
    const bookings =
      controls || guest !== null
        ? await q.bookingsOfRental(this.store.db, rentalId, controls ? null : guest, BOOKINGS_LIST_LIMIT)
        : [];
    const title = await q.titleOf(this.store.db, rentalId);
    return { rentalid: rentalId, title, controls, bookings };
  }

  async mine(viewer: Viewer): Promise<MyBookings> {
    const user = requireViewer(viewer);
    const [asguest, asowner] = await Promise.all([
      q.bookingsOfGuest(this.store.db, user.id, BOOKINGS_LIST_LIMIT),
      q.bookingsOnRentalsOf(this.store.db, user.id, BOOKINGS_LIST_LIMIT),
    ]);
    return { asguest, asowner };
  }
}

/** "2027-03-01, 2027-03-02": at most five days named, then how many more. */
function listOf(days: string[]): string {
  const shown = days.slice(0, 5).join(', ');
  return days.length > 5 ? `${shown} and ${days.length - 5} more` : shown;
}
