import KDBush from 'kdbush';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EARTH_RADIUS_M, nearest } from './geo-knn';

/** Brute force: every point's haversine distance, sorted. */
function bruteForce(points: [number, number][], lng: number, lat: number, k: number) {
  const rad = Math.PI / 180;
  return points
    .map(([x, y], index) => {
      const h =
        Math.sin(((lat - y) * rad) / 2) ** 2 +
        Math.cos(lat * rad) * Math.cos(y * rad) * Math.sin(((lng - x) * rad) / 2) ** 2;
      return { index, distanceM: 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(Math.min(1, h))) };
    })
    .sort((a, b) => a.distanceM - b.distanceM)
    .slice(0, k);
}

function build(points: [number, number][], nodeSize = 4): KDBush {
  const index = new KDBush(points.length, nodeSize);
  for (const [x, y] of points) index.add(x, y);
  return index.finish();
}

describe('great-circle k nearest on KDBush', () => {
  it('matches brute force anywhere on Earth', () => {
    const coordinate = fc.tuple(
      fc.double({ min: -180, max: 180, noNaN: true }),
      fc.double({ min: -90, max: 90, noNaN: true }),
    );
    fc.assert(
      fc.property(
        fc.array(coordinate, { minLength: 1, maxLength: 300 }),
        coordinate,
        fc.integer({ min: 1, max: 8 }),
        (points, [lng, lat], k) => {
          const got = nearest(build(points), lng, lat, k);
          const want = bruteForce(points, lng, lat, k);
          expect(got.map((g) => g.distanceM)).toEqual(
            want.map((w) => expect.closeTo(w.distanceM, 3)) as never,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('crosses the antimeridian', () => {
    // Fiji's side and Samoa's side of 180°
    const points: [number, number][] = [
      [179.9, -17],
      [-179.9, -17],
      [170, -17],
      [-170, -17],
      [0, 0],
    ];
    const index = build(points, 2);
    const fromEast = nearest(index, 179.99, -17, 2).map((n) => n.index);
    expect(fromEast.sort()).toEqual([0, 1]);
    expect(nearest(index, -180, -17, 1)[0]?.distanceM).toBeLessThan(11_000);
    // a longitude past 180 is the same place
    expect(nearest(index, 190, -17, 1)[0]?.index).toBe(3);
  });

  it('works at the poles, where every longitude is near', () => {
    const points: [number, number][] = [
      [-150, 85],
      [30, 88],
      [100, -89],
      [0, 0],
    ];
    const index = build(points, 1);
    expect(nearest(index, 0, 90, 2).map((n) => n.index)).toEqual([1, 0]);
    expect(nearest(index, -45, -90, 1)[0]).toMatchObject({ index: 2 });
    expect(nearest(index, 123, -90, 1)[0]?.distanceM).toBeCloseTo(111_195, -2);
  });

  it('returns at most the items there are', () => {
    expect(nearest(build([[1, 1]]), 0, 0, 5)).toHaveLength(1);
    expect(nearest(build([[1, 1]]), 0, 0, 0)).toEqual([]);
  });
});
