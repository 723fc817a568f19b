import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import {
  LIKERS_PAGE_SIZE,
  LIKES_PER_DAY_NEW_ACCOUNT,
  likeRemoveResultSchema,
  likeResultSchema,
  likersPageSchema,
  type LikeResult,
} from '../../src/shared/api/likes';
import { postResultSchema, postSaveResponseSchema } from '../../src/shared/api/posts';
import { LikeService } from '../../src/server/features/likes/service';
import { SocialEvents, type SocialEvent } from '../../src/server/features/social/events';
import { openTestApp, type TestApp } from '../support/app';
import { TEST_DIALECTS } from '../support/store';
import { bearer, createAdmin, freshIp, registerUser, signIn } from '../support/accounts';
import { newPoint } from '../support/factories';

/**
 * The likes API of issue 18 over HTTP on a real temporary store of each dialect: add, change type
 * and remove with the counts a post shows, the same add twice and fifty times at once (one like, a
 * count of one), likes of reviews and comments, the likers list and its pages, the daily limit of a
 * new account with its retry time, and bad input answered with the catalogue's error and nothing
 * changed. The events the live layer hears are checked on the service.
 */
const PASSWORD = 'likes-password-1';
const DAY_MS = 24 * 3600_000;
type Headers = Record<string, string>;

