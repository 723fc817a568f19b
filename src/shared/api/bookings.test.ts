import { describe, expect, it } from 'vitest';
import {
  addDays,
  availabilitySetRequestSchema,
  bookingRequestSchema,
  formatMoney,
  isIsoDate,
  nightsBetween,
  nightsOf,
  todayIso,
} from './bookings';

describe('booking dates', () => {
  it('knows real calendar days only', () => {
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2027-02-29')).toBe(false);
    expect(isIsoDate('2027-13-01')).toBe(false);
    expect(isIsoDate('2027-1-01')).toBe(false);
  });

  it('counts nights with the end exclusive, across months and years', () => {
    expect(nightsBetween('2027-03-01', '2027-03-04')).toBe(3);
    expect(nightsBetween('2027-03-04', '2027-03-01')).toBe(-3);
    expect(nightsOf('2027-12-30', '2028-01-02')).toEqual(['2027-12-30', '2027-12-31', '2028-01-01']);
    expect(nightsOf('2027-03-01', '2027-03-01')).toEqual([]);
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(todayIso(Date.UTC(2027, 2, 5, 23, 59))).toBe('2027-03-05');
    expect(formatMoney(27000, 'EUR')).toBe('EUR 270.00');
  });

  it('reads form values and names the field at fault', () => {
    expect(bookingRequestSchema.parse({ rentalid: 'r1', start: '2027-03-01', end: '2027-03-04' })).toEqual({
      rentalid: 'r1',
      start: '2027-03-01',
      end: '2027-03-04',
    });
    const bad = bookingRequestSchema.safeParse({ rentalid: 'r1', start: '2027-02-30', end: '2027-03-04' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['start']);
    expect(
      availabilitySetRequestSchema.parse({
        rentalid: 'r1',
        start: '2027-03-01',
        end: '2027-03-04',
        nightlyprice: '9000',
        currency: 'eur',
        open: 'false',
      }),
    ).toMatchObject({ nightlyprice: 9000, currency: 'EUR', open: false });
  });
});
