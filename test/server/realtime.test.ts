import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'phoenix';
import { newPoint } from '../support/factories';
import { registerUser, signIn, type SignedIn } from '../support/accounts';
import type { TestApp } from '../support/app';
import { openTestStore, type TestStore } from '../support/store';
import {
  bounds,
  phoenixSocket,
  pushReply,
  rawSocket,
  startLiveApp,
  waitFor,
  type LiveApp,
} from './live-support';

/** The official phoenix client against the real server over WebSocket. */
let t: LiveApp;
let store: TestStore;
let owner: SignedIn;
/** silence closes a socket after this long here; the clients beat three times as often. */
const LIVE = { heartbeatTimeoutMs: 600 };
const sockets: Socket[] = [];

function open(deviceId: string, options: Record<string, unknown> = {}): Socket {
  const socket = phoenixSocket(t.port, deviceId, { heartbeatIntervalMs: 200, ...options });
  sockets.push(socket);
  socket.connect();
  return socket;
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  store = await openTestStore('sqlite');
  t = await startLiveApp({ store, live: LIVE });
  await registerUser(t as unknown as TestApp, 'beamer');
  owner = await signIn(t as unknown as TestApp, 'beamer', 'correct-horse-1');
  await t.store.db
    .insertInto('points')
    .values([
      newPoint({ id: 'cafe1', type: 'cafe', lat: 52.52, lon: 13.405, owner_userid: owner.id }),
      newPoint({ id: 'far1', type: 'bar', lat: 40.7, lon: -74.0, owner_userid: owner.id }),
    ])
    .execute();
});

afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});

afterAll(async () => {
  await t.close();
  await store.dispose();
});

