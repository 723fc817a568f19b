/**
 * Live activity benchmark: `npm run bench:live -- [--devices 10000] [--beams 100] [--burst 50] [--hold 20000]`.
 *
 * Starts the real XPoint server in a child process (SQLite, an admin user, 200 points in a metro area)
 * and, beside it, a raw `ws` server that sends a message serialised once to the same devices. Then,
 * for each of them in turn, this process connects N devices with random city-sized bounds over the area
 * (a lean Phoenix protocol client on `ws`: join, bounds, heartbeat) and measures:
 *   - send-to-last-receipt per beam, p50 and p99: from just before the beam is posted through the API
 *     (POST /api/user/x_point/beam; for the raw server a POST naming how many sockets to send to) to
 *     the moment the last device that should see it has received it;
 *   - messages per second in a burst of concurrent beams;
 *   - memory per joined connection in the server process (after GC: heap + external, and RSS);
 *   - recipient selection time per beam (the spatial index lookup, measured inside the server).
 * Apart from the timed phase, a few official `phoenix` clients on ours show that the real client receives
 * every beam (50 of them). Finally it holds as many connections on the XPoint server as the open-file limit allows (20,000
 * asked), with a second client process. Everything listens on 127.0.0.1; the run stops by itself
 * (a 10-minute guard kills everything). Not part of `npm test`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { Socket } from 'phoenix';
import WebSocket, { WebSocketServer } from 'ws';
import { collectGarbage as gc, log, percentileOf, random as seeded } from './support';

const HOST = '127.0.0.1';
/** The metro area the devices look at and the points beam from (around Paris). */
const AREA = { south: 48.4, north: 49.2, west: 1.8, east: 3.0 };
/** City-sized viewports: 0.05 to 0.35 degrees on a side. */
const VIEW_MIN = 0.05;
const VIEW_MAX = 0.35;
const POINTS = 200;
const GUARD_MS = 10 * 60_000;
const self = fileURLToPath(import.meta.url);
/** The raw server sends these bytes: the size and shape of one of our pushes. */
const SAMPLE_FRAME = JSON.stringify([
  null,
  null,
  'device:xpoint_12345',
  'iq',
  {
    id: '4f7c3a52-0c1e-4f1b-9d37-6f9e1c2b8a10',
    type: 'set',
    xpoint_activity: {
      beam: { kind: 'hot', properties: { id: 'bp123', lat: 48.812345, lon: 2.345678, businesstype: 'cafe' } },
    },
  },
]);

interface Args {
  devices: number;
  beams: number;
  burst: number;
  hold: number;
  official: number;
}

function parseArgs(argv: string[]): Args {
  const get = (name: string, fallback: number) => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 && argv[at + 1] ? Number(argv[at + 1]) : fallback;
  };
  return {
    devices: get('devices', 10_000),
    beams: get('beams', 100),
    burst: get('burst', 50),
    hold: get('hold', 20_000),
    official: get('official', 5),
  };
}

const now = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Box {
  south: number;
  west: number;
  north: number;
  east: number;
}

function randomView(random: () => number): Box {
  const height = VIEW_MIN + random() * (VIEW_MAX - VIEW_MIN);
  const width = VIEW_MIN + random() * (VIEW_MAX - VIEW_MIN);
  const south = AREA.south + random() * (AREA.north - AREA.south - height);
  const west = AREA.west + random() * (AREA.east - AREA.west - width);
  return { south, west, north: south + height, east: west + width };
}

function memory() {
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, external: m.external, rss: m.rss };
}

// ---------------------------------------------------------------------------------------------
// child: the XPoint server

