import { describe, expect, test } from 'vitest';
import { liveOpeningHours, nextChangeText, previewText } from './openingHoursLive';

const PARIS = { lat: 48.8566, lon: 2.3522, timeZone: 'Europe/Paris' };
/** Wednesday 2030-01-02, 10:30 in Paris (09:30 UTC). */
const WEDNESDAY_MORNING = Date.UTC(2030, 0, 2, 9, 30);

describe('the live opening-hours check', () => {
  test('given nothing typed, then there is nothing to check', () => {
    expect(liveOpeningHours('  ', PARIS, WEDNESDAY_MORNING)).toEqual({ kind: 'empty' });
  });

  test('given hours that include now in the point’s zone, then the preview says open and when it closes', () => {
    const live = liveOpeningHours('Mo-Fr 09:00-18:00', PARIS, WEDNESDAY_MORNING);
    expect(live).toMatchObject({ kind: 'ok', state: 'open', nextChange: '2030-01-02T18:00', warnings: [] });
    if (live.kind !== 'ok') throw new Error('not ok');
    expect(previewText(live)).toBe('Open now · closes Wed 18:00 · Europe/Paris time');
  });

  test('given the same instant, when the point is in another zone, then the preview follows that zone', () => {
    // 09:30 UTC is 04:30 in New York: closed until 09:00
    const live = liveOpeningHours(
      'Mo-Fr 09:00-18:00',
      { ...PARIS, timeZone: 'America/New_York' },
      WEDNESDAY_MORNING,
    );
    expect(live).toMatchObject({ kind: 'ok', state: 'closed', nextChange: '2030-01-02T09:00' });
  });

  test('given "Mo-Su off", then the place is closed now', () => {
    expect(liveOpeningHours('Mo-Su off', PARIS, WEDNESDAY_MORNING)).toMatchObject({
      kind: 'ok',
      state: 'closed',
    });
  });

  test('given a value the library cannot read, then its parse error is the field error', () => {
    const live = liveOpeningHours('Mo 25:00-26:00', PARIS, WEDNESDAY_MORNING);
    expect(live.kind).toBe('error');
    if (live.kind === 'error') expect(live.error).toMatch(/\S/);
  });

  test('given a value read with corrections, then its warnings and the tidy form are shown', () => {
    const live = liveOpeningHours('mon-fri 8-18', PARIS, WEDNESDAY_MORNING);
    expect(live.kind).toBe('ok');
    if (live.kind !== 'ok') return;
    expect(live.prettified).toBe('Mo-Fr 08:00-18:00');
    expect(live.warnings.length).toBeGreaterThan(0);
    expect(live.state).toBe('open');
  });

  test('given a wall-clock time, then it reads as weekday and time', () => {
    expect(nextChangeText('2030-01-05T09:00')).toBe('Sat 09:00');
    expect(nextChangeText('later')).toBe('later');
  });
});
