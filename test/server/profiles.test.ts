import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileResponseSchema } from '../../src/shared/api/profiles';
import type { NewPoint } from '../../src/server/store/schema';
import { openTestApp, type TestApp } from '../support/app';
import { TEST_DIALECTS } from '../support/store';
import { registerUser } from '../support/accounts';
import { newPoint } from '../support/factories';

/**
 * GET /v1/users/{username}: the public profile behind /u/{username} (issue 3, social §2). Paging
 * defaults to page 1 of 12; a bad paging value falls back to its default instead of failing.
 */
const PASSWORD = 'profile-password-1';
const HOUR = 3600_000;

describe.each(TEST_DIALECTS)('profiles over HTTP (%s)', (dialect) => {
  let t: TestApp;
  let paula = '';

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  beforeAll(async () => {
    t = await openTestApp({ dialect });
    for (const name of ['Paula_P', 'quinn', 'rosa'])
      expect((await registerUser(t, name, PASSWORD)).statusCode).toBe(201);
    const ids = await t.store.db.selectFrom('users').select(['id', 'username']).execute();
    const idOf = (username: string) => ids.find((u) => u.username === username)?.id ?? '';
    paula = idOf('Paula_P');
    const base = Date.UTC(2026, 0, 1);
    await t.store.db
      .insertInto('cities')
      .values({
        id: 5128581,
        city: 'New York City',
        city_forurl: 'new-york-city',
        state: 'NY',
        country: 'United States',
        iso2: 'US',
        lat: 40.71,
        lon: -74.01,
        population: 8_000_000,
        time_zone: 'America/New_York',
      })
      .execute();
    // 15 business points (p00 newest) and 2 help requests, all Paula's; one point of quinn's
    const point = (id: string, supertype: string, owner: string, age: number): NewPoint =>
      newPoint({
        id,
        supertype,
        type: 'cafe',
        title: `Point ${id}`,
        tagline: id === 'p00' ? 'The newest one' : null,
        url_cover_image: id === 'p00' ? '/media/cover.webp' : null,
        city_id: id === 'p00' ? 5128581 : null,
        owner_userid: owner,
        lat: 40.7,
        lon: -74,
        created_at: base - age * HOUR,
        updated_at: base,
      });
    const rows: NewPoint[] = [];
    for (let i = 0; i < 15; i += 1) rows.push(point(`p${String(i).padStart(2, '0')}`, 'business', paula, i));
    rows.push(point('h1', 'helprequest', paula, 100), point('h2', 'helprequest', paula, 101));
    rows.push(point('q1', 'business', idOf('quinn'), 0));
    await t.store.db.insertInto('points').values(rows).execute();
    await t.store.db
      .insertInto('posts')
      .values(
        [0, 1, 2].map((i) => ({
          id: `post-${i}`,
          user_id: paula,
          title: `Post ${i}`,
          description: 'text',
          type: 'general',
          image_url: i === 0 ? '/media/post.webp' : null,
          file_resource_bitmask: 0,
          created_at: base - i * HOUR,
          updated_at: base,
          listed_at: base - i * HOUR,
          // the third has expired: still on its author's profile, marked
          expires_at: i === 2 ? base : null,
        })),
      )
      .execute();
    await t.store.db
      .insertInto('follows')
      .values([
        { follower_id: idOf('quinn'), followee_id: paula, created_at: base },
        { follower_id: idOf('rosa'), followee_id: paula, created_at: base },
        { follower_id: paula, followee_id: idOf('rosa'), created_at: base },
      ])
      .execute();
    await t.store.db
      .insertInto('reviews')
      .values({ id: 'r1', point_id: 'q1', user_id: paula, stars: 4, created_at: base, updated_at: base })
      .execute();
  });
  afterAll(() => t?.close());

  it('answers the profile with page 1 of 12 points, the posts and the counts by default', async () => {
    const res = await get('/v1/users/Paula_P');
    expect(res.statusCode).toBe(200);
    const body = profileResponseSchema.parse(res.json());
    expect(body.user).toEqual({
      id: paula,
      username: 'Paula_P',
      fullname: 'Paula_P Tester',
      avatar: null,
      status: 'active',
      createdAt: expect.any(Number),
    });
    expect(body.points.total).toBe(17);
    expect(body.points.pagenumber).toBe(1);
    expect(body.points.pagesize).toBe(12);
    expect(body.points.items).toHaveLength(12);
    expect(body.points.items[0]).toEqual({
      id: 'p00',
      supertype: 'business',
      type: 'cafe',
      title: 'Point p00',
      tagline: 'The newest one',
      url: '/b/p00',
      cover: '/media/cover.webp',
      city: 'New York City',
    });
    expect(body.posts.total).toBe(3);
    expect(body.posts.items.map((p) => p.postid)).toEqual(['post-0', 'post-1', 'post-2']);
    expect(body.posts.items[0]).toMatchObject({
      postid: 'post-0',
      title: 'Post 0',
      type: 'general',
      image_url: '/media/post.webp',
      addedon: Date.UTC(2026, 0, 1),
      expired: false,
      url: '/post/post-0',
    });
    expect(body.posts.items.map((p) => p.expired)).toEqual([false, false, true]);
    expect(body.posts.pagesize).toBe(12);
    expect(body.counts).toEqual({ followers: 2, following: 1, reviews: 1 });
  });

  it('never shows the email address or the password hash', async () => {
    const res = await get('/v1/users/Paula_P');
    expect(res.body).not.toContain('@example.com');
    expect(res.body).not.toMatch(/password|scrypt|email/i);
  });

  it('finds the user whatever the case of the name in the address', async () => {
    const res = await get('/v1/users/paula_p');
    expect(res.statusCode).toBe(200);
    expect(res.json().user.username).toBe('Paula_P');
  });

  it('pages the points: page 2 of 12 holds the last five, with no overlap', async () => {
    const first = profileResponseSchema.parse((await get('/v1/users/Paula_P?pagenumber=1')).json());
    const second = profileResponseSchema.parse((await get('/v1/users/Paula_P?pagenumber=2')).json());
    expect(second.points.pagenumber).toBe(2);
    expect(second.points.items.map((p) => p.id)).toEqual(['p12', 'p13', 'p14', 'h1', 'h2']);
    const all = [...first.points.items, ...second.points.items].map((p) => p.id);
    expect(new Set(all).size).toBe(17);
  });

  it('honours a page size from 1 to 48', async () => {
    const body = profileResponseSchema.parse((await get('/v1/users/Paula_P?pagesize=5&pagenumber=3')).json());
    expect(body.points.pagesize).toBe(5);
    expect(body.points.items.map((p) => p.id)).toEqual(['p10', 'p11', 'p12', 'p13', 'p14']);
    expect(
      profileResponseSchema.parse((await get('/v1/users/Paula_P?pagesize=48')).json()).points.items,
    ).toHaveLength(17);
  });

  it.each([
    ['pagesize=0', 1, 12],
    ['pagesize=49', 1, 12],
    ['pagesize=abc', 1, 12],
    ['pagenumber=0', 1, 12],
    ['pagenumber=-2', 1, 12],
    ['pagenumber=1.5&pagesize=2.5', 1, 12],
    ['pagenumber=&pagesize=', 1, 12],
  ])('falls back to the default for a bad paging value (%s)', async (query, pagenumber, pagesize) => {
    const res = await get(`/v1/users/Paula_P?${query}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().points).toMatchObject({ pagenumber, pagesize });
  });

  it('answers an empty page past the last one, with the total', async () => {
    const body = profileResponseSchema.parse((await get('/v1/users/Paula_P?pagenumber=9')).json());
    expect(body.points).toMatchObject({ items: [], total: 17, pagenumber: 9 });
  });

  it('filters the points by supertype (the help requests of /MyHelpRequests)', async () => {
    const body = profileResponseSchema.parse((await get('/v1/users/Paula_P?supertype=helprequest')).json());
    expect(body.points.total).toBe(2);
    expect(body.points.items.map((p) => [p.id, p.url])).toEqual([
      ['h1', '/h/h1'],
      ['h2', '/h/h2'],
    ]);
    const none = profileResponseSchema.parse((await get('/v1/users/Paula_P?supertype=service')).json());
    expect(none.points).toMatchObject({ items: [], total: 0 });
  });

  it('ignores an unknown supertype filter', async () => {
    const body = profileResponseSchema.parse((await get('/v1/users/Paula_P?supertype=spaceship')).json());
    expect(body.points.total).toBe(17);
  });

  it('answers a user with nothing yet with empty lists and zero counts', async () => {
    const body = profileResponseSchema.parse((await get('/v1/users/rosa')).json());
    expect(body.points).toEqual({ items: [], total: 0, pagenumber: 1, pagesize: 12 });
    expect(body.posts).toEqual({ items: [], total: 0, total_capped: false, pagenumber: 1, pagesize: 12 });
    expect(body.counts).toEqual({ followers: 1, following: 1, reviews: 0 });
  });

  it('answers 404 {errorcode, error} for a username nobody has', async () => {
    const res = await get('/v1/users/nobody_here');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ errorcode: 1000, error: 'Not found.' });
  });

  it.each([['bad.name'], ['two%20words'], ['x'.repeat(33)], ['%C3%A9t%C3%A9']])(
    'answers 400 for a name that cannot be a username (%s)',
    async (name) => {
      const res = await get(`/v1/users/${name}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        field: 'username',
        errorcode: 1003,
        error: 'username: must be at most 32 letters, digits, underscores (_) or hyphens (-).',
      });
    },
  );
});
