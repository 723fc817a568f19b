/**
 * Search benchmark: `npm run bench:search -- [--points 1000000] [--seed 1] [--queries 1000] [--peer-queries 1000] [--route-seconds 120]`.
 *
 * On the cached store of N demo points (the same /tmp directory as bench:tiles; seeded once, about two
 * minutes for a million), in one run:
 * - builds our in-process index (time, RSS and heap growth), serves our two search routes on a real
 *   listening server on 127.0.0.1 and times them with a realistic query mix: 1-3 letter prefixes,
 *   whole words, typos, supertype filters, city-sized and country-sized bounds;
 * - SQLite FTS5 + R*Tree (the store's own points_fts and points_rtree) answering the same queries;
 * - PostgreSQL pg_trgm + GiST on the same rows (loaded once into database xpoint_bench on
 *   127.0.0.1:5432, schema search_bench; later runs reuse it) answering the same queries;
 * - how long a new point takes to show in our suggestions.
 * Every side is timed the same way (issue 24): behind a Fastify server on 127.0.0.1, by the same HTTP
 * client in a worker thread, after the same warm-up (WARM_UP_QUERIES other queries of the mix before
 * each route, time-capped for a slow peer), on the same queries in the same order. Page totals are
 * counted both ways on every side: capped at the result window ours serves, and exactly (ours then
 * runs on a second index built with SEARCH_COUNT_LIMIT=Infinity).
 * Prints p50 and p99 per engine and route, each side's warm-up and samples, and the ratios. Bounded:
 * each route stops after ROUTE_BUDGET_MS and the whole run after RUN_BUDGET_MS. Not part of `npm test`.
 */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
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
import { COUNT_EXACT_LIMIT, ESTIMATE_MIN } from '../src/server/search/segment-search';
import { RESULT_WINDOW } from '../src/shared/api/search';
import { ChangeFollower } from '../src/server/store/follower';
import { openStore, type Store } from '../src/server/store/store';
import { newPoint } from '../test/support/factories';
import { HttpClient, type Answer } from './http-client';
import { collectGarbage as gc, log, pct, random as seeded } from './support';

const { values } = parseArgs({
  options: {
    points: { type: 'string', default: '1000000' },
    seed: { type: 'string', default: '1' },
    queries: { type: 'string', default: '1000' },
    'peer-queries': { type: 'string', default: '1000' },
    'route-seconds': { type: 'string', default: '120' },
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
/** Each route of each side stops after this long, whatever it has left (a slow peer's n says so). */
const ROUTE_BUDGET_MS = Number(values['route-seconds']) * 1000;
/** Results per page of the paged search, on every side. */
const PAGE_SIZE = 12;
/**
 * Every side (ours and both peers) is warmed the same way before it is timed: this many queries of the
 * same mix (drawn afresh, so not the timed ones) on each of its calls, or as many as fit in
 * WARM_UP_BUDGET_MS per call for a slow peer. Unequal warm-ups (ours 300, FTS5 none, PostgreSQL 20)
 * left a cold query or two to set a peer's p99 (issue 24).
 */
const WARM_UP_QUERIES = 300;
const WARM_UP_BUDGET_MS = 20_000;
/** The whole run stops after this long. */
const RUN_BUDGET_MS = 10 * 60_000 + 12 * ROUTE_BUDGET_MS;
const PG_DATABASE = 'xpoint_bench';
const PG_SCHEMA = 'search_bench';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

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
  const random = seeded(SEED * 31 + 7);
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
    pageSize: PAGE_SIZE,
  });
}

// --- servers ---------------------------------------------------------------------------------------

/**
 * Each request's time inside its server (Fastify's onRequest to onResponse: routing, body parsing and
 * checking, the work, encoding, writing), kept while `sink` is set; the rest of the client's time is
 * the loopback socket and the client. And POST /floor, an empty route every server has (a JSON body
 * read, `[]` answered): the floor a request to that server pays whatever it asks.
 */
interface ServerClock {
  sink: number[] | null;
}

