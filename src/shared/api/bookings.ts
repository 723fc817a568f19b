import { z } from 'zod';
import { isValidId } from '../domain/ids';
import { bodyContract, formNumber, formText, withFieldErrors } from './contract';

/**
 * Contracts of rental bookings (issue 22; map-and-search §2 `/rental/{id}/2` "book a rental").
 *
 *   POST /v1/bookings/availability/set  {rentalid, start, end, nightlyprice, hourlyprice?, currency, open}
 *                                       the rental's controllers open (or close) nights at a price
 *   GET  /v1/bookings/availability?rentalid&month=YYYY-MM   each day of the month: free, taken, closed or past
 *   POST /v1/bookings/request           {rentalid, start, end}  signed in: a request, which holds the nights
 *   POST /v1/bookings/accept|decline    {bookingid}             the rental's controllers
 *   POST /v1/bookings/cancel            {bookingid}             the guest or the rental's controllers
 *   GET  /v1/bookings/rental?rentalid   the rental's bookings: all for its controllers, one's own for others
 *   GET  /v1/bookings/mine              one's bookings as a guest and the requests on one's rentals
 *
 * Dates are calendar days, `YYYY-MM-DD`; `end` is exclusive (the morning one leaves), so a booking of
 * `2027-03-01`..`2027-03-04` is three nights. Prices are in minor units (cents) of `currency`.
 * Two people never hold the same night: the store has one row per (rental, night) for every requested
 * or accepted booking under a unique key, written in the booking's own transaction.
 */

