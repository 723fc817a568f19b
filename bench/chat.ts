/**
 * Chat benchmark (issue 22): `npm run bench:chat -- [--conversations 1000] [--rate 200] [--seconds 10]`.
 *
 * A child process runs the real XPoint server (SQLite under $TMP, removed at the end) with
 * `--conversations` visitors, as many points each owned by its own owner, and, beside it in the same
 * process, a bare `ws` relay (the peer: a frame from one socket of a pair is forwarded as is to the
 * other, nothing parsed, checked or stored). This process then opens every conversation over real
 * WebSockets with the official `phoenix` client on 127.0.0.1: each visitor joins `chat:{point}` with
 * their token and says hello (which opens the conversation in the store), then the point's owner
 * joins it naming the visitor. That is 2 × N open sockets on our server and 2 × N on the relay.
 *
 * Timed, for `--seconds` each, ours then the peer, at `--rate` lines per second spread over random
 * conversations: from just before a visitor's line is pushed to the moment the owner's socket receives
 * it (ours: checked, rate-limited, stored in the store, acknowledged, then broadcast through the bus
 * to the conversation's room; the relay: forwarded). p50/p99 of both and their ratio; PASS/MISS against
 * the budget (our p99 <= 50 ms). Lines lost or doubled are counted (must be 0). A 5-minute guard stops
 * everything. Not part of `npm test`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { Socket, type Channel } from 'phoenix';
import WebSocket, { WebSocketServer } from 'ws';
import { newUser } from '../test/support/factories';
import { arg, log, pct } from './support';

const HOST = '127.0.0.1';
const CONVERSATIONS = Math.max(1, Number(arg('conversations', '1000')));
const RATE = Math.max(1, Number(arg('rate', '200')));
const SECONDS = Math.max(1, Number(arg('seconds', '10')));
const BUDGET_P99_MS = 50;
const GUARD_MS = 5 * 60_000;
const SECRET = 'bench-chat-secret-of-at-least-32-characters';
const self = fileURLToPath(import.meta.url);
const TEXT = 'Do you have a table for two tonight, around eight? We would like the terrace.';

// ---------------------------------------------------------------------------------------------
// child: the XPoint server and the bare relay

async function runServer(): Promise<void> {
  const { buildApp } = await import('../src/server/app');
  const { loadConfig } = await import('../src/server/config');
  const { openStore } = await import('../src/server/store/store');
  const { TokenSigner } = await import('../src/server/auth/tokens');
  const { insertSession } = await import('../src/server/auth/sessions');
  const { newPoint } = await import('../test/support/factories');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-bench-chat-'));
  const store = await openStore({ dataDir });
  const config = {
    ...loadConfig({ SEED: 'none', LOG_LEVEL: 'silent', SESSION_SECRET: SECRET }, dataDir),
    webDir: path.join(dataDir, 'web'),
    live: { schedulerEnabled: false, heartbeatTimeoutMs: 120_000 },
  };
  const app = await buildApp({ config, store, logger: pino({ level: 'silent' }) as FastifyBaseLogger });
  await app.ready();
  // people and sessions straight into the store (registering 2,000 people would time password hashing)
  const signer = new TokenSigner(SECRET);
  const now = Date.now();
  const people: Array<{ id: string; token: string }> = [];
  const users = [];
  for (let i = 0; i < CONVERSATIONS * 2; i++) {
    const name = i < CONVERSATIONS ? `visitor${i}` : `owner${i - CONVERSATIONS}`;
    users.push(newUser({ id: `u_${name}`, username: name, created_at: now, updated_at: now }));
  }
  for (let i = 0; i < users.length; i += 500)
    await store.db
      .insertInto('users')
      .values(users.slice(i, i + 500))
      .execute();
  for (const user of users) {
    const { token, sessionId } = signer.issue();
    await insertSession(store, {
      id: sessionId,
      userId: user.id,
      now,
      expiresAt: now + 86_400_000,
      userAgent: null,
      ip: null,
    });
    people.push({ id: user.id, token });
  }
  const points = Array.from({ length: CONVERSATIONS }, (_, i) =>
    newPoint({
      id: `chatpt${i}`,
      type: 'cafe',
      lat: 48.4 + (i % 100) / 125,
      lon: 1.8 + Math.floor(i / 100) / 10,
      owner_userid: `u_owner${i}`,
    }),
  );
  for (let i = 0; i < points.length; i += 200)
    await store.db
      .insertInto('points')
      .values(points.slice(i, i + 200))
      .execute();
  await app.listen({ port: 0, host: HOST });
  const port = (app.server.address() as { port: number }).port;

  // the peer: pairs `?pair=N&end=a|b`; a frame from one end goes to the other, as is
  const ends = new Map<string, WebSocket>();
  const relay = http.createServer();
  const wss = new WebSocketServer({ server: relay, perMessageDeflate: false });
  wss.on('connection', (ws, request) => {
    const query = new URL(request.url ?? '/', 'http://x').searchParams;
    const pair = query.get('pair') ?? '';
    const end = query.get('end') === 'a' ? 'a' : 'b';
    ends.set(`${pair}:${end}`, ws);
    const other = `${pair}:${end === 'a' ? 'b' : 'a'}`;
    ws.on('message', (data, binary) => ends.get(other)?.send(data, { binary }));
  });
  await new Promise<void>((resolve) => relay.listen(0, HOST, resolve));
  const relayPort = (relay.address() as { port: number }).port;

  process.on('message', (message: { type: string }) => {
    if (message.type !== 'exit') return;
    wss.close();
    relay.close();
    void app.close().then(async () => {
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
  process.send?.({ type: 'ready', port, relayPort, people });
}

// ---------------------------------------------------------------------------------------------
// the client side

function join(channel: Channel): Promise<void> {
  return new Promise((resolve, reject) => {
    channel
      .join(30_000)
      .receive('ok', () => resolve())
      .receive('error', (reason: unknown) => reject(new Error(`join refused: ${JSON.stringify(reason)}`)))
      .receive('timeout', () => reject(new Error('join timed out')));
  });
}

function push(channel: Channel, payload: Record<string, unknown>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    channel
      .push('msg', payload, 30_000)
      .receive('ok', resolve)
      .receive('error', (reason: unknown) => reject(new Error(`line refused: ${JSON.stringify(reason)}`)))
      .receive('timeout', () => reject(new Error('line timed out')));
  });
}

/** Runs `count` of `work` at a time over the items. */
async function inBatches<T>(items: T[], count: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += count) await Promise.all(items.slice(i, i + count).map(work));
}

