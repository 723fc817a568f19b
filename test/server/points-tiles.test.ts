import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewEvent, NewPoint } from '../../src/server/store/schema';
import { LAYER_GROUPS, type LayerGroup } from '../../src/shared/map/contract';
import { openTestApp, type TestApp } from '../support/app';
import { TEST_DATABASE_URL, TEST_DIALECTS } from '../support/store';
import { buildApp } from '../../src/server/app';
import { openStore } from '../../src/server/store/store';
import { POINT_SUPERTYPES, prefixFor } from '../../src/shared/domain/supertypes';
import { newPoint } from '../support/factories';

const T0 = Date.UTC(2025, 5, 15, 12, 0, 0);
const DAY = 86_400_000;
/** Seeded points: a few clusters around real places, every supertype. */
const POINT_GROUPS = POINT_SUPERTYPES;
const CENTRES = [
  { lat: 40.7128, lon: -74.006 },
  { lat: 51.5074, lon: -0.1278 },
  { lat: -33.8688, lon: 151.2093 },
  { lat: 35.6762, lon: 139.6503 },
];

function pointRow(n: number, fields: Partial<NewPoint> = {}): NewPoint {
  const centre = CENTRES[n % CENTRES.length] as { lat: number; lon: number };
  // a deterministic spiral around the centre, a few km across
  const angle = n * 2.399963;
  const radius = 0.0004 * Math.sqrt(n);
  return newPoint({
    id: `tp${n}`,
    supertype: POINT_GROUPS[n % POINT_GROUPS.length] as string,
    type: n % 3 === 0 ? 'cafe' : 'bakery',
    subtype: n % 5 === 0 ? 'vegan' : null,
    title: `Tile point ${n}`,
    lat: centre.lat + radius * Math.sin(angle),
    lon: centre.lon + radius * Math.cos(angle),
    beamtype: n % 7 === 0 ? 1 : 0,
    is_promo: n % 11 === 0 ? 1 : 0,
    created_at: T0,
    updated_at: T0,
    ...fields,
  });
}

function eventRow(n: number, endDate: number): NewEvent {
  const centre = CENTRES[n % CENTRES.length] as { lat: number; lon: number };
  return {
    id: `te${n}`,
    title: `Tile event ${n}`,
    type: 'concert',
    subtype: null,
    start_date: endDate - 3_600_000,
    end_date: endDate,
    lat: centre.lat + 0.001 * n,
    lon: centre.lon - 0.001 * n,
    admission: 'free',
    created_at: T0,
    updated_at: T0,
  };
}

interface DecodedFeature {
  properties: Record<string, unknown>;
  /** tile-local coordinates 0..extent */
  x: number;
  y: number;
}

function decode(body: Buffer): Record<string, DecodedFeature[]> {
  const tile = new VectorTile(new PbfReader(body));
  const out: Record<string, DecodedFeature[]> = {};
  for (const [name, layer] of Object.entries(tile.layers)) {
    const features: DecodedFeature[] = [];
    for (let i = 0; i < layer.length; i++) {
      const feature = layer.feature(i);
      const point = feature.loadGeometry()[0]?.[0];
      features.push({ properties: feature.properties, x: point?.x ?? NaN, y: point?.y ?? NaN });
    }
    out[name] = features;
  }
  return out;
}

/** The tile holding (lat, lon) at zoom z. */
function tileOf(lat: number, lon: number, z: number): [number, number] {
  const n = 2 ** z;
  const x = Math.floor(((lon + 180) / 360) * n);
  const s = Math.sin((lat * Math.PI) / 180);
  const y = Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n);
  return [x, y];
}

async function getTile(app: TestApp['app'], url: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url, headers });
}

