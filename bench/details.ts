/**
 * Point details benchmark: `npm run bench:details -- [--points 1000000] [--seed 1] [--requests 2000]`.
 *
 * Reuses (or seeds once) the cached SQLite store of bench:tiles (`$TMP/xpoint-bench-tiles-N-S`), serves
 * the detail and permission routes on 127.0.0.1 with the plugins app.ts puts in front of every route
 * (helmet, compress, cookie, the auth hook) — not the whole app, so that other features' start-up on
 * a million points (search and tile indexes) is not part of this run — and times, over HTTP with
 * keep-alive, one request at a time:
 * - ours: GET /v1/webonly/xpointdetails/{id} (the point, its people, city, screenshots, contacts,
 *   events with first intervals, health photos: a few indexed queries);
 * - peer 1: the same point read with ONE big LEFT JOIN of every table it needs (the obvious ORM
 *   "include everything" query), rows de-duplicated in JS, served from a route of this benchmark;
 * - peer 2: GET /v1/xpoint/{id}/permissions, one indexed query: the floor of an HTTP call here;
 * - and the full-screen page /f/{id} rendered on the server (src/server/features/details/fullscreen.ts
 *   with the built renderer, `npm run build`): the same details, rendered with React into the page.
 * Half the ids are random points, half points that host events; then, apart, points with many
 * screenshots and events, where the join's row product grows. Then nearest cities: the in-process
 * kd-tree search against the store query of features/cities/queries.ts (closestCities), and
 * POST /v1/map/closestn over HTTP. Every phase is bounded in time; prints a table with ratios.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import path from 'node:path';
import Fastify from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import { AppError } from '../src/shared/errors';
import { RESPONSE_COMPRESSION } from '../src/server/app';
import { registerAuth } from '../src/server/auth/hook';
import { useContracts } from '../src/server/http/contract';
import { loadConfig } from '../src/server/config';
import { detailRoutes } from '../src/server/features/details/routes';
import { openLimits } from '../src/server/http/rate-limits';
import { permissionRoutes } from '../src/server/features/permissions/routes';
import { loadCities } from '../src/server/features/cities/load';
import { closestCities } from '../src/server/features/cities/queries';
import { ClosestCities } from '../src/server/features/details/closest-cities';
import { DetailService } from '../src/server/features/details/service';
import {
  FullScreenPages,
  fullScreenRoutes,
  loadPageRenderer,
  sendPage,
} from '../src/server/features/details/fullscreen';
import { seedDemoData } from '../src/server/seed/generate';
import { openStore, type Store } from '../src/server/store/store';

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? (process.argv[at + 1] as string) : fallback;
}
const POINTS = Number(arg('points', '1000000'));
const SEED = Number(arg('seed', '1'));
const REQUESTS = Number(arg('requests', '2000'));
/** No phase runs longer than this. */
const PHASE_LIMIT_MS = 60_000;

const log = (message: string) =>
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function openSeeded(): Promise<Store> {
  const dataDir = path.join(os.tmpdir(), `xpoint-bench-tiles-${POINTS}-${SEED}`);
  const store = await openStore({ dataDir });
  const count =
    store.raw.kind === 'sqlite'
      ? (store.raw.database.prepare('select count(*) as n from points').get() as { n: number }).n
      : 0;
  if (count !== POINTS) {
    log(
      `seeding ${POINTS} points into ${dataDir} (once; later runs of bench:details and bench:tiles reuse it)`,
    );
    await loadCities(store, log);
    await seedDemoData(store, { points: POINTS, seed: SEED, dataDir, wipe: count > 0, log });
  } else log(`reusing ${count} seeded points in ${dataDir}`);
  return store;
}

