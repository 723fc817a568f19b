/**
 * Point tiles benchmark:
 * `npm run bench:tiles -- [--points 1000000] [--seed 1] [--tiles 2000] [--postgis-tiles 200] [--raw-tiles 24]
 *   [--data-dir DIR] [--no-postgis]`.
 *
 * Seeds (or reuses) a SQLite store of N demo points in a cached DATA_DIR, builds the point tile index
 * (cold build time, RSS and heap growth), then times warm tile generation over a realistic z0-16 tile
 * mix around populated places, compares z <= 8 tile sizes with raw (unclustered) geojson-vt tiles of
 * the same points, times the same tiles from PostGIS (ST_AsMVT over ST_SnapToGrid clusters; installs
 * postgresql-15-postgis-3 when missing and running as root), and measures how long a single-point
 * change takes to show in the tiles. Prints a table with ratios and exits. Not part of `npm test`.
 *
 * The bench writes to its store (the change-latency step inserts and deletes points). `--data-dir`
 * points it at another copy of the seeded store, e.g. one made with SQLite's backup so that a store
 * other benchmarks read stays untouched; `--no-postgis` skips the PostGIS peer while iterating.
 */
import { execSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import GeoJSONVT from 'geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import pg from 'pg';
import { loadCities } from '../src/server/features/cities/load';
import { seedDemoData } from '../src/server/seed/generate';
import { ChangeFollower } from '../src/server/store/follower';
import { openStore, type Store } from '../src/server/store/store';
import { PointTiles } from '../src/server/tiles/points/service';
import { LAYER_GROUPS } from '../src/shared/map/contract';
import { newPoint } from '../test/support/factories';

interface Args {
  points: number;
  seed: number;
  postgisTiles: number;
  tiles: number;
  rawTiles: number;
  pgUrl: string;
  dataDir: string | undefined;
  postgis: boolean;
}

function parseArgs(argv: string[]): Args {
  const get = (name: string, fallback: string) => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 && argv[at + 1] ? (argv[at + 1] as string) : fallback;
  };
  return {
    points: Number(get('points', '1000000')),
    seed: Number(get('seed', '1')),
    postgisTiles: Number(get('postgis-tiles', '200')),
    tiles: Number(get('tiles', '2000')),
    rawTiles: Number(get('raw-tiles', '24')),
    pgUrl: get('pg', process.env['BENCH_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres'),
    dataDir: argv.includes('--data-dir') ? get('data-dir', '') || undefined : undefined,
    postgis: !argv.includes('--no-postgis'),
  };
}

const log = (message: string) =>
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/** A small deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function tileOf(lat: number, lon: number, z: number): [number, number] {
  const n = 2 ** z;
  const s = Math.sin((Math.max(-85, Math.min(85, lat)) * Math.PI) / 180);
  const x = Math.min(n - 1, Math.max(0, Math.floor(((lon + 180) / 360) * n)));
  const y = Math.min(n - 1, Math.max(0, Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n)));
  return [x, y];
}

/** Zoom weights of a real session: a few world and country views, most time at city and street level. */
const ZOOM_WEIGHTS = [1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 9, 12, 14, 14, 12, 10];

async function openSeeded(args: Args): Promise<{ store: Store; dataDir: string }> {
  const dataDir = args.dataDir ?? path.join(os.tmpdir(), `xpoint-bench-tiles-${args.points}-${args.seed}`);
  const store = await openStore({ dataDir });
  const count = Number(
    (store.raw.kind === 'sqlite' &&
      (store.raw.database.prepare('select count(*) as n from points').get() as { n: number }).n) ||
      0,
  );
  if (count !== args.points) {
    log(`seeding ${args.points} points into ${dataDir} (once; later runs reuse it)`);
    await loadCities(store, log);
    const started = performance.now();
    await seedDemoData(store, { points: args.points, seed: args.seed, dataDir, wipe: count > 0, log });
    log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } else log(`reusing ${count} seeded points in ${dataDir}`);
  return { store, dataDir };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const benchStarted = performance.now();
  const { store } = await openSeeded(args);

  // --- cold build -----------------------------------------------------------------------------
  gc();
  const before = process.memoryUsage();
  const load = os.loadavg()[0] ?? 0;
  const buildStarted = performance.now();
  const cpuBefore = process.cpuUsage();
  const follower = new ChangeFollower(store, { intervalMs: 500 });
  const tiles = await PointTiles.open(store, { follower });
  const buildMs = performance.now() - buildStarted;
  const buildCpu = process.cpuUsage(cpuBefore);
  gc();
  const rightAfter = process.memoryUsage();
  // V8 frees dead ArrayBuffers' memory a moment after a collection: measure what the index keeps
  await new Promise((resolve) => setTimeout(resolve, 500));
  gc();
  const after = process.memoryUsage();
  const index = tiles.index;
  log(`index built: ${index.count} records in ${buildMs.toFixed(0)} ms`);

  // --- the tile mix ---------------------------------------------------------------------------
  const random = rng(args.seed * 7919 + 1);
  const anchors = (
    store.raw.kind === 'sqlite'
      ? store.raw.database.prepare('select lat, lon from points order by random() limit ?').all(args.tiles)
      : []
  ) as { lat: number; lon: number }[];
  const totalWeight = ZOOM_WEIGHTS.reduce((a, b) => a + b, 0);
  const pickZoom = () => {
    let r = random() * totalWeight;
    for (let z = 0; z < ZOOM_WEIGHTS.length; z++) {
      r -= ZOOM_WEIGHTS[z] as number;
      if (r < 0) return z;
    }
    return 16;
  };
  const list: [number, number, number][] = anchors.map(({ lat, lon }) => {
    const z = pickZoom();
    const [x, y] = tileOf(lat, lon, z);
    // the viewport around a place: the tile itself or a neighbour
    const n = 2 ** z;
    const dx = Math.floor(random() * 3) - 1;
    const dy = Math.floor(random() * 3) - 1;
    return [z, (x + dx + n) % n, Math.min(n - 1, Math.max(0, y + dy))];
  });
  const groups = [...LAYER_GROUPS];

  // warm-up: JIT, then measure generation (the LRU bypassed: index.tile encodes every time)
  for (const [z, x, y] of list.slice(0, 300)) index.tile(z, x, y, groups);
  const genByTile: number[] = [];
  let generatedBytes = 0;
  for (const [z, x, y] of list) {
    const t0 = performance.now();
    const bytes = index.tile(z, x, y, groups);
    genByTile.push(performance.now() - t0);
    generatedBytes += bytes?.length ?? 0;
  }
  const genTimes = [...genByTile].sort((a, b) => a - b);
  const oursForPostgis = genByTile.slice(0, args.postgisTiles).sort((a, b) => a - b);
  // raw tiles at low zoom hold hundreds of thousands of points each: a bounded, evenly spread sample
  const allLow = list.filter(([z]) => z <= 8);
  const step = Math.max(1, Math.ceil(allLow.length / args.rawTiles));
  const lowZoom = allLow.filter((_, i) => i % step === 0);
  // ours on the raw peer's tiles, timed here, before geojson-vt's garbage makes the collector busy
  const oursLowTimes = lowZoom
    .map(([z, x, y]) => {
      const t0 = performance.now();
      index.tile(z, x, y, groups);
      return performance.now() - t0;
    })
    .sort((a, b) => a - b);
  // with gzip, through the service (first pass fills the LRU, second pass hits it)
  const gzTimes: number[] = [];
  for (const [z, x, y] of list) {
    const t0 = performance.now();
    tiles.tile(z, x, y, groups, true);
    gzTimes.push(performance.now() - t0);
  }
  gzTimes.sort((a, b) => a - b);
  const hitTimes: number[] = [];
  for (const [z, x, y] of list) {
    const t0 = performance.now();
    tiles.tile(z, x, y, groups, true);
    hitTimes.push(performance.now() - t0);
  }
  hitTimes.sort((a, b) => a - b);
  log(`generated ${list.length} tiles, ${mb(generatedBytes)} raw`);

  // --- a single change becoming visible ------------------------------------------------------
  const latencies: number[] = [];
  const applyTimes: number[] = [];
  const freshIds: string[] = [];
  for (let k = 0; k < 5; k++) {
    const id = `benchfresh${Date.now()}${k}`;
    const lat = 40.75 + k * 0.01;
    const lon = -73.98;
    const [x, y] = tileOf(lat, lon, 18);
    const t0 = performance.now();
    await store.db
      .insertInto('points')
      .values(newPoint({ id, type: 'cafe', title: 'Bench cafe', lat, lon }))
      .execute();
    for (;;) {
      const tile = tiles.tile(18, x, y, ['business'], false).tile;
      if (tile && tile.raw.includes(Buffer.from(id))) break;
      if (performance.now() - t0 > 10_000) throw new Error('change not visible after 10 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    latencies.push(performance.now() - t0);
    freshIds.push(id);
  }
  // the cost of applying one change (read the feed, re-read the row, merge into the business group),
  // without the poll wait: the feed's timer is stopped and each delete is polled by hand
  await follower.stop();
  for (const id of freshIds) {
    await store.db.deleteFrom('points').where('id', '=', id).execute();
    const a0 = performance.now();
    await follower.poll();
    await follower.settled();
    applyTimes.push(performance.now() - a0);
  }
  // --- raw geojson-vt peer at z <= 8 ----------------------------------------------------------
  const rows = (
    store.raw.kind === 'sqlite'
      ? store.raw.database
          .prepare('select id, supertype, type, subtype, title, lat, lon, beamtype, is_promo from points')
          .raw(true)
          .all()
      : []
  ) as [string, string, string, string | null, string, number, number, number, number][];
  const vtStarted = performance.now();
  const features: GeoJSON.Feature<GeoJSON.Point>[] = rows.map(
    ([id, supertype, type, subtype, title, lat, lon, beam, promo]) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [lon, lat] },
      properties: {
        appnetid: id,
        lat,
        lon,
        supertype,
        businesstype: type,
        subtype: subtype ?? '',
        name: title,
        title,
        clickurl: `/x/${id}`,
        beamtype: beam,
        promo,
      },
    }),
  );
  rows.length = 0;
  const vt = new GeoJSONVT(
    { type: 'FeatureCollection', features },
    {
      maxZoom: 8,
      indexMaxZoom: 0,
      indexMaxPoints: 0,
      tolerance: 0,
      extent: 4096,
      buffer: 0,
    },
  );
  features.length = 0;
  const vtBuildMs = performance.now() - vtStarted;
  let oursBytes = 0;
  let oursGzip = 0;
  let rawBytes = 0;
  let rawGzip = 0;
  const vtTimes: number[] = [];
  for (const [z, x, y] of lowZoom) {
    const ours = index.tile(z, x, y, groups);
    const t0 = performance.now();
    const vtTile = vt.getTile(z, x, y);
    const raw = vtTile ? fromGeojsonVt({ points: vtTile } as never, { version: 2, extent: 4096 }) : null;
    vtTimes.push(performance.now() - t0);
    if (ours) {
      oursBytes += ours.length;
      oursGzip += gzipSync(ours).length;
    }
    if (raw) {
      rawBytes += raw.length;
      rawGzip += gzipSync(raw).length;
    }
  }
  vtTimes.sort((a, b) => a - b);
  log(`geojson-vt raw peer: built in ${vtBuildMs.toFixed(0)} ms, ${lowZoom.length} tiles at z <= 8`);

  await tiles.close();
  await follower.stop();

  // --- PostGIS peer --------------------------------------------------------------------------
  const postgis = args.postgis ? await postgisPeer(args, store, list.slice(0, args.postgisTiles)) : null;
  await store.close();

  // --- report --------------------------------------------------------------------------------
  const oursP = { p50: percentile(genTimes, 50), p99: percentile(genTimes, 99) };
  const lines: [string, string, string][] = [
    ['points (+ visible events)', String(index.count), ''],
    ['cold index build', `${(buildMs / 1000).toFixed(2)} s`, 'budget <= 6 s'],
    [
      '  CPU time of the build (user + system)',
      `${((buildCpu.user + buildCpu.system) / 1e6).toFixed(2)} s`,
      `load average ${load.toFixed(1)} on ${os.cpus().length} cores`,
    ],
    ['  RSS growth after build', mb(after.rss - before.rss), 'budget <= 300 MB'],
    ['  RSS growth right after build (dead buffers not yet freed)', mb(rightAfter.rss - before.rss), ''],
    [
      '  heap + typed arrays growth',
      mb(after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers),
      '',
    ],
    [`warm tile generation (${list.length} tiles z0-16) p50`, `${oursP.p50.toFixed(3)} ms`, ''],
    ['  p99', `${oursP.p99.toFixed(3)} ms`, 'budget <= 2 ms'],
    [
      '  with gzip, first request p50 / p99',
      `${percentile(gzTimes, 50).toFixed(3)} / ${percentile(gzTimes, 99).toFixed(3)} ms`,
      '',
    ],
    [
      '  LRU hit p50 / p99',
      `${percentile(hitTimes, 50).toFixed(4)} / ${percentile(hitTimes, 99).toFixed(4)} ms`,
      '',
    ],
  ];
  if (postgis) {
    lines.push(
      [`PostGIS ST_AsMVT + ST_SnapToGrid (${postgis.count} tiles) p50`, `${postgis.p50.toFixed(2)} ms`, ''],
      ['  p99', `${postgis.p99.toFixed(2)} ms`, ''],
      [
        '  ratio PostGIS / ours (same tiles)',
        `p50 ${(postgis.p50 / percentile(oursForPostgis, 50)).toFixed(0)}x, p99 ${(postgis.p99 / percentile(oursForPostgis, 99)).toFixed(0)}x`,
        'budget >= 10x',
      ],
      [
        '  ours on the same tiles p50 / p99',
        `${percentile(oursForPostgis, 50).toFixed(3)} / ${percentile(oursForPostgis, 99).toFixed(3)} ms`,
        '',
      ],
    );
  } else lines.push(['PostGIS', args.postgis ? 'not available' : 'skipped (--no-postgis)', '']);
  lines.push(
    [
      `z <= 8 tiles (${lowZoom.length} of ${allLow.length}): ours total`,
      `${(oursBytes / 1024).toFixed(0)} KiB raw, ${(oursGzip / 1024).toFixed(0)} KiB gzip`,
      '',
    ],
    ['  raw geojson-vt points', `${mb(rawBytes)} raw, ${(rawGzip / 1024).toFixed(0)} KiB gzip`, ''],
    [
      '  size ratio raw / ours',
      `${(rawBytes / Math.max(1, oursBytes)).toFixed(0)}x raw, ${(rawGzip / Math.max(1, oursGzip)).toFixed(0)}x gzip`,
      'budget >= 10x',
    ],
    [
      '  time: geojson-vt getTile+encode p50 / p99',
      `${percentile(vtTimes, 50).toFixed(2)} / ${percentile(vtTimes, 99).toFixed(2)} ms (build ${(vtBuildMs / 1000).toFixed(1)} s)`,
      '',
    ],
    [
      '  time: ours p50 / p99 (same tiles)',
      `${percentile(oursLowTimes, 50).toFixed(3)} / ${percentile(oursLowTimes, 99).toFixed(3)} ms`,
      `ratio p99 ${(percentile(vtTimes, 99) / percentile(oursLowTimes, 99)).toFixed(0)}x`,
    ],
    [
      'single-point insert -> visible in tile (poll 500 ms)',
      latencies.map((l) => l.toFixed(0)).join(', ') + ' ms',
      'budget <= 2000 ms',
    ],
    [
      '  applying one change (feed read + row re-read + merge)',
      applyTimes.map((l) => l.toFixed(0)).join(', ') + ' ms',
      '',
    ],
    ['bench wall time', `${((performance.now() - benchStarted) / 1000).toFixed(0)} s`, ''],
  );
  const width = Math.max(...lines.map(([a]) => a.length));
  const width2 = Math.max(...lines.map(([, b]) => b.length));
  process.stdout.write('\nPoint tiles (2 shared cores: other work on the machine adds noise)\n');
  for (const [a, b, c] of lines) process.stdout.write(`${a.padEnd(width)}  ${b.padEnd(width2)}  ${c}\n`);
}

