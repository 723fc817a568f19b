import { describe, expect, it } from 'vitest';
import { evaluateOpeningHours, isTimeZone, wallClockDate } from './opening-hours';

// Saturday 2026-11-21 14:30 UTC = 09:30 in New York (EST, UTC-5) = 23:30 in Tokyo (UTC+9)
const NOW = Date.UTC(2026, 10, 21, 14, 30);

describe('open now in the point time zone', () => {
  it('evaluates in the named zone, not the machine one', () => {
    const ny = evaluateOpeningHours('Mo-Su 09:00-17:00', 'America/New_York', NOW);
    expect(ny).toMatchObject({ state: 'open', open: true, error: null, time_zone_name: 'America/New_York' });
    expect(ny.next_change).toBe('2026-11-21T17:00');
    const tokyo = evaluateOpeningHours('Mo-Su 09:00-17:00', 'Asia/Tokyo', NOW);
    expect(tokyo).toMatchObject({ state: 'closed', open: false });
    expect(tokyo.next_change).toBe('2026-11-22T09:00');
  });
  it('handles weekdays in the zone (Saturday in New York, Sunday in Auckland)', () => {
    expect(evaluateOpeningHours('Sa 08:00-12:00', 'America/New_York', NOW).open).toBe(true);
    expect(evaluateOpeningHours('Sa 08:00-12:00', 'Pacific/Auckland', NOW).open).toBe(false);
  });
  it('24/7 and off', () => {
    expect(evaluateOpeningHours('24/7', 'Europe/Paris', NOW).open).toBe(true);
    expect(evaluateOpeningHours('off', 'Europe/Paris', NOW).state).toBe('closed');
  });
  it('unknown state with a comment', () => {
    const r = evaluateOpeningHours('Mo-Su 08:00-20:00 unknown "call first"', 'UTC', NOW);
    expect(r).toMatchObject({ state: 'unknown', open: null, comment: 'call first' });
  });
  it('returns the parse error and keeps the text as written', () => {
    const r = evaluateOpeningHours('whenever the owner feels like it', 'UTC', NOW);
    expect(r.state).toBe('unknown');
    expect(r.open).toBeNull();
    expect(r.text).toBe('whenever the owner feels like it');
    expect(r.error).toBeTruthy();
    expect(evaluateOpeningHours('Mo-Fr 25:00-26:00', 'UTC', NOW).error).toBeTruthy();
  });
  it('reports corrected words as warnings', () => {
    const r = evaluateOpeningHours('Monday-Friday 09:00-17:00', 'UTC', NOW);
    expect(r.error).toBeNull();
    expect(r.warnings.length).toBeGreaterThan(0);
  });
  it('falls back to UTC for an unknown zone', () => {
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(evaluateOpeningHours('24/7', 'Mars/Olympus', NOW).time_zone_name).toBe('UTC');
  });
  it('builds wall-clock dates', () => {
    const d = wallClockDate(NOW, 'Asia/Kolkata');
    expect([d.getHours(), d.getMinutes()]).toEqual([20, 0]);
  });
});

describe('public holidays', () => {
  it('use the point country when the rule names PH', () => {
    // 2026-11-26 15:00 UTC = 10:00 in New York on Thanksgiving, a Thursday: a US holiday, not a German one
    const thanksgiving = Date.UTC(2026, 10, 26, 15);
    const text = 'Mo-Fr 09:00-17:00; PH off';
    expect(evaluateOpeningHours(text, 'America/New_York', thanksgiving, { countryCode: 'US' }).open).toBe(
      false,
    );
    expect(evaluateOpeningHours(text, 'America/New_York', thanksgiving, { countryCode: 'DE' }).open).toBe(
      true,
    );
    const nextDay = Date.UTC(2026, 10, 30, 15);
    expect(evaluateOpeningHours(text, 'America/New_York', nextDay, { countryCode: 'US' }).open).toBe(true);
    // a string without PH is evaluated the same whatever the country
    expect(
      evaluateOpeningHours('Mo-Fr 09:00-17:00', 'America/New_York', thanksgiving, { countryCode: 'US' }).open,
    ).toBe(true);
  });
});
