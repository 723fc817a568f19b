import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'phoenix';
import WebSocket from 'ws';
import { MAX_SOCIAL_TOPICS } from '../../src/server/realtime/hub';
import { registerUser, signIn, type SignedIn } from '../support/accounts';
import type { TestApp } from '../support/app';
import { openTestStore, type TestStore } from '../support/store';
import { phoenixSocket, pushReply, startLiveApp, waitFor, type LiveApp } from './live-support';

/**
 * Live social topics (issue 18) with the official phoenix client against the real server:
 * `social:{type}:{id}` for anyone, `user:{id}` only with that user's session (token or cookie),
 * pushes from the social events, and across two processes through Redis.
 */
let store: TestStore;
let t: LiveApp;
let ana: SignedIn;
let ben: SignedIn;
const sockets: Socket[] = [];
const extraApps: LiveApp[] = [];

function open(app: LiveApp, options: Record<string, unknown> = {}): Socket {
  const socket = phoenixSocket(app.port, `dev-${randomUUID().slice(0, 8)}`, options);
  sockets.push(socket);
  socket.connect();
  return socket;
}

/** A WebSocket that sends a Cookie header on its upgrade, as a browser does. */
function cookieTransport(cookie: string, origin?: string) {
  return class extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { cookie, ...(origin ? { origin } : {}) } });
    }
  } as unknown as typeof globalThis.WebSocket;
}

function collect(channel: ReturnType<Socket['channel']>): unknown[] {
  const received: unknown[] = [];
  channel.on('social', (payload) => void received.push(payload));
  return received;
}

beforeAll(async () => {
  store = await openTestStore('sqlite');
  t = await startLiveApp({ store });
  for (const name of ['ana', 'ben']) await registerUser(t as unknown as TestApp, name);
  ana = await signIn(t as unknown as TestApp, 'ana', 'correct-horse-1');
  ben = await signIn(t as unknown as TestApp, 'ben', 'correct-horse-1');
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.disconnect();
  for (const app of extraApps.splice(0)) await app.close();
});
afterAll(async () => {
  await t.close();
  await store.dispose();
});

describe('social:{type}:{id} topics', () => {
  it('are public: a page joins without signing in and hears the object event', async () => {
    const channel = open(t).channel('social:P:post-1', {});
    const received = collect(channel);
    expect((await pushReply(channel.join())).status).toBe('ok');
    t.live.social.object('P', 'post-1', { kind: 'likes', data: { likes: 3 } });
    t.live.social.object('P', 'post-2', { kind: 'likes', data: { likes: 9 } });
    await waitFor(() => received.length === 1, 2000, 'the push');
    expect(received).toEqual([{ kind: 'likes', data: { likes: 3 } }]);
  });

  it('refuse an unknown type or a bad id with the catalogue error', async () => {
    const socket = open(t);
    for (const topic of ['social:Q:1', 'social:P:', 'social:P:a b', 'social:P']) {
      const reply = await pushReply(socket.channel(topic, {}).join());
      expect(reply.status, topic).toBe('error');
      expect(reply.response).toMatchObject({ errorcode: 18402 });
    }
  });

  it(`stop at ${MAX_SOCIAL_TOPICS} topics on one connection`, async () => {
    const socket = open(t);
    const joins = [];
    for (let i = 0; i < MAX_SOCIAL_TOPICS; i++)
      joins.push(pushReply(socket.channel(`social:P:p${i}`, {}).join()));
    expect((await Promise.all(joins)).every((reply) => reply.status === 'ok')).toBe(true);
    const refused = await pushReply(socket.channel('social:P:one-more', {}).join());
    expect(refused).toMatchObject({ status: 'error', response: { errorcode: 18401 } });
  });

  it('stop hearing after a leave', async () => {
    const channel = open(t).channel('social:X:pt-9', {});
    const received = collect(channel);
    expect((await pushReply(channel.join())).status).toBe('ok');
    await pushReply(channel.leave());
    await waitFor(() => t.live.hub.socialMemberCount('social:X:pt-9') === 0, 2000, 'the leave');
    t.live.social.object('X', 'pt-9', { kind: 'reviews', data: {} });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received).toEqual([]);
  });
});