function addClock(app: FastifyInstance): ServerClock {
  const clock: ServerClock = { sink: null };
  const started = new WeakMap<object, number>();
  app.addHook('onRequest', async (request) => {
    started.set(request, performance.now());
  });
  app.addHook('onResponse', async (request) => {
    const t0 = started.get(request);
    if (t0 !== undefined) clock.sink?.push(performance.now() - t0);
  });
  app.post('/floor', async () => []);
  return clock;
}

// --- the peers -------------------------------------------------------------------------------------

/**
 * How a page's total is counted. `capped`: up to the result window (RESULT_WINDOW, the 10,000 results
 * ours serves), where ours counts one by one and estimates once a scan would run long (never less than
 * the matches seen). `exact`: every match, on every side (ours with SEARCH_COUNT_LIMIT set to Infinity).
 */
type Counting = 'capped' | 'exact';

interface PeerAnswer {
  rows: { id: string; title: string }[];
  total: number | null;
}

type Peer = (
  q: Query,
  limit: number,
  offset: number,
  counting: Counting | null,
) => PeerAnswer | Promise<PeerAnswer>;

function ftsMatch(text: string): string | null {
  const words = tokenize(text);
  if (words.length === 0) return null;
  return `{title type full_address} : (${words.map((w) => `"${w.replace(/"/g, '')}"*`).join(' ')})`;
}

/** SQLite FTS5 + R*Tree: the store's own points_fts and points_rtree. */
function sqlitePeer(store: Store): Peer {
  if (store.raw.kind !== 'sqlite') throw new Error('the bench store is SQLite');
  const db = store.raw.database;
  const order = `order by p.is_promo desc, (p.beamtype & 1) desc, coalesce(p.rating, -1) desc,
    ((p.lat - @clat) * (p.lat - @clat) + (p.lon - @clon) * (p.lon - @clon) * @cos2) asc`;
  const where = `points_fts match @match and p.seq in (select seq from points_rtree
    where min_lat >= @south and max_lat <= @north and min_lon >= @west and max_lon <= @east)
    and (@supertype is null or p.supertype = @supertype)`;
  const from = 'from points_fts f join points p on p.seq = f.rowid';
  const select = db.prepare(
    `select p.id, p.title ${from} where ${where} ${order} limit @limit offset @offset`,
  );
  const count: Record<Counting, ReturnType<typeof db.prepare>> = {
    capped: db.prepare(`select count(*) as n from (select 1 ${from} where ${where} limit ${RESULT_WINDOW})`),
    exact: db.prepare(`select count(*) as n ${from} where ${where}`),
  };
  return (q, limit, offset, counting) => {
    const match = ftsMatch(q.text);
    if (!match) return { rows: [], total: counting ? 0 : null };
    const clat = (q.box.south + q.box.north) / 2;
    const filter = { match, ...q.box, supertype: q.supertype };
    const rows = select.all({
      ...filter,
      clat,
      clon: (q.box.west + q.box.east) / 2,
      cos2: Math.cos((clat * Math.PI) / 180) ** 2,
      limit,
      offset,
    }) as { id: string; title: string }[];
    const total = counting ? (count[counting].get(filter) as { n: number }).n : null;
    return { rows, total };
  };
}

/** PostgreSQL pg_trgm + GiST on the same rows, loaded once into PG_DATABASE.PG_SCHEMA. */
async function pgPeer(store: Store): Promise<Peer & { close(): Promise<void> }> {
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [PG_DATABASE]);
  if (exists.rowCount === 0) await admin.query(`create database ${PG_DATABASE}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${PG_DATABASE}`;
  // no query runs longer than 10 s, on every connection of the pool
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2, statement_timeout: 10_000 });
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

  const run: Peer = async (q, limit, offset, counting) => {
    const words = tokenize(q.text);
    if (words.length === 0) return { rows: [], total: counting ? 0 : null };
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
    const result = await pool.query<{ id: string; title: string }>(
      `select id, title from ${PG_SCHEMA}.points where ${where}
       order by is_promo desc, (beamtype & 1) desc, coalesce(rating, -1) desc,
         point((lon - ${(q.box.west + q.box.east) / 2}) * $6::float8, lat) <-> point(0, ${clat})
       limit ${limit} offset ${offset}`,
      params,
    );
    if (!counting) return { rows: result.rows, total: null };
    const counted = await pool.query<{ n: number }>(
      counting === 'exact'
        ? `select count(*)::int as n from ${PG_SCHEMA}.points where ${where}`
        : `select count(*)::int as n from (select 1 from ${PG_SCHEMA}.points where ${where} limit ${RESULT_WINDOW}) c`,
      params,
    );
    return { rows: result.rows, total: counted.rows[0]?.n ?? 0 };
  };
  return Object.assign(run, { close: () => pool.end() });
}

