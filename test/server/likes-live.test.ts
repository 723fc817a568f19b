import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { Socket } from 'phoenix';
import { likesLiveDataSchema, type LikeCounts } from '../../src/shared/api/likes';
import { bearer, freshIp, registerUser, signIn } from '../support/accounts';
import type { TestApp } from '../support/app';
import { newPoint } from '../support/factories';
import { openTestStore, TEST_DIALECTS, type TestStore } from '../support/store';
import { phoenixSocket, pushReply, startLiveApp, waitFor, type LiveApp } from './live-support';

/**
 * Likes of comments and reviews are live (issue 18): a like, a change of type and a remove of a
 * comment's or a review's like reach every page showing it, on the object's own topic
 * (`social:C:{id}`, `social:R:{id}`) with its counts, and nowhere else: not on the post's or
 * the point's topic, not on another comment's. Real server, real sockets, both engines.
 */
const PASSWORD = 'likes-live-password-1';
type Headers = Record<string, string>;

describe.each(TEST_DIALECTS)('likes of comments and reviews, live (%s)', (dialect) => {
  let store: TestStore;
  let t: LiveApp;
  const as = {} as Record<'olivia' | 'carlos' | 'dana', Headers>;
  const ids = {} as Record<'olivia' | 'carlos' | 'dana', string>;
  const sockets: Socket[] = [];
  const POINT = 'lklBistro001';
  let postId = '';
  let commentId = '';
  let otherCommentId = '';
  let reviewId = '';

  const post = (url: string, who: Headers, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url, headers: { ...who, 'x-forwarded-for': freshIp() }, payload });
  const ok = <T>(res: LightMyRequestResponse): T => {
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json<T>();
  };
  /** A page joined to `topic`, and what it hears. */
  const listen = async (topic: string) => {
    const socket = phoenixSocket(t.port, `dev-${randomUUID().slice(0, 8)}`);
    sockets.push(socket);
    socket.connect();
    const channel = socket.channel(topic, {});
    const heard: LikeCounts[] = [];
    channel.on('social', (payload: { kind: string; data: unknown }) => {
      if (payload.kind === 'likes') heard.push(likesLiveDataSchema.parse(payload.data));
    });
    expect((await pushReply(channel.join())).status).toBe('ok');
    return heard;
  };

  beforeAll(async () => {
    store = await openTestStore(dialect);
    t = await startLiveApp({ store });
    const app = t as unknown as TestApp;
    for (const name of ['olivia', 'carlos', 'dana'] as const) {
      expect((await registerUser(app, name, PASSWORD)).statusCode).toBe(201);
      const session = await signIn(app, name, PASSWORD);
      as[name] = bearer(session.token);
      ids[name] = session.id;
    }
    await store.db
      .insertInto('points')
      .values(newPoint({ id: POINT, title: 'Lkl Bistro', lat: 48.85, lon: 2.35, owner_userid: ids.olivia }))
      .execute();
    const saved = ok<{ post: { postid: string } }>(
      await post('/myposts/save', as.olivia, {
        id: randomUUID(),
        title: 'Soup of the day',
        description: 'Leek and potato.',
        type: 'deal',
        resultMode: 'ReturnJson',
      }),
    );
    postId = saved.post.postid;
    commentId = ok<{ replid: string }>(
      await post('/v1/webonly/comment/add', as.carlos, {
        objectid: postId,
        objecttype: 'P',
        text: 'Lovely.',
      }),
    ).replid;
    otherCommentId = ok<{ replid: string }>(
      await post('/v1/webonly/comment/add', as.dana, {
        objectid: postId,
        objecttype: 'P',
        text: 'On my way.',
      }),
    ).replid;
    reviewId = ok<{ review: { reviewid: string } }>(
      await post('/v1/reviews/add', as.dana, { appid: POINT, stars: 4, text: 'Warm welcome.' }),
    ).review.reviewid;
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  afterAll(async () => {
    await t?.close();
    await store?.dispose();
  });

  it("brings a comment's like, change and remove to the pages showing that comment only", async () => {
    const comment = await listen(`social:C:${commentId}`);
    const other = await listen(`social:C:${otherCommentId}`);
    const postPage = await listen(`social:P:${postId}`);

    const like = ok<{ likeid: string }>(
      await post('/v1/webonly/like/add', as.dana, { objectid: commentId, objecttype: 'C', liketype: 0 }),
    );
    await waitFor(() => comment.length === 1, 3000, 'the like');
    expect(comment[0]).toEqual({ objecttype: 'C', objectid: commentId, up: 1, down: 0 });

    ok(await post('/v1/webonly/like/changetype', as.dana, { likeid: like.likeid, newliketype: 1 }));
    await waitFor(() => comment.length === 2, 3000, 'the change');
    expect(comment[1]).toMatchObject({ up: 0, down: 1 });

    ok(await post('/v1/webonly/like/remove', as.dana, { likeid: like.likeid }));
    await waitFor(() => comment.length === 3, 3000, 'the remove');
    expect(comment[2]).toMatchObject({ up: 0, down: 0 });

    // a like of the post itself reaches the post's page; the comments' pages hear nothing of it
    ok(await post('/v1/webonly/like/add', as.carlos, { objectid: postId, objecttype: 'P', liketype: 0 }));
    await waitFor(() => postPage.length === 1, 3000, "the post's like");
    expect(postPage).toEqual([{ objecttype: 'P', objectid: postId, up: 1, down: 0 }]);
    expect(other).toEqual([]);
    expect(comment).toHaveLength(3);
  });

  it("brings a review's like to the pages showing that review, not to the point's reviews topic", async () => {
    const review = await listen(`social:R:${reviewId}`);
    const point: unknown[] = [];
    {
      const socket = phoenixSocket(t.port, `dev-${randomUUID().slice(0, 8)}`);
      sockets.push(socket);
      socket.connect();
      const channel = socket.channel(`social:X:${POINT}`, {});
      channel.on('social', (payload) => void point.push(payload));
      expect((await pushReply(channel.join())).status).toBe('ok');
    }
    ok(await post('/v1/webonly/like/add', as.carlos, { objectid: reviewId, objecttype: 'R', liketype: 0 }));
    ok(await post('/v1/webonly/like/add', as.olivia, { objectid: reviewId, objecttype: 'R', liketype: 1 }));
    await waitFor(() => review.length === 2, 3000, "the review's likes");
    expect(review).toEqual([
      { objecttype: 'R', objectid: reviewId, up: 1, down: 0 },
      { objecttype: 'R', objectid: reviewId, up: 1, down: 1 },
    ]);
    // the same add again (a retry) changes nothing and pushes nothing
    ok(await post('/v1/webonly/like/add', as.carlos, { objectid: reviewId, objecttype: 'R', liketype: 0 }));
    ok(await post('/v1/webonly/like/add', as.carlos, { objectid: commentId, objecttype: 'C', liketype: 0 }));
    const comment = await listen(`social:C:${commentId}`);
    ok(await post('/v1/webonly/like/add', as.olivia, { objectid: commentId, objecttype: 'C', liketype: 0 }));
    await waitFor(() => comment.length === 1, 3000, 'a later like, heard after the retry');
    expect(review).toHaveLength(2);
    expect(point).toEqual([]);
  });
});
