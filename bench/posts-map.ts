/**
 * What posts cost the map and search: `npx tsx bench/posts-map.ts [--points 100000] [--seed 1]`.
 *
 * On a store of N demo points (seeded once into /tmp, its own copy) whose every post is given a place
 * (its point's, else near its city's centre: the seed makes 1,000 posts per 20,000 points, so at a
 * million points about 50,000 posts are on the map), in process, with no HTTP in between:
 * - the search index built without the posts and with them (build time, documents), and the same query
 *   mix (words of points' and posts' titles, prefixes, category names, the post supertype over city and
 *   country bounds) answered by both, each query the best of 5 runs: p50/p99 of suggestions and of
 *   page 2 of the paged search;
 * - the point tile index built from the store (its bulk scan, posts included) and 2,000 tiles z0-16
 *   around points and posts, uncached: p50/p99.
 * Not part of `npm test`; bounded by the store's size (a few minutes at a million points).
 */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadCities } from '../src/server/features/cities/load';
import { seedDemoData } from '../src/server/seed/generate';
import { DOC_POST, type SearchDoc } from '../src/server/search/doc';
import { tokenize } from '../src/server/search/fold';
import { MemorySearchIndex, type SearchRequest } from '../src/server/search/index';
import { readAllDocs } from '../src/server/search/queries';
import { PointTileIndex } from '../src/server/tiles/points/index';
import { readSnapshot } from '../src/server/tiles/points/queries';
import { openStore, type Store } from '../src/server/store/store';
import { LAYER_GROUPS } from '../src/shared/map/contract';
import { log, percentileOf, random as seeded } from './support';

const { values } = parseArgs({
  options: {
    points: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '1' },
    queries: { type: 'string', default: '400' },
  },
});
const POINTS = Number(values.points);
const SEED = Number(values.seed);
const QUERIES = Number(values.queries);
const RUNS = 5;
const TILES = 2000;

async function openPlaced(): Promise<Store> {
  const dataDir = path.join(os.tmpdir(), `xpoint-bench-posts-map-${POINTS}-${SEED}`);
  const store = await openStore({ dataDir });
  if (store.raw.kind !== 'sqlite') throw new Error('the bench store is SQLite');
  const database = store.raw.database;
  const count = (database.prepare('select count(*) as n from points').get() as { n: number }).n;
  if (count !== POINTS) {
    log(`seeding ${POINTS} points into ${dataDir} (once; later runs reuse it)`);
    await loadCities(store, log);
    await seedDemoData(store, { points: POINTS, seed: SEED, dataDir, wipe: count > 0, log });
  }
  // every post on the map: at its point, else within a few km of its city's centre
  database.exec(`update posts set
    lat = coalesce((select p.lat from points p where p.id = posts.xpoint_id),
                   (select c.lat from cities c where c.id = posts.city_id) + ((abs(random()) % 1000) - 500) / 20000.0),
    lon = coalesce((select p.lon from points p where p.id = posts.xpoint_id),
                   (select c.lon from cities c where c.id = posts.city_id) + ((abs(random()) % 1000) - 500) / 20000.0)
    where lat is null`);
  const stats = database
    .prepare(
      'select count(*) as n, sum(lat is not null) as placed, sum(expires_at is not null and expires_at <= ?) as expired from posts',
    )
    .get(Date.now()) as { n: number; placed: number; expired: number };
  log(`posts: ${stats.n}, on the map ${stats.placed}, of which expired ${stats.expired}`);
  return store;
}

interface Query {
  kind: string;
  text: string;
  supertype: string | null;
  bounds: { south: number; west: number; north: number; east: number };
}

function queryMix(store: Store): Query[] {
  if (store.raw.kind !== 'sqlite') throw new Error('the bench store is SQLite');
  const random = seeded(SEED * 17 + 3);
  const points = store.raw.database
    .prepare('select title, type, lat, lon from points order by random() limit ?')
    .all(Math.ceil(QUERIES * 0.6)) as { title: string; type: string; lat: number; lon: number }[];
  const posts = store.raw.database
    .prepare('select title, type, lat, lon from posts where lat is not null order by random() limit ?')
    .all(Math.floor(QUERIES * 0.4)) as { title: string; type: string; lat: number; lon: number }[];
  const out: Query[] = [];
  for (const [i, row] of [
    ...points.map((r) => ['point', r] as const),
    ...posts.map((r) => ['post', r] as const),
  ].entries()) {
    const [source, place] = row;
    const words = tokenize(place.title).filter((w) => w.length >= 3);
    const word = words[Math.floor(random() * words.length)] ?? place.type;
    const country = random() < 0.35;
    const dLat = country ? 7 : 0.1;
    const dLon = country ? 10 : 0.14;
    const bounds = {
      south: Math.max(-90, place.lat - dLat),
      north: Math.min(90, place.lat + dLat),
      west: Math.max(-180, place.lon - dLon),
      east: Math.min(180, place.lon + dLon),
    };
    const roll = i % 5;
    if (roll === 0)
      out.push({ kind: `${source} prefix`, text: word.slice(0, 1 + (i % 3)), supertype: null, bounds });
    else if (roll === 1 || roll === 2)
      out.push({ kind: `${source} word`, text: word, supertype: null, bounds });
    else if (roll === 3)
      out.push({ kind: `${source} type`, text: place.type.replace(/_/g, ' '), supertype: null, bounds });
    else
      out.push({
        kind: `${source} supertype`,
        text: word.slice(0, 4),
        supertype: source === 'post' ? 'post' : null,
        bounds,
      });
  }
  return out;
}

