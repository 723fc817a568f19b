import { describe, expect, it } from 'vitest';
import { timeFormat } from './timeFormat';

const NOON_UTC = Date.UTC(2026, 5, 1, 12, 0);

describe('timeFormat', () => {
  it('writes times in the given zone and language, the same wherever it runs', () => {
    const lisbon = timeFormat({ locale: 'en-GB', timeZone: 'Europe/Lisbon' });
    const tokyo = timeFormat({ locale: 'en-GB', timeZone: 'Asia/Tokyo' });
    expect(lisbon.time(NOON_UTC)).toBe('13:00');
    expect(tokyo.time(NOON_UTC)).toBe('21:00');
    // dates are social §9's 'DD MMM YYYY HH:mm (A)' in any language
    expect(lisbon.dateTime(NOON_UTC)).toBe('01 Jun 2026 13:00 (PM)');
    expect(timeFormat({ locale: 'fr', timeZone: 'Asia/Tokyo' }).dateTime(NOON_UTC)).toBe(
      '01 Jun 2026 21:00 (PM)',
    );
    expect(lisbon.dateTime(null)).toBe('');
  });

  it('writes when an event happens in that zone', () => {
    const format = timeFormat({ locale: 'en-GB', timeZone: 'Asia/Tokyo' });
    const event = { minutes_to_start: 0, start_date: NOON_UTC - 3_600_000, end_date: NOON_UTC + 3_600_000 };
    expect(format.eventWhen({ ...event, status: 'current' })).toBe('Happening now, until 22:00');
    expect(format.eventWhen({ ...event, status: 'past' })).toBe('Ended 01 Jun 2026 22:00 (PM)');
  });

  it("falls back to the browser's zone for a zone Intl does not know", () => {
    expect(timeFormat({ locale: 'en-GB', timeZone: 'Mars/Olympus' }).dateTime(NOON_UTC)).not.toBe('');
  });
});
