import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveOf } from '../../src/server/features/beams/routes';
import type { SocialEvent } from '../../src/server/features/social/events';
import type { NewPostRow } from '../../src/server/features/posts/queries';
import { registerUser, signIn } from '../support/accounts';
import { landingFeedPageSchema } from '../../src/shared/api/home';
import { openTestApp, type TestApp } from '../support/app';
import { TEST_DIALECTS } from '../support/store';

/** POST /asidelandingfeed (issue 19, social §2, §3, §7, §9): keyset pages of a city's posts, and new posts live. */
interface Page {
  city: { id: number; city: string };
  items: { id: string; type: string; owner: string; url: string; isfollowed: number; listed_at: number }[];
  next: { before: string; beforeid: string } | null;
}

const T0 = Date.UTC(2026, 10, 1, 12);
const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

describe.each(TEST_DIALECTS)('the landing city feed over HTTP (%s)', (dialect) => {
  let t: TestApp;
  const events: SocialEvent[] = [];
  const post = (n: number, fields: Partial<NewPostRow> = {}): NewPostRow => ({
    id: uuid(n),
    user_id: 'feed-author',
    title: `Post ${n}`,
    description: 'A post of the city feed.',
    type: 'deal',
    city_id: 1,
    xpoint_id: null,
    parent_type: null,
    image_url: null,
    image_placeholder: null,
    video_url: null,
    file_resource_bitmask: 0,
    expires_at: null,
    created_at: T0,
    updated_at: T0,
    lat: null,
    lon: null,
    // pairs of posts share a time, so the id breaks ties
    listed_at: T0 + Math.floor(n / 2) * 1000,
    renewed_at: null,
    hidden_at: null,
    image_variants: null,
    video_id: null,
    ...fields,
  });

  beforeAll(async () => {
    t = await openTestApp({ dialect, changeFeedPollMs: 50 });
    liveOf(t.app.server)?.social.on((event) => void events.push(event));
    await t.store.db
      .insertInto('cities')
      .values(
        [
          [1, 'Lisbon', 'lisbon-pt'],
          [2, 'Porto', 'porto-pt'],
        ].map(([id, city, slug]) => ({
          id: id as number,
          city: city as string,
          city_forurl: slug as string,
          state: null,
          country: 'Portugal',
          iso2: 'PT',
          lat: 38.7,
          lon: -9.1,
          population: 500_000,
          time_zone: 'Europe/Lisbon',
        })),
      )
      .execute();
    await t.store.db
      .insertInto('users')
      .values({
        id: 'feed-author',
        username: 'marta',
        username_lower: 'marta',
        email: 'marta@example.org',
        email_lower: 'marta@example.org',
        fullname: 'Marta Sousa',
        avatar_url: null,
        status: 'active',
        is_admin: 0,
        password_hash: null,
        created_at: T0,
        updated_at: T0,
      })
      .execute();
    // 25 live posts in Lisbon, one hidden, one expired, one in Porto
    await t.store.db
      .insertInto('posts')
      .values([
        ...Array.from({ length: 25 }, (_, i) => post(i + 1)),
        post(100, { hidden_at: T0 }),
        post(101, { expires_at: T0 }),
        post(102, { city_id: 2 }),
      ])
      .execute();
  });
  afterAll(() => t?.close());

  const feed = (payload: unknown, headers: Record<string, string> = { accept: 'application/json' }) =>
    t.app.inject({ method: 'POST', url: '/asidelandingfeed', payload: payload as string, headers });
  const page = async (payload: object) => {
    const res = await feed(payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Page>();
  };

  it('pages through every live post of the city once, newest first, id breaking ties', async () => {
    const seen: string[] = [];
    let body: object = { cityid: 1 };
    for (let pages = 0; pages < 10; pages++) {
      const p = await page(body);
      expect(p.items.length).toBeLessThanOrEqual(10);
      seen.push(...p.items.map((item) => item.id));
      if (!p.next) break;
      body = { cityid: 1, ...p.next };
    }
    const expected = Array.from({ length: 25 }, (_, i) => uuid(25 - i));
    expect(seen).toEqual(expected);
  });

  it('answers social §3 feed item attributes', async () => {
    const p = await page({ cityid: 1, limit: 1 });
    expect(p.city).toMatchObject({ id: 1, city: 'Lisbon' });
    expect(p.items[0]).toMatchObject({
      id: uuid(25),
      type: 'deal',
      owner: 'feed-author',
      url: `/post/${uuid(25)}`,
      isfollowed: 0,
    });
  });

  it('answers exactly what its contract encodes: no field the contract does not name, none missing', async () => {
    // the route sends the page unencoded (routes.ts): the contract's own encoding must not change it
    await registerUser(t, 'feedreader', 'correct-horse-1');
    const reader = await signIn(t, 'feedreader', 'correct-horse-1');
    const viewers: Record<string, string>[] = [{}, { cookie: reader.cookie }];
    for (const viewer of viewers) {
      const res = await feed({ cityid: 1 }, { accept: 'application/json', ...viewer });
      expect(res.statusCode, res.body).toBe(200);
      const sent = res.json<Page>();
      expect(sent.items.length).toBeGreaterThan(0);
      expect(JSON.parse(JSON.stringify(landingFeedPageSchema.parse(sent)))).toEqual(sent);
    }
  });

  it('has no duplicates and no gaps while new posts arrive between pages', async () => {
    const first = await page({ cityid: 1 });
    await t.store.db
      .insertInto('posts')
      .values(post(200, { listed_at: T0 + 3_600_000 }))
      .execute();
    const second = await page({ cityid: 1, ...first.next });
    expect(second.items[0]?.id).toBe(uuid(15));
    const ids = [...first.items, ...second.items].map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
    // epoch milliseconds work as `before` too
    const again = await page({
      cityid: 1,
      before: String(first.items[9]?.listed_at),
      beforeid: first.next?.beforeid,
    });
    expect(again.items.map((i) => i.id)).toEqual(second.items.map((i) => i.id));
  });

  it('answers the spec HTML fragment to a form post', async () => {
    const res = await feed('cityid=1&limit=2', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain(`data-id="${uuid(200)}" data-type="deal" data-owner="feed-author"`);
    expect(res.body).toContain('data-isfollowed="0"');
    expect(res.body).toMatch(/data-before="[^"]+" data-beforeid="[^"]+"/);
    expect(res.body).toContain('<a href="/cads/lisbon-pt">News in Lisbon</a>');
  });

  it('refuses bad input clearly', async () => {
    for (const [payload, status, code] of [
      [{ cityid: 1, before: 'yesterday' }, 400, 19203],
      [{ cityid: 1, before: '2026-13-45T99:00:00Z' }, 400, 19203],
      [{ cityid: 1, limit: 0 }, 400, 19204],
      [{ cityid: 1, limit: 10_000 }, 400, 19204],
      [{ cityid: 999_999 }, 404, 19202],
      [{ cityid: 'lisbon' }, 400, 19201],
      [{}, 400, 19201],
      [{ cityid: 1, beforeid: uuid(3) }, 400, 19203],
      [{ cityid: 1, before: '2026-11-01T12:00:00Z', beforeid: 'nope' }, 400, 19203],
    ] as const) {
      const res = await feed(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json(), JSON.stringify(payload)).toMatchObject({ errorcode: code });
    }
    expect((await feed({ cityid: 999_999 })).json<{ error: string }>().error).toBe(
      'There is no city 999999.',
    );
  });

  it('pushes a newly listed post on the city topic, not an edited old one', async () => {
    events.length = 0;
    const fresh = randomUUID();
    const now = Date.now();
    await t.store.db
      .insertInto('posts')
      .values(post(300, { id: fresh, city_id: 2, listed_at: now, created_at: now, updated_at: now }))
      .execute();
    await t.store.db.updateTable('posts').set({ title: 'Edited' }).where('id', '=', uuid(1)).execute();
    const deadline = Date.now() + 5000;
    while (!events.some((e) => e.kind === 'object' && e.objectType === 'T') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 25));
    // the edited post's batch was handed out with the new one, or before it
    const pushed = events.filter((e) => e.kind === 'object' && e.objectType === 'T');
    expect(pushed).toHaveLength(1);
    expect(pushed[0]).toMatchObject({
      objectId: '2',
      message: { kind: 'feedpost', data: { item: { id: fresh, owner: 'feed-author' } } },
    });
  });
});
