import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';
import { Socket, type Channel } from 'phoenix';
import WebSocket from 'ws';
import { buildApp } from '../../src/server/app';
import { loadConfig, type Config } from '../../src/server/config';
import { liveOf, type LiveHandle, type LiveTuning } from '../../src/server/features/beams/routes';
import { openTestStore, type TestStore } from '../support/store';

/** One secret for every app of a run: a token stays valid across a restart, as in production. */
const TEST_SECRET = 'live-tests-secret-of-at-least-32-characters';

/** A listening app on 127.0.0.1 for realtime tests: the real server, a real port, real sockets. */
export interface LiveApp {
  app: FastifyInstance;
  store: TestStore;
  config: Config;
  port: number;
  /** http://127.0.0.1:port */
  url: string;
  live: LiveHandle;
  /** every log line written so far, parsed. */
  logs: Array<{ level: number; msg: string }>;
  /** closes the app (not the store). */
  stop(): Promise<void>;
  close(): Promise<void>;
}

export async function startLiveApp(
  options: {
    store?: TestStore;
    port?: number;
    redisUrl?: string;
    live?: Partial<LiveTuning>;
    /** chat with a point (issue 22): its per-person rate limit. */
    chat?: { rate: { max: number; windowMs: number } };
  } = {},
): Promise<LiveApp> {
  const store = options.store ?? (await openTestStore('sqlite'));
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-live-'));
  const webDir = path.join(root, 'web');
  fs.mkdirSync(webDir, { recursive: true });
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>XPoint test</title>');
  const logs: Array<{ level: number; msg: string }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim()) logs.push(JSON.parse(line) as { level: number; msg: string });
      }
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink) as FastifyBaseLogger;
  const config = {
    ...loadConfig({ SEED: 'none', LOG_LEVEL: 'silent', SESSION_SECRET: TEST_SECRET }, root),
    webDir,
    redisUrl: options.redisUrl,
    live: { schedulerEnabled: false, ...options.live },
    ...(options.chat ? { chat: options.chat } : {}),
  } as Config;
  const app = await buildApp({ config, store, logger });
  await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const live = liveOf(app.server);
  if (!live) throw new Error('the live layer did not start');
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await app.close();
  };
  return {
    app,
    store,
    config,
    port,
    url: `http://127.0.0.1:${port}`,
    live,
    logs,
    stop,
    async close() {
      await stop();
      if (!options.store) await store.dispose();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The official phoenix client over WebSocket (ws stands in for the browser's WebSocket). */
export function phoenixSocket(port: number, deviceId: string, options: Record<string, unknown> = {}): Socket {
  return new Socket(`ws://127.0.0.1:${port}/socket`, {
    transport: WebSocket as unknown as typeof globalThis.WebSocket,
    params: { deviceId },
    ...options,
  });
}

/** Resolves with the reply of a push ('ok' or 'error'), rejects on timeout. */
export function pushReply(
  push: ReturnType<Channel['push']> | ReturnType<Channel['join']>,
): Promise<{ status: 'ok' | 'error'; response: unknown }> {
  return new Promise((resolve, reject) => {
    push
      .receive('ok', (response: unknown) => resolve({ status: 'ok', response }))
      .receive('error', (response: unknown) => resolve({ status: 'error', response }))
      .receive('timeout', () => reject(new Error('push timed out')));
  });
}

export function bounds(south: number, west: number, north: number, east: number) {
  return { map_state: { visible_bounds: { sw: { lat: south, lon: west }, ne: { lat: north, lon: east } } } };
}

/** Waits until `check` is true, polling every 10 ms, or throws after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A raw WebSocket to the server that collects decoded frames. */
export async function rawSocket(
  port: number,
  query = 'deviceId=raw1&vsn=2.0.0',
): Promise<{ ws: WebSocket; frames: unknown[][]; closed: Promise<{ code: number; reason: string }> }> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/socket/websocket?${query}`);
  const frames: unknown[][] = [];
  ws.on('message', (data) => frames.push(JSON.parse(String(data)) as unknown[]));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, frames, closed };
}
