import { describe, expect, it } from 'vitest';
import {
  durationHours,
  formatDurationHours,
  formatPrice,
  formatRating,
  formatStat,
  ticketOptions,
  ticketTotal,
} from './numbers';

describe('number display rules', () => {
  it('rating is average/20 with one decimal', () => {
    expect(formatRating(86)).toBe('4.3');
    expect(formatRating(100)).toBe('5.0');
    expect(formatRating(0)).toBe('0.0');
    expect(formatRating(73.5)).toBe('3.7');
    expect(formatRating(140)).toBe('5.0');
    expect(formatRating(null)).toBeNull();
  });
  it("stats show '0' for values that are not positive numbers", () => {
    expect(formatStat(12)).toBe('12');
    expect(formatStat(0)).toBe('0');
    expect(formatStat(-3)).toBe('0');
    expect(formatStat(Number.NaN)).toBe('0');
    expect(formatStat(null)).toBe('0');
    expect(formatStat('7')).toBe('7');
    expect(formatStat('abc')).toBe('0');
  });
  it('prices have two decimals', () => {
    expect(formatPrice(1.5)).toBe('1.50');
    expect(formatPrice(0.005)).toBe('0.01');
    expect(formatPrice(2)).toBe('2.00');
    expect(formatPrice(null)).toBeNull();
  });
  it('task duration is minutes/60 in hours', () => {
    expect(durationHours(90)).toBe(1.5);
    expect(formatDurationHours(90)).toBe('1.5');
    expect(formatDurationHours(20)).toBe('0.33');
    expect(formatDurationHours(120)).toBe('2');
    expect(durationHours(null)).toBeNull();
  });
  it('ticket total is quantity times unit price, exact to the cent', () => {
    expect(ticketTotal(3, 0.1)).toBe(0.3);
    expect(ticketTotal(4, 12.5)).toBe(50);
    expect(ticketOptions(7.25, 3)).toEqual([
      { quantity: 1, total: 7.25, display: '7.25' },
      { quantity: 2, total: 14.5, display: '14.50' },
      { quantity: 3, total: 21.75, display: '21.75' },
    ]);
    expect(ticketOptions(5, 0)).toEqual([]);
  });
});