/** Polls until `check` passes, at most `ms` (the change feed is polled every 500 ms). */
async function eventually(check: () => Promise<boolean>, ms = 2000): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`not visible within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function pointInTile(app: TestApp['app'], id: string, lat: number, lon: number, z = 18) {
  const [x, y] = tileOf(lat, lon, z);
  const response = await getTile(app, `/tiles/points/${z}/${x}/${y}.mvt`);
  if (response.statusCode === 204) return undefined;
  const layers = decode(response.rawPayload);
  for (const features of Object.values(layers)) {
    const found = features.find((f) => f.properties['appnetid'] === id);
    if (found) return found;
  }
  return undefined;
}

const POINTS = 1200;
const NOW = Date.now();

describe('point tiles over HTTP (SQLite)', () => {
  let t: TestApp;
  let visible: Record<LayerGroup, number>;

  beforeAll(async () => {
    t = await openTestApp();
    const rows = Array.from({ length: POINTS }, (_, n) => pointRow(n));
    for (let i = 0; i < rows.length; i += 200) {
      await t.store.db
        .insertInto('points')
        .values(rows.slice(i, i + 200))
        .execute();
    }
    // events: two visible (future, ended an hour ago), one long over (hidden)
    await t.store.db
      .insertInto('events')
      .values([eventRow(1, NOW + DAY), eventRow(2, NOW - 3_600_000), eventRow(3, NOW - 30 * DAY)])
      .execute();
    // posts with a place, one per centre (test/server/posts-map.test.ts has the rest of their story)
    await t.store.db
      .insertInto('users')
      .values({
        id: 'tile-author',
        username: 'tileauthor',
        username_lower: 'tileauthor',
        email: 'tiles@example.org',
        email_lower: 'tiles@example.org',
        fullname: 'Tile Author',
        avatar_url: null,
        status: 'active',
        is_admin: 0,
        password_hash: null,
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
    await t.store.db
      .insertInto('posts')
      .values(
        CENTRES.map((centre, i) => ({
          id: `00000000-0000-4000-8000-00000000000${i}`,
          user_id: 'tile-author',
          title: `Tile post ${i}`,
          description: '',
          type: 'deal',
          lat: centre.lat + 0.002,
          lon: centre.lon - 0.002,
          listed_at: NOW,
          created_at: NOW,
          updated_at: NOW,
          file_resource_bitmask: 0,
        })),
      )
      .execute();
    visible = Object.fromEntries(LAYER_GROUPS.map((g) => [g, 0])) as Record<LayerGroup, number>;
    for (const row of rows) visible[row.supertype as LayerGroup]++;
    visible.event = 2;
    visible.post = CENTRES.length;
    await eventually(async () => t.app.pointTiles.index.count === POINTS + 2 + CENTRES.length, 5000);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('clusters every visible point at zoom 0: counts per group add up', async () => {
    const response = await getTile(t.app, '/tiles/points/0/0/0.mvt');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.mapbox-vector-tile');
    const layers = decode(response.rawPayload);
    expect(Object.keys(layers).sort()).toEqual([...LAYER_GROUPS].sort());
    for (const group of LAYER_GROUPS) {
      const features = layers[group] ?? [];
      const total = features.reduce(
        (sum, f) => sum + (f.properties['cluster'] ? Number(f.properties['point_count']) : 1),
        0,
      );
      expect(total, group).toBe(visible[group]);
      for (const f of features.filter((feature) => feature.properties['cluster'])) {
        expect(f.properties).toMatchObject({ cluster: true, supertype: group });
        expect(typeof f.properties['cluster_id']).toBe('number');
        expect(f.properties['point_count_abbreviated']).toBe(String(f.properties['point_count']));
        expect(Number(f.properties['expansion_zoom'])).toBeGreaterThan(0);
      }
    }
  });

  it('shows single points with every contract property and the right click url at high zoom', async () => {
    const row = pointRow(42);
    const feature = await pointInTile(t.app, 'tp42', row.lat, row.lon, 18);
    expect(feature).toBeDefined();
    expect(feature?.properties).toEqual({
      appnetid: 'tp42',
      lat: Math.round(row.lat * 1e6) / 1e6,
      lon: Math.round(row.lon * 1e6) / 1e6,
      supertype: row.supertype,
      businesstype: 'cafe',
      subtype: '',
      name: 'Tile point 42',
      title: 'Tile point 42',
      clickurl: `/${prefixFor(row.supertype)}/tp42`,
      beamtype: 1,
      promo: 0,
    });
    // and at the highest zoom, where the point lies inside its tile
    const at20 = await pointInTile(t.app, 'tp42', row.lat, row.lon, 20);
    expect(at20?.x).toBeGreaterThanOrEqual(0);
    expect(at20?.x).toBeLessThanOrEqual(4096);
    const event = await pointInTile(t.app, 'te1', eventRow(1, 0).lat, eventRow(1, 0).lon, 18);
    expect(event?.properties).toMatchObject({
      supertype: 'event',
      clickurl: '/e/te1',
      businesstype: 'concert',
    });
    expect(await pointInTile(t.app, 'te3', eventRow(3, 0).lat, eventRow(3, 0).lon, 18)).toBeUndefined();
  });

  it('answers bad addresses with the error catalogue', async () => {
    const cases: [string, number, number, RegExp][] = [
      ['/tiles/points/21/0/0.mvt', 404, 4001, /zoom 21/],
      ['/tiles/points/-1/0/0.mvt', 404, 4001, /zoom -1/],
      ['/tiles/points/2/4/0.mvt', 400, 4002, /x 4 is outside 0\.\.3/],
      ['/tiles/points/2/0/-1.mvt', 400, 4002, /y -1 is outside 0\.\.3/],
      ['/tiles/points/a/0/0.mvt', 400, 4002, /zoom "a" is not an integer/],
      ['/tiles/points/3/1.5/0.mvt', 400, 4002, /x "1\.5" is not an integer/],
      ['/tiles/points/3/1/zz.mvt', 400, 4002, /y "zz" is not an integer/],
      ['/tiles/points/3/1/1.png', 400, 4002, /end in \.mvt/],
      ['/tiles/points/0/0/0.mvt?layers=business,shops', 400, 4003, /"shops" is not a layer group/],
    ];
    for (const [url, status, code, message] of cases) {
      const response = await getTile(t.app, url);
      expect(response.statusCode, url).toBe(status);
      const body = response.json<{ errorcode: number; error: string }>();
      expect(body.errorcode, url).toBe(code);
      expect(body.error, url).toMatch(message);
    }
  });

  it('answers an empty tile with 204', async () => {
    // the middle of the South Pacific
    const [x, y] = tileOf(-40, -130, 10);
    const response = await getTile(t.app, `/tiles/points/10/${x}/${y}.mvt`);
    expect(response.statusCode).toBe(204);
    expect(response.rawPayload.length).toBe(0);
  });

  it('sends an ETag and answers 304 to If-None-Match; Cache-Control is short', async () => {
    const first = await getTile(t.app, '/tiles/points/2/1/1.mvt');
    expect(first.statusCode).toBe(200);
    const etag = String(first.headers['etag']);
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=5');
    const again = await getTile(t.app, '/tiles/points/2/1/1.mvt', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const other = await getTile(t.app, '/tiles/points/2/1/1.mvt?layers=poi', { 'if-none-match': etag });
    expect(other.statusCode).toBe(200);
  });

  it('gzips when the client accepts it, with the same content', async () => {
    const plain = await getTile(t.app, '/tiles/points/1/0/0.mvt');
    const zipped = await getTile(t.app, '/tiles/points/1/0/0.mvt', {
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gunzipSync(zipped.rawPayload).equals(plain.rawPayload)).toBe(true);
  });

  it('limits the layers with ?layers=', async () => {
    const response = await getTile(t.app, '/tiles/points/0/0/0.mvt?layers=poi,event');
    expect(Object.keys(decode(response.rawPayload)).sort()).toEqual(['event', 'poi']);
  });

  it('pages through cluster leaves and tells the expansion zoom', async () => {
    const layers = decode((await getTile(t.app, '/tiles/points/0/0/0.mvt?layers=business')).rawPayload);
    const cluster = (layers['business'] ?? [])
      .filter((f) => f.properties['cluster'])
      .sort((a, b) => Number(b.properties['point_count']) - Number(a.properties['point_count']))[0];
    expect(cluster).toBeDefined();
    const id = Number(cluster?.properties['cluster_id']);
    const count = Number(cluster?.properties['point_count']);
    const seen = new Set<string>();
    for (let offset = 0; offset < count; offset += 25) {
      const page = await t.app.inject(
        `/tiles/points/clusters/business/${id}/leaves?limit=25&offset=${offset}`,
      );
      expect(page.statusCode).toBe(200);
      const body = page.json<{ total: number; leaves: { appnetid: string; clickurl: string }[] }>();
      expect(body.total).toBe(count);
      expect(body.leaves.length).toBe(Math.min(25, count - offset));
      for (const leaf of body.leaves) {
        expect(leaf.clickurl).toBe(`/b/${leaf.appnetid}`);
        expect(leaf).toHaveProperty('title');
        expect(leaf).toHaveProperty('businesstype');
        expect(leaf).toHaveProperty('lat');
        seen.add(leaf.appnetid);
      }
    }
    expect(seen.size).toBe(count);
    const past = await t.app.inject(`/tiles/points/clusters/business/${id}/leaves?offset=${count}`);
    expect(past.json()).toEqual({ total: count, leaves: [] });
    const zoom = await t.app.inject(`/tiles/points/clusters/business/${id}/expansion-zoom`);
    expect(zoom.json()).toEqual({ expansion_zoom: cluster?.properties['expansion_zoom'] });

    expect((await t.app.inject(`/tiles/points/clusters/business/${id}/leaves?limit=101`)).statusCode).toBe(
      400,
    );
    expect((await t.app.inject(`/tiles/points/clusters/business/${id}/leaves?offset=-1`)).statusCode).toBe(
      400,
    );
    expect((await t.app.inject(`/tiles/points/clusters/nope/${id}/leaves`)).statusCode).toBe(400);
    const missing = await t.app.inject(`/tiles/points/clusters/incident/${id}/leaves`);
    expect([404, 200]).toContain(missing.statusCode);
    expect((await t.app.inject('/tiles/points/clusters/business/7/leaves')).json()).toMatchObject({
      errorcode: 4004,
    });
  });
});

for (const dialect of TEST_DIALECTS) {
  describe(`point tiles follow the store within 2 s (${dialect})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await openTestApp({ dialect });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('shows a new point, its new title, and drops it when deleted', async () => {
      const row = pointRow(5000, { id: 'fresh1', supertype: 'rental', lat: 48.8566, lon: 2.3522 });
      const etagBefore = (await getTile(t.app, '/tiles/points/0/0/0.mvt')).headers['etag'];
      await t.store.db.insertInto('points').values(row).execute();
      await eventually(async () => (await pointInTile(t.app, 'fresh1', row.lat, row.lon)) !== undefined);
      const found = await pointInTile(t.app, 'fresh1', row.lat, row.lon);
      expect(found?.properties['clickurl']).toBe('/rent/fresh1');
      expect((await getTile(t.app, '/tiles/points/0/0/0.mvt')).headers['etag']).not.toBe(etagBefore);

      await t.store.db.updateTable('points').set({ title: 'Renamed' }).where('id', '=', 'fresh1').execute();
      await eventually(
        async () => (await pointInTile(t.app, 'fresh1', row.lat, row.lon))?.properties['title'] === 'Renamed',
      );

      await t.store.db
        .updateTable('points')
        .set({ lat: 48.86, lon: 2.36 })
        .where('id', '=', 'fresh1')
        .execute();
      await eventually(async () => (await pointInTile(t.app, 'fresh1', 48.86, 2.36)) !== undefined);

      await t.store.db.deleteFrom('points').where('id', '=', 'fresh1').execute();
      await eventually(async () => (await pointInTile(t.app, 'fresh1', 48.86, 2.36)) === undefined);

      const event = eventRow(9, Date.now() + DAY);
      await t.store.db.insertInto('events').values(event).execute();
      await eventually(async () => (await pointInTile(t.app, 'te9', event.lat, event.lon)) !== undefined);
    });
  });
}

