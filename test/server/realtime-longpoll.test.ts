import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LongPoll, Socket } from 'phoenix';
import { newPoint } from '../support/factories';
import { registerUser, signIn, type SignedIn } from '../support/accounts';
import type { TestApp } from '../support/app';
import { bounds, pushReply, startLiveApp, waitFor, type LiveApp } from './live-support';

/**
 * The long-poll fallback: the official client's LongPoll transport (in Node it speaks through fetch,
 * as it does in a browser without XMLHttpRequest), and the raw protocol it expects.
 */
let t: LiveApp;
let owner: SignedIn;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await startLiveApp({ live: { longPollWindowMs: 300, longPollSessionMs: 1500 } });
  await registerUser(t as unknown as TestApp, 'poller');
  owner = await signIn(t as unknown as TestApp, 'poller', 'correct-horse-1');
  await t.store.db
    .insertInto('points')
    .values(newPoint({ id: 'lp1', type: 'bakery', lat: 48.85, lon: 2.35, owner_userid: owner.id }))
    .execute();
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});
afterAll(async () => {
  await t.close();
});

async function getPoll(query: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${t.url}/socket/longpoll?${query}`, { headers: { accept: 'application/json' } });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}
async function postPoll(query: string, body: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${t.url}/socket/longpoll?${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body,
  });
  return (await res.json()) as Record<string, unknown>;
}

describe('long-poll with the official phoenix client', () => {
  it('joins, sends bounds, and receives a beam posted through the API', async () => {
    const socket = new Socket(`ws://127.0.0.1:${t.port}/socket`, {
      transport: LongPoll,
      params: { deviceId: 'lp-dev' },
    });
    sockets.push(socket);
    socket.connect();
    const channel = socket.channel('device:lp-dev', {});
    const received: unknown[] = [];
    channel.on('iq', (payload) => void received.push(payload));
    expect((await pushReply(channel.join())).status).toBe('ok');
    const set = await pushReply(
      channel.push('iq', { id: 'b1', type: 'set', ...bounds(48.8, 2.3, 48.9, 2.4) }),
    );
    expect(set).toEqual({ status: 'ok', response: { id: 'b1' } });
    const res = await fetch(`${t.url}/api/user/x_point/beam`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
      body: JSON.stringify({ identifier: 'lp1', kind: 'soon' }),
    });
    expect(res.status).toBe(200);
    await waitFor(() => received.length === 1, 3000, 'the beam over long-poll');
    expect(received[0]).toMatchObject({
      xpoint_activity: { beam: { kind: 'soon', properties: { id: 'lp1' } } },
    });
    // several poll windows later the session is still alive and joined
    await new Promise((r) => setTimeout(r, 800));
    expect(channel.state).toBe('joined');
    expect(socket.isConnected()).toBe(true);
  });
});

