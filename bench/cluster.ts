/**
 * The multi-process run (issue 25): `npm run bench:cluster -- [--points 1000000] [--devices 30000]
 * [--writes 200] [--beams 30] [--poll-phase true] [--poll-ms 0]`.
 *
 * Three XPoint processes on one PostgreSQL database, one Redis and one S3-protocol media bucket (s3rver,
 * each process with a data directory of its own, as on three machines), behind a small round-robin
 * proxy on 127.0.0.1 that appends `X-Forwarded-For` as a load balancer does (the processes run with
 * `TRUST_PROXY=loopback`). The database is seeded once with `--points` demo points. Then, in order:
 *   1. (`--poll-phase`) write-to-visible with the change feed polled only (no LISTEN/NOTIFY): each write
 *      is a point created through the proxy, timed from the create's answer until every process shows
 *      it in search, its tile and its details (each surface of each process asked on its own, again as
 *      soon as it answers or `--poll-ms` later); the processes are then restarted with NOTIFY on;
 *   2. the same with NOTIFY; during both write phases each process records its event-loop delay and
 *      garbage-collection pauses (recordPauses), and so does the bench, so a slow write can be told
 *      from a stalled process, a long collection or the bench's own polling; and each process's
 *      change-feed follower tells when each write was woken for, read and applied by each subscriber
 *      (traceChanges), so the table says where the writes waited;
 *   3. `--devices` devices (the Phoenix protocol over `ws`, city-sized views around Paris) spread over
 *      the processes, a third on each, with their memory; `--beams` hot beams posted through the proxy
 *      (so each reaches the processes through Redis), counting every receipt each device should get;
 *   4. a picture uploaded through each process and read back through each of the others;
 *   5. a per-address limit (sign-up, 10 in 15 minutes) tried 11 times through the proxy, which spreads
 *      the attempts over the three processes;
 *   6. a video whose transcoding job is running when its process is killed with SIGKILL: another
 *      process must take it over once its lease has passed and finish it, exactly once.
 * Prints one table. The devices connect to their process directly: one proxy holding 60,000 sockets
 * would pass this machine's limit of open files per process. Everything listens on 127.0.0.1, the
 * database is dropped at the end, and a guard stops the run after 40 minutes.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import inspector from 'node:inspector';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants as perfConstants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import pg from 'pg';
import pino from 'pino';
import sharp from 'sharp';
import * as tus from 'tus-js-client';
import WebSocket from 'ws';
import { arg, collectGarbage, log, pct, random } from './support';
import type { ChangeFeedTrace } from '../src/server/store/follower';

const HOST = '127.0.0.1';
const PG_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env['BENCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const NODES = 3;
/** Where the beams' points and the devices' views are: around Paris. */
const AREA = { south: 48.4, north: 49.2, west: 1.8, east: 3.0 };
const VIEW_MIN = 0.05;
const VIEW_MAX = 0.35;
const GUARD_MS = 40 * 60_000;
/** A write not visible everywhere after this counts as never shown. */
const VISIBLE_TIMEOUT_MS = 5_000;
const SIGN_UP_LIMIT = 10;
/** Writes per bench user: under the 60 creates a person may make in 10 minutes (points/routes.ts). */
const WRITES_PER_USER = 50;
const PASSWORD = 'correct-horse-1';
const SURFACES = ['search', 'tiles', 'details'] as const;
type Surface = (typeof SURFACES)[number];
const self = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(self), '..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Milliseconds on a clock every process of the machine shares. */
const clock = () => performance.timeOrigin + performance.now();

interface Box {
  south: number;
  west: number;
  north: number;
  east: number;
}

function views(count: number, seed: number): Box[] {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const height = VIEW_MIN + next() * (VIEW_MAX - VIEW_MIN);
    const width = VIEW_MIN + next() * (VIEW_MAX - VIEW_MIN);
    const south = AREA.south + next() * (AREA.north - AREA.south - height);
    const west = AREA.west + next() * (AREA.east - AREA.west - width);
    return { south, west, north: south + height, east: west + width };
  });
}

const contains = (view: Box, lat: number, lon: number) =>
  lat >= view.south && lat <= view.north && lon >= view.west && lon <= view.east;

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

// ---------------------------------------------------------------------------------------------
// child: one XPoint process, started as main.ts starts one, with the change feed's NOTIFY on or off

