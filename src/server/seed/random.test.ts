import { describe, expect, it } from 'vitest';
import { isValidId } from '../../shared/domain/ids';
import { Random, makeId } from './random';

describe('random', () => {
  it('repeats itself for the same seed and label, and differs otherwise', () => {
    const draw = (seed: number, label: string) => {
      const rng = Random.fork(seed, label);
      return Array.from({ length: 8 }, () => rng.nextUint32());
    };
    expect(draw(1, 'points')).toEqual(draw(1, 'points'));
    expect(draw(1, 'points')).not.toEqual(draw(2, 'points'));
    expect(draw(1, 'points')).not.toEqual(draw(1, 'users'));
  });

  it('draws in range and distinct values without repeats', () => {
    const rng = new Random(7);
    for (let i = 0; i < 1000; i++) {
      const n = rng.int(3, 9);
      expect(n).toBeGreaterThanOrEqual(3);
      expect(n).toBeLessThanOrEqual(9);
      const f = rng.next();
      expect(f).toBeGreaterThanOrEqual(0);
      expect(f).toBeLessThan(1);
    }
    for (const [k, n] of [
      [5, 1000],
      [40, 50],
      [10, 3],
    ] as const) {
      const values = rng.distinct(k, n);
      expect(values).toHaveLength(Math.min(k, n));
      expect(new Set(values).size).toBe(values.length);
      expect(values.every((v) => v >= 0 && v < n)).toBe(true);
    }
  });

  it('makes URL-safe ids, unique per kind and counter', () => {
    const ids = new Set<string>();
    for (let n = 0; n < 20_000; n++) {
      const id = makeId(9, 'point', n);
      expect(isValidId(id)).toBe(true);
      ids.add(id);
    }
    expect(ids.size).toBe(20_000);
    expect(makeId(9, 'point', 5)).toBe(makeId(9, 'point', 5));
    expect(makeId(9, 'point', 5)).not.toBe(makeId(10, 'point', 5));
  });
});
