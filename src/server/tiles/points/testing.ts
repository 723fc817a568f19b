import { PointColumns } from './columns';

/** A seeded random number generator (mulberry32) for the index's property tests. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Columns holding one business `p{i}` per position, in slot order. */
export function columnsWith(points: readonly { lat: number; lon: number }[]): PointColumns {
  const columns = new PointColumns(4);
  points.forEach((p, i) => columns.put('point', business(`p${i}`, p.lat, p.lon)));
  return columns;
}

export function business(id: string, lat: number, lon: number) {
  return {
    id,
    group: 'business' as const,
    type: 'cafe',
    subtype: '',
    title: id,
    lat,
    lon,
    beamtype: 0,
    promo: 0,
  };
}
