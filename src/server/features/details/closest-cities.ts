import KDBush from 'kdbush';
import type { NearestCity } from '../../../shared/api/details';
import type { Store } from '../../store/store';
import { GreatCircleIndex } from './geo-knn';

/** The cities in memory, for nearest-city calls: a KDBush of their coordinates and their columns in arrays. */
interface CitySnapshot {
  index: GreatCircleIndex;
  rows: Omit<NearestCity, 'distance_m'>[];
}

/**
 * POST /v1/map/closestn's engine: every city (loaded into the store at start, ~112,000 places) in a
 * static kd-tree, searched by great-circle distance (geo-knn.ts). Built on first use (some 200 ms on
 * SQLite) and kept; a build that found no cities is retried on the next call, so a store that is
 * filled after the app starts is picked up.
 */
export class ClosestCities {
  private snapshot: Promise<CitySnapshot> | null = null;

  constructor(private readonly store: Store) {}

  private load(): Promise<CitySnapshot> {
    if (!this.snapshot) {
      this.snapshot = this.build().catch((error: unknown) => {
        this.snapshot = null;
        throw error;
      });
    }
    return this.snapshot;
  }

  private async build(): Promise<CitySnapshot> {
    const rows = await this.store.db
      .selectFrom('cities')
      .select(['id', 'city', 'city_forurl', 'state', 'country', 'lat', 'lon'])
      .orderBy('id')
      .execute();
    const index = new KDBush(Math.max(1, rows.length));
    for (const row of rows) index.add(Number(row.lon), Number(row.lat));
    // KDBush needs as many adds as it was sized for; an empty table gets one point that is never read
    if (rows.length === 0) index.add(0, 0);
    index.finish();
    return {
      index: new GreatCircleIndex(index),
      rows: rows.map((r) => ({ ...r, id: Number(r.id), lat: Number(r.lat), lon: Number(r.lon) })),
    };
  }

  /** Warms the index (call after start, not awaited by requests). */
  async ready(): Promise<number> {
    return (await this.load()).rows.length;
  }

  async closest(lat: number, lng: number, n: number): Promise<NearestCity[]> {
    let snapshot = await this.load();
    if (snapshot.rows.length === 0) {
      this.snapshot = null;
      snapshot = await this.load();
      if (snapshot.rows.length === 0) return [];
    }
    return this.closestIn(snapshot, lat, lng, n);
  }

  /** The synchronous search, for the benchmark: the index must be loaded. */
  closestIn(snapshot: CitySnapshot, lat: number, lng: number, n: number): NearestCity[] {
    return snapshot.index
      .nearest(lng, lat, Math.min(n, snapshot.rows.length))
      .flatMap(({ index, distanceM }) => {
        const row = snapshot.rows[index];
        return row ? [{ ...row, distance_m: Math.round(distanceM) }] : [];
      });
  }

  /** The loaded snapshot (loading it when needed), for the benchmark. */
  async loaded(): Promise<CitySnapshot> {
    return this.load();
  }
}