describe.runIf(TEST_DATABASE_URL)('two processes on one PostgreSQL database', () => {
  it('each sees a write made through the other', async () => {
    const a = await openTestApp({ dialect: 'postgres' });
    // another server process: its own pool, app and index on the same schema
    const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(a.store.db))
      .rows[0]?.schema as string;
    const url = new URL(TEST_DATABASE_URL as string);
    url.searchParams.set('options', `-c search_path=${schema},public`);
    const storeB = await openStore({ databaseUrl: url.toString(), dataDir: a.config.dataDir });
    const b = await buildApp({ config: a.config, store: storeB });
    try {
      await b.ready();
      const one = pointRow(6000, { id: 'shared1', lat: 52.52, lon: 13.405 });
      await a.store.db.insertInto('points').values(one).execute();
      await eventually(async () => (await pointInTile(b, 'shared1', one.lat, one.lon)) !== undefined);
      await eventually(async () => (await pointInTile(a.app, 'shared1', one.lat, one.lon)) !== undefined);
      const two = pointRow(6001, { id: 'shared2', lat: 52.53, lon: 13.41 });
      await storeB.db.insertInto('points').values(two).execute();
      await eventually(async () => (await pointInTile(a.app, 'shared2', two.lat, two.lon)) !== undefined);
      await storeB.db.deleteFrom('points').where('id', '=', 'shared1').execute();
      await eventually(async () => (await pointInTile(a.app, 'shared1', one.lat, one.lon)) === undefined);
    } finally {
      await b.close();
      await storeB.close();
      await a.close();
    }
  });
});
