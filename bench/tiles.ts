/**
 * Point tiles benchmark:
 * `npm run bench:tiles -- [--points 1000000] [--seed 1] [--tiles 2000] [--warm-tiles 300] [--runs 3]
 *   [--on-the-fly-seconds 90] [--raw-tiles 24 (0: skip the geojson-vt peer)] [--data-dir DIR] [--no-postgis]`.
 *
 * Seeds (or reuses) a SQLite store of N demo points in a cached DATA_DIR, builds the point tile index
 * (cold build time, RSS and heap growth), then times warm tile generation in process over a realistic
 * z0-16 tile mix around populated places, compares z <= 8 tile sizes with raw (unclustered) geojson-vt
 * tiles of the same points, and measures how long a single-point change takes to show in the tiles.
 *
 * Then ours against two PostGIS peers on the same footing (bench/tiles-postgis.ts; installs the Debian
 * postgis package when missing and running as root): every side behind a route of one Fastify server on
 * 127.0.0.1, timed from a client in a worker thread (keep-alive, one request at a time, send to last
 * byte), each given the same WARM-UP (--warm-tiles tiles drawn the same way as, but apart from, the
 * timed ones; time-capped for a slow peer) and then the same timed tile list (--tiles), no cache on any
 * side (ours encodes every tile, as PostGIS does), point layers only (the peers hold no events or
 * posts), --runs times with the order of the sides rotated, each run's p50/p99 and the spread printed:
 * - PostGIS with clusters precomputed per zoom (a GiST-indexed table per zoom, ST_AsMVT over a pool);
 * - PostGIS clustering on every request (ST_SnapToGrid; the earlier peer), bounded by
 *   --on-the-fly-seconds of timed tiles per run, compared with ours on the tiles it reached.
 * Prints a table with ratios and exits. Not part of `npm test`.
 *
 * The bench writes to its store (the change-latency step inserts and deletes points). `--data-dir`
 * points it at another copy of the seeded store, e.g. one made with SQLite's backup so that a store
 * other benchmarks read stays untouched; `--no-postgis` skips the PostGIS peers while iterating.
 */
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import GeoJSONVT from 'geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { VectorTile } from '@mapbox/vector-tile';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { PbfReader } from 'pbf';
import pg from 'pg';
import pino from 'pino';
import { loadCities } from '../src/server/features/cities/load';
import { seedDemoData } from '../src/server/seed/generate';
import { ChangeFollower } from '../src/server/store/follower';
import { openStore, type Store } from '../src/server/store/store';
import { PointTiles } from '../src/server/tiles/points/service';
import { POINT_SUPERTYPES } from '../src/shared/domain/supertypes';
import { LAYER_GROUPS, type LayerGroup } from '../src/shared/map/contract';
import { newPoint } from '../test/support/factories';
import { HttpClient } from './http-client';
import { collectGarbage as gc, log, pct, random as seeded } from './support';
import {
  ON_THE_FLY_QUERY,
  clusterTileQuery,
  onTheFlyCell,
  preparePostgis,
  type PostgisSetup,
} from './tiles-postgis';