async function runServer(): Promise<void> {
  const { buildApp } = await import('../src/server/app');
  const { loadConfig } = await import('../src/server/config');
  const { openStore } = await import('../src/server/store/store');
  const { liveOf } = await import('../src/server/features/beams/routes');
  const { newPoint } = await import('../test/support/factories');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-bench-live-'));
  const store = await openStore({ dataDir });
  const config = {
    ...loadConfig({ SEED: 'none', LOG_LEVEL: 'silent' }, dataDir),
    webDir: path.join(dataDir, 'web'),
    live: { schedulerEnabled: false, heartbeatTimeoutMs: 120_000 },
  };
  const app = await buildApp({ config, store, logger: pino({ level: 'silent' }) as FastifyBaseLogger });
  await app.ready();
  const register = await app.inject({
    method: 'POST',
    url: '/v1/account/register',
    payload: {
      username: 'bencher',
      email: 'bencher@example.com',
      fullname: 'Bench',
      password: 'correct-horse-1',
    },
  });
  if (register.statusCode >= 300) throw new Error(`register: ${register.body}`);
  // the session reads the admin flag on every request: the token may predate it
  await store.db.updateTable('users').set({ is_admin: 1 }).where('username', '=', 'bencher').execute();
  const token = register.json<{ token: string }>().token;
  const random = seeded(7);
  const points = Array.from({ length: POINTS }, (_, i) => ({
    id: `bp${i}`,
    lat: AREA.south + random() * (AREA.north - AREA.south),
    lon: AREA.west + random() * (AREA.east - AREA.west),
  }));
  await store.db
    .insertInto('points')
    .values(points.map((p) => newPoint({ id: p.id, type: 'cafe', lat: p.lat, lon: p.lon })))
    .execute();
  await app.listen({ port: 0, host: HOST });
  const port = (app.server.address() as { port: number }).port;
  const live = liveOf(app.server);
  process.on('message', (message: { type: string }) => {
    if (message.type === 'push') process.send?.({ type: 'push', lastPushAt: live?.hub.lastPushAt ?? 0 });
    if (message.type === 'stats') {
      const selection = live?.hub.selectionTimes.splice(0) ?? [];
      const selectionCpu = live?.hub.selectionCpuTimes.splice(0) ?? [];
      process.send?.({
        type: 'stats',
        memory: memory(),
        connections: live?.hub.connections.size ?? 0,
        indexed: live?.hub.index.size ?? 0,
        lastPushAt: live?.hub.lastPushAt ?? 0,
        selection,
        selectionCpu,
      });
    }
    if (message.type === 'exit') {
      void app.close().then(async () => {
        await store.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      });
    }
  });
  process.send?.({ type: 'ready', port, token, points });
}

// ---------------------------------------------------------------------------------------------
// child: the raw ws baseline

async function runRaw(): Promise<void> {
  /** sockets by the index in their device id (`raw_<index>`): the beam's recipients are the same devices. */
  const sockets: Array<WebSocket | undefined> = [];
  let connected = 0;
  let lastPushAt = 0;
  // serialised once, for the whole run
  const frame = Buffer.from(SAMPLE_FRAME);
  const server = http.createServer((request, response) => {
    // POST /broadcast with the recipients' indices as the body, comma-separated
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const indices = Buffer.concat(chunks).toString('utf8').split(',');
      lastPushAt = now();
      for (const index of indices) sockets[Number(index)]?.send(frame, { binary: false });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    });
  });
  const wss = new WebSocketServer({ server, perMessageDeflate: false, clientTracking: false });
  wss.on('connection', (ws, request) => {
    const deviceId = new URL(request.url ?? '/', 'http://x').searchParams.get('deviceId') ?? '';
    const index = Number(deviceId.slice(deviceId.lastIndexOf('_') + 1));
    sockets[index] = ws;
    connected++;
    ws.on('message', (data) => {
      // answer the lean client's join and bounds like a channel server would, so both phases match
      const text = String(data);
      const frame = JSON.parse(text) as unknown[];
      ws.send(JSON.stringify([frame[0], frame[1], frame[2], 'phx_reply', { status: 'ok', response: {} }]));
    });
    ws.on('close', () => {
      if (sockets[index] === ws) sockets[index] = undefined;
      connected--;
    });
  });
  server.listen(0, HOST, () => {
    const port = (server.address() as { port: number }).port;
    process.on('message', (message: { type: string }) => {
      if (message.type === 'push') process.send?.({ type: 'push', lastPushAt });
      if (message.type === 'stats') {
        process.send?.({
          type: 'stats',
          memory: memory(),
          connections: connected,
          lastPushAt,
          selection: [],
        });
      }
      if (message.type === 'exit') process.exit(0);
    });
    process.send?.({ type: 'ready', port });
  });
}