async function runNode(listen: boolean): Promise<void> {
  process.env['NODE_ENV'] ??= 'production';
  const { loadConfig } = await import('../src/server/config');
  const { openMedia } = await import('../src/server/media/open');
  const { openStore } = await import('../src/server/store/store');
  const { buildApp } = await import('../src/server/app');
  const { liveOf } = await import('../src/server/features/beams/routes');
  const config = loadConfig();
  const media = await openMedia(config);
  await media.store.check();
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const trace = traceChanges();
  const app = await buildApp({
    config,
    store,
    media,
    logger: pino({ level: config.logLevel }),
    changeFeedListen: listen,
    changeFeedTrace: trace.hooks,
  });
  await app.listen({ port: 0, host: HOST });
  const port = (app.server.address() as net.AddressInfo).port;
  const pauses = recordPauses();
  process.on('message', (message: { type: string }) => {
    if (message.type === 'pauses-start') {
      pauses.start();
      trace.start();
      process.send?.({ type: 'ok' });
    }
    if (message.type === 'pauses') process.send?.({ type: 'pauses', ...pauses.stop(), trace: trace.stop() });
    if (message.type === 'stats') {
      collectGarbage();
      process.send?.({
        type: 'stats',
        rss: process.memoryUsage().rss / 2 ** 20,
        connections: liveOf(app.server)?.hub.connections.size ?? 0,
      });
    }
    if (message.type === 'exit') {
      void app.close().then(async () => {
        await store.close();
        media.store.close();
        process.exit(0);
      });
    }
  });
  process.send?.({ type: 'ready', port, pid: process.pid });
}

/** When one point's change reached each step in a process (epoch ms; see traceChanges). */
interface PointTrace {
  /** the feed row's time: the trigger's clock at the write. */
  changedAt: number;
  /** the first wake of the follower after it (on PostgreSQL, a notification), if any. */
  woken?: number;
  /** the read of the feed that brought it. */
  read: number;
  /** when each subscriber (search, point tiles, ...) had applied it. */
  handled: Record<string, number>;
}

/**
 * Records, while started, when each created or moved point went through the follower's steps in this
 * process (ChangeFeedTrace): the bench then says where its slowest writes waited (issue 25).
 */
function traceChanges(): {
  hooks: ChangeFeedTrace;
  start(): void;
  stop(): Record<string, PointTrace>;
} {
  let points: Map<string, PointTrace> | null = null;
  let wakes: number[] = [];
  return {
    hooks: {
      woken(at) {
        if (points) wakes.push(at);
      },
      read(changes, at) {
        if (!points) return;
        for (const c of changes) {
          if (c.kind !== 'point' || c.op !== 'upsert' || points.has(c.objectId)) continue;
          const woken = wakes.find((w) => w >= c.changedAt);
          points.set(c.objectId, {
            changedAt: c.changedAt,
            read: at,
            handled: {},
            ...(woken ? { woken } : {}),
          });
        }
      },
      handled(subscriber, changes, at) {
        for (const c of changes) {
          const point = points?.get(c.objectId);
          if (point && c.kind === 'point') point.handled[subscriber] ??= at;
        }
      },
    },
    start() {
      points = new Map();
      wakes = [];
    },
    stop() {
      const all = Object.fromEntries(points ?? []);
      points = null;
      return all;
    },
  };
}

/** What a process answers at the end of a write phase: its stalls and its follower's trace. */
type Recorded = Pauses & { trace: Record<string, PointTrace> };

interface Pauses {
  /** the event loop's longest delay and its p99 (ms). */
  loopMax: number;
  loopP99: number;
  /** garbage collections: the longest pause, the longest major (mark-compact) one, their count and sum (ms). */
  gcMax: number;
  gcMajorMax: number;
  gcCount: number;
  gcTotal: number;
}

/**
 * What stalls a process while it is recorded: its event loop's delay (perf_hooks, 10 ms resolution)
 * and its garbage collections' pauses. A write late on every surface of a process at once, details
 * (a plain database read) included, points at the process, not an index (issue 25).
 */
function recordPauses(): { start(): void; stop(): Pauses } {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const profile = cpuProfiler(process.env['BENCH_CPU_PROFILE_DIR']);
  let gc: { duration: number; major: boolean }[] | null = null;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
      gc?.push({ duration: entry.duration, major: kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR });
    }
  }).observe({ entryTypes: ['gc'] });
  return {
    start() {
      loop.reset();
      loop.enable();
      gc = [];
      profile?.start();
    },
    stop() {
      loop.disable();
      profile?.stop();
      const pauses = gc ?? [];
      gc = null;
      return {
        loopMax: loop.max / 1e6,
        loopP99: loop.percentile(99) / 1e6,
        gcMax: Math.max(0, ...pauses.map((p) => p.duration)),
        gcMajorMax: Math.max(0, ...pauses.filter((p) => p.major).map((p) => p.duration)),
        gcCount: pauses.length,
        gcTotal: pauses.reduce((sum, p) => sum + p.duration, 0),
      };
    },
  };
}

/**
 * With BENCH_CPU_PROFILE_DIR set, a CPU profile of the process over each recording (node:inspector),
 * written as `{pid}-{n}.cpuprofile` for Chromium's DevTools: what holds the event loop during the writes.
 */