interface Args {
  points: number;
  seed: number;
  tiles: number;
  warmTiles: number;
  runs: number;
  onTheFlySeconds: number;
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
    tiles: Number(get('tiles', '2000')),
    warmTiles: Number(get('warm-tiles', '300')),
    runs: Number(get('runs', '3')),
    onTheFlySeconds: Number(get('on-the-fly-seconds', '90')),
    rawTiles: Number(get('raw-tiles', '24')),
    pgUrl: get('pg', process.env['BENCH_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres'),
    dataDir: argv.includes('--data-dir') ? get('data-dir', '') || undefined : undefined,
    postgis: !argv.includes('--no-postgis'),
  };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

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
  // anchors: seeded points drawn by seq with the seeded generator, so every run times the same tiles
  const random = seeded(args.seed * 7919 + 1);
  if (store.raw.kind !== 'sqlite') throw new Error('the bench seeds SQLite');
  const database = store.raw.database;
  const { lo, hi } = database.prepare('select min(seq) as lo, max(seq) as hi from points').get() as {
    lo: number;
    hi: number;
  };
  const bySeq = database.prepare('select lat, lon from points where seq = ?');
  const drawAnchors = (count: number) => {
    const out: { lat: number; lon: number }[] = [];
    while (out.length < count) {
      const row = bySeq.get(lo + Math.floor(random() * (hi - lo + 1))) as
        { lat: number; lon: number } | undefined;
      if (row) out.push(row);
    }
    return out;
  };
  const totalWeight = ZOOM_WEIGHTS.reduce((a, b) => a + b, 0);
  const pickZoom = () => {
    let r = random() * totalWeight;
    for (let z = 0; z < ZOOM_WEIGHTS.length; z++) {
      r -= ZOOM_WEIGHTS[z] as number;
      if (r < 0) return z;
    }
    return 16;
  };
  const drawTiles = (count: number): Tile[] =>
    drawAnchors(count).map(({ lat, lon }) => {
      const z = pickZoom();
      const [x, y] = tileOf(lat, lon, z);
      // the viewport around a place: the tile itself or a neighbour
      const n = 2 ** z;
      const dx = Math.floor(random() * 3) - 1;
      const dy = Math.floor(random() * 3) - 1;
      return [z, (x + dx + n) % n, Math.min(n - 1, Math.max(0, y + dy))];
    });
  // the timed tiles, and apart from them the warm-up tiles, drawn the same way
  const list = drawTiles(args.tiles);
  const warmList = drawTiles(args.warmTiles);
  const groups = [...LAYER_GROUPS];

  // warm-up: JIT, then measure generation (the LRU bypassed: index.tile encodes every time)
  for (const [z, x, y] of warmList) index.tile(z, x, y, groups);
  const genByTile: number[] = [];
  let generatedBytes = 0;
  for (const [z, x, y] of list) {
    const t0 = performance.now();
    const bytes = index.tile(z, x, y, groups);
    genByTile.push(performance.now() - t0);
    generatedBytes += bytes?.length ?? 0;
  }
  const genTimes = [...genByTile].sort((a, b) => a - b);
  // raw tiles at low zoom hold hundreds of thousands of points each: a bounded, evenly spread sample
  const allLow = list.filter(([z]) => z <= 8);
  const step = Math.max(1, Math.ceil(allLow.length / args.rawTiles));
  const lowZoom = args.rawTiles > 0 ? allLow.filter((_, i) => i % step === 0) : [];
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
  // --- ours and the PostGIS peers over HTTP, on the same footing -------------------------------
  const setup = args.postgis ? await preparePostgis(args.pgUrl, store, args.points, args.seed) : null;
  const versus = setup ? await compareOverHttp(args, setup, index, list, warmList) : null;