describe('user:{id} topics', () => {
  it('let a user join their own topic with their token and hear pushes to them only', async () => {
    const channel = open(t).channel(`user:${ana.id}`, { token: ana.token });
    const received = collect(channel);
    expect((await pushReply(channel.join())).status).toBe('ok');
    t.live.social.user(ben.id, { kind: 'notification', data: { unread: 1 } });
    t.live.social.user(ana.id, { kind: 'notification', data: { unread: 2 } });
    await waitFor(() => received.length === 1, 2000, 'the push');
    expect(received).toEqual([{ kind: 'notification', data: { unread: 2 } }]);
  });

  it("refuse another user's topic, and a join without a session", async () => {
    const socket = open(t);
    const other = await pushReply(socket.channel(`user:${ben.id}`, { token: ana.token }).join());
    expect(other).toMatchObject({ status: 'error', response: { errorcode: 18400 } });
    const anonymous = await pushReply(socket.channel(`user:${ana.id}`, {}).join());
    expect(anonymous).toMatchObject({ status: 'error', response: { errorcode: 18400 } });
    const forged = await pushReply(
      socket.channel(`user:${ana.id}`, { token: 'x'.repeat(43) + '.' + 'y'.repeat(43) }).join(),
    );
    expect(forged).toMatchObject({ status: 'error', response: { errorcode: 2002 } });
  });

  it("accept the session cookie of the socket's upgrade (the browser), but not from another site", async () => {
    const own = open(t, { transport: cookieTransport(ana.cookie) });
    expect((await pushReply(own.channel(`user:${ana.id}`, {}).join())).status).toBe('ok');
    const theirs = await pushReply(own.channel(`user:${ben.id}`, {}).join());
    expect(theirs).toMatchObject({ status: 'error', response: { errorcode: 18400 } });
    const crossSite = open(t, { transport: cookieTransport(ana.cookie, 'https://evil.example') });
    const refused = await pushReply(crossSite.channel(`user:${ana.id}`, {}).join());
    expect(refused).toMatchObject({ status: 'error', response: { errorcode: 18400 } });
  });
});

describe('through Redis', () => {
  it('an event on one process reaches a page and a person on the other', async () => {
    const prefix = `test-social-${randomUUID()}:`;
    const a = await startLiveApp({ store, redisUrl: 'redis://127.0.0.1:6379', live: { busPrefix: prefix } });
    const b = await startLiveApp({ store, redisUrl: 'redis://127.0.0.1:6379', live: { busPrefix: prefix } });
    extraApps.push(a, b);
    await waitFor(
      () =>
        a.logs.some((l) => l.msg.includes('through Redis')) &&
        b.logs.some((l) => l.msg.includes('through Redis')),
      5000,
      'both buses on Redis',
    );
    const socket = open(a);
    const page = socket.channel('social:P:shared', {});
    const person = socket.channel(`user:${ana.id}`, { token: ana.token });
    const onPage = collect(page);
    const toPerson = collect(person);
    expect((await pushReply(page.join())).status).toBe('ok');
    expect((await pushReply(person.join())).status).toBe('ok');
    b.live.social.object('P', 'shared', { kind: 'comment', data: { id: 'c1' } });
    b.live.social.user(ana.id, { kind: 'notification', data: { unread: 1 } });
    await waitFor(
      () => onPage.length === 1 && toPerson.length === 1,
      5000,
      'the pushes from the other process',
    );
    expect(onPage).toEqual([{ kind: 'comment', data: { id: 'c1' } }]);
    expect(toPerson).toEqual([{ kind: 'notification', data: { unread: 1 } }]);
  });
});
