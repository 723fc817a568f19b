/**
 * Search benchmark: `npm run bench:search -- [--points 1000000] [--seed 1] [--queries 400] [--peer-queries 150]`.
 *
 * On the cached store of N demo points (the same /tmp directory as bench:tiles; seeded once, about two
 * minutes for a million), in one run:
 * - builds our in-process index (time, RSS and heap growth), serves our two search routes on a real
 *   listening server on 127.0.0.1 and times them over HTTP (keep-alive, from a client in a worker
 *   thread, one request at a time) with a realistic query mix:
 *   1-3 letter prefixes, whole words, typos, supertype filters, city-sized and country-sized bounds;
 * - SQLite FTS5 + R*Tree (the store's own points_fts and points_rtree) answering the same queries;
 * - PostgreSQL pg_trgm + GiST on the same rows (loaded once into database xpoint_bench on
 *   127.0.0.1:5432, schema search_bench; later runs reuse it) answering the same queries;
 * - how long a new point takes to show in our suggestions.
 * Every side gets the same warm-up (WARM_UP_QUERIES other queries of the mix on each of its three
 * calls, time-capped for a slow peer) and the same counting rule (the peers' count stops at
 * COUNT_EXACT_LIMIT matches, where ours stops counting one by one and estimates).
 * Prints p50 and p99 per engine and the ratios. Bounded: each peer stops after its time budget and the
 * whole run after 20 minutes. Not part of `npm test`.
 */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import cookie from '@fastify/cookie';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../src/server/config';
import { registerAuth } from '../src/server/auth/hook';
import { useContracts } from '../src/server/http/contract';
import { searchRoutes } from '../src/server/features/search/routes';
import { loadCities } from '../src/server/features/cities/load';
import { seedDemoData } from '../src/server/seed/generate';
import type { SearchEngine } from '../src/server/search/engine';
import { fold, tokenize } from '../src/server/search/fold';
import { COUNT_EXACT_LIMIT } from '../src/server/search/segment-search';
import { ChangeFollower } from '../src/server/store/follower';
import { openStore, type Store } from '../src/server/store/store';
import { newPoint } from '../test/support/factories';
import { HttpClient, type Answer } from './http-client';
import { collectGarbage as gc } from './support';

