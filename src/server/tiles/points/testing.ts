import { Random } from '../../seed/random';
import { PointColumns } from './columns';

/** A seeded random number generator for the index's property tests: the demo data's own. */
export function rng(seed: number): () => number {
  const random = new Random(seed);
  return () => random.next();
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