describe.each(TEST_DIALECTS)('likes over HTTP (%s)', (dialect) => {
  let t: TestApp;
  const as = {} as Record<'olivia' | 'carlos' | 'admin' | 'visitor', Headers>;
  const ids = {} as Record<'olivia' | 'carlos' | 'admin', string>;
  const POINT = 'lkPoint0001';

  const post = (url: string, who: Headers, payload?: unknown) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...who, 'x-forwarded-for': freshIp() },
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
  const add = (who: Headers, objectid: string, liketype: unknown = 0, objecttype?: string) =>
    post('/v1/webonly/like/add', who, { objectid, liketype, ...(objecttype ? { objecttype } : {}) });
  const liked = (res: LightMyRequestResponse): LikeResult => {
    expect(res.statusCode, res.body).toBe(200);
    return likeResultSchema.parse(res.json());
  };
  const expectError = (
    res: LightMyRequestResponse,
    status: number,
    errorcode: number,
    error?: string | RegExp,
  ) => {
    expect(res.statusCode, res.body).toBe(status);
    const body = res.json<{ errorcode: number; error: string }>();
    expect(body.errorcode, res.body).toBe(errorcode);
    if (typeof error === 'string') expect(body.error).toBe(error);
    else if (error) expect(body.error).toMatch(error);
  };
  /** A post of `who`'s made through the posts API. */
  const makePost = async (who: Headers = as.olivia): Promise<string> => {
    const res = await post('/myposts/save', who, {
      id: randomUUID(),
      title: 'Fresh bread',
      description: 'Every morning.',
      type: 'deal',
      resultMode: 'ReturnJson',
    });
    expect(res.statusCode, res.body).toBe(201);
    return postSaveResponseSchema.parse(res.json()).post!.postid;
  };
  const details = async (id: string, who: Headers) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/myposts/details?id=${id}`,
      headers: { ...who, 'x-forwarded-for': freshIp() },
    });
    expect(res.statusCode, res.body).toBe(200);
    return postResultSchema.parse(res.json());
  };
  const likeRows = (objectId: string) =>
    t.store.db.selectFrom('likes').selectAll().where('object_id', '=', objectId).execute();
  const counters = (type: string, objectId: string) =>
    t.store.db
      .selectFrom('like_counts')
      .select(['up', 'down'])
      .where('object_type', '=', type)
      .where('object_id', '=', objectId)
      .executeTakeFirst()
      .then((row) => (row ? { up: Number(row.up), down: Number(row.down) } : { up: 0, down: 0 }));
  let comments = 0;
  /** A comment row of `userId` on a post (the comments feature writes them; likes only read them). */
  const makeComment = async (postId: string, userId: string): Promise<string> => {
    const id = `lkComment${++comments}`;
    await t.store.db
      .insertInto('comments')
      .values({
        id,
        object_id: postId,
        object_type: 'P',
        user_id: userId,
        text: 'Nice.',
        created_at: 1,
        updated_at: 1,
      })
      .execute();
    return id;
  };
  /** A user who never signs in: likers for the list's pages, written straight into the store. */
  const makeUsers = async (prefix: string, count: number): Promise<string[]> => {
    const rows = Array.from({ length: count }, (_, i) => ({
      id: `${prefix}${i}`,
      username: `${prefix}${i}`,
      username_lower: `${prefix}${i}`.toLowerCase(),
      email: `${prefix}${i}@example.com`,
      email_lower: `${prefix}${i}@example.com`.toLowerCase(),
      fullname: `Liker ${i}`,
      avatar_url: null,
      status: 'active',
      is_admin: 0,
      password_hash: null,
      created_at: 1,
      updated_at: 1,
    }));
    await t.store.db.insertInto('users').values(rows).execute();
    return rows.map((row) => row.id);
  };

  beforeAll(async () => {
    t = await openTestApp({ dialect });
    for (const name of ['olivia', 'carlos'])
      expect((await registerUser(t, name, PASSWORD)).statusCode).toBe(201);
    await createAdmin(t, PASSWORD);
    for (const name of ['olivia', 'carlos', 'admin'] as const) {
      const session = await signIn(t, name, PASSWORD);
      as[name] = bearer(session.token);
      ids[name] = session.id;
    }
    as.visitor = {};
    await t.store.db
      .insertInto('points')
      .values(newPoint({ id: POINT, title: 'Corner bakery' }))
      .execute();
  });
  afterAll(async () => t?.close());

  it('adds, changes and removes a like, and the post shows the counts and the viewer’s own like', async () => {
    const id = await makePost();
    const up = liked(await add(as.carlos, id, 0));
    expect(up).toMatchObject({ objecttype: 'P', objectid: id, liketype: 0, up: 1, down: 0, changed: true });
    expect(up.replid).toBe(up.likeid);
    expect(await details(id, as.carlos)).toMatchObject({
      likes_up: 1,
      likes_down: 0,
      my_like: { likeid: up.likeid, liketype: 0 },
    });
    // others see the count, not carlos's like
    expect(await details(id, as.visitor)).toMatchObject({ likes_up: 1, my_like: null });

    const down = liked(
      await post('/v1/webonly/like/changetype', as.carlos, { likeid: up.likeid, newliketype: 1 }),
    );
    expect(down).toMatchObject({ likeid: up.likeid, liketype: 1, up: 0, down: 1, changed: true });
    expect(await details(id, as.olivia)).toMatchObject({ likes_up: 0, likes_down: 1 });
    // the same change again changes nothing
    const again = liked(
      await post('/v1/webonly/like/changetype', as.carlos, { likeid: up.likeid, newliketype: 1 }),
    );
    expect(again).toMatchObject({ changed: false, up: 0, down: 1 });

    const removed = await post('/v1/webonly/like/remove', as.carlos, { likeid: up.likeid });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(likeRemoveResultSchema.parse(removed.json())).toEqual({
      likeid: up.likeid,
      objecttype: 'P',
      objectid: id,
      up: 0,
      down: 0,
    });
    expect(await details(id, as.carlos)).toMatchObject({ likes_up: 0, likes_down: 0, my_like: null });
    expect(await likeRows(id)).toHaveLength(0);
    // removing it again: there is no such like any more
    expectError(await post('/v1/webonly/like/remove', as.carlos, { likeid: up.likeid }), 404, 18204);
  });

  it('answers the same add with the like that stands, and an add of the other type changes it', async () => {
    const id = await makePost();
    const first = liked(await add(as.carlos, id, 0));
    const second = liked(await add(as.carlos, id, '0'));
    expect(second).toMatchObject({ likeid: first.likeid, changed: false, up: 1, down: 0 });
    const flipped = liked(await add(as.carlos, id, 1));
    expect(flipped).toMatchObject({ likeid: first.likeid, liketype: 1, changed: true, up: 0, down: 1 });
    expect(await likeRows(id)).toHaveLength(1);
    expect(await counters('P', id)).toEqual({ up: 0, down: 1 });
    // the post list shows the counts too
    const list = await t.app.inject({ method: 'GET', url: '/v1/posts/user/olivia?pagesize=48' });
    const item = list
      .json<{ items: Array<{ postid: string; likes_down: number }> }>()
      .items.find((p) => p.postid === id);
    expect(item?.likes_down).toBe(1);
  });

  it('makes exactly one like and a count of one from 50 identical adds at once', async () => {
    const id = await makePost();
    const answers = await Promise.all(Array.from({ length: 50 }, () => add(as.carlos, id, 0)));
    const results = answers.map(liked);
    expect(new Set(results.map((r) => r.likeid)).size).toBe(1);
    expect(results.filter((r) => r.changed)).toHaveLength(1);
    expect(await likeRows(id)).toHaveLength(1);
    expect(await counters('P', id)).toEqual({ up: 1, down: 0 });
    expect(await details(id, as.olivia)).toMatchObject({ likes_up: 1, likes_down: 0 });
  });

  it('keeps counts exact when many people like and change at once', async () => {
    const id = await makePost();
    // carlos, olivia and admin each add twice, then carlos flips, at once
    const all = await Promise.all([
      add(as.carlos, id, 0),
      add(as.olivia, id, 0),
      add(as.admin, id, 1),
      add(as.carlos, id, 0),
      add(as.olivia, id, 0),
      add(as.admin, id, 1),
    ]);
    all.forEach(liked);
    expect(await counters('P', id)).toEqual({ up: 2, down: 1 });
  });

  it('likes reviews and comments, each with its own counts', async () => {
    const postId = await makePost();
    const commentId = await makeComment(postId, ids.olivia);
    await t.store.db
      .insertInto('reviews')
      .values({
        id: 'lkReview1',
        point_id: POINT,
        user_id: ids.olivia,
        stars: 4,
        text: 'Good.',
        created_at: 1,
        updated_at: 1,
      })
      .execute();
    expect(liked(await add(as.carlos, commentId, 0, 'C'))).toMatchObject({ objecttype: 'C', up: 1 });
    expect(liked(await add(as.carlos, 'lkReview1', 1, 'R'))).toMatchObject({ objecttype: 'R', down: 1 });
    // the same id as another type is another object
    expectError(
      await add(as.carlos, commentId, 0, 'R'),
      404,
      18201,
      `There is no review with id ${commentId} to like.`,
    );
    expect(await counters('P', postId)).toEqual({ up: 0, down: 0 });
  });

  it('refuses bad input with a clear error and changes nothing', async () => {
    const id = await makePost();
    const mine = liked(await add(as.carlos, id, 0));
    // anonymous
    expectError(await add(as.visitor, id, 0), 401, 1010);
    // missing and unknown object
    expectError(
      await post('/v1/webonly/like/add', as.carlos, { liketype: 0 }),
      400,
      6705,
      'Param [objectid] is invalid!',
    );
    expectError(
      await add(as.carlos, 'no-such-post', 0),
      404,
      18201,
      'There is no post with id no-such-post to like.',
    );
    expectError(await add(as.carlos, 'bad id!', 0), 400, 6705);
    // liketype 2, none, text
    expectError(await add(as.carlos, id, 2), 400, 18202, 'liketype: must be 0 (up) or 1 (down).');
    expectError(await post('/v1/webonly/like/add', as.carlos, { objectid: id }), 400, 18202);
    expectError(await add(as.carlos, id, 'up'), 400, 18202);
    expectError(await add(as.carlos, id, 0, 'Z'), 400, 18203);
    // someone else's like: neither removed nor changed
    expectError(await post('/v1/webonly/like/remove', as.olivia, { likeid: mine.likeid }), 404, 18204);
    expectError(
      await post('/v1/webonly/like/changetype', as.olivia, { likeid: mine.likeid, newliketype: 1 }),
      404,
      18204,
      `You have no like with id ${mine.likeid}.`,
    );
    expectError(
      await post('/v1/webonly/like/remove', as.carlos, {}),
      400,
      6705,
      'Param [likeid] is invalid!',
    );
    expectError(
      await post('/v1/webonly/like/changetype', as.carlos, { likeid: mine.likeid, newliketype: 2 }),
      400,
      18202,
      'newliketype: must be 0 (up) or 1 (down).',
    );
    expectError(await post('/v1/webonly/like/remove', as.visitor, { likeid: mine.likeid }), 401, 1010);
    const rows = await likeRows(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: mine.likeid, user_id: ids.carlos });
    expect(Number(rows[0]!.like_type)).toBe(0);
    expect(await counters('P', id)).toEqual({ up: 1, down: 0 });
  });

  it('hides a hidden post’s likes from everyone but its author and admins', async () => {
    const id = await makePost();
    const hid = await post('/myposts/hide', as.admin, { id, hidden: true });
    expect(hid.statusCode, hid.body).toBe(200);
    expectError(await add(as.carlos, id, 0), 404, 18201);
    expectError(await post('/likes/list', as.carlos, { objectid: id }), 404, 18201);
    expect(liked(await add(as.olivia, id, 0))).toMatchObject({ up: 1 });
  });

  it('lists the likers newest first, 20 a page, with whom the viewer follows', async () => {
    const id = await makePost();
    const people = await makeUsers(`liker${dialect}`, LIKERS_PAGE_SIZE + 5);
    await t.store.db
      .insertInto('likes')
      .values(
        people.map((userId, i) => ({
          id: `lk${dialect}${i}`,
          user_id: userId,
          object_id: id,
          object_type: 'P',
          like_type: i % 5 === 0 ? 1 : 0,
          // two likes at each time: the page's boundary falls inside a tie
          created_at: 1_000_000 + Math.floor(i / 2),
        })),
      )
      .execute();
    await t.store.db
      .insertInto('follows')
      .values({ follower_id: ids.carlos, followee_id: people[24]!, created_at: 1 })
      .execute();
    const first = likersPageSchema.parse(
      (await post('/likes/list', as.carlos, { objectid: id, objecttype: 'P' })).json(),
    );
    expect(first.items).toHaveLength(LIKERS_PAGE_SIZE);
    expect(first.items[0]).toMatchObject({ id: people[24], displayname: 'Liker 24', isfollowed: 1 });
    expect(first.items[1]).toMatchObject({ id: people[23], isfollowed: 0 });
    expect(first.hasmore).toBe(true);
    const second = likersPageSchema.parse(
      (await post('/likes/list', as.carlos, { objectid: id, before: first.next })).json(),
    );
    expect(second.items.map((l) => l.id)).toEqual(people.slice(0, 5).reverse());
    expect(second).toMatchObject({ hasmore: false, next: null });
    // one kind only
    const downs = likersPageSchema.parse(
      (await post('/likes/list', as.visitor, { objectid: id, liketype: 1 })).json(),
    );
    expect(downs.items.map((l) => l.id)).toEqual([20, 15, 10, 5, 0].map((i) => people[i]));
    expect(downs.items.every((l) => l.isfollowed === 0)).toBe(true);
    // bad input
    expectError(await post('/likes/list', as.visitor, { objectid: id, before: 'nonsense' }), 400, 1003);
    expectError(await post('/likes/list', as.visitor, { objectid: id, liketype: 2 }), 400, 18202);
    expectError(await post('/likes/list', as.visitor, {}), 400, 6705, 'Param [objectid] is invalid!');
  });

  it('allows a new account 50 new likes a day, then says when to like again', async () => {
    const name = `fresh${dialect}`;
    expect((await registerUser(t, name, PASSWORD)).statusCode).toBe(201);
    const fresh = bearer((await signIn(t, name, PASSWORD)).token);
    const postId = await makePost();
    const targets: string[] = [];
    for (let i = 0; i <= LIKES_PER_DAY_NEW_ACCOUNT; i++) targets.push(await makeComment(postId, ids.olivia));
    for (const target of targets.slice(0, LIKES_PER_DAY_NEW_ACCOUNT))
      expect((await add(fresh, target, 0, 'C')).statusCode).toBe(200);
    // a like that stands is still answered: it is not a new one
    expect(liked(await add(fresh, targets[0]!, 0, 'C'))).toMatchObject({ changed: false });
    const refused = await add(fresh, targets.at(-1)!, 0, 'C');
    expectError(
      refused,
      429,
      18205,
      /^You have given 50 likes today, the most for an account younger than 7 days; like again in (23 h( \d+ min)?|24 h)\.$/,
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    expect(await likeRows(targets.at(-1)!)).toHaveLength(0);
    // an account older than 7 days counts in the larger bucket
    await t.store.db
      .updateTable('users')
      .set({ created_at: Date.now() - 8 * DAY_MS })
      .where('username', '=', name)
      .execute();
    expect(liked(await add(fresh, targets.at(-1)!, 0, 'C'))).toMatchObject({ up: 1 });
  });

  it('tells the pages showing the object and its author, after the write', async () => {
    const heard: SocialEvent[] = [];
    const social = new SocialEvents((error) => {
      throw error;
    });
    social.on((event) => void heard.push(event));
    const service = new LikeService(t.store, social);
    const id = await makePost();
    const carlos = { id: ids.carlos, username: 'carlos', isAdmin: false };
    const hooks = { check: async () => {}, count: async () => {} };
    const like = await service.add(carlos, { objectid: id, objecttype: 'P', liketype: 0 }, hooks);
    await service.add(carlos, { objectid: id, objecttype: 'P', liketype: 0 }, hooks);
    await service.changeType(carlos, { likeid: like.likeid, newliketype: 1 });
    await service.remove(carlos, { likeid: like.likeid });
    expect(
      heard.map((e) =>
        e.kind === 'object'
          ? `${e.message.kind} ${JSON.stringify(e.message.data)}`
          : e.kind === 'notify'
            ? `${e.kind} ${e.action} ${e.recipientId}`
            : e.kind,
      ),
    ).toEqual([
      `likes ${JSON.stringify({ objecttype: 'P', objectid: id, up: 1, down: 0 })}`,
      `notify like ${ids.olivia}`,
      `likes ${JSON.stringify({ objecttype: 'P', objectid: id, up: 0, down: 1 })}`,
      `likes ${JSON.stringify({ objecttype: 'P', objectid: id, up: 0, down: 0 })}`,
    ]);
  });
});