const boxSchema = {
  type: 'object',
  required: ['south', 'west', 'north', 'east'],
  properties: {
    south: { type: 'number' },
    west: { type: 'number' },
    north: { type: 'number' },
    east: { type: 'number' },
  },
} as const;

/**
 * The peers behind one server of the framework ours runs on (Fastify, on 127.0.0.1), so that every
 * side is timed over the same kind of path: the same client, keep-alive, one request at a time, each
 * body checked against a JSON schema and answered as JSON. POST /{peer}/suggest answers the first 10
 * rows; POST /{peer}/page answers 12 rows of page `pageNumber` and the total counted as `counting` says.
 */
async function peerServer(
  peers: Record<string, Peer>,
): Promise<{ app: FastifyInstance; port: number; clock: ServerClock }> {
  const app = Fastify({ loggerInstance: pino({ level: 'silent' }) as FastifyBaseLogger });
  const clock = addClock(app);
  const query = {
    text: { type: 'string', maxLength: 200 },
    supertype: { type: ['string', 'null'] },
    box: boxSchema,
  };
  for (const [name, peer] of Object.entries(peers)) {
    app.post<{ Body: Query }>(
      `/${name}/suggest`,
      { schema: { body: { type: 'object', required: ['text', 'box'], properties: query } } },
      async (request) => (await peer(request.body, 10, 0, null)).rows,
    );
    app.post<{ Body: Query & { pageNumber: number; counting: Counting } }>(
      `/${name}/page`,
      {
        schema: {
          body: {
            type: 'object',
            required: ['text', 'box', 'pageNumber', 'counting'],
            properties: {
              ...query,
              pageNumber: { type: 'integer', minimum: 1, maximum: 1000 },
              counting: { enum: ['capped', 'exact'] },
            },
          },
        },
      },
      async (request) => {
        const { pageNumber, counting } = request.body;
        const answer = await peer(request.body, PAGE_SIZE, (pageNumber - 1) * PAGE_SIZE, counting);
        return { results: answer.rows, total: answer.total };
      },
    );
  }
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  return { app, port: typeof address === 'object' && address ? address.port : 0, clock };
}

// --- ours ------------------------------------------------------------------------------------------

interface OurServer {
  app: FastifyInstance;
  port: number;
  engine: SearchEngine;
  buildMs: number;
  memory: { rss: number; heap: number; arrayBuffers: number };
  pagedHeaders: Record<string, string>;
  clock: ServerClock;
}

/** Our search routes on a listening server, the index built at start as app.ts builds it. */
async function ourServer(store: Store, countLimit?: number): Promise<OurServer> {
  gc();
  const before = process.memoryUsage();
  const app = Fastify({ loggerInstance: pino({ level: 'silent' }) as FastifyBaseLogger });
  useContracts(app);
  const clock = addClock(app);
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
    void app.register(searchRoutes, { store, auth, follower, onEngine: resolve, countLimit });
  });
  await app.ready();
  const engine = await built;
  const buildMs = performance.now() - buildStarted;
  gc();
  const after = process.memoryUsage();
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const visitor = 'v'.repeat(32);
  return {
    app,
    port: typeof address === 'object' && address ? address.port : 0,
    engine,
    buildMs,
    memory: {
      rss: after.rss - before.rss,
      heap: after.heapUsed - before.heapUsed,
      arrayBuffers: after.arrayBuffers - before.arrayBuffers,
    },
    pagedHeaders: {
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      cookie: `xp_af=${visitor}`,
      requestverificationtoken: auth.signer.antiforgery({ visitor }),
    },
    clock,
  };
}