function cpuProfiler(dir: string | undefined): { start(): void; stop(): void } | null {
  if (!dir) return null;
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  let taken = 0;
  return {
    start: () => session.post('Profiler.start'),
    stop: () =>
      session.post('Profiler.stop', (error, result) => {
        if (error) return;
        fs.mkdirSync(dir, { recursive: true });
        taken += 1;
        fs.writeFileSync(
          path.join(dir, `${process.pid}-${taken}.cpuprofile`),
          JSON.stringify(result.profile),
        );
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// child: devices on one process, counting the beams each receives

async function runDevices(port: number, count: number, seed: number): Promise<void> {
  const mine = views(count, seed);
  /** beam id -> receipts and the time of the last one */
  const received = new Map<string, { count: number; last: number }>();
  const sockets: WebSocket[] = [];
  const open = (view: Box, n: number) =>
    new Promise<void>((resolve, reject) => {
      const deviceId = `cluster_${seed}_${n}`;
      const topic = `device:${deviceId}`;
      const ws = new WebSocket(`ws://${HOST}:${port}/socket/websocket?deviceId=${deviceId}&vsn=2.0.0`, {
        perMessageDeflate: false,
      });
      sockets.push(ws);
      let ready = false;
      ws.on('open', () => {
        ws.send(JSON.stringify(['1', '1', topic, 'phx_join', {}]));
        const bounds = { sw: { lat: view.south, lon: view.west }, ne: { lat: view.north, lon: view.east } };
        ws.send(
          JSON.stringify([
            '1',
            '2',
            topic,
            'iq',
            { id: 'b', type: 'set', map_state: { visible_bounds: bounds } },
          ]),
        );
      });
      ws.on('message', (data: Buffer) => {
        if (!ready) {
          if (data.indexOf('["1","2"') === 0) {
            ready = true;
            resolve();
          }
          return;
        }
        const at = clock();
        const frame = JSON.parse(data.toString()) as unknown[];
        const payload = frame[4] as {
          xpoint_activity?: { beam?: { properties?: { id?: string } } };
          event_activity?: { beam?: { properties?: { id?: string } } };
        };
        const id = (payload.xpoint_activity ?? payload.event_activity)?.beam?.properties?.id;
        if (!id) return;
        const entry = received.get(id) ?? { count: 0, last: 0 };
        entry.count += 1;
        entry.last = at;
        received.set(id, entry);
      });
      ws.on('error', reject);
    });
  const BATCH = 500;
  for (let i = 0; i < mine.length; i += BATCH)
    await Promise.all(mine.slice(i, i + BATCH).map((view, j) => open(view, i + j)));
  let ref = 0;
  const heartbeat = setInterval(() => {
    ref += 1;
    for (const ws of sockets)
      if (ws.readyState === WebSocket.OPEN) ws.send(`[null,"h${ref}","phoenix","heartbeat",{}]`);
  }, 20_000);
  process.on('message', (message: { type: string; beams?: { id: string; lat: number; lon: number }[] }) => {
    if (message.type === 'report') {
      process.send?.({
        type: 'report',
        open: sockets.filter((ws) => ws.readyState === WebSocket.OPEN).length,
        beams: (message.beams ?? []).map((beam) => ({
          id: beam.id,
          expected: mine.filter((view) => contains(view, beam.lat, beam.lon)).length,
          received: received.get(beam.id)?.count ?? 0,
          last: received.get(beam.id)?.last ?? NaN,
        })),
      });
    }
    if (message.type === 'exit') {
      clearInterval(heartbeat);
      for (const ws of sockets) ws.terminate();
      process.exit(0);
    }
  });
  process.send?.({ type: 'ready', devices: sockets.length });
}

// ---------------------------------------------------------------------------------------------
// the run

interface Child {
  process: ChildProcess;
  ready: Record<string, unknown>;
  request(type: string, extra?: Record<string, unknown>): Promise<Record<string, unknown>>;
}

function startChild(args: string[], env: Record<string, string>, name: string): Promise<Child> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', self, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
    child.once('message', (ready: Record<string, unknown>) => {
      child.removeAllListeners('exit');
      resolve({
        process: child,
        ready,
        request: (type, extra = {}) =>
          new Promise((answer) => {
            child.once('message', (reply: Record<string, unknown>) => answer(reply));
            child.send({ type, ...extra });
          }),
      });
    });
  });
}

function stopChild(child: Child): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.process.once('exit', () => resolve());
    child.process.send({ type: 'exit' });
    setTimeout(() => child.process.kill('SIGKILL'), 10_000).unref();
  });
}

/** A round-robin proxy: HTTP only (see the header), `X-Forwarded-For` appended, `X-Bench-Node` added. */
function startProxy(ports: () => number[]): Promise<{ port: number; close: () => void }> {
  let next = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((req, res) => {
    const targets = ports();
    const index = next++ % targets.length;
    const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const upstream = http.request(
      {
        host: HOST,
        port: targets[index],
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'x-forwarded-for': forwarded },
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-bench-node': String(index) });
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) => {
    server.listen(0, HOST, () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        close: () => {
          agent.destroy();
          server.close();
          server.closeAllConnections();
        },
      }),
    );
  });
}

function tileOf(lat: number, lon: number, z: number): [number, number] {
  const n = 2 ** z;
  const x = Math.floor(((lon + 180) / 360) * n);
  const s = Math.sin((lat * Math.PI) / 180);
  const y = Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n);
  return [x, y];
}

