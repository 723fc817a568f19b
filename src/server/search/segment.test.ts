import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centreOf, distanceFrom, inBounds, inRanges, rankKey } from './segment';

describe('inRanges', () => {
  it('agrees with a plain scan over any sorted, disjoint ranges', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 500 }), { maxLength: 60 }),
        fc.integer({ min: -5, max: 510 }),
        (cuts, term) => {
          const sorted = [...cuts].sort((a, b) => a - b);
          if (sorted.length % 2 === 1) sorted.pop();
          const ranges = Int32Array.from(sorted);
          let expected = false;
          for (let i = 0; i < sorted.length; i += 2)
            if (term >= (sorted[i] as number) && term < (sorted[i + 1] as number)) expected = true;
          expect(inRanges(ranges, term)).toBe(expected);
        },
      ),
    );
  });
});

describe('bounds and distance', () => {
  it('crosses the antimeridian when west > east', () => {
    const across = { south: -20, west: 170, north: -10, east: -170 };
    expect(inBounds(across, -15, 175)).toBe(true);
    expect(inBounds(across, -15, -175)).toBe(true);
    expect(inBounds(across, -15, 0)).toBe(false);
    expect(centreOf(across)?.lon).toBe(180);
    expect(distanceFrom(centreOf(across), -15, -179)).toBeCloseTo(1 * Math.cos((15 * Math.PI) / 180), 5);
  });

  it('ranks by tier, then level, then title words, then distance', () => {
    expect(rankKey(0, 0, false, 1000)).toBeLessThan(rankKey(1, 43, true, 0));
    expect(rankKey(2, 43, false, 1000)).toBeLessThan(rankKey(2, 42, true, 0));
    expect(rankKey(2, 10, true, 1000)).toBeLessThan(rankKey(2, 10, false, 0));
    expect(rankKey(2, 10, true, 1)).toBeLessThan(rankKey(2, 10, true, 2));
  });
});