interface PostgisResult {
  count: number;
  p50: number;
  p99: number;
}

/** Loads the same points into PostGIS and serves the same tiles with ST_AsMVT; null when unavailable. */
async function postgisPeer(
  args: Args,
  store: Store,
  list: [number, number, number][],
): Promise<PostgisResult | null> {
  const admin = new pg.Client({ connectionString: args.pgUrl });
  try {
    await admin.connect();
  } catch (error) {
    log(`PostGIS peer skipped: cannot reach ${args.pgUrl} (${String(error)})`);
    return null;
  }
  try {
    const available = await admin.query(`select 1 from pg_available_extensions where name = 'postgis'`);
    if (available.rowCount === 0) {
      if (process.getuid?.() !== 0) {
        log('PostGIS peer skipped: postgis is not installed and this is not root');
        return null;
      }
      log('installing postgresql-15-postgis-3 from Debian');
      execSync(
        'apt-get install -y postgresql-15-postgis-3 || (apt-get update && apt-get install -y postgresql-15-postgis-3)',
        {
          stdio: 'inherit',
          env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
        },
      );
    }
    const dbName = 'xpoint_bench_tiles';
    const exists = await admin.query('select 1 from pg_database where datname = $1', [dbName]);
    if (exists.rowCount === 0) await admin.query(`create database ${dbName}`);
  } finally {
    await admin.end();
  }
  const url = new URL(args.pgUrl);
  url.pathname = '/xpoint_bench_tiles';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query('create extension if not exists postgis');
    await client.query('create table if not exists bench_meta (points integer, seed integer)');
    const meta = await client.query<{ points: number; seed: number }>('select points, seed from bench_meta');
    if (meta.rows[0]?.points !== args.points || meta.rows[0]?.seed !== args.seed) {
      log('loading the points into PostGIS');
      await client.query('drop table if exists bench_points');
      await client.query(`create table bench_points (
        id text, grp text, type text, subtype text, title text, beamtype integer, promo smallint,
        lat double precision, lon double precision, geom geometry(Point, 3857))`);
      if (store.raw.kind !== 'sqlite') throw new Error('the bench seeds SQLite');
      const iterator = store.raw.database
        .prepare('select id, supertype, type, subtype, title, beamtype, is_promo, lat, lon from points')
        .raw(true)
        .iterate() as Iterable<unknown[]>;
      let chunk: unknown[][] = [];
      const flush = async () => {
        if (chunk.length === 0) return;
        const columns = Array.from({ length: 9 }, (_, c) => chunk.map((row) => row[c]));
        await client.query(
          `insert into bench_points (id, grp, type, subtype, title, beamtype, promo, lat, lon, geom)
           select id, grp, type, subtype, title, beamtype, promo, lat, lon,
                  ST_Transform(ST_SetSRID(ST_MakePoint(lon, greatest(-85.05, least(85.05, lat))), 4326), 3857)
           from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::smallint[],
                       $8::float8[], $9::float8[]) as t(id, grp, type, subtype, title, beamtype, promo, lat, lon)`,
          columns,
        );
        chunk = [];
      };
      for (const row of iterator) {
        chunk.push(row);
        if (chunk.length >= 20_000) await flush();
      }
      await flush();
      await client.query('create index bench_points_geom on bench_points using gist (geom)');
      await client.query('analyze bench_points');
      await client.query('delete from bench_meta');
      await client.query('insert into bench_meta values ($1, $2)', [args.points, args.seed]);
    } else log('reusing the PostGIS copy of the points');
    // clusters: the points of each grid cell (8 x 8 cells a tile, like ours) through z16; raw above
    const query = `
      with b as (select ST_TileEnvelope($1, $2, $3) as env),
      cells as (
        select grp, count(*) as point_count, ST_Centroid(ST_Collect(geom)) as c, min(id) as appnetid, min(title) as title
        from bench_points, b where geom && b.env
        group by grp, ST_SnapToGrid(geom, $4)
      ),
      mvtgeom as (
        select grp, point_count, appnetid, title, ST_AsMVTGeom(c, b.env, 4096, 0, true) as geom from cells, b
      )
      select coalesce(string_agg(mvt, ''::bytea), ''::bytea) as tile
      from (select ST_AsMVT(m.*, m.grp, 4096, 'geom') as mvt from mvtgeom m group by m.grp) layers`;
    const worldMeters = 40075016.68557849;
    const run = async ([z, x, y]: [number, number, number]) => {
      const cell = z <= 16 ? worldMeters / 2 ** z / 8 : worldMeters / 2 ** z / 4096;
      await client.query(query, [z, x, y, cell]);
    };
    for (const tile of list.slice(0, 20)) await run(tile);
    const times: number[] = [];
    for (const tile of list) {
      const t0 = performance.now();
      await run(tile);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return { count: list.length, p50: percentile(times, 50), p99: percentile(times, 99) };
  } finally {
    await client.end();
  }
}

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    process.stderr.write(
      `bench:tiles failed: ${String(error instanceof Error ? (error.stack ?? error) : error)}\n`,
    );
    process.exit(1);
  });
