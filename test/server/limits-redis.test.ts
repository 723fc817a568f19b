import net from 'node:net';
import { Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freshIp } from '../support/accounts';
import { openTestApp, type TestApp } from '../support/app';

/**
 * Per-address limits with REDIS_URL set: two apps on the local Redis at 127.0.0.1:6379 (two server
 * processes' worth, a unique key prefix per run) share one count; with Redis unreachable, or gone
 * mid-run, each still serves every request, counts on its own, and says so once in its log.
 * The limit used is sign-up's: 10 per address per 15 min.
 */
const REDIS = { host: '127.0.0.1', port: 6379 };
const SIGN_UPS_PER_ADDRESS = 10;
const prefix = `xptest:rl:${randomUUID()}:`;
const apps: TestApp[] = [];
let names = 0;

afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
});
afterAll(async () => {
  const redis = new Redis(REDIS);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

interface Logged {
  level: number;
  msg: string;
}

async function start(redisUrl: string): Promise<{ t: TestApp; logs: Logged[] }> {
  const logs: Logged[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim()) logs.push(JSON.parse(line) as Logged);
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink) as FastifyBaseLogger;
  const t = await openTestApp({ redisUrl, limitsPrefix: prefix, logger });
  apps.push(t);
  return { t, logs };
}

async function signUp(t: TestApp, ip: string): Promise<number> {
  names += 1;
  const username = `rl${names}x${Date.now() % 100_000}`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/account/register',
    headers: { 'x-forwarded-for': ip },
    payload: {
      username,
      email: `${username}@example.com`,
      fullname: `${username} Tester`,
      password: 'correct-horse-1',
    },
  });
  return res.statusCode;
}

const warnings = (logs: Logged[]) => logs.filter((line) => /limits are counted per process/.test(line.msg));
const returns = (logs: Logged[]) =>
  logs.filter((line) => /limits are shared by every process again/.test(line.msg));

async function waitFor(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A TCP relay to the real Redis that the test can cut and restore, as if Redis stopped and came back. */
async function redisRelay(): Promise<{ url: string; cut(): Promise<void>; restore(): Promise<void> }> {
  const open = new Set<net.Socket>();
  let server: net.Server;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(REDIS);
        open.add(client).add(upstream);
        client.pipe(upstream).pipe(client);
        const end = () => {
          client.destroy();
          upstream.destroy();
          open.delete(client);
          open.delete(upstream);
        };
        client.on('error', end).on('close', end);
        upstream.on('error', end).on('close', end);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  const cut = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of open) socket.destroy();
    });
  await listen();
  return { url: `redis://127.0.0.1:${port}`, cut, restore: listen };
}

describe('per-address limits with REDIS_URL', () => {
  it('are shared by two processes: the 11th sign-up from one address is refused whichever takes it', async () => {
    const url = `redis://${REDIS.host}:${REDIS.port}`;
    const a = await start(url);
    const b = await start(url);
    for (const { logs } of [a, b])
      await waitFor(() => logs.some((line) => /limits are counted in Redis/.test(line.msg)), 'Redis ready');
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_UPS_PER_ADDRESS; i += 1)
      statuses.push(await signUp(i % 2 === 0 ? a.t : b.t, ip));
    expect(statuses).toEqual(Array(SIGN_UPS_PER_ADDRESS).fill(201));
    // the 11th, on either process, is refused in the catalogue's shape
    for (const t of [a.t, b.t]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/account/register',
        headers: { 'x-forwarded-for': ip },
        payload: {
          username: 'onetoomany',
          email: 'x@example.com',
          fullname: 'X',
          password: 'correct-horse-1',
        },
      });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({ error: expect.stringMatching(/.+/) });
    }
    // another address is not held back
    expect(await signUp(b.t, freshIp())).toBe(201);
    // the count lives under the limit's own key
    const redis = new Redis(REDIS);
    const keys = await redis.keys(`${prefix}POST/v1/account/register:*`);
    redis.disconnect();
    expect(keys).toContain(`${prefix}POST/v1/account/register:${ip}`);
    expect(warnings(a.logs)).toHaveLength(0);
  });

  it('with Redis unreachable, still serve every request, hold the limit per process and warn once', async () => {
    // nothing listens on port 1
    const { t, logs } = await start('redis://127.0.0.1:1');
    await waitFor(() => warnings(logs).length === 1, 'the warning');
    const ip = freshIp();
    for (let i = 0; i < SIGN_UPS_PER_ADDRESS; i += 1) expect(await signUp(t, ip)).toBe(201);
    expect(await signUp(t, ip)).toBe(429);
    expect(await signUp(t, freshIp())).toBe(201);
    // reconnecting again and again is one outage: one warning
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(warnings(logs)).toHaveLength(1);
    expect(warnings(logs)[0]?.level).toBe(40);
  });

  it('with Redis gone mid-run, count per process, never fail a request, and say when it is back', async () => {
    const relay = await redisRelay();
    const a = await start(relay.url);
    const b = await start(relay.url);
    for (const { logs } of [a, b])
      await waitFor(() => logs.some((line) => /limits are counted in Redis/.test(line.msg)), 'Redis ready');
    const ip = freshIp();
    // 6 shared sign-ups, 3 on each
    for (let i = 0; i < 6; i += 1) expect(await signUp(i % 2 === 0 ? a.t : b.t, ip)).toBe(201);

    await relay.cut();
    for (const { logs } of [a, b]) await waitFor(() => warnings(logs).length === 1, 'the warning');
    // each process now counts on its own from 0: 10 more on a are served, the 11th refused; b still serves
    for (let i = 0; i < SIGN_UPS_PER_ADDRESS; i += 1) expect(await signUp(a.t, ip)).toBe(201);
    expect(await signUp(a.t, ip)).toBe(429);
    expect(await signUp(b.t, ip)).toBe(201);

    await relay.restore();
    for (const { logs } of [a, b]) await waitFor(() => returns(logs).length === 1, 'the return', 8000);
    // shared again: the 6 counted in Redis before the outage, 4 more, then refused on both
    for (let i = 0; i < 4; i += 1) expect(await signUp(i % 2 === 0 ? a.t : b.t, ip)).toBe(201);
    expect(await signUp(a.t, ip)).toBe(429);
    expect(await signUp(b.t, ip)).toBe(429);
    for (const { logs } of [a, b]) {
      expect(warnings(logs)).toHaveLength(1);
      expect(returns(logs)[0]?.level).toBe(30);
    }
    await relay.cut();
  });
});