// ---------------------------------------------------------------------------------------------
// the lean protocol client

/** Every lean client of this process counts receipts here: the beams are measured one at a time. */
const receipts = { count: 0, last: 0, expected: Infinity, done: null as (() => void) | null };

function receive(): void {
  receipts.count++;
  receipts.last = now();
  if (receipts.count >= receipts.expected && receipts.done) {
    const done = receipts.done;
    receipts.done = null;
    done();
  }
}

/** Starts counting receipts for one measurement. */
function resetReceipts(): void {
  receipts.count = 0;
  receipts.expected = Infinity;
  receipts.done = null;
}

class LeanClient {
  private ws!: WebSocket;
  constructor(
    readonly deviceId: string,
    readonly view: Box,
  ) {}

  /** Connects, joins device:{id} and sends its bounds; resolves once the bounds are acknowledged. */
  open(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://${HOST}:${port}/socket/websocket?deviceId=${this.deviceId}&vsn=2.0.0`, {
        perMessageDeflate: false,
      });
      this.ws = ws;
      const topic = `device:${this.deviceId}`;
      ws.on('open', () => {
        ws.send(JSON.stringify(['1', '1', topic, 'phx_join', {}]));
        const bounds = {
          sw: { lat: this.view.south, lon: this.view.west },
          ne: { lat: this.view.north, lon: this.view.east },
        };
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
      let ready = false;
      ws.on('message', (data: Buffer) => {
        if (!ready) {
          // replies come first: the second one acknowledges the bounds
          if (data.indexOf('["1","2"') === 0) {
            ready = true;
            resolve();
          }
          return;
        }
        receive();
      });
      ws.on('error', reject);
    });
  }

  heartbeat(ref: number): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(`[null,"h${ref}","phoenix","heartbeat",{}]`);
  }

  close(): void {
    this.ws.terminate();
  }
}

async function openClients(port: number, views: Box[], prefix: string): Promise<LeanClient[]> {
  const clients = views.map((view, i) => new LeanClient(`${prefix}${i}`, view));
  const BATCH = 500;
  for (let i = 0; i < clients.length; i += BATCH) {
    await Promise.all(clients.slice(i, i + BATCH).map((client) => client.open(port)));
  }
  return clients;
}

// ---------------------------------------------------------------------------------------------
// child: more clients, for the connection hold (one process cannot open more files than its limit)

async function runHolder(port: number, count: number, offset: number): Promise<void> {
  const random = seeded(1000 + offset);
  const views = Array.from({ length: count }, () => randomView(random));
  const clients = await openClients(port, views, `h${offset}_`);
  process.send?.({ type: 'ready', count: clients.length });
  process.on('message', (message: { type: string }) => {
    if (message.type === 'exit') {
      for (const client of clients) client.close();
      process.exit(0);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// the orchestrator

interface Child {
  process: ChildProcess;
  ready: Record<string, unknown>;
  request(type: string): Promise<Record<string, unknown>>;
}

function startChild(args: string[]): Promise<Child> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', self, ...args], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
    child.once('message', (ready: Record<string, unknown>) => {
      resolve({
        process: child,
        ready,
        request: (type) =>
          new Promise((answer) => {
            child.once('message', (reply: Record<string, unknown>) => answer(reply));
            child.send({ type });
          }),
      });
    });
  });
}

function stopChild(child: Child): Promise<void> {
  return new Promise((resolve) => {
    child.process.removeAllListeners('exit');
    child.process.once('exit', () => resolve());
    child.process.send({ type: 'exit' });
    setTimeout(() => child.process.kill('SIGKILL'), 5000).unref();
  });
}

interface Stats {
  memory: { heap: number; external: number; rss: number };
  connections: number;
  lastPushAt: number;
  selection: number[];
  selectionCpu?: number[];
}

/** Waits (without spinning) until `expected` receipts arrived, or 3 s; the time of the last one, or NaN. */
async function lastReceipt(expected: number): Promise<number> {
  if (receipts.count >= expected) return receipts.last;
  const arrived = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 3000);
    receipts.expected = expected;
    receipts.done = () => {
      clearTimeout(timer);
      resolve(true);
    };
  });
  return arrived ? receipts.last : NaN;
}