/** The peer: every table the panel needs in one LEFT JOIN; the product of the one-to-many joins comes back. */
function bigJoinPeer(store: Store) {
  if (store.raw.kind !== 'sqlite') throw new Error('the benchmark runs on SQLite');
  const statement = store.raw.database.prepare(`
    select p.*, o.username as owner_username, o.fullname as owner_fullname, o.avatar_url as owner_avatar,
      o.status as owner_status, c.username as consultant_username, c.fullname as consultant_fullname,
      c.avatar_url as consultant_avatar, ci.city as city_name, ci.city_forurl, ci.country as city_country,
      s.position as shot_position, s.url as shot_url,
      k.id as contact_id, k.roleid, k.roleoverride, k.contact_firstname, k.contact_lastname, k.contact_username,
      k.avatar_url as contact_avatar,
      e.id as event_id, e.title as event_title, e.start_date, e.end_date, e.type as event_type,
      i.id as interval_id, i.start_at, i.end_at,
      t.id as ticket_id, t.name as ticket_name, t.unit_price, t.max_quantity
    from points p
      left join users o on o.id = p.owner_userid
      left join users c on c.id = p.consultant_userid
      left join cities ci on ci.id = p.city_id
      left join point_screenshots s on s.point_id = p.id
      left join contacts k on k.point_id = p.id
      left join events e on e.xpoint_id = p.id
      left join event_intervals i on i.event_id = e.id
      left join event_tickets t on t.event_id = e.id
    where p.id = ?`);
  return (id: string) => {
    const rows = statement.all(id) as Record<string, unknown>[];
    const first = rows[0];
    if (!first) return null;
    const unique = (key: string) => [
      ...new Map(rows.filter((r) => r[key] != null).map((r) => [r[key], r])).values(),
    ];
    return {
      ...first,
      screenshots: unique('shot_position').map((r) => ({ position: r['shot_position'], url: r['shot_url'] })),
      contacts: unique('contact_id').map((r) => ({ roleid: r['roleid'], firstname: r['contact_firstname'] })),
      events: unique('event_id').map((r) => ({
        id: r['event_id'],
        title: r['event_title'],
        intervals: unique('interval_id')
          .filter((x) => x['event_id'] === r['event_id'])
          .map((x) => ({ start: x['start_at'], end: x['end_at'] })),
        tickets: unique('ticket_id')
          .filter((x) => x['event_id'] === r['event_id'])
          .map((x) => ({ name: x['ticket_name'], unit_price: x['unit_price'] })),
      })),
    };
  };
}