/** The longest stay one request may ask for, and the longest range one availability call may set. */
export const BOOKING_MAX_NIGHTS = 60;
export const AVAILABILITY_MAX_DAYS = 366;
export const BOOKING_STATES = ['requested', 'accepted', 'declined', 'cancelled'] as const;
export type BookingState = (typeof BOOKING_STATES)[number];
/** States that hold their nights. */
export const HOLDING_STATES: readonly BookingState[] = ['requested', 'accepted'];
export const DAY_STATES = ['free', 'taken', 'closed', 'past'] as const;
export type DayState = (typeof DAY_STATES)[number];

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** true for a real calendar day written YYYY-MM-DD (not 2027-02-30). */
export function isIsoDate(value: string): boolean {
  if (!DATE_PATTERN.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** The day `days` after `date` (both YYYY-MM-DD, UTC calendar arithmetic). */
export function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/** Nights from `start` to `end` (exclusive); negative when end is before start. */
export function nightsBetween(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000);
}

/** Every night of a stay: start, start+1, ..., end-1. */
export function nightsOf(start: string, end: string): string[] {
  const count = nightsBetween(start, end);
  return Array.from({ length: Math.max(0, count) }, (_, i) => addDays(start, i));
}

/** Today's calendar day in UTC. */
export function todayIso(now: number = Date.now()): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** 12345 EUR → "EUR 123.45" (an amount in minor units). */
export function formatMoney(minor: number, currency: string): string {
  return `${currency} ${(minor / 100).toFixed(2)}`;
}

const idOf = z.preprocess(formText, z.string().refine(isValidId, 'is invalid.'));
const dateOf = z.preprocess(
  formText,
  z.string({ error: 'is required (YYYY-MM-DD).' }).refine(isIsoDate, 'must be a day written YYYY-MM-DD.'),
);
const monthOf = z.preprocess(
  formText,
  z
    .string({ error: 'is required (YYYY-MM).' })
    .refine(
      (value) => /^\d{4}-\d{2}$/.test(value) && isIsoDate(`${value}-01`),
      'must be a month written YYYY-MM.',
    ),
);
/** A price in minor units: a whole number from 0 to 10,000,000 (100,000.00). */
const priceOf = z.preprocess(
  formNumber,
  z
    .number({ error: 'must be a price in cents.' })
    .int('must be a whole number of cents.')
    .min(0, 'cannot be negative.')
    .max(10_000_000, 'is at most 10000000 (cents).'),
);

/** A bookings call's contract: a missing or malformed id names its parameter (6705), other fields 1003. */
export function bookingContract<S extends z.ZodType>(schema: S) {
  return withFieldErrors(bodyContract(schema), {
    rentalid: { error: 'invalidParam', values: { param: 'rentalid' } },
    bookingid: { error: 'invalidParam', values: { param: 'bookingid' } },
  });
}

export const availabilitySetRequestSchema = z.object({
  rentalid: idOf,
  start: dateOf,
  end: dateOf,
  nightlyprice: priceOf,
  hourlyprice: priceOf.optional(),
  currency: z.preprocess(
    (value) => (typeof formText(value) === 'string' ? (formText(value) as string).toUpperCase() : value),
    z
      .string({ error: 'is required (EUR, USD, ...).' })
      .regex(/^[A-Z]{3}$/, 'must be a three-letter code (EUR).'),
  ),
  /** false closes the days (the price is kept for the record). */
  open: z.preprocess(
    (value) => {
      const text = formText(value);
      if (text === undefined || text === '') return true;
      if (text === 'true' || text === '1' || text === true) return true;
      if (text === 'false' || text === '0' || text === false) return false;
      return text;
    },
    z.boolean({ error: 'must be true or false.' }),
  ),
});
export type AvailabilitySetRequest = z.infer<typeof availabilitySetRequestSchema>;

export const availabilityMonthQuerySchema = z.object({ rentalid: idOf, month: monthOf });
export type AvailabilityMonthQuery = z.infer<typeof availabilityMonthQuerySchema>;

export const bookingRequestSchema = z.object({ rentalid: idOf, start: dateOf, end: dateOf });
export type BookingRequest = z.infer<typeof bookingRequestSchema>;

export const bookingActionSchema = z.object({ bookingid: idOf });
export type BookingAction = z.infer<typeof bookingActionSchema>;

export const rentalBookingsQuerySchema = z.object({ rentalid: idOf });

export const availabilityDaySchema = z.object({
  date: z.string(),
  state: z.enum(DAY_STATES),
  /** the nightly price in minor units; null on a closed day. */
  price: z.number().int().nullable(),
  hourlyprice: z.number().int().nullable(),
  currency: z.string().nullable(),
});
export type AvailabilityDay = z.infer<typeof availabilityDaySchema>;

export const availabilityMonthSchema = z.object({
  rentalid: z.string(),
  month: z.string(),
  days: z.array(availabilityDaySchema),
});
export type AvailabilityMonth = z.infer<typeof availabilityMonthSchema>;

export const availabilitySetResultSchema = z.object({
  rentalid: z.string(),
  start: z.string(),
  end: z.string(),
  days: z.number().int(),
  open: z.boolean(),
});
export type AvailabilitySetResult = z.infer<typeof availabilitySetResultSchema>;

export const bookingSchema = z.object({
  id: z.string(),
  rentalid: z.string(),
  rentaltitle: z.string(),
  guest: z.object({ id: z.string(), username: z.string() }),
  start: z.string(),
  end: z.string(),
  nights: z.number().int(),
  total: z.number().int(),
  currency: z.string(),
  state: z.enum(BOOKING_STATES),
  created: z.number(),
  version: z.number().int(),
});
export type Booking = z.infer<typeof bookingSchema>;

export const rentalBookingsSchema = z.object({
  rentalid: z.string(),
  title: z.string(),
  /** the viewer controls the rental: owner, consultant or admin (sees every booking, sets availability). */
  controls: z.boolean(),
  bookings: z.array(bookingSchema),
});
export type RentalBookings = z.infer<typeof rentalBookingsSchema>;

export const myBookingsSchema = z.object({
  /** the viewer's own bookings, newest first. */
  asguest: z.array(bookingSchema),
  /** bookings of rentals the viewer controls, newest first. */
  asowner: z.array(bookingSchema),
});
export type MyBookings = z.infer<typeof myBookingsSchema>;
