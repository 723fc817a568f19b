import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'phoenix';
import { followListSchema } from '../../src/shared/api/follows';
import { postResultSchema } from '../../src/shared/api/posts';
import { bearer, freshIp, registerUser, signIn, type SignedIn } from '../support/accounts';
import { openTestApp, type TestApp } from '../support/app';
import { TEST_DIALECTS, openTestStore } from '../support/store';
import { phoenixSocket, pushReply, startLiveApp, waitFor } from './live-support';

/** Follows (issue 18; social §7): the two calls, their refusals, counts, lists and isfollowed. */
describe.each(TEST_DIALECTS)('follows (%s)', (dialect) => {
  let t: TestApp;
  const people = {} as Record<'ana' | 'ben' | 'cai', SignedIn>;

  const call = (path: string, who: SignedIn | null, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: path,
      headers: { ...(who ? bearer(who.token) : {}), 'x-forwarded-for': freshIp() },
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
  const follow = (who: SignedIn | null, payload: unknown) => call('/v1/follow/add', who, payload);
  const unfollow = (who: SignedIn | null, payload: unknown) => call('/v1/follow/unfollow', who, payload);
  const rows = async () =>
    Number(
      (
        await t.store.db
          .selectFrom('follows')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const get = (url: string, who: SignedIn | null) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { ...(who ? bearer(who.token) : {}), 'x-forwarded-for': freshIp() },
    });

  beforeAll(async () => {
    t = await openTestApp({ dialect });
    for (const name of ['ana', 'ben', 'cai'] as const) {
      await registerUser(t, name);
      people[name] = await signIn(t, name, 'correct-horse-1');
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('follow answers the follower count; a second follow is 122 in both shapes', async () => {
    const first = await follow(people.ana, { user_id: people.ben.id });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toBe(1);
    expect((await follow(people.cai, { user_id: people.ben.id })).json()).toBe(2);
    const again = await follow(people.ana, { user_id: people.ben.id });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      errorcode: 122,
      error: 'You already follow this user.',
      isSuccess: false,
      errorMessage: 'You already follow this user.',
    });
    expect(await rows()).toBe(2);
  });

  it('refuse each bad input with a clear error and change nothing', async () => {
    const cases: Array<[string, SignedIn | null, unknown, number, number]> = [
      ['missing user_id', people.ana, {}, 400, 18403],
      ['empty user_id', people.ana, { user_id: '' }, 400, 18403],
      ['oneself', people.ana, { user_id: people.ana.id }, 400, 18404],
      ['a user who does not exist', people.ana, { user_id: 'nobody-here' }, 404, 18405],
      ['a malformed id', people.ana, { user_id: 'a b' }, 404, 18405],
      ['a visitor', null, { user_id: people.ben.id }, 401, 1010],
    ];
    for (const [what, who, payload, status, code] of cases) {
      const res = await follow(who, payload);
      expect(res.statusCode, what).toBe(status);
      expect(res.json(), what).toMatchObject({ errorcode: code, isSuccess: false });
      expect((res.json() as { errorMessage: string }).errorMessage).toBe(
        (res.json() as { error: string }).error,
      );
    }
    expect((await follow(people.ana, {})).json()).toMatchObject({
      error: 'Can not follow this user. Missing user id!',
    });
    expect((await unfollow(people.ana, { user_id: people.ana.id })).statusCode).toBe(400);
    expect((await unfollow(people.ana, { user_id: 'nobody-here' })).statusCode).toBe(404);
    expect(await rows()).toBe(2);
  });

  it('a profile shows counts and isfollowed; the lists page with avatars and the viewer’s follows', async () => {
    const profile = (await get('/v1/users/ben', people.ana)).json<{
      counts: { followers: number };
      isfollowed: number;
    }>();
    expect(profile.counts.followers).toBe(2);
    expect(profile.isfollowed).toBe(1);
    expect((await get('/v1/users/ben', people.cai)).json()).toMatchObject({ isfollowed: 1 });
    expect((await get('/v1/users/ana', people.cai)).json()).toMatchObject({
      isfollowed: 0,
      counts: { following: 1 },
    });
    expect((await get('/v1/users/ben', null)).json()).toMatchObject({ isfollowed: 0 });

    await follow(people.ben, { user_id: people.cai.id });
    const followers = followListSchema.parse(
      (await get('/v1/users/ben/followers?pagesize=1', people.ben)).json(),
    );
    expect(followers).toMatchObject({ total: 2, pagenumber: 1, pagesize: 1 });
    expect(followers.items).toHaveLength(1);
    // newest first: cai followed after ana; ben follows cai
    expect(followers.items[0]).toMatchObject({ username: 'cai', isfollowed: 1 });
    const page2 = followListSchema.parse(
      (await get('/v1/users/ben/followers?pagesize=1&pagenumber=2', people.ben)).json(),
    );
    expect(page2.items[0]).toMatchObject({ username: 'ana', isfollowed: 0 });
    const following = followListSchema.parse((await get('/v1/users/ana/following', null)).json());
    expect(following.items.map((p) => p.username)).toEqual(['ben']);
    expect((await get('/v1/users/nobody/followers', null)).statusCode).toBe(404);
    expect((await get('/v1/users/ben/followers?pagesize=500', null)).statusCode).toBe(400);
  });

  it('unfollow answers the new count, and again (idempotent)', async () => {
    expect((await unfollow(people.cai, { user_id: people.ben.id })).json()).toBe(1);
    expect((await unfollow(people.cai, { user_id: people.ben.id })).json()).toBe(1);
    expect((await get('/v1/users/ben', people.cai)).json()).toMatchObject({
      isfollowed: 0,
      counts: { followers: 1 },
    });
  });

  it('unfollow takes the follow notification back, and the unread count with it', async () => {
    const notificationsOf = (who: SignedIn) =>
      t.store.db
        .selectFrom('notifications')
        .select(['actor_id', 'action'])
        .where('recipient_id', '=', who.id)
        .execute();
    const unreadOf = async (who: SignedIn) =>
      (await get('/v1/notifications/unread', who)).json<{ unread: number }>().unread;
    // cai stopped following ben above: only ana's follow is left to tell of
    await expect
      .poll(() => notificationsOf(people.ben))
      .toEqual([{ actor_id: people.ana.id, action: 'follow' }]);
    const list = (await get('/v1/notifications', people.ben)).json<{ items: Array<{ text: string }> }>();
    expect(list.items.map((item) => item.text)).toEqual(['ana Tester followed you.']);

    const before = await unreadOf(people.ana);
    expect((await follow(people.cai, { user_id: people.ana.id })).statusCode).toBe(200);
    await expect.poll(() => unreadOf(people.ana)).toBe(before + 1);
    expect((await unfollow(people.cai, { user_id: people.ana.id })).statusCode).toBe(200);
    await expect.poll(() => unreadOf(people.ana)).toBe(before);
    expect((await notificationsOf(people.ana)).filter((row) => row.actor_id === people.cai.id)).toEqual([]);

    // followed and unfollowed at once: the withdraw waits for the notification it takes back
    expect((await follow(people.cai, { user_id: people.ana.id })).statusCode).toBe(200);
    await unfollow(people.cai, { user_id: people.ana.id });
    await expect.poll(() => unreadOf(people.ana)).toBe(before);
    expect((await notificationsOf(people.ana)).filter((row) => row.actor_id === people.cai.id)).toEqual([]);
  });

  it('a post record carries isfollowed for the viewer', async () => {
    const id = '5e8f7a3c-0000-4000-8000-00000000f011';
    const saved = await t.app.inject({
      method: 'POST',
      url: '/myposts/save',
      headers: { ...bearer(people.ben.token), 'x-forwarded-for': freshIp() },
      payload: {
        resultMode: 'ReturnJson',
        id,
        title: 'Ben writes',
        description: 'A post by Ben',
        type: 'general',
      },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const as = async (who: SignedIn | null) =>
      postResultSchema.parse((await get(`/myposts/details?id=${id}`, who)).json()).isfollowed;
    expect(await as(people.ana)).toBe(1);
    expect(await as(people.cai)).toBe(0);
    expect(await as(null)).toBe(0);
    const list = (await get('/v1/posts/user/ben', people.ana)).json<{
      items: Array<{ isfollowed: number }>;
    }>();
    expect(list.items.map((p) => p.isfollowed)).toEqual([1]);
  });

  it('at most 100 new follows an hour per person, answered with a retry time', async () => {
    await registerUser(t, 'busy');
    const busy = await signIn(t, 'busy', 'correct-horse-1');
    // follow and unfollow the same person: each follow counts
    for (let i = 0; i < 100; i++) {
      const res = await follow(busy, { user_id: people.ana.id });
      expect(res.statusCode, `follow ${i}`).toBe(200);
      await unfollow(busy, { user_id: people.ana.id });
    }
    const refused = await follow(busy, { user_id: people.ana.id });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.json()).toMatchObject({ isSuccess: false });
    expect((await get('/v1/users/ana', null)).json()).toMatchObject({ counts: { followers: 0 } });
  });
});

describe('follows live', () => {
  it('the person followed hears the notification and the unread count on user:{id}; the profile page hears the counts', async () => {
    const store = await openTestStore('sqlite');
    const t = await startLiveApp({ store });
    const sockets: Socket[] = [];
    try {
      for (const name of ['olga', 'pia']) await registerUser(t as unknown as TestApp, name);
      const olga = await signIn(t as unknown as TestApp, 'olga', 'correct-horse-1');
      const pia = await signIn(t as unknown as TestApp, 'pia', 'correct-horse-1');
      const socket = phoenixSocket(t.port, 'olga-device');
      sockets.push(socket);
      socket.connect();
      const mine = socket.channel(`user:${olga.id}`, { token: olga.token });
      const page = socket.channel(`social:U:${olga.id}`, {});
      const toOlga: unknown[] = [];
      const onPage: unknown[] = [];
      mine.on('social', (payload) => void toOlga.push(payload));
      page.on('social', (payload) => void onPage.push(payload));
      expect((await pushReply(mine.join())).status).toBe('ok');
      expect((await pushReply(page.join())).status).toBe('ok');
      const res = await fetch(`${t.url}/v1/follow/add`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `appnettoken ${pia.token}` },
        body: JSON.stringify({ user_id: olga.id }),
      });
      expect(await res.json()).toBe(1);
      await waitFor(() => toOlga.length === 1 && onPage.length === 1, 3000, 'the pushes');
      expect(onPage[0]).toEqual({ kind: 'follows', data: { user_id: olga.id, followers: 1, following: 0 } });
      expect(toOlga[0]).toMatchObject({
        kind: 'notification',
        data: {
          unread: 1,
          item: { action: 'follow', url: '/u/pia', text: 'pia Tester followed you.', unread: true },
        },
      });

      // Pia thinks better of it: the notification is taken back, Olga's bell goes to 0
      const back = await fetch(`${t.url}/v1/follow/unfollow`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `appnettoken ${pia.token}` },
        body: JSON.stringify({ user_id: olga.id }),
      });
      expect(await back.json()).toBe(0);
      await waitFor(() => toOlga.length === 2, 3000, 'the withdrawal');
      expect(toOlga[1]).toEqual({
        kind: 'notification_withdrawn',
        data: { unread: 0, group: expect.stringMatching(/^follow:/) },
      });
      expect(await t.store.db.selectFrom('notifications').selectAll().execute()).toEqual([]);
    } finally {
      for (const socket of sockets) socket.disconnect();
      await t.close();
      await store.dispose();
    }
  });
});