// --- the run ---------------------------------------------------------------------------------------

const ROUTES = ['floor', 'suggest', 'page2', 'page50', 'page2Exact'] as const;
type Route = (typeof ROUTES)[number];
const ROUTE_LABEL: Record<Route, string> = {
  floor: 'empty route (the floor)',
  suggest: 'suggestion',
  page2: 'page 2, counted capped',
  page50: 'page 50, counted capped',
  page2Exact: 'page 2, counted exactly',
};

interface Timed {
  /** warm-up queries it answered before it was timed. */
  warmed: number;
  /** client-side times of the timed queries, in order. */
  times: number[];
  /** the same requests' times inside the server (ServerClock). */
  server: number[];
}

/** The client's time for one request; anything but 200 stops the run. */
function check({ status, body, ms }: Answer): number {
  if (status !== 200) throw new Error(`HTTP ${status}: ${body.slice(0, 200)}`);
  return ms;
}

/**
 * One route of one side: the same warm-up for every side (WARM_UP_QUERIES other queries of the mix,
 * or WARM_UP_BUDGET_MS for a slow peer), then the timed queries, in order, until ROUTE_BUDGET_MS.
 */
async function timeRoute(
  label: string,
  warmUps: Query[],
  list: Query[],
  clock: ServerClock,
  call: (q: Query) => Promise<number>,
): Promise<Timed> {
  gc();
  let warmed = 0;
  const warmStarted = performance.now();
  for (const q of warmUps) {
    await call(q);
    warmed++;
    if (performance.now() - warmStarted > WARM_UP_BUDGET_MS) break;
  }
  const times: number[] = [];
  const server: number[] = [];
  clock.sink = server;
  const started = performance.now();
  for (const q of list) {
    times.push(await call(q));
    if (performance.now() - started > ROUTE_BUDGET_MS) break;
  }
  clock.sink = null;
  const sorted = [...times].sort((a, b) => a - b);
  log(
    `${label}: warmed with ${warmed}, timed ${times.length}${times.length < list.length ? ` (time budget spent)` : ''}: ` +
      `p50 ${pct(sorted, 50).toFixed(2)} ms, p99 ${pct(sorted, 99).toFixed(2)} ms`,
  );
  return { warmed, times, server };
}

/** Times each route `calls` has, one after the other. */
async function timeSide(
  side: string,
  warmUps: Query[],
  list: Query[],
  clock: ServerClock,
  calls: Partial<Record<Route, (q: Query) => Promise<number>>>,
): Promise<Partial<Record<Route, Timed>>> {
  const out: Partial<Record<Route, Timed>> = {};
  for (const route of ROUTES) {
    const call = calls[route];
    if (call) out[route] = await timeRoute(`${side}, ${ROUTE_LABEL[route]}`, warmUps, list, clock, call);
  }
  return out;
}

