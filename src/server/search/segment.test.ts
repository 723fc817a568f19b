import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPTY_DOC } from './doc';
import type { Segment } from './segment';
import { SegmentBuilder, centreOf, distanceFrom, inBounds, inRanges, mergeRanges, rankKey } from './segment';
import { typoNeighbourhood } from './typo';

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

describe('compileWord with typos', () => {
  /** The ranges the plain way: every string of typoNeighbourhood looked up in the whole dictionary. */
  function plainRanges(segment: Segment, word: string): number[] {
    const ranges: [number, number][] = [];
    for (const variant of [word, ...typoNeighbourhood(word)]) {
      const [lo, hi] = segment.prefixRange(variant);
      if (lo < hi) ranges.push([lo, hi]);
    }
    return mergeRanges(ranges);
  }

  it('finds the same term ranges as looking up every one-edit string', async () => {
    // a small alphabet, so that words and typos of them collide often
    const word = fc.stringMatching(/^[abcé1]{1,7}$/);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(word, { minLength: 1, maxLength: 60 }), word, async (titles, query) => {
        const builder = new SegmentBuilder(titles.length);
        titles.forEach((title, i) => builder.add({ ...EMPTY_DOC, id: `d${i}`, type: 'shop', title }));
        const segment = await builder.build();
        expect([...segment.compileWord(query, true).ranges]).toEqual(plainRanges(segment, query));
      }),
      { numRuns: 300 },
    );
  });
});
