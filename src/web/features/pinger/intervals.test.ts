import { describe, expect, it } from 'vitest';
import { checkedInterval, customIntervals, DEFAULT_PING_INTERVALS, intervalsFromSetting } from './intervals';

describe('ping intervals (social §9)', () => {
  it('are 27 s while OK and 17 s after a failure by default', () => {
    expect(DEFAULT_PING_INTERVALS).toEqual({ okMs: 27_000, errorMs: 17_000 });
    expect(intervalsFromSetting(null)).toEqual({ intervals: DEFAULT_PING_INTERVALS });
  });

  it('refuse a custom interval of 10 s or less', () => {
    expect(checkedInterval(10_001)).toBe(10_001);
    expect(() => checkedInterval(10_000)).toThrow('The ping interval must exceed 10 s (got 10 s).');
    expect(() => checkedInterval(Number.NaN)).toThrow(RangeError);
    expect(() => customIntervals(20_000, 5_000)).toThrow(
      'The ping error interval must exceed 10 s (got 5 s).',
    );
  });

  it('read the browser setting: one value for both (the error one never longer than §9), or two', () => {
    expect(intervalsFromSetting('12').intervals).toEqual({ okMs: 12_000, errorMs: 12_000 });
    expect(intervalsFromSetting('60').intervals).toEqual({ okMs: 60_000, errorMs: 17_000 });
    expect(intervalsFromSetting(' 15 , 11.5 ').intervals).toEqual({ okMs: 15_000, errorMs: 11_500 });
  });

  it('keep the defaults and say why for a refused setting', () => {
    expect(intervalsFromSetting('10')).toEqual({
      intervals: DEFAULT_PING_INTERVALS,
      refused: 'The ping interval must exceed 10 s (got 10 s).',
    });
    expect(intervalsFromSetting('12,3').refused).toBe('The ping error interval must exceed 10 s (got 3 s).');
    expect(intervalsFromSetting('fast').refused).toBe('"fast" is not "<seconds>" or "<seconds>,<seconds>".');
    expect(intervalsFromSetting('12,12,12').refused).toMatch(/is not/);
    expect(intervalsFromSetting('-20').intervals).toBe(DEFAULT_PING_INTERVALS);
  });
});