describe('the long-poll protocol as the client expects it', () => {
  it('opens a session with 410 and a token, holds a poll for the window, takes ndjson posts', async () => {
    const opened = await getPoll('deviceId=raw-lp&vsn=2.0.0');
    expect(opened).toMatchObject({ status: 410 });
    const token = String(opened['token']);
    expect(token.length).toBeGreaterThan(20);

    const started = Date.now();
    const empty = await getPoll(`deviceId=raw-lp&vsn=2.0.0&token=${token}`);
    expect(empty).toEqual({ status: 204, token });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);

    const posted = await postPoll(
      `deviceId=raw-lp&vsn=2.0.0&token=${token}`,
      [
        JSON.stringify(['1', '1', 'device:raw-lp', 'phx_join', {}]),
        JSON.stringify([null, '2', 'phoenix', 'heartbeat', {}]),
      ].join('\n'),
    );
    expect(posted).toEqual({ status: 200 });
    const messages = await getPoll(`deviceId=raw-lp&vsn=2.0.0&token=${token}`);
    expect(messages).toEqual({
      status: 200,
      token,
      messages: [
        JSON.stringify(['1', '1', 'device:raw-lp', 'phx_reply', { status: 'ok', response: {} }]),
        JSON.stringify([null, '2', 'phoenix', 'phx_reply', { status: 'ok', response: {} }]),
      ],
    });
  });

  it('answers an unknown token with 410 (GET: a new session; POST: gone) and a bad connect with 403', async () => {
    const gone = await getPoll('deviceId=raw-lp2&vsn=2.0.0&token=nope');
    expect(gone['status']).toBe(410);
    expect(gone['token']).not.toBe('nope');
    expect(
      await postPoll('deviceId=raw-lp2&vsn=2.0.0&token=nope', '[null,"1","phoenix","heartbeat",{}]'),
    ).toEqual({
      status: 410,
    });
    expect(await getPoll('vsn=2.0.0')).toEqual({ status: 403 });
  });

  it('ends a session that sends a malformed frame, and one that stops polling', async () => {
    const token = String((await getPoll('deviceId=raw-lp3&vsn=2.0.0'))['token']);
    expect(await postPoll(`token=${token}`, 'not a frame')).toEqual({ status: 400 });
    expect(await postPoll(`token=${token}`, '[null,"1","phoenix","heartbeat",{}]')).toEqual({ status: 410 });

    const idle = String((await getPoll('deviceId=raw-lp4&vsn=2.0.0'))['token']);
    const before = t.live.hub.connections.size;
    await waitFor(() => t.live.hub.connections.size < before, 5000, 'the idle session to end');
    expect(await postPoll(`token=${idle}`, '[null,"1","phoenix","heartbeat",{}]')).toEqual({ status: 410 });
  });
});

describe('long-poll sessions are capped', () => {
  const opened: LiveApp[] = [];
  afterAll(async () => {
    for (const app of opened) await app.close();
  });

  async function open(app: LiveApp, device: string) {
    const res = await fetch(`${app.url}/socket/longpoll?deviceId=${device}&vsn=2.0.0`, {
      headers: { accept: 'application/json' },
    });
    return {
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      body: (await res.json()) as Record<string, unknown>,
    };
  }

  it('per client address: past the cap a new session is refused with 429, the catalogue body and status 403', async () => {
    const app = await startLiveApp({
      live: { longPollMaxPerAddress: 3, longPollSessionMs: 1500, heartbeatTimeoutMs: 2000 },
    });
    opened.push(app);
    for (let i = 0; i < 3; i++) expect((await open(app, `cap-${i}`)).body['status']).toBe(410);
    const refused = await open(app, 'cap-3');
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('2');
    expect(refused.body).toEqual({
      status: 403,
      errorcode: 8018,
      error: 'Too many open long-poll sessions from this address (at most 3); try again in 2 s.',
    });
    // idle sessions end (longPollSessionMs), and then the address may open new ones
    await waitFor(() => app.live.hub.connections.size === 0, 5000, 'the idle sessions to end');
    expect((await open(app, 'cap-4')).body['status']).toBe(410);
  });

  it('in all: past the overall cap a new session is refused whatever the address', async () => {
    const app = await startLiveApp({ live: { longPollMaxSessions: 2 } });
    opened.push(app);
    expect((await open(app, 'all-0')).body['status']).toBe(410);
    expect((await open(app, 'all-1')).body['status']).toBe(410);
    const refused = await open(app, 'all-2');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ status: 403, errorcode: 8018 });
  });

  it('the official client, refused, closes and retries rather than throwing', async () => {
    const app = await startLiveApp({ live: { longPollMaxSessions: 0 } });
    opened.push(app);
    const errors: unknown[] = [];
    const socket = new Socket(`ws://127.0.0.1:${app.port}/socket`, {
      transport: LongPoll,
      params: { deviceId: 'refused-dev' },
      reconnectAfterMs: () => 60_000,
    });
    sockets.push(socket);
    socket.onError((error) => void errors.push(error));
    socket.connect();
    await waitFor(() => errors.length > 0, 3000, 'the refusal to reach the client');
    expect(socket.isConnected()).toBe(false);
  });
});