const { values } = parseArgs({
  options: {
    points: { type: 'string', default: '1000000' },
    seed: { type: 'string', default: '1' },
    queries: { type: 'string', default: '400' },
    'peer-queries': { type: 'string', default: '150' },
    pg: {
      type: 'string',
      default: process.env['BENCH_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
  },
});
const POINTS = Number(values.points);
const SEED = Number(values.seed);
const QUERIES = Number(values.queries);
const PEER_QUERIES = Number(values['peer-queries']);
const PG_URL = values.pg as string;
/** Each peer stops after this long, whatever it has left. */
const PEER_BUDGET_MS = 60_000;
/**
 * Every side (ours and both peers) is warmed the same way before it is timed: this many queries of the
 * same mix (drawn afresh, so not the timed ones) on each of its calls, or as many as fit in
 * WARM_UP_BUDGET_MS per call for a slow peer. Unequal warm-ups (ours 300, FTS5 none, PostgreSQL 20)
 * left a cold query or two to set a peer's p99 (issue 24).
 */
const WARM_UP_QUERIES = 300;
const WARM_UP_BUDGET_MS = 20_000;
/** The whole run stops after this long. */
const RUN_BUDGET_MS = 20 * 60_000;
const PG_DATABASE = 'xpoint_bench';
const PG_SCHEMA = 'search_bench';

const log = (message: string) =>
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
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

async function openSeeded(): Promise<Store> {
  const dataDir = path.join(os.tmpdir(), `xpoint-bench-tiles-${POINTS}-${SEED}`);
  const store = await openStore({ dataDir });
  const count =
    store.raw.kind === 'sqlite'
      ? (store.raw.database.prepare('select count(*) as n from points').get() as { n: number }).n
      : 0;
  if (count !== POINTS) {
    log(`seeding ${POINTS} points into ${dataDir} (once; later runs reuse it)`);
    await loadCities(store, log);
    await seedDemoData(store, { points: POINTS, seed: SEED, dataDir, wipe: count > 0, log });
  } else log(`reusing ${count} seeded points in ${dataDir}`);
  return store;
}

interface Box {
  south: number;
  west: number;
  north: number;
  east: number;
}

interface Query {
  kind: string;
  text: string;
  supertype: string | null;
  box: Box;
}

/** The query mix, drawn from the data itself so that queries find things. */
function queryMix(store: Store, count: number): Query[] {
  if (store.raw.kind !== 'sqlite') throw new Error('the bench store is SQLite');
  const random = rng(SEED * 31 + 7);
  const rows = store.raw.database
    .prepare('select title, type, supertype, lat, lon from points order by random() limit ?')
    .all(count) as { title: string; type: string; supertype: string; lat: number; lon: number }[];
  const out: Query[] = [];
  for (const [i, row] of rows.entries()) {
    const words = tokenize(row.title).filter((w) => w.length >= 3);
    const word = words[Math.floor(random() * words.length)] ?? tokenize(row.type)[0] ?? 'cafe';
    // a city (about 20 km across) or a country (about 1,500 km across) around the place
    const country = random() < 0.35;
    const dLat = country ? 7 : 0.1;
    const dLon = country ? 10 : 0.14;
    const box = {
      south: Math.max(-90, row.lat - dLat),
      north: Math.min(90, row.lat + dLat),
      west: Math.max(-180, row.lon - dLon),
      east: Math.min(180, row.lon + dLon),
    };
    const roll = i % 10;
    let kind: string;
    let text: string;
    let supertype: string | null = null;
    if (roll < 3) {
      kind = 'prefix';
      text = word.slice(0, 1 + (i % 3));
    } else if (roll < 6) {
      kind = 'word';
      text = word;
    } else if (roll < 7) {
      kind = 'two words';
      text = tokenize(row.title).slice(0, 2).join(' ') || word;
    } else if (roll < 8 && word.length >= 5) {
      kind = 'typo';
      const at = 1 + Math.floor(random() * (word.length - 2));
      text = word.slice(0, at) + (word[at + 1] ?? '') + (word[at] ?? '') + word.slice(at + 2);
    } else if (roll < 9) {
      kind = 'type';
      text = row.type.replace(/_/g, ' ');
    } else {
      kind = 'supertype';
      text = word.slice(0, 4);
      supertype = row.supertype;
    }
    out.push({ kind, text, supertype, box });
  }
  return out;
}

// --- ours over HTTP ------------------------------------------------------------------------------

function suggestionForm(q: Query): string {
  const params = new URLSearchParams({
    q: q.text,
    maxresults: '10',
    includeevents: 'true',
    'southwest[lat]': String(q.box.south),
    'southwest[lon]': String(q.box.west),
    'northeast[lat]': String(q.box.north),
    'northeast[lon]': String(q.box.east),
  });
  return params.toString();
}

function pagedBody(q: Query, pageNumber: number): string {
  return JSON.stringify({
    keywords: q.supertype ? `${q.supertype}=${q.text}` : q.text,
    southwest: { lat: q.box.south, lon: q.box.west },
    northeast: { lat: q.box.north, lon: q.box.east },
    pageNumber,
    pageSize: 12,
  });
}

// --- SQLite FTS5 + R*Tree --------------------------------------------------------------------------

function ftsMatch(text: string): string | null {
  const words = tokenize(text);
  if (words.length === 0) return null;
  return `{title type full_address} : (${words.map((w) => `"${w.replace(/"/g, '')}"*`).join(' ')})`;
}

function sqlitePeer(store: Store) {
  if (store.raw.kind !== 'sqlite') throw new Error('the bench store is SQLite');
  const db = store.raw.database;
  const order = `order by p.is_promo desc, (p.beamtype & 1) desc, coalesce(p.rating, -1) desc,
    ((p.lat - @clat) * (p.lat - @clat) + (p.lon - @clon) * (p.lon - @clon) * @cos2) asc`;
  const where = `points_fts match @match and p.seq in (select seq from points_rtree
    where min_lat >= @south and max_lat <= @north and min_lon >= @west and max_lon <= @east)
    and (@supertype is null or p.supertype = @supertype)`;
  const select = db.prepare(
    `select p.id, p.title from points_fts f join points p on p.seq = f.rowid where ${where} ${order} limit @limit offset @offset`,
  );
  // counted as ours counts: exactly up to COUNT_EXACT_LIMIT, then no further (ours estimates the rest)
  const count = db.prepare(
    `select count(*) as n from (select 1 from points_fts f join points p on p.seq = f.rowid where ${where}
      limit ${COUNT_EXACT_LIMIT + 1})`,
  );
  return (q: Query, limit: number, offset: number, withCount: boolean) => {
    const match = ftsMatch(q.text);
    if (!match) return 0;
    const clat = (q.box.south + q.box.north) / 2;
    const params = {
      match,
      ...q.box,
      supertype: q.supertype,
      clat,
      clon: (q.box.west + q.box.east) / 2,
      cos2: Math.cos((clat * Math.PI) / 180) ** 2,
      limit,
      offset,
    };
    const rows = select.all(params).length;
    if (withCount) {
      const { limit: _l, offset: _o, clat: _a, clon: _b, cos2: _c, ...countParams } = params;
      count.get(countParams);
    }
    return rows;
  };
}