describe('device channel with the official phoenix client', () => {
  it('joins, sends bounds, and receives a beam posted through the API only where it is visible', async () => {
    const berlin = open('dev-berlin');
    const newYork = open('dev-ny');
    const inBerlin: unknown[] = [];
    const inNewYork: unknown[] = [];
    const a = berlin.channel('device:dev-berlin', { deviceId: 'dev-berlin' });
    const b = newYork.channel('device:dev-ny', { deviceId: 'dev-ny' });
    a.on('iq', (payload) => void inBerlin.push(payload));
    b.on('iq', (payload) => void inNewYork.push(payload));
    expect((await pushReply(a.join())).status).toBe('ok');
    expect((await pushReply(b.join())).status).toBe('ok');
    const set = await pushReply(a.push('iq', { id: 'q1', type: 'set', ...bounds(52.4, 13.2, 52.6, 13.6) }));
    expect(set).toEqual({ status: 'ok', response: { id: 'q1' } });
    expect(
      (await pushReply(b.push('iq', { id: 'q2', type: 'set', ...bounds(40.6, -74.1, 40.8, -73.9) }))).status,
    ).toBe('ok');

    const res = await post(
      '/api/user/x_point/beam',
      { identifier: 'cafe1', kind: 'hot' },
      { authorization: `Bearer ${owner.token}` },
    );
    expect(res).toEqual({ status: 200, body: { status: 'ok' } });
    await waitFor(() => inBerlin.length === 1, 2000, 'the beam in Berlin');
    expect(inBerlin[0]).toMatchObject({
      type: 'set',
      xpoint_activity: {
        beam: { kind: 'hot', properties: { id: 'cafe1', lat: 52.52, lon: 13.405, businesstype: 'cafe' } },
      },
    });
    // give a stray delivery time to show up
    await new Promise((r) => setTimeout(r, 100));
    expect(inNewYork).toEqual([]);
  });

  it('refuses bounds out of range with an error reply, and the channel keeps working', async () => {
    const socket = open('dev-bad');
    const channel = socket.channel('device:dev-bad', {});
    await pushReply(channel.join());
    const bad = await pushReply(channel.push('iq', { id: 'x', type: 'set', ...bounds(52, 13, 95, 14) }));
    expect(bad.status).toBe('error');
    expect(bad.response).toMatchObject({ errorcode: 8017, id: 'x' });
    const reversed = await pushReply(channel.push('iq', { id: 'y', type: 'set', ...bounds(53, 13, 52, 14) }));
    expect(reversed.status).toBe('error');
    const missing = await pushReply(channel.push('iq', { id: 'z', type: 'set' }));
    expect(missing.status).toBe('error');
    const good = await pushReply(channel.push('iq', { id: 'w', type: 'set', ...bounds(52, 13, 53, 14) }));
    expect(good.status).toBe('ok');
  });

  it('survives a server restart: reconnects, rejoins, sends bounds again and receives beams', async () => {
    const socket = open('dev-restart', { reconnectAfterMs: () => 50, rejoinAfterMs: () => 50 });
    const channel = socket.channel('device:dev-restart', {});
    const received: unknown[] = [];
    channel.on('iq', (payload) => void received.push(payload));
    let joins = 0;
    // the client's way: bounds go out after every (re)join
    channel.join().receive('ok', () => {
      joins += 1;
      channel.push('iq', { id: `j${joins}`, type: 'set', ...bounds(52.4, 13.2, 52.6, 13.6) });
    });
    await waitFor(() => t.live.hub.index.size > 0 && joins === 1, 3000, 'the first join');

    const port = t.port;
    const bystander = await rawSocket(t.port, 'deviceId=dev-bystander2&vsn=2.0.0');
    await t.close();
    // app.close() ends every socket with 1001 (going away), and the hub forgets them all
    expect((await bystander.closed).code).toBe(1001);
    expect(t.live.hub.connections.size).toBe(0);
    await waitFor(() => channel.state !== 'joined', 3000, 'the channel to notice');
    // the same store and port, a new process's worth of server state
    t = await startLiveApp({ store, port, live: LIVE });
    await waitFor(() => joins === 2, 5000, 'the rejoin');
    await waitFor(() => t.live.hub.index.size === 1, 3000, 'bounds sent again');
    const res = await post(
      '/api/user/x_point/beam',
      { identifier: 'cafe1', kind: 'open' },
      { authorization: `Bearer ${owner.token}` },
    );
    expect(res.status).toBe(200);
    await waitFor(() => received.length === 1, 2000, 'the beam after the restart');
    expect(received[0]).toMatchObject({ xpoint_activity: { beam: { kind: 'open' } } });
  });

  it('answers heartbeats, and closes a socket that stops sending them', async () => {
    const { ws, frames, closed } = await rawSocket(t.port, 'deviceId=dev-hb&vsn=2.0.0');
    ws.send(JSON.stringify([null, '1', 'phoenix', 'heartbeat', {}]));
    await waitFor(() => frames.length === 1, 2000, 'the heartbeat reply');
    expect(frames[0]).toEqual([null, '1', 'phoenix', 'phx_reply', { status: 'ok', response: {} }]);
    // heartbeatTimeoutMs is 600 in this suite: silence closes the socket
    const started = Date.now();
    const result = await closed;
    expect(result.code).toBe(1001);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe('refusals, the way Phoenix refuses', () => {
  it('refuses a connect without a device id or with another protocol version (403)', async () => {
    await expect(rawSocket(t.port, 'vsn=2.0.0')).rejects.toThrow(/403/);
    await expect(rawSocket(t.port, 'deviceId=a&vsn=1.0.0')).rejects.toThrow(/403/);
    await expect(rawSocket(t.port, 'deviceId=bad%20id&vsn=2.0.0')).rejects.toThrow(/403/);
  });

  it('answers a push to a topic not joined with "unmatched topic", and an unknown topic too', async () => {
    const { ws, frames } = await rawSocket(t.port, 'deviceId=dev-u&vsn=2.0.0');
    ws.send(JSON.stringify(['1', '2', 'device:dev-u', 'iq', { type: 'set' }]));
    ws.send(JSON.stringify(['3', '3', 'lobby:x', 'phx_join', {}]));
    ws.send(JSON.stringify([null, '4', 'phoenix', 'nonsense', {}]));
    await waitFor(() => frames.length === 3, 2000, 'three replies');
    for (const frame of frames) {
      expect(frame[3]).toBe('phx_reply');
      expect(frame[4]).toMatchObject({ status: 'error', response: { reason: 'unmatched topic' } });
    }
    ws.close();
  });

  it('closes the old channel on a duplicate join (phx_close), refuses another device topic and unknown events', async () => {
    const { ws, frames } = await rawSocket(t.port, 'deviceId=dev-d&vsn=2.0.0');
    ws.send(JSON.stringify(['1', '1', 'device:dev-d', 'phx_join', {}]));
    ws.send(JSON.stringify(['2', '2', 'device:dev-d', 'phx_join', {}]));
    ws.send(JSON.stringify(['3', '3', 'device:someone-else', 'phx_join', {}]));
    ws.send(JSON.stringify(['2', '4', 'device:dev-d', 'dance', {}]));
    await waitFor(() => frames.length === 5, 2000, 'five frames');
    expect(frames[0]).toEqual(['1', '1', 'device:dev-d', 'phx_reply', { status: 'ok', response: {} }]);
    expect(frames[1]).toEqual(['1', '1', 'device:dev-d', 'phx_close', {}]);
    expect(frames[2]).toEqual(['2', '2', 'device:dev-d', 'phx_reply', { status: 'ok', response: {} }]);
    expect(frames[3]?.[4]).toMatchObject({ status: 'error', response: { errorcode: 8013 } });
    expect(frames[4]?.[4]).toMatchObject({ status: 'error', response: { errorcode: 8011 } });
    ws.close();
  });

  it('closes a socket that sends a malformed frame or one over 64 KB, and no other device notices', async () => {
    const bystander = open('dev-bystander');
    const channel = bystander.channel('device:dev-bystander', {});
    await pushReply(channel.join());
    for (const bad of [
      '{not json',
      '[1,2,3]',
      '["1","1",5,"phx_join",{}]',
      '["1","1","device:x","phx_join",[]]',
    ]) {
      const { ws, closed } = await rawSocket(t.port, 'deviceId=dev-m&vsn=2.0.0');
      ws.send(bad);
      expect((await closed).code).toBe(1007);
    }
    const big = await rawSocket(t.port, 'deviceId=dev-big&vsn=2.0.0');
    big.ws.send(JSON.stringify(['1', '1', 'device:dev-big', 'phx_join', { junk: 'x'.repeat(70 * 1024) }]));
    expect((await big.closed).code).toBe(1009);
    const binary = await rawSocket(t.port, 'deviceId=dev-bin&vsn=2.0.0');
    binary.ws.send(Buffer.from([1, 2, 3]));
    expect((await binary.closed).code).toBe(1003);
    // the bystander's channel still answers
    const ok = await pushReply(channel.push('iq', { id: 'still', type: 'set', ...bounds(1, 1, 2, 2) }));
    expect(ok).toEqual({ status: 'ok', response: { id: 'still' } });
  });
});

describe('chat channels', () => {
  it('are refused without a token or with a wrong one, and joined with the user token', async () => {
    const socket = open('dev-chat');
    const anonymous = socket.channel('chat:cafe1', {});
    const refused = await pushReply(anonymous.join());
    expect(refused.status).toBe('error');
    expect(refused.response).toMatchObject({ errorcode: 8014 });
    anonymous.leave();

    const wrong = open('dev-chat2').channel('chat:cafe1', { token: 'x'.repeat(43) + '.' + 'y'.repeat(43) });
    const wrongReply = await pushReply(wrong.join());
    expect(wrongReply.response).toMatchObject({ errorcode: 2002 });
    wrong.leave();

    // a visitor's conversation with the point (its owner answers from the inbox, naming the visitor)
    await registerUser(t as unknown as TestApp, 'chatter');
    const visitor = await signIn(t as unknown as TestApp, 'chatter', 'correct-horse-1');
    const ownerJoin = open('dev-chat4').channel('chat:cafe1', { token: owner.token });
    expect((await pushReply(ownerJoin.join())).response).toMatchObject({ errorcode: 22101 });
    const member = open('dev-chat3');
    const chat = member.channel('chat:cafe1', { token: visitor.token });
    expect((await pushReply(chat.join())).status).toBe('ok');
    const lines: unknown[] = [];
    chat.on('msg', (payload) => void lines.push(payload));

    // a device watching Berlin sees the chat as map activity
    const watcher = open('dev-watch');
    const device = watcher.channel('device:dev-watch', {});
    const activity: unknown[] = [];
    device.on('iq', (payload) => void activity.push(payload));
    await pushReply(device.join());
    await pushReply(device.push('iq', { id: 'b', type: 'set', ...bounds(52.4, 13.2, 52.6, 13.6) }));

    expect((await pushReply(chat.push('msg', { text: 'hello' }))).status).toBe('ok');
    await waitFor(() => lines.length === 1 && activity.length === 1, 2000, 'the chat line and its activity');
    expect(lines[0]).toMatchObject({ from: 'chatter', text: 'hello', side: 'visitor' });
    expect(activity[0]).toMatchObject({
      map_activity: { properties: { id: 'cafe1', mag: 1 }, coordinates: [13.405, 52.52] },
    });
    const empty = await pushReply(chat.push('msg', { text: '   ' }));
    expect(empty.status).toBe('error');
  });
});
