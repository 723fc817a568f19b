import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, Socket } from 'phoenix';
import {
  CHAT_UNREAD_KIND,
  chatInboxPageSchema,
  chatLineSchema,
  chatMessagesPageSchema,
  type ChatLine,
} from '../../src/shared/api/chat';
import { bearer, freshIp, registerUser, signIn } from '../support/accounts';
import type { TestApp } from '../support/app';
import { newPoint } from '../support/factories';
import { openTestStore, TEST_DIALECTS, type TestStore } from '../support/store';
import { phoenixSocket, pushReply, startLiveApp, waitFor, type LiveApp } from './live-support';

/**
 * Chat with a point (issue 22), on the real server with real sockets and both engines: a
 * conversation is one visitor and the point's owner/consultant, nobody else; lines are stored before
 * they are acknowledged and broadcast; a resend is the same line; pages go backwards without gaps;
 * bad input is refused with its own error and stores nothing.
 */
const PASSWORD = 'chat-tests-password-1';
const REDIS_URL = 'redis://127.0.0.1:6379';
const PEOPLE = ['olivia', 'uma', 'carl', 'ivan'] as const;
type Person = (typeof PEOPLE)[number];

describe.each(TEST_DIALECTS)('chat with a point (%s)', (dialect) => {
  let store: TestStore;
  let t: LiveApp;
  const who = {} as Record<Person, { id: string; token: string }>;
  const sockets: Socket[] = [];
  const POINT = 'chtBistro001';
  const OTHER = 'chtBakery002';

  const get = (url: string, person: Person) =>
    t.app.inject({ method: 'GET', url, headers: bearer(who[person].token) });
  const post = (url: string, person: Person, payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...bearer(who[person].token), 'x-forwarded-for': freshIp() },
      payload,
    });
  const lineCount = async () =>
    Number(
      (
        await store.db
          .selectFrom('chat_messages')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const conversationCount = async () =>
    Number(
      (
        await store.db
          .selectFrom('chat_conversations')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** A tab of `person` in a conversation of `point`, and what it hears. */
  const tab = async (person: Person | null, point: string, payload: Record<string, unknown> = {}) => {
    const socket = phoenixSocket(t.port, `dev-${randomUUID().slice(0, 8)}`);
    sockets.push(socket);
    socket.connect();
    const channel = socket.channel(`chat:${point}`, {
      ...(person ? { token: who[person].token } : {}),
      ...payload,
    });
    const lines: ChatLine[] = [];
    const reads: unknown[] = [];
    channel.on('msg', (line: unknown) => void lines.push(chatLineSchema.parse(line)));
    channel.on('read', (read: unknown) => void reads.push(read));
    const joined = await pushReply(channel.join());
    return { socket, channel, lines, reads, joined };
  };
  const say = (channel: Channel, text: string, clientId: string = randomUUID()) =>
    pushReply(channel.push('msg', { text, client_id: clientId }));

  beforeAll(async () => {
    store = await openTestStore(dialect);
    t = await startLiveApp({ store, chat: { rate: { max: 200, windowMs: 10_000 } } });
    const app = t as unknown as TestApp;
    for (const name of PEOPLE) {
      expect((await registerUser(app, name, PASSWORD)).statusCode).toBe(201);
      const session = await signIn(app, name, PASSWORD);
      who[name] = { id: session.id, token: session.token };
    }
    await store.db
      .insertInto('points')
      .values([
        newPoint({
          id: POINT,
          title: 'Cht Bistro',
          lat: 48.85,
          lon: 2.35,
          owner_userid: who.olivia.id,
          consultant_userid: who.carl.id,
        }),
        newPoint({ id: OTHER, title: 'Cht Bakery', lat: 48.86, lon: 2.36, owner_userid: who.olivia.id }),
      ])
      .execute();
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  afterAll(async () => {
    await t?.close();
    await store?.dispose();
  });

  it('refuses a join without a token, for a point that does not exist, and an owner without a visitor', async () => {
    expect((await tab(null, POINT)).joined.response).toMatchObject({ errorcode: 8014 });
    expect((await tab('uma', 'chtNoSuchPoint')).joined.response).toMatchObject({ errorcode: 2010 });
    expect((await tab('olivia', POINT)).joined.response).toMatchObject({ errorcode: 22101 });
    // the point's side cannot open a conversation nobody started
    expect((await tab('olivia', POINT, { visitor: who.ivan.id })).joined.response).toMatchObject({
      errorcode: 22103,
    });
    expect(await conversationCount()).toBe(0);
  });

  it('refuses an empty and a 10,000-character line, storing nothing', async () => {
    const uma = await tab('uma', OTHER);
    expect(uma.joined.status).toBe('ok');
    const empty = await say(uma.channel, '   ');
    expect(empty).toMatchObject({ status: 'error', response: { errorcode: 22104 } });
    const long = await say(uma.channel, 'x'.repeat(10_000));
    expect(long).toMatchObject({
      status: 'error',
      response: { errorcode: 22105, error: 'text: at most 2000 characters; this message has 10000.' },
    });
    const badId = await pushReply(uma.channel.push('msg', { text: 'hi', client_id: 'no spaces!' }));
    expect(badId).toMatchObject({ status: 'error', response: { errorcode: 22106 } });
    expect(await lineCount()).toBe(0);
    expect(await conversationCount()).toBe(0);
    expect(uma.lines).toEqual([]);
  });

  it('carries a conversation between the visitor and both controllers, and no one else', async () => {
    const uma = await tab('uma', POINT);
    const umaOtherTab = await tab('uma', POINT);
    const ivan = await tab('ivan', POINT);
    expect([uma.joined.status, umaOtherTab.joined.status, ivan.joined.status]).toEqual(['ok', 'ok', 'ok']);
    expect(uma.joined.response).toMatchObject({ side: 'visitor', visitor_id: who.uma.id });

    // olivia's header hears her unread count
    const bell = phoenixSocket(t.port, 'dev-olivia-bell');
    sockets.push(bell);
    bell.connect();
    const oliviaTopic = bell.channel(`user:${who.olivia.id}`, { token: who.olivia.token });
    const unreadPushes: number[] = [];
    oliviaTopic.on('social', (message: { kind: string; data: { unread: number } }) => {
      if (message.kind === CHAT_UNREAD_KIND) unreadPushes.push(message.data.unread);
    });
    expect((await pushReply(oliviaTopic.join())).status).toBe('ok');

    const sent = await say(uma.channel, 'Do you have a table for two tonight? https://example.com/menu');
    expect(sent.status).toBe('ok');
    const stored = chatLineSchema.parse(sent.response);
    expect(stored).toMatchObject({ side: 'visitor', from: 'uma', point_id: POINT, visitor_id: who.uma.id });
    // stored before it was acknowledged
    expect(
      await store.db
        .selectFrom('chat_messages')
        .select('text')
        .where('id', '=', stored.id)
        .executeTakeFirst(),
    ).toBeDefined();
    await waitFor(() => uma.lines.length === 1 && umaOtherTab.lines.length === 1, 3000, "uma's tabs");
    await waitFor(() => unreadPushes.includes(1), 3000, "olivia's unread push");

    // the controllers answer, naming the visitor; ivan's own room heard nothing of it
    const olivia = await tab('olivia', POINT, { visitor: who.uma.id });
    const carl = await tab('carl', POINT, { visitor: who.uma.id });
    expect(olivia.joined.response).toMatchObject({ side: 'point' });
    expect(carl.joined.status).toBe('ok');
    expect((await say(olivia.channel, 'Yes, at eight.')).status).toBe('ok');
    await waitFor(
      () => uma.lines.length === 2 && umaOtherTab.lines.length === 2 && carl.lines.length === 1,
      3000,
      'the answer in every tab',
    );
    expect(uma.lines[1]).toMatchObject({ side: 'point', from: 'olivia', text: 'Yes, at eight.' });
    expect(ivan.lines).toEqual([]);

    // a third user cannot sit in or read the conversation
    expect((await tab('ivan', POINT, { visitor: who.uma.id })).joined.response).toMatchObject({
      errorcode: 22102,
    });
    const peek = await get(`/v1/chat/points/${POINT}?visitor=${who.uma.id}`, 'ivan');
    expect(peek.statusCode).toBe(403);
    expect(peek.json()).toMatchObject({ errorcode: 22102 });
    const own = chatMessagesPageSchema.parse((await get(`/v1/chat/points/${POINT}`, 'ivan')).json());
    expect(own.messages).toEqual([]);
    const markOther = await post(`/v1/chat/points/${POINT}/read`, 'ivan', {
      visitor: who.uma.id,
      upto: stored.id,
    });
    expect(markOther.statusCode).toBe(403);
    const inbox = chatInboxPageSchema.parse((await get('/v1/chat/conversations', 'ivan')).json());
    expect(inbox.items).toEqual([]);

    // uma has one unread conversation (olivia's answer); olivia none (she answered)
    expect((await get('/v1/chat/unread', 'uma')).json()).toEqual({ unread: 1 });
    expect((await get('/v1/chat/unread', 'olivia')).json()).toEqual({ unread: 0 });
    const umaInbox = chatInboxPageSchema.parse((await get('/v1/chat/conversations', 'uma')).json());
    expect(umaInbox.items).toHaveLength(1);
    expect(umaInbox.items[0]).toMatchObject({
      role: 'visitor',
      url: `/chat/${POINT}`,
      unread: 1,
      last: { text: 'Yes, at eight.', side: 'point' },
    });
    const oliviaInbox = chatInboxPageSchema.parse((await get('/v1/chat/conversations', 'olivia')).json());
    expect(oliviaInbox.items[0]).toMatchObject({ role: 'point', url: `/chat/${POINT}/${who.uma.id}` });

    // uma reads: the point's side sees the receipt live, and her count drops
    const answer = uma.lines[1] as ChatLine;
    const read = await post(`/v1/chat/points/${POINT}/read`, 'uma', { upto: answer.id });
    expect(read.json()).toEqual({ unread: 0 });
    await waitFor(() => olivia.reads.length === 1, 3000, 'the read receipt');
    expect(olivia.reads[0]).toEqual({ side: 'visitor', upto: answer.id });
    const beyond = await post(`/v1/chat/points/${POINT}/read`, 'uma', { upto: answer.id + 1000 });
    expect(beyond.json()).toMatchObject({ errorcode: 22109 });
  });

  it('answers a resend with the line already stored, never storing or broadcasting it twice', async () => {
    const uma = await tab('uma', POINT);
    const olivia = await tab('olivia', POINT, { visitor: who.uma.id });
    const before = await lineCount();
    const clientId = `resend-${randomUUID()}`;
    const first = await say(uma.channel, 'Is the terrace open?', clientId);
    const again = await say(uma.channel, 'Is the terrace open?', clientId);
    expect(first.status).toBe('ok');
    expect(again).toEqual(first);
    await waitFor(() => olivia.lines.length >= 1, 3000, 'the line');
    // a later line proves the resend had its chance to arrive
    expect((await say(uma.channel, 'Thanks!')).status).toBe('ok');
    await waitFor(() => olivia.lines.length === 2, 3000, 'the next line');
    expect(olivia.lines.map((line) => line.text)).toEqual(['Is the terrace open?', 'Thanks!']);
    expect(await lineCount()).toBe(before + 2);
  });

  it('pages backwards by id without gaps or repeats, and catches up after an id', async () => {
    const ivan = await tab('ivan', OTHER);
    const sent: number[] = [];
    for (let i = 0; i < 65; i++) {
      const reply = await say(ivan.channel, `line ${i}`);
      expect(reply.status).toBe('ok');
      sent.push(chatLineSchema.parse(reply.response).id);
    }
    const seen: number[] = [];
    let before: number | null = null;
    let pages = 0;
    do {
      const query: string = before ? `?before=${before}&limit=20` : '?limit=20';
      const page = chatMessagesPageSchema.parse(
        (await get(`/v1/chat/points/${OTHER}${query}`, 'ivan')).json(),
      );
      seen.unshift(...page.messages.map((line) => line.id));
      before = page.next;
      pages++;
    } while (before !== null && pages < 10);
    expect(pages).toBe(4);
    expect(seen).toEqual(sent);
    const missed = chatMessagesPageSchema.parse(
      (await get(`/v1/chat/points/${OTHER}?after=${sent[59]}`, 'ivan')).json(),
    );
    expect(missed.messages.map((line) => line.id)).toEqual(sent.slice(60));
  });

  it('carries a conversation between two processes through Redis, limits counted there too', async () => {
    const prefix = `xpoint-chat-test-${randomUUID()}:`;
    const rate = { rate: { max: 4, windowMs: 60_000 } };
    const first = await startLiveApp({ store, redisUrl: REDIS_URL, live: { busPrefix: prefix }, chat: rate });
    const second = await startLiveApp({
      store,
      redisUrl: REDIS_URL,
      live: { busPrefix: prefix },
      chat: rate,
    });
    try {
      const join = async (app: LiveApp, person: Person, payload: Record<string, unknown> = {}) => {
        const socket = phoenixSocket(app.port, `dev-${randomUUID().slice(0, 8)}`);
        sockets.push(socket);
        socket.connect();
        const channel = socket.channel(`chat:${OTHER}`, { token: who[person].token, ...payload });
        const heard: ChatLine[] = [];
        channel.on('msg', (line: unknown) => void heard.push(chatLineSchema.parse(line)));
        expect((await pushReply(channel.join())).status).toBe('ok');
        return { channel, heard };
      };
      // uma writes on the first process; olivia answers for the point on the second
      const uma = await join(first, 'uma');
      // uma's other tab, on the second process: her first line has crossed once it hears it there, so
      // it cannot reach olivia, who joins after it was written (the crossing is asynchronous)
      const umaOnSecond = await join(second, 'uma');
      expect((await say(uma.channel, 'Are you open on Sunday?')).status).toBe('ok');
      await waitFor(() => umaOnSecond.heard.length === 1, 5000, 'the first line on the other process');
      const olivia = await join(second, 'olivia', { visitor: who.uma.id });
      const ivan = await join(second, 'ivan');
      const replies = [];
      for (let i = 0; i < 3; i++) replies.push(await say(uma.channel, `across ${i}`));
      await waitFor(() => olivia.heard.length === 3, 5000, 'the lines on the other process');
      expect(olivia.heard.map((line) => line.text)).toEqual(['across 0', 'across 1', 'across 2']);
      expect(ivan.heard).toEqual([]);
      await waitFor(() => umaOnSecond.heard.length === 4, 5000, 'her lines in her other tab');
      expect(umaOnSecond.heard.map((line) => line.text)).toEqual([
        'Are you open on Sunday?',
        'across 0',
        'across 1',
        'across 2',
      ]);
      // uma has sent 4 lines through the first process: a fifth through the second is over the shared limit
      expect(await say(umaOnSecond.channel, 'one too many')).toMatchObject({
        status: 'error',
        response: { errorcode: 22107 },
      });
    } finally {
      await first.stop();
      await second.stop();
    }
  });

  it('limits how fast one person sends', async () => {
    const limited = await startLiveApp({ store, chat: { rate: { max: 3, windowMs: 60_000 } } });
    try {
      const socket = phoenixSocket(limited.port, 'dev-rate');
      sockets.push(socket);
      socket.connect();
      const channel = socket.channel(`chat:${OTHER}`, { token: who.carl.token });
      expect((await pushReply(channel.join())).status).toBe('ok');
      const before = await lineCount();
      const replies = [];
      for (let i = 0; i < 5; i++) replies.push(await say(channel, `quick ${i}`));
      expect(replies.map((reply) => reply.status)).toEqual(['ok', 'ok', 'ok', 'error', 'error']);
      expect(replies[3]?.response).toMatchObject({ errorcode: 22107 });
      expect(await lineCount()).toBe(before + 3);
    } finally {
      await limited.stop();
    }
  });
});
