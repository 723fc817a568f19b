import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveOf } from '../../src/server/features/beams/routes';
import type { SocialEvents } from '../../src/server/features/social/events';
import { notificationPageSchema, type NotificationPage } from '../../src/shared/api/notifications';
import { bearer, freshIp, registerUser, signIn, type SignedIn } from '../support/accounts';
import { openTestApp, type TestApp } from '../support/app';
import { newPoint } from '../support/factories';
import { TEST_DIALECTS } from '../support/store';

/** Notifications (issue 18): written from the social events, grouped, counted, marked read. */
describe.each(TEST_DIALECTS)('notifications (%s)', (dialect) => {
  let t: TestApp;
  let social: SocialEvents;
  const people = {} as Record<'olga' | 'ana' | 'ben' | 'cai' | 'dan', SignedIn>;

  const get = (url: string, who: SignedIn | null) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { ...(who ? bearer(who.token) : {}), 'x-forwarded-for': freshIp() },
    });
  const list = async (who: SignedIn, query = ''): Promise<NotificationPage> => {
    const res = await get(`/v1/notifications${query}`, who);
    expect(res.statusCode, res.body).toBe(200);
    return notificationPageSchema.parse(res.json());
  };
  const unread = async (who: SignedIn) =>
    (await get('/v1/notifications/unread', who)).json<{ unread: number }>().unread;
  /** the service listens asynchronously: wait until the recipient's unread count reaches `n`. */
  const settle = async (who: SignedIn, n: number) => {
    for (let i = 0; i < 200 && (await unread(who)) !== n; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await unread(who)).toBe(n);
  };

  beforeAll(async () => {
    t = await openTestApp({ dialect });
    const live = liveOf(t.app.server);
    if (!live) throw new Error('no live layer');
    social = live.social;
    for (const name of ['olga', 'ana', 'ben', 'cai', 'dan'] as const) {
      await registerUser(t, name);
      people[name] = await signIn(t, name, 'correct-horse-1');
    }
    await t.store.db
      .insertInto('points')
      .values([
        newPoint({ id: 'olgaCafe', type: 'cafe', lat: 1, lon: 1, owner_userid: people.olga.id }),
        newPoint({ id: 'olgaBar', type: 'bar', lat: 1, lon: 1, owner_userid: people.olga.id }),
      ])
      .execute();
  });
  afterAll(async () => {
    await t.close();
  });

  it('need a signed-in person', async () => {
    expect((await get('/v1/notifications', null)).json()).toMatchObject({ errorcode: 1010 });
    expect((await get('/v1/notifications/unread', null)).statusCode).toBe(401);
  });

  it('fold likes of one object into one item, newest people first, and count unread', async () => {
    for (const who of ['ana', 'ben', 'cai', 'dan'] as const)
      social.notify({
        recipientId: people.olga.id,
        actorId: people[who].id,
        action: 'like',
        objectType: 'X',
        objectId: 'olgaCafe',
      });
    // a double emit (a retry, two tabs) never makes a second row
    social.notify({
      recipientId: people.olga.id,
      actorId: people.ana.id,
      action: 'like',
      objectType: 'X',
      objectId: 'olgaCafe',
    });
    // nobody is told about their own act
    social.notify({
      recipientId: people.olga.id,
      actorId: people.olga.id,
      action: 'like',
      objectType: 'X',
      objectId: 'olgaCafe',
    });
    await settle(people.olga, 4);
    const page = await list(people.olga);
    expect(page.items).toHaveLength(1);
    const [item] = page.items;
    expect(item).toMatchObject({
      action: 'like',
      object_type: 'X',
      object_id: 'olgaCafe',
      url: '/x/olgaCafe',
      actor_count: 4,
      unread: true,
    });
    expect(item?.actors).toHaveLength(3);
    expect(item?.text).toMatch(/^(ana|ben|cai|dan) Tester and 3 others liked your point\.$/);
    expect(page.unread).toBe(4);
  });

  it('keep a comment per person, a follow group, newest first, in keyset pages', async () => {
    social.notify({
      recipientId: people.olga.id,
      actorId: people.ben.id,
      action: 'comment',
      objectType: 'X',
      objectId: 'olgaBar',
    });
    await settle(people.olga, 5);
    social.notify({
      recipientId: people.olga.id,
      actorId: people.cai.id,
      action: 'follow',
      objectType: 'U',
      objectId: people.cai.id,
    });
    social.notify({
      recipientId: people.olga.id,
      actorId: people.dan.id,
      action: 'follow',
      objectType: 'U',
      objectId: people.dan.id,
    });
    await settle(people.olga, 7);
    const first = await list(people.olga, '?limit=2');
    expect(first.items.map((i) => i.action)).toEqual(['follow', 'comment']);
    expect(first.items[0]).toMatchObject({
      actor_count: 2,
      url: '/u/dan',
      text: 'dan Tester and cai Tester followed you.',
    });
    expect(first.next).not.toBeNull();
    const second = await list(people.olga, `?limit=2&before=${first.next}`);
    expect(second.items.map((i) => i.action)).toEqual(['like']);
    expect(second.next).toBeNull();
  });

  it('refuse a cursor it did not give', async () => {
    const res = await get('/v1/notifications?before=not-a-cursor', people.olga);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errorcode: 18407 });
  });

  it('mark read up to an id, then all, for the person only', async () => {
    const page = await list(people.olga);
    const comment = page.items.find((i) => i.action === 'comment');
    const post = (body: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/notifications/read',
        headers: { ...bearer(people.olga.token), 'x-forwarded-for': freshIp() },
        payload: body as Record<string, unknown>,
      });
    const bad = await post({ upto: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(await unread(people.olga)).toBe(7);
    const upto = await post({ upto: comment?.id });
    expect(upto.json()).toEqual({ unread: 2 });
    const after = await list(people.olga);
    expect(after.items.map((i) => [i.action, i.unread])).toEqual([
      ['follow', true],
      ['comment', false],
      ['like', false],
    ]);
    expect((await post({})).json()).toEqual({ unread: 0 });
    expect(await unread(people.ana)).toBe(0);
  });

  it('forget notifications about an object that is gone', async () => {
    social.notify({
      recipientId: people.ana.id,
      actorId: people.ben.id,
      action: 'like',
      objectType: 'X',
      objectId: 'olgaBar',
    });
    await settle(people.ana, 1);
    await t.store.db.deleteFrom('points').where('id', '=', 'olgaBar').execute();
    expect((await list(people.ana)).items).toEqual([]);
    expect(await unread(people.ana)).toBe(0);
  });
});