async function main(): Promise<void> {
  const stopper = setTimeout(() => {
    log('run budget spent: stopping');
    process.exit(2);
  }, RUN_BUDGET_MS);
  stopper.unref();
  const store = await openSeeded();
  const load = os.loadavg();
  const mix = queryMix(store, QUERIES);
  const peerMix = mix.slice(0, PEER_QUERIES);
  // Warm-up on other queries than the timed ones (rows drawn afresh): the compiler and the caches
  // reach their steady state without the timed queries' own data being primed. Every side gets them.
  const warmUps = queryMix(store, WARM_UP_QUERIES);
  const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };

  // --- ours, as shipped: totals counted one by one, or estimated where a scan would run long ------
  const ours = await ourServer(store);
  log(
    `index built: ${ours.engine.index.size} documents in ${ours.buildMs.toFixed(0)} ms, RSS +${mb(ours.memory.rss)}`,
  );
  let client = new HttpClient(ours.port);
  const ourPage = (server: OurServer, pageNumber: number) => async (q: Query) =>
    check(await client.post('/v1/webonly/pagedmapsearch', pagedBody(q, pageNumber), server.pagedHeaders));
  const json = { 'content-type': 'application/json' };
  const floor = async () => check(await client.post('/floor', '{}', json));
  const oursTimed = await timeSide('ours', warmUps, mix, ours.clock, {
    floor,
    suggest: async (q) =>
      check(await client.post('/v1/app/searchsuggestions', suggestionForm(q), formHeaders)),
    page2: ourPage(ours, 2),
    page50: ourPage(ours, 50),
  });
  const byKind = new Map<string, number[]>();
  mix.forEach((q, i) => {
    const time = oursTimed.suggest?.times[i];
    if (time === undefined) return;
    const list = byKind.get(q.kind) ?? [];
    list.push(time);
    byKind.set(q.kind, list);
  });

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
  await ours.app.close();

  // --- ours counting every match (SEARCH_COUNT_LIMIT=Infinity), its own index ----------------------
  const oursExact = await ourServer(store, Infinity);
  client = new HttpClient(oursExact.port);
  oursTimed.page2Exact = (
    await timeSide('ours', warmUps, mix, oursExact.clock, { page2Exact: ourPage(oursExact, 2) })
  ).page2Exact as Timed;
  await client.close();
  await oursExact.app.close();

  // --- the peers, behind their own Fastify server ---------------------------------------------------
  const peers: Record<string, Peer> = { sqlite: sqlitePeer(store) };
  let pgClose: (() => Promise<void>) | null = null;
  try {
    const peer = await pgPeer(store);
    peers['pg'] = peer;
    pgClose = () => peer.close();
  } catch (error) {
    log(`PostgreSQL peer skipped: ${String(error)}`);
  }
  const peerApp = await peerServer(peers);
  client = new HttpClient(peerApp.port);
  const peerTimed: Record<string, Partial<Record<Route, Timed>>> = {};
  for (const name of Object.keys(peers)) {
    const page = (pageNumber: number, counting: Counting) => async (q: Query) =>
      check(await client.post(`/${name}/page`, JSON.stringify({ ...q, pageNumber, counting }), json));
    peerTimed[name] = await timeSide(
      name === 'pg' ? 'PostgreSQL' : 'SQLite FTS5',
      warmUps,
      peerMix,
      peerApp.clock,
      {
        // the floor is the server's, not the engine's: timed once, beside the first peer
        ...(name === Object.keys(peers)[0] ? { floor } : {}),
        suggest: async (q) => check(await client.post(`/${name}/suggest`, JSON.stringify(q), json)),
        page2: page(2, 'capped'),
        page50: page(50, 'capped'),
        page2Exact: page(2, 'exact'),
      },
    );
  }
  await client.close();
  await peerApp.app.close();
  await pgClose?.();

  // --- report -----------------------------------------------------------------------------------
  const f = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
  const sorted = (times: number[]) => [...times].sort((a, b) => a - b);
  const row = (label: string, timed: { warmed?: number; times: number[]; server?: number[] }) => {
    const s = sorted(timed.times);
    const inside = sorted(timed.server ?? []);
    const server = inside.length ? `${f(pct(inside, 50))} / ${f(pct(inside, 99))}` : '';
    return `| ${label.padEnd(52)} | ${String(timed.warmed ?? '').padStart(7)} | ${String(s.length).padStart(5)} | ${f(pct(s, 50)).padStart(8)} | ${f(pct(s, 99)).padStart(8)} | ${server.padStart(15)} |`;
  };
  const SIDE_LABEL: Record<string, string> = {
    sqlite: 'SQLite FTS5 + R*Tree',
    pg: 'PostgreSQL pg_trgm + GiST',
  };
  const budgets: Partial<Record<Route, string>> = {
    suggest: ' (budget p99 3)',
    page2: ' (budget p99 5)',
    page50: ' (budget 2x page 2)',
  };
  const lines = [
    '',
    `Search benchmark: ${ours.engine.index.size.toLocaleString('en')} documents (${POINTS.toLocaleString('en')} points and the events not ended), ${os.cpus().length} cores, load average ${load.map((l) => l.toFixed(2)).join(' / ')} at start, ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')} at end`,
    `Index build ${(ours.buildMs / 1000).toFixed(1)} s (budget 10 s); RSS +${mb(ours.memory.rss)}, heap +${mb(ours.memory.heap)}, array buffers +${mb(ours.memory.arrayBuffers)} (budget 600 MB)`,
    `A new point searchable after ${freshness.map((ms) => ms.toFixed(0)).join(', ')} ms (budget 1000 ms)`,
    // what a reader needs to trust the ratios: each side's path, warm-up, samples and way of counting
    'Every side over HTTP: a Fastify server on 127.0.0.1 (ours: the product routes; the peers: one route per call), the same client in a worker thread, keep-alive, one request at a time, timed from send to last byte.',
    `Every side warmed alike: before each route, ${WARM_UP_QUERIES} other queries of the mix (capped at ${WARM_UP_BUDGET_MS / 1000} s for a slow peer; "warm-up" below is what each reached), then the same queries timed in the same order (n below; each route stops after ${ROUTE_BUDGET_MS / 1000} s).`,
    `Counting: "capped" = up to the ${RESULT_WINDOW.toLocaleString('en')} results ours serves (the peers: count(*) over at most ${RESULT_WINDOW.toLocaleString('en')} rows; ours: one by one, estimated where the scan would pass ${COUNT_EXACT_LIMIT.toLocaleString('en')} candidates and the estimate is over ${ESTIMATE_MIN.toLocaleString('en')}); "exactly" = every match on every side (ours with SEARCH_COUNT_LIMIT=Infinity, its own index).`,
    '"server" = inside the Fastify server, onRequest to onResponse; the empty route (POST /floor, a JSON body read and [] answered) is the floor each server pays whatever is asked.',
    '',
    '| What (ms; p50 / p99 over HTTP, then inside the server) | warm-up | n     | p50      | p99      | server p50 / p99 |',
    '|------------------------------------------------------|---------|-------|----------|----------|-----------------|',
  ];
  for (const route of ROUTES) {
    const timed = oursTimed[route];
    if (!timed) continue;
    lines.push(row(`ours: ${ROUTE_LABEL[route]}${budgets[route] ?? ''}`, timed));
    if (route === 'suggest')
      for (const [kind, times] of byKind) lines.push(row(`  ours: suggestion, ${kind}`, { times }));
  }
  for (const [name, timed] of Object.entries(peerTimed))
    for (const route of ROUTES) {
      const t = timed[route];
      if (t)
        lines.push(
          row(
            route === 'floor'
              ? `the peers' server: ${ROUTE_LABEL[route]}`
              : `${SIDE_LABEL[name]}: ${ROUTE_LABEL[route]}`,
            t,
          ),
        );
    }
  lines.push('', 'Ratios on the same queries (peer time / ours; budget >= 5x SQLite, >= 10x PostgreSQL):');
  for (const [name, timed] of Object.entries(peerTimed))
    for (const route of ROUTES) {
      if (route === 'floor') continue;
      const peer = timed[route]?.times ?? [];
      const own = oursTimed[route]?.times ?? [];
      const n = Math.min(peer.length, own.length);
      const p = sorted(peer.slice(0, n));
      const o = sorted(own.slice(0, n));
      lines.push(
        `  ${`${SIDE_LABEL[name]}, ${ROUTE_LABEL[route]}`.padEnd(52)} n ${String(n).padStart(4)}: p50 ${(pct(p, 50) / pct(o, 50)).toFixed(1)}x, p99 ${(pct(p, 99) / pct(o, 99)).toFixed(1)}x`,
      );
    }
  const p99 = (route: Route) => pct(sorted(oursTimed[route]?.times ?? []), 99);
  lines.push(`  ours page 50 / page 2 at p99: ${(p99('page50') / p99('page2')).toFixed(2)}x`);
  process.stdout.write(`${lines.join('\n')}\n`);
  await store.close();
}

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
