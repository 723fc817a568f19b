import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coverKeys, hilbertKey, hilbertOf, lowerBound, orderByKey } from './space';

describe('the Hilbert numbering', () => {
  it('numbers every cell of a block once, and neighbours on the curve are neighbours in space', () => {
    // the first 4^4 keys fill the 16 × 16 block at the origin, each once, each step one cell long
    const cells = new Map<number, [number, number]>();
    for (let x = 0; x < 16; x++) for (let y = 0; y < 16; y++) cells.set(hilbertOf(x, y), [x, y]);
    expect([...cells.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 256 }, (_, i) => i));
    for (let d = 1; d < 256; d++) {
      const [x0, y0] = cells.get(d - 1) as [number, number];
      const [x1, y1] = cells.get(d) as [number, number];
      expect(Math.abs(x1 - x0) + Math.abs(y1 - y0)).toBe(1);
    }
  });

  it('sorts keys stably into a permutation', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 ** 32 - 1 }), { maxLength: 300 }), (values) => {
        const order = [...orderByKey(Uint32Array.from(values))];
        const expected = values.map((v, i) => ({ v, i })).sort((a, b) => a.v - b.v || a.i - b.i);
        expect(order).toEqual(expected.map((e) => e.i));
      }),
    );
  });
});

describe('coverKeys', () => {
  const lat = fc.double({ min: -90, max: 90, noNaN: true });
  const lon = fc.double({ min: -180, max: 180, noNaN: true });

  it('covers every place inside the bounds, across the antimeridian too', () => {
    fc.assert(
      fc.property(
        lat,
        lat,
        lon,
        lon,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (a, b, west, east, u, v) => {
          const south = Math.min(a, b);
          const north = Math.max(a, b);
          const runs = coverKeys({ south, north, west, east });
          // ascending and disjoint
          for (let i = 1; i < runs.length; i++)
            expect(runs[i] as number).toBeGreaterThan(runs[i - 1] as number);
          // a place inside: lat between south and north, lon inside the (possibly wrapping) span
          const width = west <= east ? east - west : 360 - (west - east);
          let placeLon = west + u * width;
          if (placeLon > 180) placeLon -= 360;
          const placeLat = south + v * (north - south);
          const key = hilbertKey(placeLat, placeLon);
          // the run holding the key (runs may end at 2^32, past what a Uint32Array holds)
          let at = 0;
          while (at < runs.length / 2 && (runs[2 * at + 1] as number) <= key) at++;
          expect(at).toBeLessThan(runs.length / 2);
          expect(key).toBeGreaterThanOrEqual(runs[2 * at] as number);
        },
      ),
    );
  });

  it('stays close to the bounds: a city takes a few runs, not the world', () => {
    const runs = coverKeys({ south: 40.65, north: 40.85, west: -74.1, east: -73.85 });
    expect(runs.length / 2).toBeLessThanOrEqual(81);
    let keys = 0;
    for (let i = 0; i < runs.length; i += 2) keys += (runs[i + 1] as number) - (runs[i] as number);
    // the bounds hold about 1/1.3 million of the world's keys; the cover at most a few times that
    const boundsShare = ((0.2 / 180) * 0.25) / 360;
    expect(keys / 2 ** 32).toBeLessThan(boundsShare * 8);
  });
});

describe('lowerBound', () => {
  it('finds the first value not below the one asked, within a slice', () => {
    const values = Uint32Array.from([1, 3, 3, 7, 9]);
    expect(lowerBound(values, 3)).toBe(1);
    expect(lowerBound(values, 4)).toBe(3);
    expect(lowerBound(values, 10)).toBe(5);
    expect(lowerBound(values, 0, 2, 4)).toBe(2);
    expect(lowerBound(values, 2 ** 32)).toBe(5);
  });
});