interface Timed {
  sent: Map<string, number>;
  latencies: number[];
  doubled: number;
}

/** Sends lines at RATE per second for SECONDS over random pairs; `send` pushes line `id` on pair `i`. */
async function drive(send: (pair: number, id: string) => void, timed: Timed): Promise<void> {
  const total = RATE * SECONDS;
  const start = performance.now();
  let random = 12345;
  for (let n = 0; n < total; n++) {
    const due = start + (n * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    random = (random * 1103515245 + 12345) & 0x7fffffff;
    const pair = random % CONVERSATIONS;
    const id = `b${n}`;
    timed.sent.set(id, performance.now());
    send(pair, id);
  }
  // the last lines arrive
  const deadline = performance.now() + 10_000;
  while (timed.latencies.length < total && performance.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
}

function summary(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50: pct(sorted, 50), p99: pct(sorted, 99), max: sorted.at(-1) ?? NaN, n: sorted.length };
}

async function main(): Promise<void> {
  const guard = setTimeout(() => {
    log('guard: the run took longer than 5 minutes, stopping');
    process.exit(2);
  }, GUARD_MS);
  guard.unref();
  log(`starting the server with ${CONVERSATIONS} conversations (${CONVERSATIONS * 2} people)`);
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', self, '--server', ...process.argv.slice(2)],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const ready = await new Promise<{
    port: number;
    relayPort: number;
    people: Array<{ id: string; token: string }>;
  }>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
    child.once('message', (message) => resolve(message as never));
  });
  const sockets: Socket[] = [];
  const open = (deviceId: string) => {
    const socket = new Socket(`ws://${HOST}:${ready.port}/socket`, {
      transport: WebSocket as unknown as typeof globalThis.WebSocket,
      params: { deviceId },
      heartbeatIntervalMs: 30_000,
    });
    socket.connect();
    sockets.push(socket);
    return socket;
  };

  // open every conversation: the visitor says hello, then the owner joins naming the visitor
  const ours: Timed = { sent: new Map(), latencies: [], doubled: 0 };
  const heard = new Set<string>();
  const visitors: Channel[] = [];
  const opened = performance.now();
  await inBatches(
    Array.from({ length: CONVERSATIONS }, (_, i) => i),
    100,
    async (i) => {
      const visitor = ready.people[i] as { id: string; token: string };
      const owner = ready.people[CONVERSATIONS + i] as { id: string; token: string };
      const channel = open(`bv${i}`).channel(`chat:chatpt${i}`, { token: visitor.token });
      await join(channel);
      await push(channel, { text: 'hello', client_id: `hello${i}` });
      visitors[i] = channel;
      const answer = open(`bo${i}`).channel(`chat:chatpt${i}`, { token: owner.token, visitor: visitor.id });
      answer.on('msg', (line: { client_id: string }) => {
        const sentAt = ours.sent.get(line.client_id);
        if (sentAt === undefined) return;
        if (heard.has(line.client_id)) ours.doubled++;
        else {
          heard.add(line.client_id);
          ours.latencies.push(performance.now() - sentAt);
        }
      });
      await join(answer);
    },
  );
  log(
    `${CONVERSATIONS} conversations open on ${sockets.length} sockets in ${((performance.now() - opened) / 1000).toFixed(1)} s`,
  );

  // the peer's pairs
  const peer: Timed = { sent: new Map(), latencies: [], doubled: 0 };
  const peerSeen = new Set<string>();
  const senders: WebSocket[] = [];
  const raw: WebSocket[] = [];
  await inBatches(
    Array.from({ length: CONVERSATIONS }, (_, i) => i),
    100,
    async (i) => {
      const connect = (end: string) =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(`ws://${HOST}:${ready.relayPort}/?pair=${i}&end=${end}`, {
            perMessageDeflate: false,
          });
          ws.once('open', () => resolve(ws));
          ws.once('error', reject);
          raw.push(ws);
        });
      const [a, b] = await Promise.all([connect('a'), connect('b')]);
      b.on('message', (data) => {
        // the same frame ours would carry, read the same way (JSON) on arrival
        const frame = JSON.parse(String(data)) as [null, null, string, string, { client_id: string }];
        const id = frame[4].client_id;
        const sentAt = peer.sent.get(id);
        if (sentAt === undefined) return;
        if (peerSeen.has(id)) peer.doubled++;
        else {
          peerSeen.add(id);
          peer.latencies.push(performance.now() - sentAt);
        }
      });
      senders[i] = a;
    },
  );

  log(`ours: ${RATE} lines/s for ${SECONDS} s`);
  let refused = 0;
  await drive((pair, id) => {
    push(visitors[pair] as Channel, { text: TEXT, client_id: id }).catch(() => refused++);
  }, ours);
  log(`peer (bare ws relay): ${RATE} lines/s for ${SECONDS} s`);
  await drive((pair, id) => {
    (senders[pair] as WebSocket).send(
      JSON.stringify([
        null,
        null,
        `chat:chatpt${pair}`,
        'msg',
        { text: TEXT, client_id: id, at: Date.now() },
      ]),
    );
  }, peer);

  const a = summary(ours.latencies);
  const b = summary(peer.latencies);
  const total = RATE * SECONDS;
  const row = (name: string, s: ReturnType<typeof summary>) =>
    `${name.padEnd(28)} ${s.p50.toFixed(2).padStart(8)} ${s.p99.toFixed(2).padStart(8)} ${s.max.toFixed(2).padStart(8)} ${String(s.n).padStart(7)}`;
  process.stdout.write(
    `\nchat, send -> the other person's socket, ms (${CONVERSATIONS} open conversations, ${CONVERSATIONS * 2} sockets each side, ${RATE} lines/s, ${os.cpus().length} cores)\n` +
      `${''.padEnd(28)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)} ${'lines'.padStart(7)}\n` +
      `${row('ours (stored, then sent)', a)}\n${row('peer (bare ws relay)', b)}\n` +
      `ratio ours/peer: p50 ${(a.p50 / b.p50).toFixed(1)}x, p99 ${(a.p99 / b.p99).toFixed(1)}x\n` +
      `lost: ours ${total - a.n - refused} (refused ${refused}), peer ${total - b.n}; doubled: ours ${ours.doubled}, peer ${peer.doubled}\n` +
      `budget p99 <= ${BUDGET_P99_MS} ms: ${a.p99 <= BUDGET_P99_MS && a.n === total ? 'PASS' : 'MISS'}\n`,
  );
  for (const socket of sockets) socket.disconnect();
  for (const ws of raw) ws.close();
  child.send({ type: 'exit' });
  await new Promise((resolve) => child.once('exit', resolve));
  process.exit(a.p99 <= BUDGET_P99_MS && a.n === total ? 0 : 1);
}

if (process.argv.includes('--server')) void runServer();
else
  main().catch((error: unknown) => {
    process.stderr.write(`${String(error instanceof Error ? error.stack : error)}\n`);
    process.exit(1);
  });