  // --- raw geojson-vt peer at z <= 8 ----------------------------------------------------------
  // (--raw-tiles 0 skips it: no rows, no tiles)
  const rows = (
    store.raw.kind === 'sqlite' && args.rawTiles > 0
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

  await store.close();

  // --- report --------------------------------------------------------------------------------
  const oursP = { p50: pct(genTimes, 50), p99: pct(genTimes, 99) };
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
      `${pct(gzTimes, 50).toFixed(3)} / ${pct(gzTimes, 99).toFixed(3)} ms`,
      '',
    ],
    ['  LRU hit p50 / p99', `${pct(hitTimes, 50).toFixed(4)} / ${pct(hitTimes, 99).toFixed(4)} ms`, ''],
  ];
  if (versus) lines.push(...versusLines(versus, setup as PostgisSetup, args));
  else lines.push(['PostGIS', args.postgis ? 'not available' : 'skipped (--no-postgis)', '']);
  if (args.rawTiles === 0) lines.push(['raw geojson-vt peer', 'skipped (--raw-tiles 0)', '']);
  else
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
        `${pct(vtTimes, 50).toFixed(2)} / ${pct(vtTimes, 99).toFixed(2)} ms (build ${(vtBuildMs / 1000).toFixed(1)} s)`,
        '',
      ],
      [
        '  time: ours p50 / p99 (same tiles)',
        `${pct(oursLowTimes, 50).toFixed(3)} / ${pct(oursLowTimes, 99).toFixed(3)} ms`,
        `ratio p99 ${(pct(vtTimes, 99) / pct(oursLowTimes, 99)).toFixed(0)}x`,
      ],
    );
  lines.push(
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

type Tile = [number, number, number];

// --- ours and the PostGIS peers over HTTP --------------------------------------------------------

/** `floor`: the same route answering 204 with no work, the HTTP and framework cost every side pays. */
const SIDES = ['ours', 'postgis-clusters', 'postgis-on-the-fly', 'floor'] as const;
type Side = (typeof SIDES)[number];
/** A side's warm-up stops after this long, whatever it has left (the on-the-fly peer's world tiles). */
const WARM_UP_BUDGET_MS = 20_000;
/** The point groups: the peers hold the store's points only, so ours is asked for the same layers. */
const POINT_GROUPS: LayerGroup[] = [...POINT_SUPERTYPES];

interface SideRun {
  /** timed tiles, in list order (the on-the-fly peer may stop early): send to last byte, client side. */
  times: number[];
  /** the same requests' time inside the route handler (the tile's work, the database round trip). */
  handler: number[];
  warmed: number;
  bytes: number;
}

interface Versus {
  runs: Record<Side, SideRun>[];
  loads: number[];
  /** the first tiles of the list decoded from ours and the clusters peer: features per layer equal. */
  checked: number;
  sameCounts: number;
  oursFeatures: number;
  peerFeatures: number;
}

/**
 * One Fastify server with a route per side, each answering GET /{side}/{z}/{x}/{y} with the tile's
 * bytes (204 when empty) and nothing cached: ours encodes from the index (index.tile, the LRU left
 * out), the peers query PostgreSQL through a pool of two connections. Every side is warmed with the
 * same warm-up tiles, then timed on the same list; the order of the sides turns with each run.
 */
async function compareOverHttp(
  args: Args,
  setup: PostgisSetup,
  index: PointTiles['index'],
  list: Tile[],
  warmList: Tile[],
): Promise<Versus> {
  const pool = new pg.Pool({ connectionString: setup.url, max: 2 });
  const produce: Record<Side, (z: number, x: number, y: number) => Promise<Uint8Array | null>> = {
    ours: async (z, x, y) => index.tile(z, x, y, POINT_GROUPS),
    'postgis-clusters': async (z, x, y) => {
      const { name, text } = clusterTileQuery(z);
      const result = await pool.query<{ tile: Buffer }>({ name, text, values: [z, x, y] });
      return result.rows[0]?.tile ?? null;
    },
    'postgis-on-the-fly': async (z, x, y) => {
      const result = await pool.query<{ tile: Buffer }>({
        name: 'on_the_fly',
        text: ON_THE_FLY_QUERY,
        values: [z, x, y, onTheFlyCell(z)],
      });
      return result.rows[0]?.tile ?? null;
    },
    floor: async () => null,
  };
  const app = Fastify({ loggerInstance: pino({ level: 'silent' }) as FastifyBaseLogger });
  // where the handler's times go while a side is timed (one request at a time)
  let handlerSink: number[] | null = null;
  for (const side of SIDES) {
    app.get<{ Params: { z: string; x: string; y: string } }>(`/${side}/:z/:x/:y`, async (request, reply) => {
      const [z, x, y] = [request.params.z, request.params.x, request.params.y].map(Number) as Tile;
      const n = 2 ** z;
      if (![z, x, y].every(Number.isInteger) || z < 0 || z > 20 || x < 0 || x >= n || y < 0 || y >= n)
        return reply.status(400).send({ errorcode: 'pointTileBadAddress', error: 'bad tile address' });
      const t0 = performance.now();
      const bytes = await produce[side](z, x, y);
      handlerSink?.push(performance.now() - t0);
      if (!bytes || bytes.length === 0) return reply.status(204).send();
      return reply
        .type('application/vnd.mapbox-vector-tile')
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
    });
  }
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const client = new HttpClient(typeof address === 'object' && address ? address.port : 0);
  const fetchTile = async (side: Side, [z, x, y]: Tile) => {
    const answer = await client.get(`/${side}/${z}/${x}/${y}`);
    if (answer.status !== 200 && answer.status !== 204)
      throw new Error(`${side} ${z}/${x}/${y} answered ${answer.status}`);
    return answer;
  };

  const runs: Record<Side, SideRun>[] = [];
  const loads: number[] = [];
  try {
    for (let run = 0; run < args.runs; run++) {
      loads.push(os.loadavg()[0] ?? 0);
      const results = {} as Record<Side, SideRun>;
      for (let k = 0; k < SIDES.length; k++) {
        const side = SIDES[(run + k) % SIDES.length] as Side;
        gc();
        let warmed = 0;
        const warmStarted = performance.now();
        for (const tile of warmList) {
          if (performance.now() - warmStarted > WARM_UP_BUDGET_MS) break;
          await fetchTile(side, tile);
          warmed++;
        }
        const budget = side === 'postgis-on-the-fly' ? args.onTheFlySeconds * 1000 : Infinity;
        const times: number[] = [];
        const handler: number[] = [];
        handlerSink = handler;
        let bytes = 0;
        const started = performance.now();
        for (const tile of list) {
          if (performance.now() - started > budget) break;
          const answer = await fetchTile(side, tile);
          times.push(answer.ms);
          bytes += answer.bytes;
        }
        handlerSink = null;
        results[side] = { times, handler, warmed, bytes };
        log(
          `run ${run + 1}, ${side}: ${warmed} warm-up tiles, ${times.length} timed, ` +
            `p50 ${pct(
              [...times].sort((a, b) => a - b),
              50,
            ).toFixed(3)} ms, ` +
            `p99 ${pct(
              [...times].sort((a, b) => a - b),
              99,
            ).toFixed(3)} ms (load ${os.loadavg()[0]?.toFixed(1)})`,
        );
      }
      runs.push(results);
    }

    // the peer draws what ours draws: the same features in each layer of the first tiles
    let checked = 0;
    let sameCounts = 0;
    let oursFeatures = 0;
    let peerFeatures = 0;
    for (const [z, x, y] of list.slice(0, 500)) {
      const count = (bytes: Uint8Array | null) => {
        const counts = new Map<string, number>();
        if (bytes && bytes.length > 0)
          for (const [name, layer] of Object.entries(new VectorTile(new PbfReader(bytes)).layers))
            counts.set(name, layer.length);
        return counts;
      };
      const ours = count(await produce.ours(z, x, y));
      const peer = count(await produce['postgis-clusters'](z, x, y));
      checked++;
      const names = new Set([...ours.keys(), ...peer.keys()]);
      if ([...names].every((name) => ours.get(name) === peer.get(name))) sameCounts++;
      for (const n of ours.values()) oursFeatures += n;
      for (const n of peer.values()) peerFeatures += n;
    }
    return { runs, loads, checked, sameCounts, oursFeatures, peerFeatures };
  } finally {
    await client.close();
    await app.close();
    await pool.end();
  }
}

function versusLines(versus: Versus, setup: PostgisSetup, args: Args): [string, string, string][] {
  const sorted = (times: number[]) => [...times].sort((a, b) => a - b);
  const range = (values: number[], digits: number, unit = '') => {
    const lo = Math.min(...values);
    const hi = Math.max(...values);
    return lo.toFixed(digits) === hi.toFixed(digits)
      ? `${lo.toFixed(digits)}${unit}`
      : `${lo.toFixed(digits)}-${hi.toFixed(digits)}${unit}`;
  };
  const perRun = (side: Side, p: number, count?: (run: Record<Side, SideRun>) => number) =>
    versus.runs.map((run) => pct(sorted(run[side].times.slice(0, count?.(run))), p));
  const inHandler = (side: Side, p: number) => versus.runs.map((run) => pct(sorted(run[side].handler), p));
  const fly = (run: Record<Side, SideRun>) => run['postgis-on-the-fly'].times.length;
  const ratio = (peer: number[], ours: number[]) => peer.map((value, i) => value / (ours[i] as number));
  const runsText = (values: number[], digits: number) => values.map((v) => v.toFixed(digits)).join(' / ');
  const first = versus.runs[0] as Record<Side, SideRun>;
  const floorP50 = perRun('floor', 50);
  const floorP99 = perRun('floor', 99);
  const lines: [string, string, string][] = [
    [
      `over HTTP, ${versus.runs.length} runs (load ${versus.loads.map((l) => l.toFixed(1)).join(', ')})`,
      `every side: ${first.ours.warmed} warm-up tiles, then the same ${args.tiles} tiles, no cache, point layers`,
      '',
    ],
    [
      `PostGIS precomputed clusters: ${setup.clusterRows.toLocaleString('en')} rows in 17 zoom tables`,
      `${mb(setup.clusterBytes)} with indexes, built in ${setup.clusterSecondsWhenMade.toFixed(0)} s`,
      setup.clusterSeconds > 0 ? 'built in this run' : 'reused from an earlier run',
    ],
  ];
  const oursP50 = perRun('ours', 50);
  const oursP99 = perRun('ours', 99);
  lines.push(
    [
      '  HTTP floor (the same route, 204, no work) per run',
      `p50 ${runsText(floorP50, 3)}; p99 ${runsText(floorP99, 3)} ms`,
      '',
    ],
    ['  ours p50 per run', `${runsText(oursP50, 3)} ms`, ''],
    ['  ours p99 per run', `${runsText(oursP99, 3)} ms`, ''],
  );
  const clusterP50 = perRun('postgis-clusters', 50);
  const clusterP99 = perRun('postgis-clusters', 99);
  lines.push(
    ['  PostGIS precomputed p50 per run', `${runsText(clusterP50, 3)} ms`, ''],
    ['  PostGIS precomputed p99 per run', `${runsText(clusterP99, 3)} ms`, ''],
    [
      '  ratio PostGIS precomputed / ours',
      `p50 ${range(ratio(clusterP50, oursP50), 1, 'x')}, p99 ${range(ratio(clusterP99, oursP99), 1, 'x')}`,
      'budget >= 10x',
    ],
    [
      '  inside the route, ours per run',
      `p50 ${runsText(inHandler('ours', 50), 3)}; p99 ${runsText(inHandler('ours', 99), 3)} ms`,
      '',
    ],
    [
      '  inside the route, PostGIS precomputed per run',
      `p50 ${runsText(inHandler('postgis-clusters', 50), 3)}; p99 ${runsText(inHandler('postgis-clusters', 99), 3)} ms`,
      '',
    ],
    [
      '  ratio inside the route, PostGIS precomputed / ours',
      `p50 ${range(ratio(inHandler('postgis-clusters', 50), inHandler('ours', 50)), 0, 'x')}, p99 ${range(ratio(inHandler('postgis-clusters', 99), inHandler('ours', 99)), 0, 'x')}`,
      '',
    ],
  );
  const flyCounts = versus.runs.map(fly);
  const flyP50 = perRun('postgis-on-the-fly', 50);
  const flyP99 = perRun('postgis-on-the-fly', 99);
  const oursFlyP50 = perRun('ours', 50, fly);
  const oursFlyP99 = perRun('ours', 99, fly);
  lines.push(
    [
      `  PostGIS on the fly (${flyCounts.join(' / ')} tiles in ${args.onTheFlySeconds} s) p50 per run`,
      `${runsText(flyP50, 2)} ms`,
      '',
    ],
    ['  PostGIS on the fly p99 per run', `${runsText(flyP99, 1)} ms`, ''],
    [
      '  ratio PostGIS on the fly / ours (its tiles)',
      `p50 ${range(ratio(flyP50, oursFlyP50), 0, 'x')}, p99 ${range(ratio(flyP99, oursFlyP99), 0, 'x')}`,
      '',
    ],
    [
      '  bytes per tile: ours / PostGIS precomputed',
      `${(first.ours.bytes / first.ours.times.length).toFixed(0)} / ${(first['postgis-clusters'].bytes / first['postgis-clusters'].times.length).toFixed(0)} B`,
      '',
    ],
    [
      `  same features per layer as ours (first ${versus.checked} tiles)`,
      `${versus.sameCounts} tiles; ${versus.oursFeatures} features ours, ${versus.peerFeatures} PostGIS`,
      '',
    ],
  );
  return lines;
}
main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    process.stderr.write(
      `bench:tiles failed: ${String(error instanceof Error ? (error.stack ?? error) : error)}\n`,
    );
    process.exit(1);
  });
