import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'phoenix';
import { newPoint } from '../support/factories';
import { registerUser, signIn, type SignedIn } from '../support/accounts';
import type { TestApp } from '../support/app';
import { openTestStore, type TestStore } from '../support/store';
import { bounds, phoenixSocket, pushReply, startLiveApp, waitFor, type LiveApp } from './live-support';

/**
 * Two server processes' worth of apps on two ports, sharing one store and the local Redis at
 * 127.0.0.1:6379 (a unique channel prefix per test): a beam posted to one reaches a device on the other.
 */
const REDIS = { host: '127.0.0.1', port: 6379 };
let store: TestStore;
let owner: SignedIn;
const apps: LiveApp[] = [];
const sockets: Socket[] = [];

beforeAll(async () => {
  store = await openTestStore('sqlite');
  const first = await startLiveApp({ store });
  await registerUser(first as unknown as TestApp, 'redisuser');
  owner = await signIn(first as unknown as TestApp, 'redisuser', 'correct-horse-1');
  await first.close();
  await store.db
    .insertInto('points')
    .values(newPoint({ id: 'rp1', type: 'museum', lat: 41.9, lon: 12.5, owner_userid: owner.id }))
    .execute();
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.disconnect();
  for (const app of apps.splice(0)) await app.close();
});
afterAll(async () => {
  await store.dispose();
});

async function start(redisUrl: string, prefix: string): Promise<LiveApp> {
  const app = await startLiveApp({ store, redisUrl, live: { busPrefix: prefix } });
  apps.push(app);
  return app;
}

/** A device in Rome on `app`, collecting what it receives. */
async function romeDevice(app: LiveApp, deviceId: string): Promise<unknown[]> {
  const socket = phoenixSocket(app.port, deviceId);
  sockets.push(socket);
  socket.connect();
  const channel = socket.channel(`device:${deviceId}`, {});
  const received: unknown[] = [];
  channel.on('iq', (payload) => void received.push(payload));
  expect((await pushReply(channel.join())).status).toBe('ok');
  expect(
    (await pushReply(channel.push('iq', { id: 'r', type: 'set', ...bounds(41.8, 12.4, 42.0, 12.6) }))).status,
  ).toBe('ok');
  return received;
}

async function beam(app: LiveApp, kind: string): Promise<number> {
  const res = await fetch(`${app.url}/api/user/x_point/beam`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
    body: JSON.stringify({ identifier: 'rp1', kind }),
  });
  return res.status;
}

const quiet = () => new Promise((r) => setTimeout(r, 150));

/** A TCP relay to the real Redis that the test can cut and restore, as if Redis stopped and came back. */
function redisRelay(): Promise<{
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}> {
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
  const cut = async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of open) socket.destroy();
    });
  };
  return listen().then(() => ({ port, cut, restore: listen, close: cut }));
}

describe('two processes with Redis', () => {
  it('deliver a beam posted to one to a device connected to the other', async () => {
    const prefix = `xptest:${randomUUID()}:`;
    const a = await start(`redis://${REDIS.host}:${REDIS.port}`, prefix);
    const b = await start(`redis://${REDIS.host}:${REDIS.port}`, prefix);
    await waitFor(() => (a.live.bus as { connected?: boolean }).connected === true, 3000, 'a on Redis');
    await waitFor(() => (b.live.bus as { connected?: boolean }).connected === true, 3000, 'b on Redis');
    // each says which bus it runs on, once
    for (const app of [a, b])
      expect(app.logs.filter((line) => /goes through Redis/.test(line.msg))).toHaveLength(1);
    const onA = await romeDevice(a, 'rome-a');
    const onB = await romeDevice(b, 'rome-b');
    expect(await beam(a, 'hot')).toBe(200);
    await waitFor(() => onA.length === 1 && onB.length === 1, 3000, 'the beam on both processes');
    expect(onB[0]).toMatchObject({ xpoint_activity: { beam: { kind: 'hot', properties: { id: 'rp1' } } } });
    expect(await beam(b, 'open')).toBe(200);
    await waitFor(() => onA.length === 2 && onB.length === 2, 3000, 'the second beam on both');
    // each process delivered each beam once: no echo of its own message through Redis
    await quiet();
    expect(onA.length).toBe(2);
    expect(onB.length).toBe(2);
  });

  it('with Redis unreachable, each process serves its own devices and says so once in its log', async () => {
    const prefix = `xptest:${randomUUID()}:`;
    // nothing listens on port 1
    const a = await start('redis://127.0.0.1:1', prefix);
    const b = await start('redis://127.0.0.1:1', prefix);
    const onA = await romeDevice(a, 'rome-a2');
    const onB = await romeDevice(b, 'rome-b2');
    expect(await beam(a, 'hot')).toBe(200);
    await waitFor(() => onA.length === 1, 2000, 'the beam on its own process');
    await quiet();
    expect(onB.length).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    const warnings = a.logs.filter((line) => /Redis is unreachable: live activity/.test(line.msg));
    expect(warnings.length).toBe(1);
  });

  it('recovers when Redis comes back', async () => {
    const relay = await redisRelay();
    try {
      const prefix = `xptest:${randomUUID()}:`;
      const url = `redis://127.0.0.1:${relay.port}`;
      const a = await start(url, prefix);
      const b = await start(url, prefix);
      const connected = (app: LiveApp) => (app.live.bus as { connected?: boolean }).connected === true;
      await waitFor(() => connected(a) && connected(b), 3000, 'both on Redis');
      const onA = await romeDevice(a, 'rome-a3');
      const onB = await romeDevice(b, 'rome-b3');

      await relay.cut();
      await waitFor(() => !connected(a) && !connected(b), 3000, 'Redis gone');
      expect(await beam(a, 'hot')).toBe(200);
      await waitFor(() => onA.length === 1, 2000, 'local delivery without Redis');
      await quiet();
      expect(onB.length).toBe(0);
      expect(a.logs.some((line) => /Redis is unreachable: live activity/.test(line.msg))).toBe(true);

      await relay.restore();
      await waitFor(() => connected(a) && connected(b), 8000, 'Redis back');
      // the subscriber re-subscribes after reconnecting; give it a moment
      await waitFor(
        () => a.logs.some((line) => /Redis is back: live activity/.test(line.msg)),
        3000,
        'the recovery log',
      );
      await new Promise((r) => setTimeout(r, 200));
      expect(await beam(a, 'open')).toBe(200);
      await waitFor(() => onB.length === 1, 3000, 'the beam across processes again');
      expect(onB[0]).toMatchObject({ xpoint_activity: { beam: { kind: 'open' } } });
    } finally {
      await relay.close().catch(() => undefined);
    }
  });
});
