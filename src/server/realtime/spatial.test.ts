import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BoundsIndex, type VisibleBounds } from './spatial';

const box = (south: number, west: number, north: number, east: number): VisibleBounds => ({
  sw: { lat: south, lon: west },
  ne: { lat: north, lon: east },
});

function containsNaive(b: VisibleBounds, lat: number, lon: number): boolean {
  if (lat < b.sw.lat || lat > b.ne.lat) return false;
  if (b.ne.lon - b.sw.lon >= 360) return true;
  return b.sw.lon <= b.ne.lon ? lon >= b.sw.lon && lon <= b.ne.lon : lon >= b.sw.lon || lon <= b.ne.lon;
}

describe('BoundsIndex', () => {
  it('finds the devices whose bounds contain a point, edges included', () => {
    const index = new BoundsIndex<string>();
    index.set('berlin', box(52.3, 13.0, 52.7, 13.8));
    index.set('world', box(-85, -180, 85, 180));
    index.set('ny', box(40.5, -74.3, 40.9, -73.7));
    expect(index.at(52.52, 13.4).sort()).toEqual(['berlin', 'world']);
    expect(index.at(52.3, 13.0).sort()).toEqual(['berlin', 'world']);
    expect(index.at(40.7, -74).sort()).toEqual(['ny', 'world']);
    expect(index.at(0, 0)).toEqual(['world']);
    expect(index.at(89, 0)).toEqual([]);
  });

  it('moves a device when its bounds change and forgets it when deleted', () => {
    const index = new BoundsIndex<string>();
    index.set('d', box(52.3, 13.0, 52.7, 13.8));
    index.set('d', box(40.5, -74.3, 40.9, -73.7));
    expect(index.at(52.5, 13.4)).toEqual([]);
    expect(index.at(40.7, -74)).toEqual(['d']);
    index.delete('d');
    expect(index.at(40.7, -74)).toEqual([]);
    expect(index.size).toBe(0);
  });

  it('handles bounds across the antimeridian and wrapped longitudes', () => {
    const index = new BoundsIndex<string>();
    index.set('fiji', box(-19, 177, -16, -179));
    index.set('wrapped', box(10, 190, 11, 191)); // 190..191 is -170..-169
    expect(index.at(-17, 178)).toEqual(['fiji']);
    expect(index.at(-17, -179.5)).toEqual(['fiji']);
    expect(index.at(-17, 0)).toEqual([]);
    expect(index.at(10.5, -169.5)).toEqual(['wrapped']);
  });

  it('agrees with a plain scan for any bounds and points', () => {
    const lat = fc.double({ min: -90, max: 90, noNaN: true });
    const lon = fc.double({ min: -180, max: 180, noNaN: true });
    const bounds = fc
      .tuple(lat, lat, lon, fc.double({ min: 0, max: 40, noNaN: true }))
      .map(([a, b, west, width]) =>
        box(Math.min(a, b), west, Math.max(a, b), west + width > 180 ? west + width - 360 : west + width),
      );
    fc.assert(
      fc.property(
        fc.array(bounds, { maxLength: 30 }),
        fc.array(fc.tuple(lat, lon), { maxLength: 20 }),
        (all, points) => {
          const index = new BoundsIndex<number>();
          all.forEach((b, i) => index.set(i, b));
          for (const [la, lo] of points) {
            const expected = all.flatMap((b, i) => (containsNaive(b, la, lo) ? [i] : []));
            expect(index.at(la, lo).sort((x, y) => x - y)).toEqual(expected);
          }
        },
      ),
    );
  });

  it('selects among 10,000 city-sized bounds in well under a millisecond', () => {
    const index = new BoundsIndex<number>();
    let seed = 1;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let i = 0; i < 10_000; i++) {
      const south = 40 + random() * 10;
      const west = -5 + random() * 20;
      index.set(i, box(south, west, south + 0.1 + random() * 0.3, west + 0.1 + random() * 0.4));
    }
    // warm up the JIT first: the budget is for a running server
    for (let i = 0; i < 2000; i++) index.forEachAt(40 + random() * 10, -5 + random() * 20, () => undefined);
    const times: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const lat = 40 + random() * 10;
      const lon = -5 + random() * 20;
      const start = performance.now();
      index.forEachAt(lat, lon, () => undefined);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    expect(times[Math.floor(times.length * 0.99)]).toBeLessThan(1);
  });
});
