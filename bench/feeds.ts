/**
 * Home page benchmark (issue 19): `npm run bench:feeds -- [--posts 1000000] [--requests 1000]`.
 * Run with --expose-gc (the npm script does): each timed phase starts after a full collection.
 *
 * One temporary SQLite store (under $TMP, removed at the end) with the ~112,000 real places (the
 * product's own loader), 10,000 users and `--posts` posts, loaded in bulk and deterministically
 * (seeded random): 30% in New York City (the big city), the rest over the 2,000 most populous places;
 * listing times over a year, 5% hidden, 10% expired. Secondary indexes are built after the load and
 * the store analyzed, as a store in use would be. With TEST_DATABASE_URL set, the places are also
 * loaded into a schema of that PostgreSQL (dropped at the end).
 *
 * Our two routes are served on a real listening server on 127.0.0.1 and timed over HTTP from a client
 * in a worker thread (keep-alive, one request at a time). Then, in process and one call at a time:
 * 1. POST /v1/locations/startingwith with a mix of 1-6 letter prefixes of real names (picked by
 *    population): ours over HTTP (budget p99 ≤ 2 ms); in process ours (CityIndex) against SQLite's
 *    `city like 'pre%' order by population desc limit 10` and PostgreSQL's store query (the slug index
 *    range, cities/queries.ts citiesStartingWith).
 * 2. POST /asidelandingfeed of the big city, page 1 and a page 90% deep (before/beforeid from the row
 *    there): ours over HTTP (budget p99 ≤ 5 ms at any depth); in process ours (LandingFeedService)
 *    against the same page read with `offset` (same records built), budget ≥ 10× faster deep.
 * Both sides of a comparison get the same warm-up and alternate call by call. Prints p50/p99, the
 * ratios and PASS/MISS per budget; exits non-zero on a MISS.
 */
import os from 'node:os';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import cookie from '@fastify/cookie';
import pino from 'pino';
import { sql } from 'kysely';
import { loadConfig } from '../src/server/config';
import { registerAuth } from '../src/server/auth/hook';
import { useContracts } from '../src/server/http/contract';
import { loadCities } from '../src/server/features/cities/load';
import { citiesStartingWith } from '../src/server/features/cities/queries';
import { CityIndex } from '../src/server/features/locations/cityIndex';
import { locationRoutes } from '../src/server/features/locations/routes';
import { feedRoutes } from '../src/server/features/feeds/routes';
import { LandingFeedService, feedItems } from '../src/server/features/feeds/service';
import { cityFeedPageByOffset } from '../src/server/features/feeds/queries';
import type { Store } from '../src/server/store/store';
import { HttpClient } from './http-client';
import { arg, collectGarbage, log, openBenchStore, pct, random } from './support';

const POSTS = Math.max(100, Number(arg('posts', '1000000')));
const REQUESTS = Math.max(50, Number(arg('requests', '1000')));
const WARMUP = 50;
const USERS = 10_000;
const BIG_CITY = 5128581; // New York City (GeoNames)
const DAY = 86_400_000;
const hex = (n: number) => n.toString(16).padStart(12, '0');
const postId = (n: number) => `00000000-0000-4000-8000-${hex(n)}`;

type Stats = { p50: number; p99: number; n: number };
const stats = (samples: number[]): Stats => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: pct(sorted, 50), p99: pct(sorted, 99), n: sorted.length };
};
const ms = (value: number) => `${value.toFixed(3)} ms`;
const rows: string[][] = [];
const verdicts: boolean[] = [];
const report = (name: string, s: Stats, budget?: { p99: number }) => {
  const pass = budget === undefined ? undefined : s.p99 <= budget.p99;
  if (pass !== undefined) verdicts.push(pass);
  rows.push([
    name,
    ms(s.p50),
    ms(s.p99),
    String(s.n),
    budget ? `${pass ? 'PASS' : 'MISS'} (p99 ≤ ${budget.p99} ms)` : '',
  ]);
};
const ratio = (name: string, ours: Stats, peer: Stats, atLeast?: number) => {
  const r50 = peer.p50 / ours.p50;
  const r99 = peer.p99 / ours.p99;
  const pass = atLeast === undefined ? undefined : r50 >= atLeast && r99 >= atLeast;
  if (pass !== undefined) verdicts.push(pass);
  rows.push([
    name,
    `${r50.toFixed(1)}×`,
    `${r99.toFixed(1)}×`,
    '',
    atLeast === undefined ? '' : `${pass ? 'PASS' : 'MISS'} (≥ ${atLeast}×)`,
  ]);
};