function request(q: Query, page: boolean): SearchRequest {
  return {
    text: q.text,
    bounds: q.bounds,
    supertype: q.supertype,
    includeEvents: true,
    offset: page ? 12 : 0,
    limit: page ? 12 : 10,
    needCount: page,
    now: Date.now(),
  };
}

/** Best of RUNS for each query, in ms. */
function timeQueries(index: MemorySearchIndex, mix: Query[], page: boolean): number[] {
  return mix.map((q) => {
    let best = Infinity;
    for (let r = 0; r < RUNS; r++) {
      const started = performance.now();
      index.search(request(q, page));
      best = Math.min(best, performance.now() - started);
    }
    return best;
  });
}

const fmt = (ms: number) => ms.toFixed(3);

async function main(): Promise<void> {
  const store = await openPlaced();
  const load = os
    .loadavg()
    .map((v) => v.toFixed(1))
    .join(' / ');
  const now = Date.now();

  const build = async (withPosts: boolean) => {
    const started = performance.now();
    const index = await MemorySearchIndex.build((add) =>
      readAllDocs(store, now, (doc: SearchDoc) => {
        if (withPosts || doc.kind !== DOC_POST) add(doc);
      }),
    );
    return { index, ms: performance.now() - started };
  };
  const without = await build(false);
  const withPosts = await build(true);
  log(
    `search index: ${without.index.size} documents in ${without.ms.toFixed(0)} ms without posts, ${withPosts.index.size} in ${withPosts.ms.toFixed(0)} ms with them`,
  );

  const mix = queryMix(store);
  // warm both (the compiler), then time
  timeQueries(without.index, mix.slice(0, 100), false);
  timeQueries(withPosts.index, mix.slice(0, 100), true);
  const rows: string[] = [];
  for (const page of [false, true]) {
    const a = timeQueries(without.index, mix, page);
    const b = timeQueries(withPosts.index, mix, page);
    const label = page ? 'paged search, page 2' : 'suggestion';
    rows.push(
      `| ${label} | ${fmt(percentileOf(a, 50))} / ${fmt(percentileOf(a, 99))} | ${fmt(percentileOf(b, 50))} / ${fmt(percentileOf(b, 99))} |`,
    );
    const postOnly = mix.flatMap((q, i) => (q.kind.startsWith('post') ? [b[i] as number] : []));
    rows.push(
      `| — post queries only (${postOnly.length}) | | ${fmt(percentileOf(postOnly, 50))} / ${fmt(percentileOf(postOnly, 99))} |`,
    );
  }
  const found = mix
    .filter((q) => q.kind.startsWith('post'))
    .filter((q) => withPosts.index.search(request(q, false)).docs.some((d) => d.kind === DOC_POST)).length;

  // tiles
  const tileStarted = performance.now();
  const tiles = new PointTileIndex(0);
  tiles.load(await readSnapshot(store, now));
  tiles.buildAll();
  const tileBuildMs = performance.now() - tileStarted;
  if (store.raw.kind !== 'sqlite') throw new Error('the bench store is SQLite');
  const places = store.raw.database
    .prepare(
      `select lat, lon from (select lat, lon from points order by random() limit ${TILES / 2})
       union all select lat, lon from (select lat, lon from posts where lat is not null order by random() limit ${TILES / 2})`,
    )
    .all() as { lat: number; lon: number }[];
  const random = seeded(SEED);
  const tileTimes: number[] = [];
  const groups = [...LAYER_GROUPS];
  for (const { lat, lon } of places) {
    const z = Math.floor(random() * 17);
    const n = 2 ** z;
    const x = Math.min(n - 1, Math.floor(((lon + 180) / 360) * n));
    const s = Math.sin((lat * Math.PI) / 180);
    const y = Math.min(
      n - 1,
      Math.max(0, Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n)),
    );
    const started = performance.now();
    tiles.tile(z, x, y, groups);
    tileTimes.push(performance.now() - started);
  }

  process.stdout.write(
    `\nPosts on the map and in search: ${POINTS.toLocaleString('en')} points, ${tiles.groupSize('post').toLocaleString('en')} posts shown, load average ${load}\n\n` +
      `| What (ms, in process, best of ${RUNS} per query, ${mix.length} queries) | without posts p50 / p99 | with posts p50 / p99 |\n|---|---|---|\n` +
      `${rows.join('\n')}\n\n` +
      `post queries that found a post: ${found} of ${mix.filter((q) => q.kind.startsWith('post')).length}\n` +
      `search index build: ${without.ms.toFixed(0)} ms without posts, ${withPosts.ms.toFixed(0)} ms with (${withPosts.index.size - without.index.size} post documents)\n` +
      `point tile index cold build (scan + load + cluster indexes, ${tiles.count.toLocaleString('en')} records): ${tileBuildMs.toFixed(0)} ms\n` +
      `tiles z0-16, every group, uncached (${tileTimes.length}): p50 ${fmt(percentileOf(tileTimes, 50))} ms, p99 ${fmt(percentileOf(tileTimes, 99))} ms\n`,
  );
  await store.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