interface Beam {
  point: { id: string; lat: number; lon: number };
  recipients: number;
  /** the devices (indices into the views) that see it. */
  indices: number[];
}

interface PhaseResult {
  p50: number;
  p99: number;
  /** from the server starting to push to the last receipt. */
  fanout50: number;
  fanout99: number;
  lost: number;
  perSecond: number;
  memoryPerConnection: { heapAndExternal: number; rss: number };
  selection: number[];
  selectionCpu: number[];
}

async function phase(
  name: string,
  target: Child,
  views: Box[],
  beams: Beam[],
  burst: Beam[],
  send: (beam: Beam) => Promise<unknown>,
): Promise<PhaseResult> {
  const port = target.ready['port'] as number;
  const before = (await target.request('stats')) as unknown as Stats;
  const started = Date.now();
  const clients = await openClients(port, views, `${name}_`);
  log(
    `${name}: ${clients.length} devices joined with bounds in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  let heartbeatRef = 0;
  const heartbeat = setInterval(() => {
    heartbeatRef++;
    for (const client of clients) client.heartbeat(heartbeatRef);
  }, 30_000);
  await sleep(1000);
  const after = (await target.request('stats')) as unknown as Stats;
  const joined = after.connections - before.connections;
  const memoryPerConnection = {
    heapAndExternal:
      (after.memory.heap + after.memory.external - before.memory.heap - before.memory.external) / joined,
    rss: (after.memory.rss - before.memory.rss) / joined,
  };

  // warm-up: a few beams not counted
  for (const beam of beams.slice(0, 5)) {
    resetReceipts();
    await send(beam);
    await lastReceipt(beam.recipients);
  }
  await target.request('stats'); // drops the warm-up's selection times

  const latencies: number[] = [];
  const fanouts: number[] = [];
  let lost = 0;
  for (const beam of beams) {
    resetReceipts();
    const t0 = now();
    await send(beam);
    const last = await lastReceipt(beam.recipients);
    if (Number.isNaN(last)) {
      lost++;
      continue;
    }
    latencies.push(last - t0);
    const { lastPushAt } = (await target.request('push')) as unknown as Stats;
    fanouts.push(last - lastPushAt);
    await sleep(5);
  }

  resetReceipts();
  const expected = burst.reduce((sum, beam) => sum + beam.recipients, 0);
  const t0 = now();
  await Promise.all(burst.map((beam) => send(beam)));
  const last = await lastReceipt(expected);
  const perSecond = Number.isNaN(last) ? NaN : expected / ((last - t0) / 1000);
  const { selection, selectionCpu = [] } = (await target.request('stats')) as unknown as Stats;

  clearInterval(heartbeat);
  for (const client of clients) client.close();
  await sleep(500);
  return {
    p50: percentileOf(latencies, 50),
    p99: percentileOf(latencies, 99),
    fanout50: percentileOf(fanouts, 50),
    fanout99: percentileOf(fanouts, 99),
    lost,
    perSecond,
    memoryPerConnection,
    selection,
    selectionCpu,
  };
}

function contains(view: Box, lat: number, lon: number): boolean {
  return lat >= view.south && lat <= view.north && lon >= view.west && lon <= view.east;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const guard = setTimeout(() => {
    log('the benchmark ran over 10 minutes: stopping');
    process.exit(1);
  }, GUARD_MS);
  guard.unref();
  const limit = fs.readFileSync('/proc/self/limits', 'utf8').match(/Max open files\s+(\d+)/)?.[1] ?? '?';
  log(
    `cpus ${os.cpus().length}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, open-file limit ${limit}`,
  );

  const server = await startChild(['server']);
  const raw = await startChild(['raw']);
  const children = [server, raw];
  const cleanup = async () => {
    for (const child of children) await stopChild(child).catch(() => undefined);
  };
  try {
    const token = server.ready['token'] as string;
    const points = server.ready['points'] as Beam['point'][];
    const random = seeded(42);
    const views = Array.from({ length: args.devices }, () => randomView(random));
    const pick = (): Beam => {
      for (;;) {
        const point = points[Math.floor(random() * points.length)] as Beam['point'];
        const indices = views.flatMap((v, i) => (contains(v, point.lat, point.lon) ? [i] : []));
        if (indices.length > 0) return { point, recipients: indices.length, indices };
      }
    };
    const beams = Array.from({ length: args.beams }, pick);
    const burst = Array.from({ length: args.burst }, pick);
    const meanRecipients = beams.reduce((s, b) => s + b.recipients, 0) / beams.length;
    log(
      `${args.devices} devices over ${(AREA.north - AREA.south).toFixed(1)} x ${(AREA.east - AREA.west).toFixed(1)} degrees; a beam reaches ${meanRecipients.toFixed(0)} of them on average`,
    );

    const beamUrl = `http://${HOST}:${server.ready['port'] as number}/api/user/x_point/beam`;
    const postBeam = (beam: Beam) =>
      fetch(beamUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ identifier: beam.point.id, kind: 'hot' }),
      }).then((res) => {
        if (res.status !== 200) throw new Error(`beam answered ${res.status}`);
        return res.text();
      });
    const ours = await phase('xpoint', server, views, beams, burst, postBeam);
    // Then, apart from the timed phase (their decoding would slow this process's receipts, and the raw
    // server has nothing like them), a few official phoenix clients on our server, seeing the whole
    // area: they must receive every beam
    const official: { socket: Socket; received: number }[] = [];
    for (let i = 0; i < args.official; i++) {
      const socket = new Socket(`ws://${HOST}:${server.ready['port'] as number}/socket`, {
        transport: WebSocket as unknown as typeof globalThis.WebSocket,
        params: { deviceId: `official${i}` },
      });
      const entry = { socket, received: 0 };
      official.push(entry);
      socket.connect();
      const channel = socket.channel(`device:official${i}`, {});
      channel.on('iq', () => {
        entry.received++;
      });
      await new Promise<void>((resolve, reject) => {
        channel
          .join()
          .receive('ok', () => {
            channel
              .push('iq', {
                id: 'all',
                type: 'set',
                map_state: {
                  visible_bounds: {
                    sw: { lat: AREA.south, lon: AREA.west },
                    ne: { lat: AREA.north, lon: AREA.east },
                  },
                },
              })
              .receive('ok', () => resolve())
              .receive('error', reject);
          })
          .receive('error', reject);
      });
    }

    const checked = beams.slice(0, 50);
    for (const [k, beam] of checked.entries()) {
      await postBeam(beam);
      for (let waited = 0; waited < 3000 && official.some((o) => o.received <= k); waited += 5)
        await sleep(5);
    }
    const officialTotal = official.reduce((s, o) => s + o.received, 0);
    const officialExpected = args.official * checked.length;
    for (const o of official) o.socket.disconnect();

    const rawUrl = `http://${HOST}:${raw.ready['port'] as number}/broadcast`;
    const baseline = await phase('raw', raw, views, beams, burst, (beam) =>
      fetch(rawUrl, { method: 'POST', body: beam.indices.join(',') }).then((res) => res.text()),
    );

    // hold as many connections as the open-file limit lets one process have
    const serverLimit = Number(limit) || 20_000;
    const holdTarget = Math.min(args.hold, serverLimit - 100);
    const before = (await server.request('stats')) as unknown as Stats;
    const holders: Child[] = [];
    let held = 0;
    for (let offset = 0; held < holdTarget; offset++) {
      const count = Math.min(10_000, holdTarget - held);
      const holder = await startChild([
        'holder',
        String(server.ready['port']),
        String(count),
        String(offset),
      ]);
      holders.push(holder);
      children.push(holder);
      held += holder.ready['count'] as number;
    }
    await sleep(1000);
    const holding = (await server.request('stats')) as unknown as Stats;
    const holdPerConnection =
      (holding.memory.heap + holding.memory.external - before.memory.heap - before.memory.external) /
      (holding.connections - before.connections);
    const holdRss = (holding.memory.rss - before.memory.rss) / (holding.connections - before.connections);
    for (const holder of holders) await stopChild(holder);

    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    const rows: Array<[string, string, string, string]> = [
      ['', 'XPoint (Phoenix v2)', 'raw ws broadcast', 'budget'],
      [
        'send-to-last-receipt p50',
        ms(ours.p50),
        ms(baseline.p50),
        `<= 1.0x raw (${(ours.p50 / baseline.p50).toFixed(2)}x)`,
      ],
      ['send-to-last-receipt p99', ms(ours.p99), ms(baseline.p99), '<= 150 ms'],
      [
        'first push to last receipt p50',
        ms(ours.fanout50),
        ms(baseline.fanout50),
        `(${(ours.fanout50 / baseline.fanout50).toFixed(2)}x)`,
      ],
      ['first push to last receipt p99', ms(ours.fanout99), ms(baseline.fanout99), ''],
      ['beams lost (not all received in 3 s)', String(ours.lost), String(baseline.lost), '0'],
      ['messages per second (burst)', ours.perSecond.toFixed(0), baseline.perSecond.toFixed(0), ''],
      [
        'memory per joined connection (heap+external)',
        kb(ours.memoryPerConnection.heapAndExternal),
        kb(baseline.memoryPerConnection.heapAndExternal),
        '<= 10 KB',
      ],
      [
        'memory per joined connection (RSS)',
        kb(ours.memoryPerConnection.rss),
        kb(baseline.memoryPerConnection.rss),
        '',
      ],
      [
        'recipient selection per beam p50 / p99',
        `${(percentileOf(ours.selection, 50) * 1000).toFixed(0)} us / ${(percentileOf(ours.selection, 99) * 1000).toFixed(0)} us`,
        '-',
        '<= 1 ms p99',
      ],
      [
        'recipient selection per beam, CPU time p50 / p99',
        `${(percentileOf(ours.selectionCpu, 50) * 1000).toFixed(0)} us / ${(percentileOf(ours.selectionCpu, 99) * 1000).toFixed(0)} us`,
        '-',
        '<= 1 ms p99',
      ],
    ];
    const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => r[c]?.length ?? 0)));
    process.stdout.write('\n');
    for (const row of rows)
      process.stdout.write(`${row.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join('  ')}\n`);
    process.stdout.write(
      `\nofficial phoenix clients: ${officialTotal} of ${officialExpected} beams received\n` +
        `held ${holding.connections} connections in one server process (asked ${args.hold}, open-file limit ${limit}); ` +
        `${kb(holdPerConnection)} heap+external and ${kb(holdRss)} RSS each\n` +
        `load average at the end ${os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}\n`,
    );
  } finally {
    await cleanup();
  }
  process.exit(0);
}

const mode = process.argv[2];
const fail = (error: unknown) => {
  process.stderr.write(
    `bench:live ${mode ?? 'main'}: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
};
if (mode === 'server') runServer().catch(fail);
else if (mode === 'raw') runRaw().catch(fail);
else if (mode === 'holder')
  runHolder(Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5])).catch(fail);
else main().catch(fail);
