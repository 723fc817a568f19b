import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import {
  commentAddResponseSchema,
  commentEditResponseSchema,
  commentLiveSchema,
  commentPageSchema,
  commentRemoveResponseSchema,
  type CommentPage,
} from '../../src/shared/api/comments';
import { newCommentId } from '../../src/server/features/comments/ids';
import { SocialEvents, type SocialEvent } from '../../src/server/features/social/events';
import { CommentService } from '../../src/server/features/comments/service';
import { openTestApp, type TestApp } from '../support/app';
import { TEST_DIALECTS } from '../support/store';
import { bearer, createAdmin, freshIp, registerUser, signIn } from '../support/accounts';

/**
 * The comments API of issue 18 over HTTP on a real temporary store of each dialect: keyset pages
 * with beforeid and hasmore (no gaps, no duplicates), add / edit / remove and who may, the post's
 * comment count, the 5-second rate with its retry time, the same text within 5 minutes, and each bad
 * input answered with the catalogue's error and nothing changed.
 */
const PASSWORD = 'comments-password-1';
const PEOPLE = ['olivia', 'carlos', 'dana', 'erik', 'fay', 'gus', 'hana'] as const;
type Person = (typeof PEOPLE)[number] | 'admin';
type Headers = Record<string, string>;

describe.each(TEST_DIALECTS)('comments over HTTP (%s)', (dialect) => {
  let t: TestApp;
  const as = {} as Record<Person | 'visitor', Headers>;
  const ids = {} as Record<Person, string>;

  const call = (path: string, who: Headers, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/webonly/comment/${path}`,
      headers: { ...who, 'x-forwarded-for': freshIp() },
      payload: payload as Record<string, unknown>,
    });
  const page = async (objectid: string, who: Headers, extra: Record<string, unknown> = {}) => {
    const res = await call('loadpage_beforeid', who, { objectid, objecttype: 'P', ...extra });
    expect(res.statusCode, res.body).toBe(200);
    return commentPageSchema.parse(res.json());
  };
  const expectError = (res: LightMyRequestResponse, status: number, errorcode: number, error?: RegExp) => {
    expect(res.statusCode, res.body).toBe(status);
    const body = res.json<{ errorcode: number; error: string; field?: string }>();
    expect(body.errorcode, res.body).toBe(errorcode);
    if (error) expect(body.error).toMatch(error);
    return body;
  };
  /** A post of `author`'s, written straight to the store (the posts API is tested elsewhere). */
  const newPost = async (author: Person = 'olivia', hidden = false) => {
    const id = randomUUID();
    const now = Date.now();
    await t.store.db
      .insertInto('posts')
      .values({
        id,
        user_id: ids[author],
        title: 'Fresh bread',
        description: 'Every morning.',
        type: 'deal',
        city_id: null,
        xpoint_id: null,
        parent_type: null,
        image_url: null,
        image_variants: null,
        image_placeholder: null,
        video_url: null,
        file_resource_bitmask: 0,
        expires_at: null,
        created_at: now,
        updated_at: now,
        listed_at: now,
        hidden_at: hidden ? now : null,
      })
      .execute();
    return id;
  };
  /** `n` comments on a post written straight to the store, one a second apart, and its counter set. */
  const seedComments = async (postId: string, n: number, start = Date.now() - n * 1000) => {
    const rows = Array.from({ length: n }, (_, k) => ({
      id: newCommentId(start + k * 1000),
      object_id: postId,
      object_type: 'P',
      user_id: ids[PEOPLE[k % PEOPLE.length]!],
      text: `comment ${k}`,
      created_at: start + k * 1000,
      updated_at: start + k * 1000,
    }));
    for (let k = 0; k < rows.length; k += 200)
      await t.store.db
        .insertInto('comments')
        .values(rows.slice(k, k + 200))
        .execute();
    await t.store.db.updateTable('posts').set({ comments_count: n }).where('id', '=', postId).execute();
    return rows.map((row) => row.id);
  };
  const commentRows = (postId: string) =>
    t.store.db.selectFrom('comments').selectAll().where('object_id', '=', postId).orderBy('id').execute();
  const countOf = async (postId: string) =>
    Number(
      (
        await t.store.db
          .selectFrom('posts')
          .select('comments_count')
          .where('id', '=', postId)
          .executeTakeFirst()
      )?.comments_count,
    );
  const add = (who: Person, objectid: string, text: string) =>
    call('add', as[who], { objectid, objecttype: 'P', text });

  beforeAll(async () => {
    t = await openTestApp({ dialect });
    for (const name of PEOPLE) expect((await registerUser(t, name, PASSWORD)).statusCode).toBe(201);
    await createAdmin(t, PASSWORD);
    for (const name of [...PEOPLE, 'admin'] as const) {
      const session = await signIn(t, name, PASSWORD);
      as[name] = bearer(session.token);
      ids[name] = session.id;
    }
    as.visitor = {};
  });
  afterAll(() => t?.close());

  it('pages a 57-comment thread newest first with beforeid and hasmore: no gaps, no duplicates', async () => {
    const post = await newPost();
    const written = await seedComments(post, 57);
    const seen: string[] = [];
    let before = '';
    let pages = 0;
    for (;;) {
      const got: CommentPage = await page(post, as.visitor, { beforeid: before });
      pages++;
      expect(got.count).toBe(57);
      seen.push(...got.data.map((c) => c.replid));
      if (!got.hasmore) break;
      expect(got.data).toHaveLength(10);
      before = got.data.at(-1)!.replid;
    }
    expect(pages).toBe(6);
    expect(seen).toEqual([...written].reverse());
    // the page shows what a reader needs: the text, who wrote it and when
    const first = await page(post, as.visitor, { pagesize: 3 });
    expect(first.data).toHaveLength(3);
    expect(first.data[0]).toMatchObject({
      text: 'comment 56',
      objectid: post,
      objecttype: 'P',
      author: { username: PEOPLE[56 % PEOPLE.length] },
      editedon: null,
      viewer: { can_edit: false, can_remove: false },
    });
    // an empty thread is an empty page
    expect(await page(await newPost(), as.visitor)).toEqual({ data: [], hasmore: false, count: 0 });
  });

  it("shows each comment's likes in the page, the viewer's own like among them", async () => {
    const post = await newPost();
    const [older, newer] = await seedComments(post, 2);
    const like = (who: Person, objectid: string, liketype: number) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/webonly/like/add',
        headers: { ...as[who], 'x-forwarded-for': freshIp() },
        payload: { objectid, objecttype: 'C', liketype },
      });
    const given = await like('carlos', newer!, 0);
    expect(given.statusCode, given.body).toBe(200);
    expect((await like('dana', newer!, 1)).statusCode).toBe(200);
    const carlos = await page(post, as.carlos);
    const top = carlos.data.find((item) => item.replid === newer);
    expect(top).toMatchObject({
      likes_up: 1,
      likes_down: 1,
      my_like: { likeid: given.json<{ likeid: string }>().likeid, liketype: 0 },
    });
    expect(carlos.data.find((item) => item.replid === older)).toMatchObject({
      likes_up: 0,
      likes_down: 0,
      my_like: null,
    });
    // a visitor sees the counts and no like of theirs
    expect((await page(post, as.visitor)).data.find((item) => item.replid === newer)).toMatchObject({
      likes_up: 1,
      likes_down: 1,
      my_like: null,
    });
  });

  it('adds a comment: trimmed, in the page at once, counted on the post, told to the page and the author', async () => {
    const post = await newPost('olivia');
    const res = await add('carlos', post, '  Is it still on?  ');
    expect(res.statusCode, res.body).toBe(200);
    const body = commentAddResponseSchema.parse(res.json());
    expect(body.text).toBe('Is it still on?');
    expect(body.count).toBe(1);
    expect(body.comment.viewer).toEqual({ can_edit: true, can_remove: true });
    expect(await countOf(post)).toBe(1);
    const listed = await page(post, as.olivia);
    expect(listed.data.map((c) => c.replid)).toEqual([body.replid]);
    // the post's author may remove it but not edit it
    expect(listed.data[0]!.viewer).toEqual({ can_edit: false, can_remove: true });
    // the post record carries the count
    const details = await t.app.inject({ method: 'GET', url: `/myposts/details?id=${post}` });
    expect(details.json<{ comments_count: number }>().comments_count).toBe(1);
  });

  it('lets only the author edit, and the author, the post author and admins remove', async () => {
    const post = await newPost('olivia');
    const [a, b, c] = await seedComments(post, 3);
    // seedComments gives them to olivia, carlos and dana in turn
    const rows = await commentRows(post);
    const byId = new Map(rows.map((row) => [row.id, row.user_id]));
    expect(byId.get(a!)).toBe(ids.olivia);
    expect(byId.get(b!)).toBe(ids.carlos);
    expect(byId.get(c!)).toBe(ids.dana);

    // carlos edits his own
    const edited = await call('edit', as.carlos, { commentid: b, newtext: 'Changed my mind.' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(commentEditResponseSchema.parse(edited.json()).text).toBe('Changed my mind.');
    const shown = (await page(post, as.visitor)).data.find((item) => item.replid === b)!;
    expect(shown.text).toBe('Changed my mind.');
    expect(shown.editedon).not.toBeNull();

    // nobody else edits it: not the post's author, not an admin; nothing changed
    for (const who of ['olivia', 'admin', 'dana'] as const)
      expectError(await call('edit', as[who], { commentid: b, newtext: 'Hijacked' }), 403, 18303);
    expect((await commentRows(post)).find((row) => row.id === b)!.text).toBe('Changed my mind.');

    // erik may not remove dana's comment on olivia's post
    expectError(await call('remove', as.erik, { commentid: c }), 403, 18304);
    // the post's author removes dana's, an admin removes carlos's, olivia her own
    for (const [who, id, left] of [
      ['olivia', c, 2],
      ['admin', b, 1],
      ['olivia', a, 0],
    ] as const) {
      const res = await call('remove', as[who], { commentid: id });
      expect(res.statusCode, res.body).toBe(200);
      expect(commentRemoveResponseSchema.parse(res.json())).toEqual({ commentid: id, count: left });
    }
    expect(await commentRows(post)).toEqual([]);
    expect(await countOf(post)).toBe(0);
    // removing it again: it is gone, and the count stays
    expectError(await call('remove', as.olivia, { commentid: a }), 404, 18302);
    expect(await countOf(post)).toBe(0);
  });

  it('emits the comment events after the write commits: add (and a notification), edit, remove', async () => {
    const post = await newPost('olivia');
    const social = new SocialEvents((error) => {
      throw error;
    });
    const heard: { event: SocialEvent; stored: Promise<boolean> }[] = [];
    social.on((event) => {
      // what the store holds when the event is heard: the write has committed
      const id = event.kind === 'object' ? String(event.message.data['commentid']) : '';
      heard.push({
        event,
        stored: t.store.db
          .selectFrom('comments')
          .select('id')
          .where('id', '=', id)
          .executeTakeFirst()
          .then((row) => row !== undefined),
      });
    });
    const service = new CommentService(t.store, social);
    const dana = { id: ids.dana, username: 'dana', isAdmin: false };
    const added = await service.add(
      dana,
      { objectid: post, objecttype: 'P', text: 'Lovely place' },
      { limit: async () => {} },
    );
    await service.edit(dana, { commentid: added.replid, newtext: 'Lovely place!' });
    await service.remove(dana, { commentid: added.replid });
    const objects = heard.filter((h) => h.event.kind === 'object');
    expect(objects.map((h) => h.event.kind === 'object' && h.event.message)).toEqual([
      {
        kind: 'comment',
        data: expect.objectContaining({ action: 'add', commentid: added.replid, count: 1 }),
      },
      {
        kind: 'comment',
        data: expect.objectContaining({ action: 'edit', commentid: added.replid, count: 1 }),
      },
      { kind: 'comment', data: { action: 'remove', commentid: added.replid, count: 0 } },
    ]);
    expect(await Promise.all(objects.map((h) => h.stored))).toEqual([true, true, false]);
    // the pushed comment carries no viewer's rights: each page works out its own
    const first = objects[0]!.event;
    expect(first.kind === 'object' && commentLiveSchema.parse(first.message.data).comment?.viewer).toEqual({
      can_edit: false,
      can_remove: false,
    });
    const notes = heard.filter((h) => h.event.kind === 'notify').map((h) => h.event);
    expect(notes).toEqual([
      expect.objectContaining({
        recipientId: ids.olivia,
        actorId: ids.dana,
        action: 'comment',
        objectId: post,
      }),
    ]);
    // olivia commenting on her own post tells nobody
    await service.add(
      { id: ids.olivia, username: 'olivia', isAdmin: false },
      { objectid: post, objecttype: 'P', text: 'Thanks!' },
      { limit: async () => {} },
    );
    expect(heard.filter((h) => h.event.kind === 'notify')).toHaveLength(1);
  });

  it('refuses a visitor: 401, nothing stored', async () => {
    const post = await newPost();
    expectError(await add('visitor' as Person, post, 'hello'), 401, 1010);
    expect(await commentRows(post)).toEqual([]);
  });

  it('refuses bad input with a clear error, nothing stored', async () => {
    const post = await newPost();
    // empty and all-space text is never stored
    for (const text of ['', '   \n '])
      expect(expectError(await add('erik', post, text), 400, 1003).field).toBe('text');
    // 2001 characters
    expectError(await add('erik', post, 'x'.repeat(2001)), 400, 1003, /^text: must be at most 2000/);
    // 100,000 characters: the body is past the route's limit before it is read
    expectError(await add('erik', post, 'x'.repeat(100_000)), 413, 1004);
    // a missing or malformed object id is 6705 naming it; an unknown one is 404
    expectError(await call('add', as.erik, { text: 'hello' }), 400, 6705, /^Param \[objectid\] is invalid!$/);
    expectError(await add('erik', 'not-a-guid', 'hello'), 400, 6705, /objectid/);
    expectError(await add('erik', randomUUID(), 'hello'), 404, 18301);
    expectError(await call('loadpage_beforeid', as.visitor, {}), 400, 6705, /objectid/);
    expectError(await call('loadpage_beforeid', as.visitor, { objectid: randomUUID() }), 404, 18301);
    // an object type that carries no comments
    expectError(
      await call('add', as.erik, { objectid: post, objecttype: 'Z', text: 'hi' }),
      400,
      1003,
      /objecttype/,
    );
    // paging: a malformed beforeid, a page too large
    expectError(
      await call('loadpage_beforeid', as.visitor, { objectid: post, beforeid: 'x y' }),
      400,
      6705,
      /beforeid/,
    );
    expectError(
      await call('loadpage_beforeid', as.visitor, { objectid: post, pagesize: 51 }),
      400,
      1003,
      /pagesize/,
    );
    // edit and remove: missing or unknown comment, empty new text
    expectError(await call('edit', as.erik, { newtext: 'x' }), 400, 6705, /commentid/);
    expectError(await call('edit', as.erik, { commentid: newCommentId(), newtext: 'x' }), 404, 18302);
    expectError(await call('remove', as.erik, { commentid: newCommentId() }), 404, 18302);
    const [mine] = await seedComments(post, 1);
    expect((await commentRows(post))[0]!.user_id).toBe(ids.olivia);
    expectError(await call('edit', as.olivia, { commentid: mine, newtext: '  ' }), 400, 1003, /newtext/);
    expect((await commentRows(post))[0]!.text).toBe('comment 0');
    expect((await commentRows(post)).length).toBe(1);
    // a hidden post's comments are its author's and admins' only
    const hidden = await newPost('olivia', true);
    expectError(await add('erik', hidden, 'hi'), 404, 18301);
    expectError(await call('loadpage_beforeid', as.visitor, { objectid: hidden }), 404, 18301);
    expect((await page(hidden, as.admin)).count).toBe(0);
  });

  it('answers 5 seconds between comments with a retry time, and the same text twice within 5 minutes', async () => {
    const post = await newPost();
    const other = await newPost();
    expect((await add('fay', post, 'First!')).statusCode).toBe(200);
    // the same text on the same post: refused as a duplicate, before the rate is counted
    expectError(await add('fay', post, 'First!'), 409, 18306);
    // other text at once: too fast, with when to try again
    const fast = await add('fay', other, 'Second thought');
    const body = expectError(fast, 429, 18305, /try again in [1-5] s/);
    expect(Number(fast.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(fast.headers['retry-after'])).toBeLessThanOrEqual(5);
    expect(body.error).toContain(`${fast.headers['retry-after']} s`);
    expect(await commentRows(other)).toEqual([]);
    expect(await countOf(post)).toBe(1);
    // someone else is not slowed by fay
    expect((await add('gus', other, 'Second thought')).statusCode).toBe(200);
    // after the 5 seconds fay may comment again; the same text elsewhere is no duplicate
    await new Promise((resolve) => setTimeout(resolve, 5100));
    expect((await add('fay', other, 'First!')).statusCode).toBe(200);
    expect(await countOf(other)).toBe(2);
  }, 15_000);

  it('keeps the count exact when one comment is removed twice at once', async () => {
    const post = await newPost('hana');
    const [one] = await seedComments(post, 2);
    const answers = await Promise.all([
      call('remove', as.hana, { commentid: one }),
      call('remove', as.hana, { commentid: one }),
      call('remove', as.admin, { commentid: one }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 404, 404]);
    expect(await countOf(post)).toBe(1);
  });
});