// --- PostgreSQL pg_trgm + GiST ---------------------------------------------------------------------

async function pgPeer(store: Store): Promise<
  ((q: Query, limit: number, offset: number, withCount: boolean) => Promise<number>) & {
    close(): Promise<void>;
  }
> {
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [PG_DATABASE]);
  if (exists.rowCount === 0) await admin.query(`create database ${PG_DATABASE}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${PG_DATABASE}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  await pool.query('create extension if not exists pg_trgm');
  await pool.query(`create schema if not exists ${PG_SCHEMA}`);
  const have = await pool.query(
    `select count(*)::int as n from information_schema.tables where table_schema = $1 and table_name = 'points'`,
    [PG_SCHEMA],
  );
  const rows = have.rows[0].n
    ? (await pool.query(`select count(*)::int as n from ${PG_SCHEMA}.points`)).rows[0].n
    : -1;
  if (rows !== POINTS) {
    log(`PostgreSQL: loading ${POINTS} rows into ${PG_DATABASE}.${PG_SCHEMA} (once; later runs reuse them)`);
    await pool.query(`drop table if exists ${PG_SCHEMA}.points`);
    await pool.query(`create table ${PG_SCHEMA}.points (
      seq bigint primary key, id text not null, supertype text not null, title text not null,
      search text not null, lat double precision not null, lon double precision not null,
      rating double precision, is_promo smallint not null, beamtype integer not null)`);
    if (store.raw.kind !== 'sqlite') throw new Error('the bench store is SQLite');
    const iterator = store.raw.database
      .prepare(
        'select seq, id, supertype, title, type, full_address, lat, lon, rating, is_promo, beamtype from points',
      )
      .raw(true)
      .iterate() as IterableIterator<
      [number, string, string, string, string, string | null, number, number, number | null, number, number]
    >;
    let batch: unknown[][] = Array.from({ length: 10 }, () => []);
    const flush = async () => {
      if ((batch[0] as unknown[]).length === 0) return;
      await pool.query(
        `insert into ${PG_SCHEMA}.points select * from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[],
          $6::float8[], $7::float8[], $8::float8[], $9::smallint[], $10::int[])`,
        batch,
      );
      batch = Array.from({ length: 10 }, () => []);
    };
    for (const [seq, id, supertype, title, type, address, lat, lon, rating, promo, beam] of iterator) {
      // the same folded words our index and FTS5 see: title, type and address, accents removed
      const search = fold(`${title} ${type.replace(/_/g, ' ')} ${address ?? ''}`);
      const row = [seq, id, supertype, title, search, lat, lon, rating, promo, beam];
      row.forEach((value, k) => (batch[k] as unknown[]).push(value));
      if ((batch[0] as unknown[]).length >= 20_000) await flush();
    }
    await flush();
    log('PostgreSQL: building the GiST and trigram indexes');
    await pool.query(`create index on ${PG_SCHEMA}.points using gist (point(lon, lat))`);
    await pool.query(`create index on ${PG_SCHEMA}.points using gin (search gin_trgm_ops)`);
    await pool.query(`analyze ${PG_SCHEMA}.points`);
  } else log(`PostgreSQL: reusing ${rows} rows in ${PG_DATABASE}.${PG_SCHEMA}`);
  await pool.query(`set statement_timeout = 10000`);

  const run = async (q: Query, limit: number, offset: number, withCount: boolean) => {
    const words = tokenize(q.text);
    if (words.length === 0) return 0;
    // every word a prefix of some word: a regular expression the trigram index answers ('\m' = word start)
    const conditions = words.map((_, k) => `search ~ $${k + 7}`).join(' and ');
    const where = `point(lon, lat) <@ box(point($1, $2), point($3, $4)) and ($5::text is null or supertype = $5) and $6::float8 is not null and ${conditions}`;
    const clat = (q.box.south + q.box.north) / 2;
    const params = [
      q.box.west,
      q.box.south,
      q.box.east,
      q.box.north,
      q.supertype,
      Math.cos((clat * Math.PI) / 180),
      ...words.map((w) => `\\m${w.replace(/[^\p{L}\p{N}]/gu, '')}`),
    ];
    const result = await pool.query(
      `select id, title from ${PG_SCHEMA}.points where ${where}
       order by is_promo desc, (beamtype & 1) desc, coalesce(rating, -1) desc,
         point((lon - ${(q.box.west + q.box.east) / 2}) * $6::float8, lat) <-> point(0, ${clat})
       limit ${limit} offset ${offset}`,
      params,
    );
    // counted as ours counts: exactly up to COUNT_EXACT_LIMIT, then no further (ours estimates the rest)
    if (withCount)
      await pool.query(
        `select count(*) from (select 1 from ${PG_SCHEMA}.points where ${where} limit ${COUNT_EXACT_LIMIT + 1}) c`,
        params,
      );
    return result.rowCount ?? 0;
  };
  return Object.assign(run, { close: () => pool.end() });
}

// --- the run ---------------------------------------------------------------------------------------

interface Timing {
  label: string;
  times: number[];
}

/** Times `fn` per query on this thread's clock. */
function timeAll(label: string, list: Query[], fn: (q: Query) => unknown): Promise<Timing> {
  return timeEach(label, list, async (q) => {
    const t0 = performance.now();
    await fn(q);
    return performance.now() - t0;
  });
}

/** Runs `timed` per query, which says how long the query took (the HTTP client times its own requests). */
async function timeEach(label: string, list: Query[], timed: (q: Query) => Promise<number>): Promise<Timing> {
  const times: number[] = [];
  const started = performance.now();
  for (const q of list) {
    times.push(await timed(q));
    if (performance.now() - started > PEER_BUDGET_MS) {
      log(`${label}: time budget spent after ${times.length} queries`);
      break;
    }
  }
  return { label, times };
}

/** The same warm-up for every side: WARM_UP_QUERIES other queries per call, or WARM_UP_BUDGET_MS. */
async function warmUp(label: string, list: Query[], calls: ((q: Query) => unknown)[]): Promise<void> {
  const done: number[] = [];
  for (const call of calls) {
    const started = performance.now();
    let n = 0;
    for (const q of list) {
      await call(q);
      n++;
      if (performance.now() - started > WARM_UP_BUDGET_MS) break;
    }
    done.push(n);
  }
  log(`${label}: warmed with ${done.join(' / ')} queries per call`);
}

async function main(): Promise<void> {
  const stopper = setTimeout(() => {
    log('run budget spent: stopping');
    process.exit(2);
  }, RUN_BUDGET_MS);
  stopper.unref();
  const store = await openSeeded();
  const load = os.loadavg();

  // --- our server: build the index at start, listen on 127.0.0.1 ---------------------------------
  gc();
  const before = process.memoryUsage();
  const app = Fastify({ loggerInstance: pino({ level: 'silent' }) as FastifyBaseLogger });
  useContracts(app);
  await app.register(cookie);
  const config = loadConfig(
    { SEED: 'none', LOG_LEVEL: 'silent', SESSION_SECRET: 'b'.repeat(40) },
    os.tmpdir(),
  );
  const auth = registerAuth(app, { config, store });
  const follower = new ChangeFollower(store);
  app.addHook('onClose', async () => follower.stop());
  const buildStarted = performance.now();
  const built = new Promise<SearchEngine>((resolve) => {
    void app.register(searchRoutes, { store, auth, follower, onEngine: resolve });
  });
  await app.ready();
  const engine = await built;
  const buildMs = performance.now() - buildStarted;
  gc();
  const after = process.memoryUsage();
  log(
    `index built: ${engine.index.size} documents in ${buildMs.toFixed(0)} ms, RSS +${mb(after.rss - before.rss)}`,
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const visitor = 'v'.repeat(32);
  const pagedHeaders = {
    'content-type': 'application/json',
    'x-requested-with': 'XMLHttpRequest',
    cookie: `xp_af=${visitor}`,
    requestverificationtoken: auth.signer.antiforgery({ visitor }),
  };
  const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };

  const mix = queryMix(store, QUERIES);
  const peerMix = mix.slice(0, PEER_QUERIES);
  const client = new HttpClient(port);
  /** The client's time for one request; anything but 200 stops the run. */
  const check = ({ status, body, ms }: Answer): number => {
    if (status !== 200) throw new Error(`HTTP ${status}: ${body.slice(0, 200)}`);
    return ms;
  };
  // Warm-up, on other queries than the timed ones (rows drawn afresh): the compiler and the caches
  // reach their steady state without the timed queries' own data being primed. The peers get the same.
  const warmUps = queryMix(store, WARM_UP_QUERIES);
  await warmUp('ours', warmUps, [
    async (q) => check(await client.post('/v1/app/searchsuggestions', suggestionForm(q), formHeaders)),
    async (q) => check(await client.post('/v1/webonly/pagedmapsearch', pagedBody(q, 2), pagedHeaders)),
    async (q) => check(await client.post('/v1/webonly/pagedmapsearch', pagedBody(q, 50), pagedHeaders)),
  ]);
  const ourSuggest = await timeEach('ours suggest', mix, async (q) =>
    check(await client.post('/v1/app/searchsuggestions', suggestionForm(q), formHeaders)),
  );
  const ourPage2 = await timeEach('ours page 2', mix, async (q) =>
    check(await client.post('/v1/webonly/pagedmapsearch', pagedBody(q, 2), pagedHeaders)),
  );
  const ourPage50 = await timeEach('ours page 50', mix, async (q) =>
    check(await client.post('/v1/webonly/pagedmapsearch', pagedBody(q, 50), pagedHeaders)),
  );
  const byKind = new Map<string, number[]>();
  mix.forEach((q, i) => {
    const list = byKind.get(q.kind) ?? [];
    list.push(ourSuggest.times[i] as number);
    byKind.set(q.kind, list);
  });
  // ours on exactly the peers' queries, for the ratios
  const oursOnPeer = {
    suggest: ourSuggest.times.slice(0, peerMix.length),
    page2: ourPage2.times.slice(0, peerMix.length),
    page50: ourPage50.times.slice(0, peerMix.length),
  };

  // --- a write becoming visible -----------------------------------------------------------------
  const freshness: number[] = [];
  for (let k = 0; k < 3; k++) {
    const title = `Zebrafinch Bench ${Date.now()} ${k}`;
    const t0 = performance.now();
    await store.db
      .insertInto('points')
      .values(newPoint({ id: `benchsearch${Date.now()}${k}`, type: 'cafe', title, lat: 40.75, lon: -73.98 }))
      .execute();
    for (;;) {
      const { body } = await client.post(
        '/v1/app/searchsuggestions',
        new URLSearchParams({ q: title }).toString(),
        formHeaders,
      );
      if (body.includes(title)) break;
      if (performance.now() - t0 > 10_000) throw new Error('write not searchable after 10 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    freshness.push(performance.now() - t0);
  }
  await store.db.deleteFrom('points').where('title', 'like', 'Zebrafinch Bench %').execute();
  await client.close();

  // --- peers ------------------------------------------------------------------------------------
  const sqlite = sqlitePeer(store);
  await warmUp('SQLite FTS5', warmUps, [
    (q) => sqlite(q, 10, 0, false),
    (q) => sqlite(q, 12, 12, true),
    (q) => sqlite(q, 12, 588, true),
  ]);
  const fts = {
    suggest: await timeAll('sqlite suggest', peerMix, (q) => sqlite(q, 10, 0, false)),
    page2: await timeAll('sqlite page 2', peerMix, (q) => sqlite(q, 12, 12, true)),
    page50: await timeAll('sqlite page 50', peerMix, (q) => sqlite(q, 12, 588, true)),
  };
  let pgTimes: { suggest: Timing; page2: Timing; page50: Timing } | null = null;
  try {
    const peer = await pgPeer(store);
    await warmUp('PostgreSQL', warmUps, [
      (q) => peer(q, 10, 0, false),
      (q) => peer(q, 12, 12, true),
      (q) => peer(q, 12, 588, true),
    ]);
    pgTimes = {
      suggest: await timeAll('pg suggest', peerMix, (q) => peer(q, 10, 0, false)),
      page2: await timeAll('pg page 2', peerMix, (q) => peer(q, 12, 12, true)),
      page50: await timeAll('pg page 50', peerMix, (q) => peer(q, 12, 588, true)),
    };
    await peer.close();
  } catch (error) {
    log(`PostgreSQL peer skipped: ${String(error)}`);
  }

  // --- report -----------------------------------------------------------------------------------
  const f = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
  const row = (label: string, times: number[]) =>
    `| ${label.padEnd(44)} | ${String(times.length).padStart(5)} | ${f(percentile(times, 50)).padStart(8)} | ${f(percentile(times, 99)).padStart(8)} |`;
  const lines = [
    '',
    `Search benchmark: ${engine.index.size.toLocaleString('en')} documents (${POINTS.toLocaleString('en')} points and the events not ended), ${os.cpus().length} cores, load average ${load.map((l) => l.toFixed(2)).join(' / ')} at start, ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')} at end`,
    `Index build ${(buildMs / 1000).toFixed(1)} s (budget 10 s); RSS +${mb(after.rss - before.rss)}, heap +${mb(after.heapUsed - before.heapUsed)}, array buffers +${mb(after.arrayBuffers - before.arrayBuffers)} (budget 600 MB)`,
    `A new point searchable after ${freshness.map((ms) => ms.toFixed(0)).join(', ')} ms (budget 1000 ms)`,
    // what a reader needs to trust the ratios: each side's warm-up, samples and way of counting
    `Every side: the same warm-up (${WARM_UP_QUERIES} other queries of the mix per call, capped at ${WARM_UP_BUDGET_MS / 1000} s per call; the log above says what each reached), then the same queries timed (n below); every side counts matches exactly up to ${COUNT_EXACT_LIMIT.toLocaleString('en')}, then no further`,
    '',
    '| What (ms, over HTTP for ours)                | n     | p50      | p99      |',
    '|----------------------------------------------|-------|----------|----------|',
    row('ours: suggestion (budget p99 3)', ourSuggest.times),
    ...[...byKind].map(([kind, times]) => row(`  ours: suggestion, ${kind}`, times)),
    row('ours: paged search page 2 (budget p99 5)', ourPage2.times),
    row('ours: paged search page 50 (budget 2x page 2)', ourPage50.times),
    row('SQLite FTS5 + R*Tree: suggestion', fts.suggest.times),
    row('SQLite FTS5 + R*Tree: page 2 (+ count)', fts.page2.times),
    row('SQLite FTS5 + R*Tree: page 50 (+ count)', fts.page50.times),
    ...(pgTimes
      ? [
          row('PostgreSQL pg_trgm + GiST: suggestion', pgTimes.suggest.times),
          row('PostgreSQL pg_trgm + GiST: page 2 (+ count)', pgTimes.page2.times),
          row('PostgreSQL pg_trgm + GiST: page 50 (+ count)', pgTimes.page50.times),
        ]
      : []),
    '',
    'Ratios on the same queries (peer time / ours; budget >= 5x SQLite, >= 10x PostgreSQL):',
  ];
  const ratio = (label: string, peer: number[], ours: number[]) => {
    const n = Math.min(peer.length, ours.length);
    const p = peer.slice(0, n);
    const o = ours.slice(0, n);
    lines.push(
      `  ${label.padEnd(34)} p50 ${(percentile(p, 50) / percentile(o, 50)).toFixed(1)}x, p99 ${(percentile(p, 99) / percentile(o, 99)).toFixed(1)}x`,
    );
  };
  ratio('SQLite FTS5, suggestion', fts.suggest.times, oursOnPeer.suggest);
  ratio('SQLite FTS5, page 2', fts.page2.times, oursOnPeer.page2);
  ratio('SQLite FTS5, page 50', fts.page50.times, oursOnPeer.page50);
  if (pgTimes) {
    ratio('PostgreSQL, suggestion', pgTimes.suggest.times, oursOnPeer.suggest);
    ratio('PostgreSQL, page 2', pgTimes.page2.times, oursOnPeer.page2);
    ratio('PostgreSQL, page 50', pgTimes.page50.times, oursOnPeer.page50);
  }
  lines.push(
    `  ours page 50 / page 2 at p99: ${(percentile(ourPage50.times, 99) / percentile(ourPage2.times, 99)).toFixed(2)}x`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  await app.close();
  await store.close();
}

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
