import { describe, expect, it } from 'vitest';
import { formatMoney, moneyAfter, nextMoney } from './moneyCounter';

describe('the money counter (social §4, §9)', () => {
  it('starts at 1 and adds 7 every second', () => {
    expect([0, 1, 2, 3].map(moneyAfter)).toEqual([1, 8, 15, 22]);
    expect(nextMoney(1)).toBe(8);
  });

  it('starts again at 1 once it reaches 100 dollars', () => {
    expect(moneyAfter(14)).toBe(99);
    expect(nextMoney(99)).toBe(1);
    expect(moneyAfter(15)).toBe(1);
    expect(nextMoney(92)).toBe(99);
    let value = 1;
    for (let i = 0; i < 1000; i++) {
      value = nextMoney(value);
      expect(value).toBeLessThan(100);
      expect(value).toBe(moneyAfter(i + 1));
    }
  });

  it('shows dollars with thousands separators', () => {
    expect(formatMoney(8)).toBe('$8');
    expect(formatMoney(12_345)).toBe('$12,345');
  });
});
