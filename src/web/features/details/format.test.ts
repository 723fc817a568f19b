import { describe, expect, it } from 'vitest';
import { eventWhen, startsIn } from './format';

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 16);
const T = Date.UTC(2026, 10, 21, 12);

describe('event time texts (§4)', () => {
  it('says when an upcoming event starts', () => {
    expect(startsIn(0.2)).toBe('now');
    expect(startsIn(1)).toBe('in 1 minute');
    expect(startsIn(45)).toBe('in 45 minutes');
    expect(startsIn(65)).toBe('in 1 h 5 min');
    expect(startsIn(120)).toBe('in 2 h');
    expect(eventWhen({ status: 'upcoming', minutes_to_start: 30, start_date: T, end_date: T }, iso)).toBe(
      'Starts in 30 minutes',
    );
  });

  it('gives a current event the end of its first interval', () => {
    const event = {
      status: 'current' as const,
      minutes_to_start: -10,
      start_date: T,
      end_date: T + 86_400_000,
      first_interval: { start: T, end: T + 3_600_000 },
    };
    expect(eventWhen(event, iso, iso)).toBe('Happening now, until 2026-11-21T13:00');
  });

  it('gives later events their dates and past events their end', () => {
    const base = { minutes_to_start: 500, start_date: T, end_date: T + 3_600_000 };
    expect(eventWhen({ ...base, status: 'later' }, iso)).toBe('2026-11-21T12:00 – 2026-11-21T13:00');
    expect(eventWhen({ ...base, status: 'past' }, iso)).toBe('Ended 2026-11-21T13:00');
  });
});