function tileHolds(body: Buffer, id: string): boolean {
  const tile = new VectorTile(new PbfReader(body));
  for (const layer of Object.values(tile.layers))
    for (let i = 0; i < layer.length; i++) if (layer.feature(i).properties['appnetid'] === id) return true;
  return false;
}

/** A point as the bench asks the processes about it. */
interface Asked {
  id: string;
  title: string;
  lat: number;
  lon: number;
}

/**
 * Does one process show the point on one surface: among its suggestions, in its tile at z18, in its
 * details? Every body is read, so the connection goes back to the pool.
 */
const ASK: Record<Surface, (base: string, point: Asked) => Promise<boolean>> = {
  async search(base, { title }) {
    const res = await fetch(`${base}/v1/app/searchsuggestions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ q: title }),
    });
    const text = await res.text();
    return res.ok && (JSON.parse(text) as { title: string }[]).some((s) => s.title === title);
  },
  async tiles(base, { id, lat, lon }) {
    const [x, y] = tileOf(lat, lon, 18);
    const res = await fetch(`${base}/tiles/points/18/${x}/${y}.mvt`);
    const body = Buffer.from(await res.arrayBuffer());
    return res.ok && tileHolds(body, id);
  },
  async details(base, { id }) {
    const res = await fetch(`${base}/v1/webonly/xpointdetails/${id}`);
    await res.arrayBuffer();
    return res.ok;
  },
};

let addresses = 0;
/**
 * A block of client addresses of this run's own: the limits live in Redis for up to 15 minutes, so a run
 * started soon after another must not meet that run's counters.
 */
const ADDRESS_BLOCK = 1 + Math.floor(Math.random() * 254);
/** A fresh client address for each limited call (the proxy appends its own hop after it). */
const freshAddress = () => {
  addresses += 1;
  return `10.${ADDRESS_BLOCK}.${(addresses >> 8) & 255}.${addresses & 255}`;
};

async function call(
  base: string,
  url: string,
  body: unknown,
  token?: string,
  address = freshAddress(),
): Promise<{ status: number; json: Record<string, unknown>; node: string | null }> {
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': address,
      ...(token ? { authorization: `appnettoken ${token}` } : {}),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  return {
    status: res.status,
    json: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    node: res.headers.get('x-bench-node'),
  };
}

interface Written {
  id: string;
  version: number;
  /** epoch ms: the create call sent, its answer received. */
  sent: number;
  answered: number;
  /** per process, ms after the answer until every surface showed it (NaN: never). */
  visible: number[];
}

/**
 * Creates `count` points through the proxy, one after another, and times each until every process
 * shows it on every surface: per process, the milliseconds until its last surface showed it.
 */
async function writeToVisible(
  proxy: string,
  ports: number[],
  tokens: readonly string[],
  label: string,
  count: number,
  pollMs: number,
): Promise<{
  perNode: number[][];
  perSurface: Record<Surface, number[]>;
  missed: number;
  written: Written[];
}> {
  const perNode: number[][] = ports.map(() => []);
  const perSurface: Record<Surface, number[]> = { search: [], tiles: [], details: [] };
  const written: Written[] = [];
  const next = random(label.length * 7919 + count);
  let missed = 0;
  for (let n = 0; n < count; n++) {
    const title = `Velmora ${label} Bakery ${n} ${randomUUID().slice(0, 6)}`;
    const lat = AREA.south + next() * (AREA.north - AREA.south);
    const lon = AREA.west + next() * (AREA.east - AREA.west);
    const sent = clock();
    const created = await call(
      proxy,
      '/v1/xpoint/create',
      { supertype: 'business', type: 'bakery', title, lat, lon, confirmNotDuplicate: true },
      tokens[Math.floor(n / WRITES_PER_USER) % tokens.length],
    );
    if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.json)}`);
    const t0 = clock();
    const id = created.json['id'] as string;
    const write: Written = {
      id,
      version: Number(created.json['version'] ?? 1),
      sent,
      answered: t0,
      visible: [],
    };
    written.push(write);
    const seen = ports.map(() => ({ search: NaN, tiles: NaN, details: NaN }) as Record<Surface, number>);
    // each process's each surface is asked on its own, again as soon as it answers (or `pollMs`
    // later): a slow answer of one never holds back the asking of another
    const point: Asked = { id, title, lat, lon };
    await Promise.all(
      ports.flatMap((port, i) =>
        SURFACES.map(async (surface) => {
          while (clock() - t0 < VISIBLE_TIMEOUT_MS) {
            if (await ASK[surface](`http://${HOST}:${port}`, point)) {
              seen[i]![surface] = clock() - t0;
              return;
            }
            if (pollMs > 0) await sleep(pollMs);
          }
        }),
      ),
    );
    seen.forEach((surfaces, i) => {
      // NaN when a surface never showed it (Math.max of a NaN is NaN)
      const last = Math.max(...SURFACES.map((s) => surfaces[s]));
      write.visible[i] = last;
      if (Number.isNaN(last)) missed += 1;
      else perNode[i]!.push(last);
      for (const s of SURFACES) if (!Number.isNaN(surfaces[s])) perSurface[s].push(surfaces[s]);
    });
  }
  for (const list of [...perNode, ...Object.values(perSurface)]) list.sort((a, b) => a - b);
  return { perNode, perSurface, missed, written };
}

