import { describe, expect, it } from 'vitest';
import {
  eventPage,
  eventPageSize,
  eventPagingEnabled,
  eventStatus,
  morePastEvents,
  pastEventsVisible,
  splitEvents,
} from './events';

const NOW = Date.UTC(2026, 10, 21, 12);
const MIN = 60_000;
const at = (startMin: number, endMin: number, first?: [number, number]) => ({
  start_date: NOW + startMin * MIN,
  end_date: NOW + endMin * MIN,
  first_interval: first ? { start: NOW + first[0] * MIN, end: NOW + first[1] * MIN } : null,
});

describe('event status (§4)', () => {
  it('is upcoming when it starts within 0 to 120 minutes', () => {
    expect(eventStatus(at(0.5, 60), NOW)).toBe('upcoming');
    expect(eventStatus(at(119, 200), NOW)).toBe('upcoming');
    expect(eventStatus(at(120, 200), NOW)).toBe('later');
    expect(eventStatus(at(60 * 24, 60 * 25), NOW)).toBe('later');
  });
  it('is current when now is inside the first opening interval only', () => {
    expect(eventStatus(at(-10, 10), NOW)).toBe('current');
    expect(eventStatus(at(0, 10), NOW)).toBe('current');
    // a two-day event: the first interval closed yesterday, the second opens tomorrow
    expect(eventStatus(at(-60 * 24, 60 * 30, [-60 * 24, -60 * 20]), NOW)).toBe('later');
    // inside the second interval: still not current by §4
    expect(eventStatus(at(-60 * 24, 60, [-60 * 24, -60 * 20]), NOW)).toBe('later');
    expect(eventStatus(at(-60 * 24, 60, [-5, 5]), NOW)).toBe('current');
  });
  it('is past once it ended', () => {
    expect(eventStatus(at(-120, -1), NOW)).toBe('past');
    expect(eventStatus(at(-120, 0), NOW)).toBe('past');
  });
  it('splits and orders the lists', () => {
    const events = [at(-300, -200), at(30, 90), at(-5, 5), at(10, 20), at(-100, -50), at(500, 600)];
    const lists = splitEvents(events, NOW);
    expect(lists.upcoming.map((e) => e.start_date)).toEqual([NOW + 10 * MIN, NOW + 30 * MIN]);
    expect(lists.current).toHaveLength(1);
    expect(lists.later).toHaveLength(1);
    expect(lists.past.map((e) => e.end_date)).toEqual([NOW - 50 * MIN, NOW - 200 * MIN]);
  });
});

describe('event list paging (§9)', () => {
  it('page size is 4, 6 at 520 px, 8 at 1600 px', () => {
    expect(eventPageSize(360)).toBe(4);
    expect(eventPageSize(519)).toBe(4);
    expect(eventPageSize(520)).toBe(6);
    expect(eventPageSize(1599)).toBe(6);
    expect(eventPageSize(1600)).toBe(8);
    expect(eventPageSize(Number.NaN)).toBe(4);
  });
  it('pages only above 4 events', () => {
    expect(eventPagingEnabled(4)).toBe(false);
    expect(eventPagingEnabled(5)).toBe(true);
    expect(eventPage([1, 2, 3, 4], 2, 2)).toEqual({
      items: [1, 2, 3, 4],
      page: 1,
      pageSize: 2,
      pageCount: 1,
      paged: false,
    });
    const items = Array.from({ length: 13 }, (_, i) => i);
    expect(eventPage(items, 2, 6)).toMatchObject({
      items: [6, 7, 8, 9, 10, 11],
      page: 2,
      pageCount: 3,
      paged: true,
    });
    expect(eventPage(items, 9, 6).items).toEqual([12]);
  });
  it('falls back to size 4 and page 1 when invalid (§5)', () => {
    const items = Array.from({ length: 10 }, (_, i) => i);
    expect(eventPage(items, 'x', 0)).toMatchObject({ items: [0, 1, 2, 3], page: 1, pageSize: 4 });
    expect(eventPage(items, -1, 2.5)).toMatchObject({ page: 1, pageSize: 4 });
  });
  it('past events show 8, then 16, then all', () => {
    expect(pastEventsVisible(0, 40)).toBe(8);
    expect(pastEventsVisible(1, 40)).toBe(16);
    expect(pastEventsVisible(2, 40)).toBe(40);
    expect(pastEventsVisible(0, 5)).toBe(5);
    expect(morePastEvents(1, 40)).toBe(true);
    expect(morePastEvents(2, 40)).toBe(false);
    expect(morePastEvents(0, 8)).toBe(false);
  });
});