/**
 * The load generator, in a worker thread of its own: its requests, parsing and garbage collection do
 * not run on the server's event loop (they would add to every request's time). One request at a time,
 * keep-alive, asking for the encodings Chromium asks for, timed to the last byte of the answer as
 * sent: the client does not decompress it (Node's fetch does so through a stream on the thread pool,
 * which cost about a millisecond a response here and is none of the server's time; a browser's
 * decoder is native).
 */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const zlib = require('node:zlib');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function get(url) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks), encoding: res.headers['content-encoding'] }));
      res.on('error', reject);
    });
    request.on('error', reject);
  });
}
function text({ body, encoding }) {
  if (encoding === 'br') return zlib.brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(body).toString('utf8');
  if (encoding === 'deflate') return zlib.inflateSync(body).toString('utf8');
  return body.toString('utf8');
}
(async () => {
  const { base, urls, limitMs } = workerData;
  const times = [];
  const started = performance.now();
  for (const url of urls) {
    const t0 = performance.now();
    const answer = await get(base + url);
    times.push(performance.now() - t0);
    if (answer.status !== 200) throw new Error(url + ' answered ' + answer.status + ' ' + text(answer).slice(0, 200));
    if (performance.now() - started > limitMs) break;
  }
  parentPort.postMessage(times);
})().catch((error) => { throw error; });
`;

/**
 * Times each route on each id over HTTP, one request at a time, from the client worker. The routes take
 * turns on every id, in a rotating order, so that all of them see the same load on a shared machine
 * and each is the first to touch an id's pages equally often.
 */
async function timeInterleaved(
  base: string,
  ids: string[],
  routes: { label: string; url: (id: string) => string }[],
): Promise<number[][]> {
  const order = ids.flatMap((id, n) =>
    routes.map((_, k) => {
      const r = (n + k) % routes.length;
      return { r, url: (routes[r] as (typeof routes)[number]).url(id) };
    }),
  );
  const worker = new Worker(CLIENT, {
    eval: true,
    workerData: { base, urls: order.map((o) => o.url), limitMs: 2 * PHASE_LIMIT_MS },
  });
  const durations = await new Promise<number[]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  if (durations.length < order.length) log(`stopped after ${durations.length} requests (time limit)`);
  const times: number[][] = routes.map(() => []);
  for (const [i, ms] of durations.entries()) times[order[i]?.r ?? 0]?.push(ms);
  return times.map((t) => t.sort((a, b) => a - b));
}

async function main(): Promise<void> {
  const benchStarted = performance.now();
  const store = await openSeeded();
  if (store.raw.kind !== 'sqlite') throw new Error('the benchmark runs on SQLite');
  const db = store.raw.database;
  const half = Math.ceil(REQUESTS / 2);
  const random = db.prepare('select id from points order by random() limit ?').all(half) as { id: string }[];
  const hosts = db
    .prepare(
      'select distinct xpoint_id as id from events where xpoint_id is not null order by random() limit ?',
    )
    .all(half) as { id: string }[];
  const ids = [...random, ...hosts].map((r) => r.id).sort(() => Math.random() - 0.5);
  log(`${ids.length} ids: ${random.length} random points, ${hosts.length} that host events`);

  const config = {
    ...loadConfig({ SEED: 'none', LOG_LEVEL: 'silent' }),
    dataDir: path.dirname(store.location),
  };
  const app = Fastify();
  useContracts(app);
  app.setErrorHandler((error, _request, reply) =>
    error instanceof AppError
      ? reply.status(error.status).send(error.toBody())
      : reply.status(500).send({ errorcode: 1500, error: String(error) }),
  );
  await app.register(helmet);
  await app.register(compress, RESPONSE_COMPRESSION);
  await app.register(cookie);
  const auth = registerAuth(app, { config, store });
  await app.register(permissionRoutes, { store });
  await app.register(detailRoutes, {
    store,
    auth,
    limits: openLimits({ redisUrl: undefined, log: app.log }),
  });
  // the page renderer as the server loads it (React's production build, as `npm start` runs it)
  process.env['NODE_ENV'] ??= 'production';
  const renderer = await loadPageRenderer(config.pageRenderer, app.log);
  if (renderer === null) throw new Error(`${config.pageRenderer} is missing: run \`npm run build\` first`);
  const pages = new FullScreenPages(
    store,
    renderer,
    path.join(config.webDir, 'fullscreen.html'),
    config.publicUrl,
  );
  await app.register(fullScreenRoutes, { pages });
  app.get<{ Params: { id: string } }>('/f/:id', async (request, reply) => {
    const html = await pages.page(request, request.params.id);
    return html === null ? reply.status(503).send({}) : sendPage(reply, html);
  });
  const peer = bigJoinPeer(store);
  app.get<{ Params: { id: string } }>('/bench/bigjoin/:id', async (request, reply) => {
    const point = peer(request.params.id);
    return point ? reply.send(point) : reply.status(404).send({});
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  log(`app listening at ${address}`);

  const load = os.loadavg();
  const routes = [
    { label: 'ours', url: (id: string) => `/v1/webonly/xpointdetails/${id}` },
    { label: 'big join', url: (id: string) => `/bench/bigjoin/${id}` },
    { label: 'permissions', url: (id: string) => `/v1/xpoint/${id}/permissions` },
    { label: 'full-screen page', url: (id: string) => `/f/${id}` },
  ];
  // warm-up: JIT (on other ids than those measured)
  const warm = (
    db.prepare('select id from points order by random() limit 300').all() as { id: string }[]
  ).map((r) => r.id);
  await timeInterleaved(address, warm, routes);
  const [ours = [], joined = [], floor = [], page = []] = await timeInterleaved(address, ids, routes);
  const pageSample = await (await fetch(`${address}/f/${hosts[0]?.id ?? ids[0]}`)).text();
  // points with many children: every screenshot, contact, event, interval and ticket multiplies the join
  const rich = (
    db
      .prepare(
        `select e.xpoint_id as id from events e
         where e.xpoint_id in (select point_id from point_screenshots group by point_id having count(*) >= 10)
         group by e.xpoint_id having count(*) >= 2 order by random() limit 300`,
      )
      .all() as { id: string }[]
  ).map((r) => r.id);
  const [oursRich = [], joinedRich = []] = await timeInterleaved(address, rich, routes.slice(0, 2));
  const sample = await (await fetch(`${address}/v1/webonly/xpointdetails/${hosts[0]?.id ?? ids[0]}`)).text();

  // the same work without HTTP (no Fastify, no compression): the service and the peer, interleaved
  const service = new DetailService(store);
  const quiet = { warn: () => {} };
  const inProcess: number[][] = [[], []];
  for (const id of ids) {
    let t0 = performance.now();
    JSON.stringify(await service.pointDetails(null, id, Date.now(), quiet));
    inProcess[0]?.push(performance.now() - t0);
    t0 = performance.now();
    JSON.stringify(peer(id));
    inProcess[1]?.push(performance.now() - t0);
  }
  const [oursInProcess = [], joinedInProcess = []] = inProcess.map((t) => t.sort((a, b) => a - b));

  // nearest cities
  const engine = new ClosestCities(store);
  const buildStarted = performance.now();
  const snapshot = await engine.loaded();
  const buildMs = performance.now() - buildStarted;
  const asks = Array.from({ length: 20_000 }, (): [number, number] => [
    (Math.asin(2 * Math.random() - 1) * 180) / Math.PI,
    Math.random() * 360 - 180,
  ]);
  for (const [lat, lng] of asks.slice(0, 2000)) engine.closestIn(snapshot, lat, lng, 5);
  const knn = asks
    .map(([lat, lng]) => {
      const t0 = performance.now();
      engine.closestIn(snapshot, lat, lng, 5);
      return performance.now() - t0;
    })
    .sort((a, b) => a - b);
  const sqlTimes: number[] = [];
  const sqlStarted = performance.now();
  for (const [lat, lng] of asks.slice(0, 300)) {
    const t0 = performance.now();
    await closestCities(store.db, lat, lng, 5);
    sqlTimes.push(performance.now() - t0);
    if (performance.now() - sqlStarted > PHASE_LIMIT_MS) break;
  }
  sqlTimes.sort((a, b) => a - b);
  const httpClosest: number[] = [];
  for (const [lat, lng] of asks.slice(0, 1000)) {
    const t0 = performance.now();
    const res = await fetch(`${address}/v1/map/closestn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ lat, lng }),
    });
    await res.text();
    httpClosest.push(performance.now() - t0);
  }
  httpClosest.sort((a, b) => a - b);
  await app.close();
  await store.close();

  const row = (name: string, t: number[], note = '') =>
    [name, `${t.length}`, pct(t, 50).toFixed(3), pct(t, 99).toFixed(3), note] as const;
  const rows = [
    row('ours: GET /v1/webonly/xpointdetails/{id}', ours, 'budget p99 <= 5 ms'),
    row(
      'peer: one big LEFT JOIN of the same tables',
      joined,
      `p50 ${(pct(joined, 50) / pct(ours, 50)).toFixed(2)}x ours, p99 ${(pct(joined, 99) / pct(ours, 99)).toFixed(2)}x`,
    ),
    row('ours in process (service + JSON.stringify, no HTTP)', oursInProcess),
    row(
      'peer in process (query + de-duplication + JSON.stringify)',
      joinedInProcess,
      `p50 ${(pct(joinedInProcess, 50) / pct(oursInProcess, 50)).toFixed(2)}x ours`,
    ),
    row('ours, points with >= 10 screenshots and >= 2 events', oursRich),
    row(
      'peer, the same points',
      joinedRich,
      `p50 ${(pct(joinedRich, 50) / pct(oursRich, 50)).toFixed(2)}x ours, p99 ${(pct(joinedRich, 99) / pct(oursRich, 99)).toFixed(2)}x`,
    ),
    row(
      'floor: GET /v1/xpoint/{id}/permissions',
      floor,
      `ours p50 is ${(pct(ours, 50) / pct(floor, 50)).toFixed(2)}x the floor`,
    ),
    row(
      'full-screen page /f/{id}, rendered on the server',
      page,
      `budget p99 <= 30 ms; p50 ${(pct(page, 50) / pct(ours, 50)).toFixed(2)}x the detail JSON`,
    ),
    row(
      'closest cities in process (kd-tree)',
      knn,
      `index built in ${buildMs.toFixed(0)} ms, budget <= 1 ms`,
    ),
    row(
      'peer: closestCities store query',
      sqlTimes,
      `p50 ${(pct(sqlTimes, 50) / pct(knn, 50)).toFixed(0)}x ours`,
    ),
    row('POST /v1/map/closestn over HTTP', httpClosest),
  ];
  process.stdout.write(
    `\nPoint details at ${POINTS.toLocaleString('en-US')} points, SQLite, ${os.cpus().length} cores, ` +
      `load average ${load.map((l) => l.toFixed(1)).join(' ')} at start (other work on the machine adds noise)\n`,
  );
  process.stdout.write('| what | n | p50 ms | p99 ms | note |\n|---|---:|---:|---:|---|\n');
  for (const r of rows) process.stdout.write(`| ${r.join(' | ')} |\n`);
  process.stdout.write(`\ndetail JSON of a point with events: ${sample.length} bytes\n`);
  process.stdout.write(`full-screen page of a point with events: ${pageSample.length} bytes\n`);
  process.stdout.write(`bench wall time ${((performance.now() - benchStarted) / 1000).toFixed(0)} s\n`);
}

await main();