const ms = (value: number) => (Number.isNaN(value) ? 'n/a' : `${value.toFixed(value < 10 ? 1 : 0)} ms`);

async function temporaryDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3_000 });
  await admin.connect();
  const name = `xpoint_cluster_${process.pid}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: PG_URL });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

async function redisAnswers(): Promise<boolean> {
  const { hostname, port } = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(2_000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

async function main(): Promise<void> {
  const points = Number(arg('points', '1000000'));
  const devices = Number(arg('devices', '30000'));
  const writes = Number(arg('writes', '200'));
  // a pause before asking a process's surface again whether a write shows (0: ask again at once)
  const pollMs = Number(arg('poll-ms', '0'));
  const beamCount = Number(arg('beams', '30'));
  const pollPhase = arg('poll-phase', 'true') !== 'false';
  const guard = setTimeout(() => {
    log('the run passed 40 minutes: stopping');
    process.exit(2);
  }, GUARD_MS);
  guard.unref();
  if (!(await redisAnswers())) throw new Error(`Redis does not answer at ${REDIS_URL}`);

  const { startS3rver } = await import('../test/support/s3rver');
  const { loadConfig } = await import('../src/server/config');
  const { openMedia } = await import('../src/server/media/open');
  const { openStore } = await import('../src/server/store/store');
  const { loadCities } = await import('../src/server/features/cities/load');
  const { seedDemoData } = await import('../src/server/seed/generate');
  const { newPoint } = await import('../test/support/factories');

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-bench-cluster-'));
  const database = await temporaryDatabase();
  const s3 = await startS3rver();
  const children: Child[] = [];
  const nodes: Child[] = [];
  let proxy: { port: number; close: () => void } | undefined;
  const rows: [string, string][] = [];
  try {
    const env = (n: number): Record<string, string> => ({
      DATABASE_URL: database.url,
      REDIS_URL,
      MEDIA_URL: s3.mediaUrl('cluster/'),
      DATA_DIR: path.join(work, `node${n}`),
      SESSION_SECRET: 'cluster-bench-session-secret-0123456789abcdef',
      TRUST_PROXY: 'loopback',
      SEED: 'none',
      LOG_LEVEL: 'warn',
    });

    // the database, seeded once (pictures into the bucket, as main.ts would)
    const started = Date.now();
    const seedConfig = loadConfig({ ...env(0), SEED: String(points) }, ROOT);
    const seedMedia = await openMedia(seedConfig);
    const seedStore = await openStore({ databaseUrl: database.url, dataDir: path.join(work, 'seed') });
    await loadCities(seedStore, () => undefined);
    await seedDemoData(seedStore, {
      points,
      seed: 1,
      now: Date.now(),
      dataDir: path.join(work, 'seed'),
      media: seedMedia.store,
      log: () => undefined,
    });
    const beamPoints = (() => {
      const next = random(25);
      return Array.from({ length: beamCount }, (_, i) => ({
        id: `cluster_beam_${i}`,
        lat: AREA.south + 0.1 + next() * (AREA.north - AREA.south - 0.2),
        lon: AREA.west + 0.1 + next() * (AREA.east - AREA.west - 0.2),
      }));
    })();
    await seedStore.db
      .insertInto('points')
      .values(beamPoints.map((p) => newPoint({ id: p.id, type: 'cafe', lat: p.lat, lon: p.lon })))
      .execute();
    await seedStore.close();
    seedMedia.store.close();
    log(`seeded ${points.toLocaleString('en')} points in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    rows.push(['Points in the store', points.toLocaleString('en')]);

    const startNodes = async (listen: boolean) => {
      const t0 = Date.now();
      const ready = await Promise.all(
        Array.from({ length: NODES }, (_, n) =>
          startChild(['node', listen ? 'listen' : 'poll'], env(n), `process ${n + 1}`),
        ),
      );
      nodes.splice(0, nodes.length, ...ready);
      // ready for people: every process answers a suggestion from its index
      for (const node of nodes) {
        const port = node.ready['port'] as number;
        for (;;) {
          const res = await fetch(`http://${HOST}:${port}/v1/app/searchsuggestions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ q: 'cafe' }),
          }).catch(() => null);
          if (res?.ok && ((await res.json()) as unknown[]).length > 0) break;
          await sleep(200);
        }
      }
      log(
        `${NODES} processes (${listen ? 'NOTIFY' : 'polling only'}) ready in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
      );
    };
    const ports = () => nodes.map((node) => node.ready['port'] as number);
    proxy = await startProxy(ports);
    const base = `http://${HOST}:${proxy.port}`;

    const label = (n: number) => `process ${n + 1}`;
    const visibleRows = (name: string, result: Awaited<ReturnType<typeof writeToVisible>>) => {
      result.perNode.forEach((times, i) =>
        rows.push([
          `Write-to-visible, ${name}, ${label(i)} (p50 / p99 over ${times.length})`,
          `${ms(pct(times, 50))} / ${ms(pct(times, 99))}`,
        ]),
      );
      rows.push([
        `Write-to-visible, ${name}, by surface p99 (search / tiles / details)`,
        SURFACES.map((s) => ms(pct(result.perSurface[s], 99))).join(' / '),
      ]);
      rows.push([`Writes not visible everywhere within 5 s, ${name}`, String(result.missed)]);
    };
    /**
     * Where the writes waited in each process, from its follower's trace: p50 / p99 of each step after
     * the create's answer (woken, read, each subscriber applied, every surface seen), and the steps of
     * its slowest writes, so a slow tail says whether it waited for the feed, an index or the asking.
     */
    const stageRows = (name: string, written: Written[], traces: Record<string, PointTrace>[]) => {
      traces.forEach((trace, i) => {
        const steps = new Map<string, number[]>();
        const stepsOf = (w: Written) => {
          const t = trace[w.id];
          if (!t) return [] as [string, number | undefined][];
          return [
            ['written', t.changedAt - w.answered],
            ['woken', t.woken === undefined ? undefined : t.woken - w.answered],
            ['read', t.read - w.answered],
            ...Object.entries(t.handled).map(([subscriber, at]) => [subscriber, at - w.answered]),
            ['visible', w.visible[i]],
          ] as [string, number | undefined][];
        };
        for (const w of written)
          for (const [step, value] of stepsOf(w)) {
            if (value === undefined || Number.isNaN(value)) continue;
            const list = steps.get(step);
            if (list) list.push(value);
            else steps.set(step, [value]);
          }
        const summary = [...steps]
          .map(([step, values]) => {
            values.sort((a, b) => a - b);
            return `${step} ${pct(values, 50).toFixed(0)} / ${pct(values, 99).toFixed(0)}`;
          })
          .join(', ');
        rows.push([`Steps after the create's answer, ${name}, ${label(i)} (p50 / p99 ms)`, summary]);
        const slowest = written
          .filter((w) => !Number.isNaN(w.visible[i] ?? NaN))
          .sort((a, b) => (b.visible[i] ?? 0) - (a.visible[i] ?? 0))
          .slice(0, Math.max(2, Math.ceil(written.length / 100)));
        for (const w of slowest)
          log(
            `${name}, ${label(i)}, a slowest write (create took ${(w.answered - w.sent).toFixed(0)} ms): ` +
              stepsOf(w)
                .map(([step, value]) => `${step} ${value === undefined ? 'n/a' : value.toFixed(0)}`)
                .join(', '),
          );
      });
    };
    /** The writes of one phase, with each process's (and the bench's own) stalls recorded meanwhile. */
    const writePhase = async (name: string, tokens: readonly string[], tag: string) => {
      await Promise.all(nodes.map((node) => node.request('pauses-start')));
      const own = recordPauses();
      own.start();
      const result = await writeToVisible(base, ports(), tokens, tag, writes, pollMs);
      const mine = own.stop();
      const theirs = (await Promise.all(
        nodes.map((node) => node.request('pauses')),
      )) as unknown as Recorded[];
      visibleRows(name, result);
      stageRows(
        name,
        result.written,
        theirs.map((p) => p.trace),
      );
      const f = (v: number) => v.toFixed(0);
      rows.push([
        `Stalls during the writes, ${name}: event-loop delay max (p99) per process; the bench's own`,
        `${theirs.map((p) => `${f(p.loopMax)} (${f(p.loopP99)})`).join(' / ')} ms; ${f(mine.loopMax)} (${f(mine.loopP99)}) ms`,
      ]);
      rows.push([
        `Garbage collection during the writes, ${name}: longest pause (longest major), count, total per process`,
        theirs
          .map((p) => `${f(p.gcMax)} (${f(p.gcMajorMax)}) ms, ${p.gcCount}, ${f(p.gcTotal)} ms`)
          .join(' / '),
      ]);
      return result;
    };

    // the bench's users, WRITES_PER_USER writes each (a user adds at most 60 points in 10 minutes,
    // across the processes), each signed up from an address of its own (10 sign-ups per address); the
    // first of the NOTIFY phase is an admin, who beams any point
    const signUp = async (username: string, admin: boolean): Promise<string> => {
      const res = await call(
        base,
        '/v1/account/register',
        { username, email: `${username}@example.com`, fullname: 'Cluster Bench', password: PASSWORD },
        undefined,
        freshAddress(),
      );
      if (res.status !== 201) throw new Error(`register: ${res.status} ${JSON.stringify(res.json)}`);
      if (admin) {
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        await client.query(`update users set is_admin = 1 where username = $1`, [username]);
        await client.end();
      }
      return res.json['token'] as string;
    };

    /** The users who write one phase's points; the first is an admin when `admin`. */
    const writers = async (prefix: string, admin: boolean): Promise<string[]> => {
      const tokens: string[] = [];
      for (let n = 0; n < Math.max(1, Math.ceil(writes / WRITES_PER_USER)); n++) {
        tokens.push(await signUp(n === 0 ? prefix : `${prefix}${n}`, admin && n === 0));
      }
      return tokens;
    };

    if (pollPhase) {
      await startNodes(false);
      const pollTokens = await writers('clusterpoll', false);
      await writePhase('polling only', pollTokens, 'poll');
      await Promise.all(nodes.map(stopChild));
    }
    await startNodes(true);
    const notifyTokens = await writers('clusterbench', true);
    const token = notifyTokens[0] as string;
    const rssIdle = nodes.map((node) => rssOf(node.process.pid!));
    const notify = await writePhase('NOTIFY', notifyTokens, 'notify');

    // devices, a third on each process
    const t0 = Date.now();
    const perNode = Math.ceil(devices / NODES);
    const deviceChildren = await Promise.all(
      nodes.map((node, n) =>
        startChild(
          ['devices', String(node.ready['port']), String(perNode), String(100 + n)],
          {},
          `devices ${n}`,
        ),
      ),
    );
    children.push(...deviceChildren);
    const joined = deviceChildren.reduce((sum, child) => sum + Number(child.ready['devices']), 0);
    log(`${joined} devices joined in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    await sleep(1_000);
    const rssDevices = nodes.map((node) => rssOf(node.process.pid!));
    nodes.forEach((_, i) =>
      rows.push([
        `Memory (RSS), ${label(i)}: idle / with ${perNode.toLocaleString('en')} devices`,
        `${rssIdle[i]!.toFixed(0)} MB / ${rssDevices[i]!.toFixed(0)} MB`,
      ]),
    );

    // beams through the proxy: each is posted to one process and must reach devices on all three
    const sent = new Map<string, { at: number; node: string | null }>();
    for (const point of beamPoints) {
      const at = clock();
      const res = await call(base, '/api/user/x_point/beam', { identifier: point.id, kind: 'hot' }, token);
      if (res.status !== 200) throw new Error(`beam: ${res.status} ${JSON.stringify(res.json)}`);
      sent.set(point.id, { at, node: res.node });
      await sleep(250);
    }
    await sleep(3_000);
    const reports = await Promise.all(
      deviceChildren.map((child) => child.request('report', { beams: beamPoints })),
    );
    let expected = 0;
    let receivedAll = 0;
    let lost = 0;
    let doubled = 0;
    const latencies: number[] = [];
    for (const point of beamPoints) {
      let last = 0;
      for (const report of reports) {
        const beam = (
          report['beams'] as { id: string; expected: number; received: number; last: number }[]
        ).find((b) => b.id === point.id)!;
        expected += beam.expected;
        receivedAll += beam.received;
        lost += Math.max(0, beam.expected - beam.received);
        doubled += Math.max(0, beam.received - beam.expected);
        if (beam.received > 0) last = Math.max(last, beam.last);
      }
      if (last > 0) latencies.push(last - sent.get(point.id)!.at);
    }
    latencies.sort((a, b) => a - b);
    const stillOpen = reports.reduce((sum, report) => sum + Number(report['open']), 0);
    rows.push([`Devices joined / still open after the beams`, `${joined} / ${stillOpen}`]);
    rows.push([
      `Beams: receipts expected / received (lost, doubled), over ${beamPoints.length} beams`,
      `${expected.toLocaleString('en')} / ${receivedAll.toLocaleString('en')} (${lost} lost, ${doubled} doubled)`,
    ]);
    rows.push([
      'Beam from post to its last device, across processes (p50 / p99)',
      `${ms(pct(latencies, 50))} / ${ms(pct(latencies, 99))}`,
    ]);

    // media: a picture through each process, read back through each of the others
    const picture = await sharp({
      create: { width: 640, height: 480, channels: 3, background: { r: 200, g: 120, b: 40 } },
    })
      .jpeg()
      .toBuffer();
    let reads = 0;
    let missing = 0;
    for (let n = 0; n < NODES; n++) {
      const point = notify.written[n]!;
      const form = new FormData();
      form.set('id', point.id);
      form.set('version', String(point.version));
      form.set('slot', 'logo');
      form.set('file', new Blob([picture], { type: 'image/jpeg' }), 'logo.jpg');
      const res = await fetch(`http://${HOST}:${ports()[n]}/v1/xpoint/media`, {
        method: 'POST',
        headers: { authorization: `appnettoken ${token}` },
        body: form,
      });
      const body = (await res.json()) as { url?: string };
      if (!res.ok || !body.url) throw new Error(`upload: ${res.status} ${JSON.stringify(body)}`);
      for (let m = 0; m < NODES; m++) {
        if (m === n) continue;
        reads += 1;
        const read = await fetch(`http://${HOST}:${ports()[m]}${body.url}`);
        await read.arrayBuffer();
        if (read.status !== 200) missing += 1;
      }
    }
    rows.push([
      `Media uploaded through one process, read through another: not found`,
      `${missing} of ${reads}`,
    ]);

    // a limit across processes: sign-up, 10 in 15 minutes per address, from one address via the proxy
    const address = freshAddress();
    const attempts: { status: number; node: string | null }[] = [];
    for (let n = 0; n <= SIGN_UP_LIMIT; n++) {
      const username = `cluster${n}${randomUUID().slice(0, 4)}`;
      const res = await call(
        base,
        '/v1/account/register',
        { username, email: `${username}@example.com`, fullname: 'Cluster Limit', password: PASSWORD },
        undefined,
        address,
      );
      attempts.push({ status: res.status, node: res.node });
    }
    const firstRefused = attempts.findIndex((a) => a.status === 429) + 1;
    const spread = new Set(attempts.map((a) => a.node)).size;
    rows.push([
      `Sign-up limit (${SIGN_UP_LIMIT} per address) over ${spread} processes: first refused attempt`,
      firstRefused === 0 ? 'none (limit not held)' : `#${firstRefused} of ${attempts.length}`,
    ]);

    // a job whose process dies: a video to transcode, its worker killed while it runs
    const clip = path.join(work, 'clip.mkv');
    execFileSync((await import('../src/server/media/video')).FFMPEG_PATH, [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=1280x720:rate=25',
      '-t',
      '40',
      '-c:v',
      'mpeg4',
      '-q:v',
      '5',
      clip,
    ]);
    const videoId = await new Promise<string>((resolve, reject) => {
      const upload = new tus.Upload(fs.readFileSync(clip), {
        endpoint: `http://${HOST}:${ports()[0]}/v1/uploads/video`,
        headers: { authorization: `appnettoken ${token}` },
        retryDelays: [],
        metadata: { filetype: 'video/x-matroska' },
        onError: reject,
        onSuccess: () => resolve((upload.url ?? '').slice((upload.url ?? '').lastIndexOf('/') + 1)),
      });
      upload.start();
    });
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    const jobOf = async () =>
      (
        await db.query<{ state: string; attempts: number; locked_by: string | null }>(
          `select state, attempts, locked_by from jobs where payload like $1`,
          [`%${videoId}%`],
        )
      ).rows[0];
    let running: { state: string; attempts: number; locked_by: string | null } | undefined;
    const jobDeadline = Date.now() + 60_000;
    while (Date.now() < jobDeadline) {
      running = await jobOf();
      if (running?.state === 'running' && running.locked_by) break;
      if (running?.state === 'done') break;
      await sleep(50);
    }
    let jobRow = 'the job never ran';
    if (running?.state === 'running' && running.locked_by) {
      const victim = nodes.findIndex((node) => running!.locked_by!.includes(`:${node.process.pid}:`));
      if (victim < 0) throw new Error(`no process holds the job's lease ${running.locked_by}`);
      nodes[victim]!.process.kill('SIGKILL');
      const killedAt = Date.now();
      let finishedBy = '';
      let final = running;
      while (Date.now() - killedAt < 120_000) {
        final = (await jobOf()) ?? final;
        if (
          final.state === 'running' &&
          final.locked_by &&
          !final.locked_by.includes(`:${nodes[victim]!.process.pid}:`)
        ) {
          const taker = nodes.findIndex((node) => final.locked_by!.includes(`:${node.process.pid}:`));
          finishedBy = taker >= 0 ? label(taker) : final.locked_by;
        }
        if (final.state === 'done' || final.state === 'failed') break;
        await sleep(200);
      }
      const video = await fetch(`http://${HOST}:${ports()[(victim + 1) % NODES]}/v1/videos/${videoId}`, {
        headers: { authorization: `appnettoken ${token}` },
      });
      const state = ((await video.json()) as { state?: string }).state;
      jobRow =
        `${label(victim)} killed mid-transcode; ${final.state} after ${((Date.now() - killedAt) / 1000).toFixed(0)} s` +
        ` by ${finishedBy || 'another process'}, ${final.attempts} runs, video ${state}`;
    } else if (running?.state === 'done') {
      jobRow = 'the job ended before it could be killed (make the clip longer)';
    }
    await db.end();
    rows.push(['Job whose process was killed', jobRow]);
  } finally {
    await Promise.all(children.map(stopChild));
    await Promise.all(nodes.map(stopChild));
    proxy?.close();
    await s3.stop();
    await database.drop();
    fs.rmSync(work, { recursive: true, force: true });
  }

  const width = Math.max(...rows.map(([name]) => name.length));
  process.stdout.write(`\n${'What'.padEnd(width)} | Figure\n${'-'.repeat(width)}-|-${'-'.repeat(40)}\n`);
  for (const [name, value] of rows) process.stdout.write(`${name.padEnd(width)} | ${value}\n`);
  process.stdout.write(
    `\nload average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
  );
}

const role = process.argv[2];
const fail = (error: unknown) => {
  console.error(error);
  process.exit(1);
};
if (role === 'node') runNode(process.argv[3] === 'listen').catch(fail);
else if (role === 'devices')
  runDevices(Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5])).catch(fail);
else main().then(() => process.exit(0), fail);