// --- the store ---------------------------------------------------------------------------------

async function fill(store: Store): Promise<{ bigCount: number; cityIds: number[] }> {
  const started = performance.now();
  log('loading the places');
  await loadCities(store);
  const cities = await store.db
    .selectFrom('cities')
    .select('id')
    .orderBy('population', 'desc')
    .orderBy('id')
    .limit(2000)
    .execute();
  const cityIds = cities.map((c) => Number(c.id));
  const raw = store.raw;
  if (raw.kind !== 'sqlite') throw new Error('the feed store is SQLite');
  const db = raw.database;
  // the posts' change feed is off while loading, as in the other benches
  for (const s of ['ai', 'au', 'ad']) db.exec(`drop trigger if exists posts_changes_${s}`);
  db.pragma('foreign_keys = OFF');
  const now = Date.now();
  log(`loading ${USERS} users and ${POSTS} posts`);
  const user = db.prepare(`insert into users (id, username, username_lower, email, email_lower, fullname,
    status, is_admin, created_at, updated_at) values (?, ?, ?, ?, ?, ?, 'active', 0, ?, ?)`);
  db.transaction(() => {
    for (let i = 0; i < USERS; i++)
      user.run(
        `benchuser${i}`,
        `bench${i}`,
        `bench${i}`,
        `b${i}@example.org`,
        `b${i}@example.org`,
        `Bench ${i}`,
        now,
        now,
      );
  })();
  const indexes = db
    .prepare(
      `select name, sql from sqlite_master where type = 'index' and tbl_name = 'posts' and sql is not null`,
    )
    .all() as { name: string; sql: string }[];
  for (const index of indexes) db.exec(`drop index ${index.name}`);
  const rng = random(19);
  const types = ['deal', 'gig', 'petition', 'classified', 'promotion', 'general', 'recommendation'];
  const post =
    db.prepare(`insert into posts (id, user_id, title, description, type, city_id, file_resource_bitmask,
    expires_at, created_at, updated_at, listed_at, hidden_at) values (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)`);
  let bigCount = 0;
  const chunk = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const big = rng() < 0.3;
      const city = big ? BIG_CITY : (cityIds[Math.floor(rng() * rng() * cityIds.length)] as number);
      // whole seconds, so many posts share a time and the id must break ties
      const listed = now - Math.floor((rng() * 365 * DAY) / 1000) * 1000;
      const hidden = rng() < 0.05 ? listed : null;
      const expires = rng() < 0.1 ? now - DAY : null;
      if (big && hidden === null && expires === null) bigCount++;
      post.run(
        postId(i),
        `benchuser${i % USERS}`,
        `Bench post ${i}`,
        'A post of the feeds benchmark.',
        types[i % types.length],
        city,
        expires,
        listed,
        listed,
        listed,
        hidden,
      );
    }
  });
  for (let from = 0; from < POSTS; from += 100_000) chunk(from, Math.min(POSTS, from + 100_000));
  log('building the indexes');
  for (const index of indexes) db.exec(index.sql);
  db.exec('analyze');
  log(`store ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { bigCount, cityIds };
}

// --- HTTP client in a worker --------------------------------------------------------------------

/** POSTs JSON through the shared client; answers the client's time; anything but 200 stops the run. */
async function postJson(
  client: HttpClient,
  path: string,
  body: object,
  accept = 'application/json',
): Promise<number> {
  const answer = await client.post(path, JSON.stringify(body), {
    'content-type': 'application/json',
    accept,
  });
  if (answer.status !== 200)
    throw new Error(`${path} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
  return answer.ms;
}

