import { describe, expect, it } from 'vitest';
import { clockText, nextChangeSentence, openingHoursText, todayIn } from './hours-text';

describe('opening hours as people read them', () => {
  it('writes clock times in 12 hours, minutes only when there are some', () => {
    expect(clockText(9, 0)).toBe('9 AM');
    expect(clockText(21, 30)).toBe('9:30 PM');
    expect(clockText(0, 0)).toBe('12 AM');
    expect(clockText(12, 5)).toBe('12:05 PM');
  });

  it('says today, tomorrow, a weekday this week, else a date', () => {
    const today = '2026-11-24'; // a Tuesday
    expect(nextChangeSentence('open', '2026-11-24T18:00', today)).toBe('Closes 6 PM');
    expect(nextChangeSentence('closed', '2026-11-25T09:00', today)).toBe('Opens 9 AM tomorrow');
    expect(nextChangeSentence('closed', '2026-11-27T09:30', today)).toBe('Opens 9:30 AM Fri');
    expect(nextChangeSentence('closed', '2026-12-08T10:00', today)).toBe('Opens 10 AM Tue, Dec 8');
    // across a month's end
    expect(nextChangeSentence('closed', '2026-12-01T09:00', '2026-11-30')).toBe('Opens 9 AM tomorrow');
  });

  it('keeps what it cannot read as given', () => {
    expect(nextChangeSentence('closed', 'soon', '2026-11-24')).toBe('Opens soon');
  });

  it("reads today's date in the point's zone", () => {
    const late = Date.UTC(2026, 10, 24, 23, 30); // 23:30 UTC: already the 25th in Tokyo
    expect(todayIn('UTC', late)).toBe('2026-11-24');
    expect(todayIn('Asia/Tokyo', late)).toBe('2026-11-25');
    expect(todayIn('Not/AZone', late)).toBe('2026-11-24');
  });
});

describe('the opening hours in words, as the server writes them for the full-screen page', () => {
  // 23:30 UTC on Tuesday 24 November 2026: 18:30 in New York, already Wednesday 08:30 in Tokyo
  const NOW = Date.UTC(2026, 10, 24, 23, 30);
  const hours = {
    opening_hours_string: 'Mo-Fr 09:00-19:00; Sa 10:00-14:00',
    time_zone_name: 'America/New_York',
    state: 'open' as const,
    comment: null,
    next_change: '2026-11-24T19:00',
    error: null,
  };

  it('says open now, the next change in the zone, one rule a line and the zone', () => {
    expect(openingHoursText(hours, NOW)).toEqual({
      badge: 'Open now',
      next: 'Closes 7 PM',
      text: 'Mo-Fr 09:00-19:00\nSa 10:00-14:00',
      note: 'Open now · times in America/New York',
    });
  });

  it("reads 'tomorrow' from the point's own calendar, not the server's", () => {
    const closed = { ...hours, state: 'closed' as const, next_change: '2026-11-25T09:00' };
    // the 25th is tomorrow in New York (still the 24th there) but today in Tokyo
    expect(openingHoursText(closed, NOW).next).toBe('Opens 9 AM tomorrow');
    expect(openingHoursText({ ...closed, time_zone_name: 'Asia/Tokyo' }, NOW)).toMatchObject({
      badge: 'Closed now',
      next: 'Opens 9 AM',
      note: 'Closed now · times in Asia/Tokyo',
    });
  });

  it("adds the rule's comment, and says so when the state is unknown", () => {
    expect(openingHoursText({ ...hours, comment: 'by appointment' }, NOW).note).toBe(
      'Open now (by appointment) · times in America/New York',
    );
    expect(openingHoursText({ ...hours, state: 'unknown', next_change: '2026-11-25T09:00' }, NOW)).toEqual({
      badge: null,
      next: null,
      text: 'Mo-Fr 09:00-19:00\nSa 10:00-14:00',
      note: 'Open state unknown · times in America/New York',
    });
  });

  it('shows a value that could not be read as written, with no state', () => {
    const broken = {
      ...hours,
      opening_hours_string: 'Mo-Fr 25:00-19:00; whenever',
      state: 'unknown' as const,
      next_change: null,
      error: 'Minutes are greater than 59.',
    };
    expect(openingHoursText(broken, NOW)).toEqual({
      badge: null,
      next: null,
      text: 'Mo-Fr 25:00-19:00; whenever',
      note: null,
    });
  });
});
