import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCities } from '../../src/server/features/cities/load';
import { closestCities } from '../../src/server/features/cities/queries';
import { ClosestCities } from '../../src/server/features/details/closest-cities';
import type { NewCity } from '../../src/server/store/schema';
import { openTestApp, type TestApp } from '../support/app';
import { TEST_DIALECTS } from '../support/store';

/** POST /v1/map/closestn: the nearest cities to any point on Earth, over HTTP. */
const PLACES: [id: number, city: string, lat: number, lon: number][] = [
  [1, 'Suva', -18.1416, 178.4419],
  [2, "Nuku'alofa", -21.1394, -175.2018],
  [3, 'Apia', -13.8333, -171.7667],
  [4, 'Anadyr', 64.7337, 177.5089],
  [5, 'Nome', 64.5011, -165.4064],
  [6, 'Longyearbyen', 78.2232, 15.6267],
  [7, 'Alert', 82.5018, -62.3481],
  [8, 'Qaanaaq', 77.467, -69.2285],
  [9, 'McMurdo Station', -77.846, 166.676],
  [10, 'Ushuaia', -54.8019, -68.303],
  [11, 'New York City', 40.7128, -74.006],
  [12, 'Jersey City', 40.7178, -74.0431],
  [13, 'Hoboken', 40.744, -74.0324],
  [14, 'Newark', 40.7357, -74.1724],
  [15, 'Yonkers', 40.9312, -73.8988],
  [16, 'Paris', 48.8566, 2.3522],
];

const city = ([id, name, lat, lon]: (typeof PLACES)[number]): NewCity => ({
  id,
  city: name,
  city_forurl: `${name.toLowerCase().replace(/[^a-z]+/g, '-')}-${id}`,
  state: null,
  country: 'Somewhere',
  iso2: 'XX',
  lat,
  lon,
  population: 1000,
  time_zone: null,
});

describe.each(TEST_DIALECTS)('nearest cities over HTTP (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp({ dialect });
  });
  afterAll(() => t?.close());

  const closest = (payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/v1/map/closestn', payload: payload as object });
  const names = async (payload: object) => {
    const res = await closest(payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ city: string }[]>().map((c) => c.city);
  };

  it('answers an empty list before any city is loaded, then sees the cities', async () => {
    expect(await names({ lat: 0, lng: 0 })).toEqual([]);
    await t.store.db.insertInto('cities').values(PLACES.map(city)).execute();
    expect(await names({ lat: 40.75, lng: -73.99 })).toHaveLength(5);
  });

  it('answers 5 by default with the §3 fields, nearest first', async () => {
    const res = await closest({ lat: 40.7306, lng: -73.9866 });
    const list = res.json();
    expect(list.map((c: { city: string }) => c.city)).toEqual([
      'New York City',
      'Hoboken',
      'Jersey City',
      'Newark',
      'Yonkers',
    ]);
    expect(list[0]).toEqual({
      id: 11,
      city: 'New York City',
      city_forurl: 'new-york-city-11',
      state: null,
      country: 'Somewhere',
      lat: 40.7128,
      lon: -74.006,
      distance_m: expect.any(Number),
    });
    expect(list[0].distance_m).toBeGreaterThan(2000);
    expect(list[0].distance_m).toBeLessThan(3500);
  });

  it('crosses the antimeridian from either side', async () => {
    expect(await names({ lat: -17, lng: 179.99, n: 3 })).toEqual(['Suva', "Nuku'alofa", 'Apia']);
    expect(await names({ lat: -18, lng: -179.9, n: 3 })).toEqual(['Suva', "Nuku'alofa", 'Apia']);
    // a longitude past 180 (a map panned across the antimeridian) is the same place
    expect(await names({ lat: 64.6, lng: 182.5, n: 2 })).toEqual(['Anadyr', 'Nome']);
    expect(await names({ lat: 64.6, lng: -177.5, n: 2 })).toEqual(['Anadyr', 'Nome']);
  });

  it('works at the poles', async () => {
    expect(await names({ lat: 90, lng: 0, n: 3 })).toEqual(['Alert', 'Longyearbyen', 'Qaanaaq']);
    // at the pole every longitude is the same point
    expect(await names({ lat: 90, lng: 137, n: 3 })).toEqual(['Alert', 'Longyearbyen', 'Qaanaaq']);
    expect(await names({ lat: -90, lng: 0, n: 2 })).toEqual(['McMurdo Station', 'Ushuaia']);
  });

  it('accepts numeric strings and n up to 100', async () => {
    expect(await names({ lat: '48.85', lng: '2.35', n: '1' })).toEqual(['Paris']);
    expect(await names({ lat: 0, lng: 0, n: 100 })).toHaveLength(PLACES.length);
  });

  it('refuses bad coordinates and counts with 400 JSON', async () => {
    for (const [payload, code] of [
      [{ lat: 91, lng: 0 }, 6001],
      [{ lat: -90.5, lng: 0 }, 6001],
      [{ lat: 'north', lng: 0 }, 6001],
      [{ lng: 0 }, 6001],
      [{ lat: 0 }, 6001],
      [{ lat: 0, lng: null }, 6001],
      [{ lat: 0, lng: 0, n: 0 }, 6002],
      [{ lat: 0, lng: 0, n: 101 }, 6002],
      [{ lat: 0, lng: 0, n: 2.5 }, 6002],
      [[1, 2], 6001],
    ] as const) {
      const res = await closest(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().errorcode, JSON.stringify(payload)).toBe(code);
    }
  });
});

describe('nearest cities over the real city list (sqlite)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp({ dialect: 'sqlite' });
    await loadCities(t.store);
  }, 120_000);
  afterAll(() => t?.close());

  it('agrees with the store query on random places anywhere on Earth, and answers fast', async () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const asks: [number, number][] = [
      [90, 0],
      [-90, 0],
      [0, 180],
      [0, -180],
      [-17, 179.99],
      [71, -179.9],
      ...Array.from({ length: 40 }, (): [number, number] => [
        Math.asin(2 * random() - 1) * (180 / Math.PI),
        random() * 360 - 180,
      ]),
    ];
    for (const [lat, lng] of asks) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/map/closestn', payload: { lat, lng } });
      expect(res.statusCode).toBe(200);
      const ours = res.json<{ id: number; distance_m: number }[]>();
      const theirs = await closestCities(t.store.db, lat, lng, 5);
      expect(
        ours.map((c) => c.distance_m),
        `${lat},${lng}`,
      ).toEqual(theirs.map((c) => c.distance_m));
      expect(ours).toHaveLength(5);
    }
    // in process, once built: the median call well under the 1 ms budget (the median, because other
    // work on a shared machine preempts single calls)
    const engine = new ClosestCities(t.store);
    const snapshot = await engine.loaded();
    const times = asks.concat(asks, asks).map(([lat, lng]) => {
      const started = performance.now();
      engine.closestIn(snapshot, lat, lng, 5);
      return performance.now() - started;
    });
    times.sort((a, b) => a - b);
    expect(times[Math.floor(times.length / 2)]).toBeLessThan(1);
  }, 120_000);
});