/** Times `sides` call by call, alternating, after the same warm-up for each. */
async function compare(count: number, sides: Array<(i: number) => Promise<unknown>>): Promise<Stats[]> {
  for (let i = 0; i < WARMUP; i++) for (const side of sides) await side(i);
  collectGarbage();
  const samples = sides.map(() => [] as number[]);
  for (let i = 0; i < count; i++) {
    for (let s = 0; s < sides.length; s++) {
      const started = performance.now();
      await sides[s]!(i);
      samples[s]!.push(performance.now() - started);
    }
  }
  return samples.map(stats);
}

async function overHttp(count: number, call: (i: number) => Promise<number>): Promise<Stats> {
  for (let i = 0; i < WARMUP; i++) await call(i);
  collectGarbage();
  const samples: number[] = [];
  for (let i = 0; i < count; i++) samples.push(await call(i));
  return stats(samples);
}

// --- the run ------------------------------------------------------------------------------------

async function main() {
  log(
    `bench:feeds: ${POSTS} posts, ${REQUESTS} requests per side, ${os.cpus().length} cores, load ${os.loadavg()[0]?.toFixed(2)}`,
  );
  const { store, dispose } = await openBenchStore('feeds', false);
  const pgUrl = process.env['TEST_DATABASE_URL'];
  const postgres = pgUrl ? await openBenchStore('feeds', true) : null;
  try {
    const { bigCount } = await fill(store);
    if (postgres) {
      log('loading the places into PostgreSQL');
      await loadCities(postgres.store);
      await sql`analyze cities`.execute(postgres.store.db);
    }

    // the in-process comparisons between the HTTP runs can outlast the default 72 s keep-alive, and a
    // socket the server closes just as the client reuses it ends the run with "socket hang up"
    const app = Fastify({
      loggerInstance: pino({ level: 'silent' }) as FastifyBaseLogger,
      keepAliveTimeout: 30 * 60_000,
    });
    useContracts(app);
    await app.register(cookie);
    const config = loadConfig(
      { SEED: 'none', LOG_LEVEL: 'silent', SESSION_SECRET: 'f'.repeat(40) },
      os.tmpdir(),
    );
    registerAuth(app, { config, store });
    const cities = new CityIndex(store);
    const built = performance.now();
    log(`city index: ${await cities.ready()} places in ${(performance.now() - built).toFixed(0)} ms`);
    await app.register(locationRoutes, { store, cities });
    await app.register(feedRoutes, { store });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const client = new HttpClient(typeof address === 'object' && address ? address.port : 0);

    // 1. startingwith -------------------------------------------------------------------------
    const names = (
      await store.db.selectFrom('cities').select('city').orderBy('population', 'desc').limit(20_000).execute()
    ).map((c) => c.city);
    const rng = random(7);
    const queries = Array.from({ length: 500 }, () => {
      const name = names[Math.floor(rng() * rng() * names.length)] as string;
      return name.slice(0, 1 + Math.floor(rng() * 6));
    });
    const q = (i: number) => queries[i % queries.length] as string;
    log('startingwith over HTTP');
    report(
      'startingwith, ours over HTTP',
      await overHttp(REQUESTS, (i) =>
        postJson(client, '/v1/locations/startingwith', { query: q(i), limit: 10 }),
      ),
      { p99: 2 },
    );
    const raw = store.raw;
    if (raw.kind !== 'sqlite') throw new Error('SQLite expected');
    const like = raw.database.prepare(
      `select id, city, city_forurl, state, country, lat, lon from cities
       where city like ? escape '\\' order by population desc, id limit 10`,
    );
    const likeOf = (text: string) => like.all(`${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const peerCount = Math.min(REQUESTS, 300);
    log('startingwith in process: ours, SQLite LIKE' + (postgres ? ', PostgreSQL' : ''));
    const sides: Array<(i: number) => Promise<unknown>> = [
      (i) => cities.startingWith(q(i), 10),
      async (i) => likeOf(q(i)),
    ];
    if (postgres) sides.push((i) => citiesStartingWith(postgres.store.db, q(i), 10));
    const [oursIn, likeIn, pgIn] = await compare(peerCount, sides);
    report('startingwith, ours in process', oursIn!);
    report('startingwith, SQLite LIKE prefix', likeIn!);
    ratio('  SQLite LIKE / ours', oursIn!, likeIn!);
    if (pgIn) {
      report('startingwith, PostgreSQL (slug index)', pgIn);
      ratio('  PostgreSQL / ours', oursIn!, pgIn);
    }

    // 2. the landing feed -----------------------------------------------------------------------
    const deep = Math.floor(bigCount * 0.9);
    const now = Date.now();
    const at = await store.db
      .selectFrom('posts')
      .select(['listed_at', 'id'])
      .where('city_id', '=', BIG_CITY)
      .where('hidden_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .orderBy('listed_at', 'desc')
      .orderBy('id', 'desc')
      .offset(deep - 1)
      .limit(1)
      .executeTakeFirstOrThrow();
    const cursor = { before: new Date(Number(at.listed_at)).toISOString(), beforeid: at.id };
    log(`landing feed: the big city holds ${bigCount} live posts; the deep page starts after post ${deep}`);
    report(
      'landing feed page 1, ours over HTTP',
      await overHttp(REQUESTS, () => postJson(client, '/asidelandingfeed', { cityid: BIG_CITY, limit: 10 })),
      { p99: 5 },
    );
    report(
      `landing feed 90% deep, ours over HTTP`,
      await overHttp(REQUESTS, () =>
        postJson(client, '/asidelandingfeed', { cityid: BIG_CITY, limit: 10, ...cursor }),
      ),
      { p99: 5 },
    );
    report(
      'landing feed page 1, HTML fragment over HTTP',
      await overHttp(REQUESTS, () =>
        postJson(client, '/asidelandingfeed', { cityid: BIG_CITY, limit: 10 }, 'text/html'),
      ),
    );
    const service = new LandingFeedService(store);
    const before = Date.parse(cursor.before);
    log('landing feed in process: keyset against OFFSET');
    const [keysetFirst, offsetFirst] = await compare(Math.min(REQUESTS, 200), [
      () => service.page(null, { cityid: BIG_CITY, limit: 10 }),
      async () =>
        feedItems(store, null, await cityFeedPageByOffset(store, BIG_CITY, 0, Date.now(), 11), Date.now()),
    ]);
    report('feed page 1, keyset in process', keysetFirst!);
    report('feed page 1, OFFSET in process', offsetFirst!);
    ratio('  OFFSET / keyset, page 1', keysetFirst!, offsetFirst!);
    const [keysetDeep, offsetDeep] = await compare(Math.min(REQUESTS, 30), [
      () => service.page(null, { cityid: BIG_CITY, limit: 10, before, beforeid: cursor.beforeid }),
      async () =>
        feedItems(store, null, await cityFeedPageByOffset(store, BIG_CITY, deep, Date.now(), 11), Date.now()),
    ]);
    report('feed 90% deep, keyset in process', keysetDeep!);
    report('feed 90% deep, OFFSET in process', offsetDeep!);
    ratio('  OFFSET / keyset, 90% deep', keysetDeep!, offsetDeep!, 10);

    await client.close();
    await app.close();
  } finally {
    await dispose();
    await postgres?.dispose();
  }
  const width = rows.reduce((w, r) => Math.max(w, (r[0] ?? '').length), 0);
  process.stdout.write(
    `\n${'what'.padEnd(width)}  ${'p50'.padStart(11)}  ${'p99'.padStart(11)}  ${'n'.padStart(5)}  budget\n`,
  );
  for (const [name, p50, p99, n, verdict] of rows)
    process.stdout.write(
      `${(name ?? '').padEnd(width)}  ${(p50 ?? '').padStart(11)}  ${(p99 ?? '').padStart(11)}  ${(n ?? '').padStart(5)}  ${verdict ?? ''}\n`,
    );
  if (verdicts.some((v) => !v)) process.exitCode = 1;
}

await main();
