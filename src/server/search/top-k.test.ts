import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TopK } from './top-k';

describe('TopK', () => {
  it('keeps the k smallest keys, best first, ties by order', () => {
    const top = new TopK(3);
    const keys = [5, 1, 4, 1, 9, 2, 6];
    keys.forEach((key, i) => top.push(key, i, i * 10));
    expect(top.sorted().map((h) => [h.key, h.order, h.item])).toEqual([
      [1, 1, 10],
      [1, 3, 30],
      [2, 5, 50],
    ]);
    expect(top.full).toBe(true);
  });

  it('equals a full sort of the stream for any input', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 })), fc.integer({ min: 0, max: 12 }), (keys, k) => {
        const top = new TopK(k);
        keys.forEach((key, i) => top.push(key, i, i));
        const expected = keys
          .map((key, i) => ({ key, i }))
          .sort((a, b) => a.key - b.key || a.i - b.i)
          .slice(0, k)
          .map((e) => e.i);
        expect(top.sorted().map((h) => h.item)).toEqual(expected);
      }),
    );
  });

  it('takes nothing when k is 0', () => {
    const top = new TopK(0);
    top.push(1, 1, 1);
    expect(top.sorted()).toEqual([]);
    expect(top.accepts(0, 0)).toBe(false);
  });
});
