import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import {
  POSTS_COUNT_CAP,
  RENEW_INTERVAL_MS,
  postDeleteResponseSchema,
  postFormStateSchema,
  postPageSchema,
  postResultSchema,
  postSaveResponseSchema,
  type PostResult,
} from '../../src/shared/api/posts';
import { placeholderCoverUrl } from '../../src/server/media/placeholders';
import { openTestApp, type TestApp } from '../support/app';
import { TEST_DIALECTS } from '../support/store';
import { bearer, createAdmin, freshIp, registerUser, signIn } from '../support/accounts';
import { newPoint } from '../support/factories';
import { formBody } from '../support/multipart';

/**
 * The posts API of issue 17 over HTTP on a real temporary store of each dialect: create (multipart
 * with a real JPEG, and JSON with base64), details, edit with its version, delete, hide, renew and
 * its 48-hour rule, expiry values, the point and profile lists with paging, the same GUID twice
 * (one after the other and at once), nearby points, who may do what, and bad input answered with
 * the catalogue's error and nothing stored.
 */
const PASSWORD = 'posts-password-1';
type Headers = Record<string, string>;

async function jpeg(width = 800, height = 600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 30, g: 140, b: 90 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

describe.each(TEST_DIALECTS)('posts over HTTP (%s)', (dialect) => {
  let t: TestApp;
  const as = {} as Record<'olivia' | 'carlos' | 'admin' | 'visitor', Headers>;
  const ids = {} as Record<'olivia' | 'carlos' | 'admin', string>;
  const POINT = 'pstPoint0001';

  const inject = (method: 'GET' | 'POST', url: string, who: Headers, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { ...who, 'x-forwarded-for': freshIp() },
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
  const save = (fields: Record<string, unknown>, who: Headers) =>
    inject('POST', '/myposts/save', who, { resultMode: 'ReturnJson', ...fields });
  const saveForm = async (
    fields: Record<string, string | number>,
    who: Headers,
    file?: { name: string; type: string; data: Buffer },
  ) => {
    const form = await formBody(fields, file, 'cover_file');
    return t.app.inject({
      method: 'POST',
      url: '/myposts/save',
      headers: { ...who, ...form.headers, 'x-forwarded-for': freshIp() },
      payload: form.payload,
    });
  };
  const mediaDir = () => path.join(t.config.dataDir, 'media');
  const postOf = (res: LightMyRequestResponse): PostResult => {
    expect(res.statusCode, res.body).toBeLessThan(300);
    const body = postSaveResponseSchema.parse(res.json());
    expect(body.error_n).toBe(0);
    expect(body.post).not.toBeNull();
    return body.post!;
  };
  const row = (id: string) =>
    t.store.db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirst();
  const postCount = async () =>
    Number(
      (
        await t.store.db
          .selectFrom('posts')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
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
    return body;
  };
  /** A post of olivia's made through the API, as the form would. */
  const make = async (fields: Record<string, unknown> = {}, who: Headers = as.olivia): Promise<PostResult> =>
    postOf(
      await save(
        { id: randomUUID(), title: 'Fresh bread', description: 'Every morning.', type: 'deal', ...fields },
        who,
      ),
    );

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
      .insertInto('cities')
      .values({
        id: 5128581,
        city: 'New York City',
        city_forurl: 'new-york-city-ny-us',
        state: 'NY',
        country: 'United States',
        iso2: 'US',
        lat: 40.71,
        lon: -74.0,
        population: 8_000_000,
        time_zone: 'America/New_York',
      })
      .execute();
    await t.store.db
      .insertInto('points')
      .values([
        newPoint({ id: POINT, title: 'Corner bakery', lat: 40.7, lon: -74.0, city_id: 5128581 }),
        // nearby candidates, from 100 m to ~5 km north of (40.7, -74.0)
        ...[1, 2, 3, 4, 5].map((k) =>
          newPoint({ id: `pstNear${k}`, title: `Near ${k}`, lat: 40.7 + (k * k * 0.0009) / 1, lon: -74.0 }),
        ),
        newPoint({ id: 'pstHelp1', supertype: 'helprequest', type: 'other', lat: 40.7001, lon: -74.0 }),
      ])
      .execute();
  });
  afterAll(() => t?.close());

  it('creates a post from the form (multipart, a real JPEG cover) on a point: its place, cover variants and record', async () => {
    const id = randomUUID();
    const res = await saveForm(
      {
        id,
        title: 'Two for one croissants',
        description: 'Until Sunday.\nAsk at the till.',
        type: 'deal',
        xpointid: POINT,
        expireson: '',
        resultMode: 'ReturnJson',
      },
      as.olivia,
      { name: 'crop.jpg', type: 'image/jpeg', data: await jpeg() },
    );
    expect(res.statusCode, res.body).toBe(201);
    const post = postOf(res);
    expect(post).toMatchObject({
      postid: id,
      title: 'Two for one croissants',
      description: 'Until Sunday.\nAsk at the till.',
      type: 'deal',
      xpointid: POINT,
      xpoint_title: 'Corner bakery',
      parent_type: 'X',
      lat: 40.7,
      lon: -74.0,
      city_id: 5128581,
      city_forurl: 'new-york-city-ny-us',
      city_name: 'New York City',
      fileResourceBitMask: 1,
      has_image: true,
      has_video: false,
      expireson: null,
      expired: false,
      hidden: false,
      version: 1,
      user_username: 'olivia',
      url: `/post/${id}`,
      viewer: { can_edit: true, can_delete: true, can_hide: false },
    });
    expect(post.image_url).toBe(post.image_variants?.detail);
    expect(post.image_placeholder).toMatch(/^data:image\//);
    const served = await t.app.inject({ method: 'GET', url: post.image_url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect((await sharp(served.rawPayload).metadata()).format).toBe('webp');
    const stored = await row(id);
    expect(stored?.image_url).toBe(post.image_variants?.detail);
    expect(JSON.parse(stored?.image_variants ?? '{}')).toMatchObject({
      ...post.image_variants,
      placeholder: post.image_placeholder,
    });
  });

  it('creates a post as JSON with a base64 cover and a city, and removes the cover with EMPTY', async () => {
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c84' } })
      .png()
      .toBuffer();
    const post = await make({
      cover_image: png.toString('base64'),
      city_forurl: 'new-york-city-ny-us',
      type: 'gig',
    });
    expect(post).toMatchObject({ has_image: true, city_id: 5128581, lat: null, lon: null, xpointid: null });
    const edited = postOf(
      await save(
        {
          id: post.postid,
          version: 1,
          title: post.title,
          description: post.description,
          type: 'gig',
          cover_image: 'EMPTY',
        },
        as.olivia,
      ),
    );
    expect(edited).toMatchObject({
      has_image: false,
      image_variants: null,
      image_placeholder: null,
      fileResourceBitMask: 0,
    });
    // back to the category's placeholder cover, which is served
    expect(edited.image_url).toBe(placeholderCoverUrl('gig'));
    const placeholder = await t.app.inject({ method: 'GET', url: edited.image_url });
    expect(placeholder.statusCode).toBe(200);
    expect(placeholder.headers['content-type']).toMatch(/^image\//);
  });

  it('shows a post to anyone, with what each viewer may do', async () => {
    const post = await make();
    for (const [who, rights] of [
      ['visitor', { can_edit: false, can_delete: false, can_hide: false }],
      ['carlos', { can_edit: false, can_delete: false, can_hide: false }],
      ['olivia', { can_edit: true, can_delete: true, can_hide: false }],
      ['admin', { can_edit: true, can_delete: true, can_hide: true }],
    ] as const) {
      const res = await inject('GET', `/myposts/details?id=${post.postid}`, as[who]);
      expect(res.statusCode, res.body).toBe(200);
      const details = postResultSchema.parse(res.json());
      expect(details.viewer).toEqual(rights);
      expect(details.title).toBe('Fresh bread');
    }
  });

  it('edits with the version read; a stale version is 409 and changes nothing', async () => {
    const post = await make();
    const form = await inject(
      'GET',
      `/myposts/edit?id=${post.postid}&resultMode=DoRedirect&returnUrl=%2Fu%2Folivia`,
      as.olivia,
    );
    expect(form.statusCode, form.body).toBe(200);
    const state = postFormStateSchema.parse(form.json());
    expect(state).toMatchObject({
      action: '/myposts/save',
      id: post.postid,
      resultMode: 'DoRedirect',
      returnUrl: '/u/olivia',
    });
    expect(state.post?.version).toBe(1);

    const edited = postOf(
      await save(
        { id: post.postid, version: 1, title: 'Fresher bread', description: 'Still warm.', type: 'deal' },
        as.olivia,
      ),
    );
    expect(edited).toMatchObject({ title: 'Fresher bread', description: 'Still warm.', version: 2 });
    const stale = await save(
      { id: post.postid, version: 1, title: 'Overwritten', description: 'by the other tab', type: 'deal' },
      as.olivia,
    );
    const body = expectError(stale, 409, 1012);
    // ReturnJson: the spec's error_n and error_msg too
    expect(body).toMatchObject({ error_n: 1012, error_msg: body.error });
    expect((await row(post.postid))?.title).toBe('Fresher bread');
  });

  it('takes an edited post off its point with xpointid EMPTY, and keeps the place when the field is absent', async () => {
    const post = await make({ xpointid: POINT });
    expect(post.xpointid).toBe(POINT);
    const kept = postOf(
      await save(
        { id: post.postid, version: 1, title: 'Same place', description: 'x', type: 'deal' },
        as.olivia,
      ),
    );
    expect(kept).toMatchObject({ xpointid: POINT, lat: post.lat, lon: post.lon });
    const moved = postOf(
      await save(
        { id: post.postid, version: 2, title: 'No place', description: 'x', type: 'deal', xpointid: 'EMPTY' },
        as.olivia,
      ),
    );
    expect(moved).toMatchObject({ xpointid: null, lat: null, lon: null, city_id: post.city_id });
    expect(await row(post.postid)).toMatchObject({ xpoint_id: null, lat: null, lon: null });
  });

  it("refuses another user's edit, delete and renew of a post and leaves it as it was; a visitor is told to sign in", async () => {
    const post = await make();
    const before = await row(post.postid);
    const edit = { id: post.postid, version: 1, title: 'Mine now', description: 'x', type: 'deal' };
    expectError(await save(edit, as.carlos), 403, 1011);
    expectError(await save({ ...edit, torenew: true }, as.carlos), 403, 1011);
    expectError(await inject('POST', '/myposts/delete', as.carlos, { id: post.postid }), 403, 1011);
    expectError(await inject('GET', `/myposts/edit?id=${post.postid}`, as.carlos), 403, 1011);
    expectError(await save(edit, as.visitor), 401, 1010);
    expectError(await inject('POST', '/myposts/delete', as.visitor, { id: post.postid }), 401, 1010);
    expectError(
      await saveForm({ id: post.postid, title: 't', description: 'd', type: 'deal' }, as.visitor, {
        name: 'c.jpg',
        type: 'image/jpeg',
        data: await jpeg(64, 64),
      }),
      401,
      1010,
    );
    expect(await row(post.postid)).toEqual(before);
    // an admin may edit and delete anyone's post
    postOf(await save({ ...edit, title: 'Tidied by an admin' }, as.admin));
    expect((await row(post.postid))?.title).toBe('Tidied by an admin');
  });

  it('deletes in each result mode: JSON, the address as text, or a 303 redirect', async () => {
    const [a, b, c] = [await make(), await make(), await make()];
    const json = await inject('POST', '/myposts/delete', as.olivia, {
      id: a.postid,
      resultMode: 'ReturnJson',
      returnUrl: '/u/olivia',
    });
    expect(json.statusCode, json.body).toBe(200);
    expect(postDeleteResponseSchema.parse(json.json())).toEqual({
      error_n: 0,
      error_msg: '',
      id: a.postid,
      redirect: '/u/olivia',
    });
    const text = await inject('POST', '/myposts/delete', as.olivia, {
      id: b.postid,
      resultMode: 'ReturnUrl',
      returnUrl: '/u/olivia?pagenumber=2&pagesize=12',
    });
    expect(text.statusCode).toBe(200);
    expect(text.headers['content-type']).toMatch(/^text\/plain/);
    expect(text.body).toBe('/u/olivia?pagenumber=2&pagesize=12');
    const redirect = await inject('POST', '/myposts/delete', as.admin, {
      id: c.postid,
      resultMode: 'DoRedirect',
      returnUrl: '',
    });
    expect(redirect.statusCode).toBe(303);
    expect(redirect.headers.location).toBe('/');
    for (const post of [a, b, c]) expect(await row(post.postid)).toBeUndefined();
    expectError(await inject('POST', '/myposts/delete', as.olivia, { id: a.postid }), 404, 17101);
  });

  it('saves in each result mode: a 303 to returnUrl or the post, the address as text', async () => {
    const id = randomUUID();
    const redirect = await save(
      { id, title: 'T', description: 'D', type: 'general', resultMode: 'DoRedirect' },
      as.olivia,
    );
    expect(redirect.statusCode, redirect.body).toBe(303);
    expect(redirect.headers.location).toBe(`/post/${id}`);
    const text = await save(
      {
        id: randomUUID(),
        title: 'T',
        description: 'D',
        type: 'general',
        resultMode: 'ReturnUrl',
        returnUrl: '/cads/new-york-city-ny-us',
      },
      as.olivia,
    );
    expect(text.statusCode).toBe(200);
    expect(text.body).toBe('/cads/new-york-city-ny-us');
    // a refusal in DoRedirect mode is the catalogue's body alone
    const refused = await save(
      { id: randomUUID(), title: '', description: 'D', type: 'general', resultMode: 'DoRedirect' },
      as.olivia,
    );
    expect(refused.json()).toEqual({ errorcode: 1003, error: 'title: Field is required!', field: 'title' });
  });

  it('lets an admin hide a post: gone for others (404, lists), still there for its author', async () => {
    const post = await make({ xpointid: POINT });
    expectError(
      await inject('POST', '/myposts/hide', as.olivia, { id: post.postid, hidden: true }),
      403,
      1011,
    );
    const hidden = await inject('POST', '/myposts/hide', as.admin, { id: post.postid, hidden: true });
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(postResultSchema.parse(hidden.json()).hidden).toBe(true);
    expectError(await inject('GET', `/myposts/details?id=${post.postid}`, as.visitor), 404, 17101);
    expectError(await inject('GET', `/myposts/details?id=${post.postid}`, as.carlos), 404, 17101);
    expect((await inject('GET', `/myposts/details?id=${post.postid}`, as.olivia)).json()).toMatchObject({
      hidden: true,
    });
    const listed = async (url: string, who: Headers) =>
      postPageSchema.parse((await inject('GET', url, who)).json()).items.map((p) => p.postid);
    expect(await listed(`/v1/posts/point/${POINT}?pagesize=48`, as.visitor)).not.toContain(post.postid);
    expect(await listed(`/v1/posts/user/olivia?pagesize=48`, as.carlos)).not.toContain(post.postid);
    expect(await listed(`/v1/posts/user/olivia?pagesize=48`, as.olivia)).toContain(post.postid);
    expect(await listed(`/v1/posts/point/${POINT}?pagesize=48`, as.admin)).toContain(post.postid);
    // the author's open edit form still saves (hiding is not an edit)
    postOf(
      await save(
        { id: post.postid, version: 1, title: 'Edited while hidden', description: 'd', type: 'deal' },
        as.olivia,
      ),
    );
    await inject('POST', '/myposts/hide', as.admin, { id: post.postid, hidden: false });
    expect((await inject('GET', `/myposts/details?id=${post.postid}`, as.visitor)).statusCode).toBe(200);
  });

  it('renews once per 48 hours; an expired post needs a new expiry to be renewed', async () => {
    const post = await make({ xpointid: POINT });
    const fields = {
      id: post.postid,
      title: post.title,
      description: post.description,
      type: 'deal',
      torenew: true,
    };
    const first = postOf(await save({ ...fields, version: 1 }, as.olivia));
    expect(first.renewable_at).toBeGreaterThan(Date.now() + RENEW_INTERVAL_MS - 60_000);
    const stored = await row(post.postid);
    expect(Number(stored?.renewed_at)).toBe(Number(stored?.listed_at));
    const again = await save({ ...fields, version: 2 }, as.olivia);
    expectError(again, 429, 17105, /renew it again in 4[78] h/);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(47 * 3600);
    expect((await row(post.postid))?.version).toBe(2);

    // two days later, expired meanwhile: renewing it as it is is refused; with a new expiry it is back
    const past = Date.now() - RENEW_INTERVAL_MS - 1000;
    await t.store.db
      .updateTable('posts')
      .set({ renewed_at: past, expires_at: Date.now() - 1000 })
      .where('id', '=', post.postid)
      .execute();
    expectError(await save({ ...fields, version: 2 }, as.olivia), 400, 17106);
    const renewed = postOf(await save({ ...fields, version: 2, expireson: '' }, as.olivia));
    expect(renewed).toMatchObject({ expired: false, expireson: null, version: 3 });
    const list = postPageSchema.parse((await inject('GET', `/v1/posts/point/${POINT}`, as.visitor)).json());
    expect(list.items[0]?.postid).toBe(post.postid);
  });

  it('reads the expiry select: not set, a date or epoch ms, at or before now is expired, before 1901 refused', async () => {
    for (const value of ['', '3000-01-01', '0001-01-01'])
      expect((await make({ expireson: value })).expireson).toBeNull();
    expect((await make({ expireson: '2031-02-03' })).expireson).toBe(Date.UTC(2031, 1, 3));
    expect((await make({ expireson: '2031-02-03T10:30:00Z' })).expireson).toBe(Date.UTC(2031, 1, 3, 10, 30));
    expect((await make({ expireson: Date.UTC(2032, 0, 1) })).expireson).toBe(Date.UTC(2032, 0, 1));
    const expired = await make({ expireson: '2020-01-01', xpointid: POINT });
    expect(expired.expired).toBe(true);
    // gone from the point's list, still on the profile, marked
    const point = postPageSchema.parse(
      (await inject('GET', `/v1/posts/point/${POINT}?pagesize=48`, as.visitor)).json(),
    );
    expect(point.items.map((p) => p.postid)).not.toContain(expired.postid);
    const profile = postPageSchema.parse(
      (await inject('GET', '/v1/posts/user/olivia?pagesize=48', as.visitor)).json(),
    );
    expect(profile.items.find((p) => p.postid === expired.postid)?.expired).toBe(true);

    const before = await postCount();
    const id = randomUUID();
    const res = await save(
      { id, title: 'Old', description: 'Very old', type: 'deal', expireson: '1900-12-31' },
      as.olivia,
    );
    expect(expectError(res, 400, 7011, 'expireson: dates before 1901 are invalid.')).toMatchObject({
      field: 'expireson',
      error_n: 7011,
    });
    expectError(
      await save({ id, title: 'Old', description: 'x', type: 'deal', expireson: 'soon' }, as.olivia),
      400,
      1003,
    );
    expect(await postCount()).toBe(before);
  });

  it("pages a point's posts and a profile's posts newest first, with totals", async () => {
    const user = await registerUser(t, 'pager', PASSWORD);
    expect(user.statusCode).toBe(201);
    const pager = await signIn(t, 'pager', PASSWORD);
    const point = 'pstPaged0001';
    await t.store.db
      .insertInto('points')
      .values(newPoint({ id: point, lat: 10, lon: 10 }))
      .execute();
    const base = Date.UTC(2026, 0, 1);
    await t.store.db
      .insertInto('posts')
      .values(
        Array.from({ length: 30 }, (_, i) => ({
          id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          user_id: pager.id,
          title: `Post ${i}`,
          description: 'd',
          type: 'general',
          xpoint_id: point,
          file_resource_bitmask: 0,
          // the last five have expired
          expires_at: i >= 25 ? base : null,
          created_at: base,
          updated_at: base,
          // two share a listing time: the id orders them
          listed_at: base + (i === 1 ? 0 : i) * 60_000,
        })),
      )
      .execute();
    const live = Array.from(
      { length: 25 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    ).reverse();
    // 0 and 1 are listed at the same time: 1 first (id descending)
    expect(live.slice(-2)).toEqual([
      '00000000-0000-4000-8000-000000000001',
      '00000000-0000-4000-8000-000000000000',
    ]);
    const pages = [];
    for (let n = 1; n <= 3; n++) {
      const res = await inject('GET', `/v1/posts/point/${point}?pagenumber=${n}&pagesize=10`, as.visitor);
      expect(res.statusCode, res.body).toBe(200);
      const pageOf = postPageSchema.parse(res.json());
      expect(pageOf).toMatchObject({ total: 25, total_capped: false, pagenumber: n, pagesize: 10 });
      pages.push(...pageOf.items.map((p) => p.postid));
    }
    expect(pages).toEqual(live);
    const profile = postPageSchema.parse((await inject('GET', '/v1/posts/user/pager', as.visitor)).json());
    expect(profile).toMatchObject({ total: 30, pagenumber: 1, pagesize: 12 });
    expect(profile.items.map((p) => p.expired)).toEqual([...Array(5).fill(true), ...Array(7).fill(false)]);
    // the profile answer carries the same page 1
    const whole = (await inject('GET', '/v1/users/pager', as.visitor)).json<{ posts: unknown }>();
    expect(postPageSchema.parse(whole.posts).items.map((p) => p.postid)).toEqual(
      profile.items.map((p) => p.postid),
    );
    // a list's total is counted up to 1,000 posts, and says so when there are more
    await t.store.db
      .insertInto('posts')
      .values(
        Array.from({ length: POSTS_COUNT_CAP + 1 - 30 }, (_, i) => ({
          id: `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`,
          user_id: pager.id,
          title: `Old ${i}`,
          description: 'd',
          type: 'general',
          file_resource_bitmask: 0,
          created_at: base - 86_400_000,
          updated_at: base - 86_400_000,
          listed_at: base - 86_400_000 - i,
        })),
      )
      .execute();
    const capped = postPageSchema.parse(
      (await inject('GET', '/v1/posts/user/pager?pagenumber=84', as.visitor)).json(),
    );
    expect(capped).toMatchObject({ total: POSTS_COUNT_CAP, total_capped: true, pagenumber: 84 });
    // the page past the counted ones still answers: posts 997-1,001
    expect(capped.items.map((p) => p.title)).toEqual(['Old 966', 'Old 967', 'Old 968', 'Old 969', 'Old 970']);
    expectError(await inject('GET', '/v1/posts/user/nobody-here', as.visitor), 404, 1000);
    expectError(await inject('GET', '/v1/posts/point/..bad..', as.visitor), 400, 6705);
    expectError(await inject('GET', `/v1/posts/point/${point}?pagesize=1000`, as.visitor), 400, 1003);
  });

  it('answers the same GUID twice with one post: again by its author (also at once), refused for anyone else', async () => {
    const id = randomUUID();
    const fields = { id, title: 'Once', description: 'only once', type: 'petition' };
    const first = await save(fields, as.olivia);
    expect(first.statusCode).toBe(201);
    const again = await save({ ...fields, title: 'Twice?' }, as.olivia);
    expect(again.statusCode, again.body).toBe(200);
    expect(postOf(again)).toMatchObject({ postid: id, title: 'Once', version: 1 });
    const before = await row(id);
    const theirs = await save(fields, as.carlos);
    expectError(theirs, 409, 17102);
    expectError(await inject('POST', '/myposts/new', as.carlos, { id }), 409, 17102);
    expect(await row(id)).toEqual(before);

    const racing = randomUUID();
    const both = await Promise.all([0, 1].map(() => save({ ...fields, id: racing }, as.olivia)));
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 201]);
    expect(new Set(both.map((r) => postOf(r).postid))).toEqual(new Set([racing]));
    const rows = await t.store.db.selectFrom('posts').select('id').where('id', '=', racing).execute();
    expect(rows).toHaveLength(1);
    // two people racing for one GUID: one post, the other refused
    const contested = randomUUID();
    const pair = await Promise.all([
      save({ ...fields, id: contested }, as.olivia),
      save({ ...fields, id: contested }, as.carlos),
    ]);
    expect(pair.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it('opens the new-post form for a GUID', async () => {
    const id = randomUUID().toUpperCase();
    const res = await inject('POST', '/myposts/new', as.olivia, {
      id,
      resultMode: 'ReturnJson',
      returnUrl: '/f/x',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(postFormStateSchema.parse(res.json())).toMatchObject({
      id: id.toLowerCase(),
      post: null,
      action: '/myposts/save',
    });
    expectError(await inject('POST', '/myposts/new', as.visitor, { id }), 401, 1010);
  });

  it('finds the nearest points a post can be attached to, nearest first, without help requests', async () => {
    const res = await inject('POST', '/v1/locations/nearby', as.visitor, {
      lat: 40.7,
      lon: -74.0,
      max_locations: 4,
    });
    expect(res.statusCode, res.body).toBe(200);
    const places = res.json<{ xpointid: string; distance_m: number; city_forurl: string | null }[]>();
    expect(places.map((p) => p.xpointid)).toEqual([POINT, 'pstNear1', 'pstNear2', 'pstNear3']);
    expect(places.map((p) => p.distance_m)).toEqual([0, 100, 400, 901]);
    expect(places[0]?.city_forurl).toBe('new-york-city-ny-us');
    const far = await inject('POST', '/v1/locations/nearby', as.visitor, { lat: -40, lon: 170 });
    // from the other side of the world, still the 6 attachable points, nearest first
    const farPlaces = far.json<{ distance_m: number }[]>();
    const attachable = await t.store.db
      .selectFrom('points')
      .select('id')
      .where('supertype', 'not in', ['helprequest', 'incident'])
      .execute();
    expect(farPlaces).toHaveLength(Math.min(30, attachable.length));
    expect(farPlaces.map((p) => p.distance_m)).toEqual(
      [...farPlaces.map((p) => p.distance_m)].sort((a, b) => a - b),
    );
    expectError(await inject('POST', '/v1/locations/nearby', as.visitor, { lat: 91, lon: 0 }), 400, 1003);
    expectError(
      await inject('POST', '/v1/locations/nearby', as.visitor, { lat: 1, lon: 0, max_locations: 31 }),
      400,
      1003,
    );
  });

  it('attaches the author’s own uploaded video, and refuses one that is not theirs or not there', async () => {
    const now = Date.now();
    await t.store.db
      .insertInto('videos')
      .values([
        {
          id: 'vid-olivia',
          user_id: ids.olivia,
          state: 'ready',
          url: '/media/v.mp4',
          poster_url: '/media/v.webp',
          created_at: now,
          updated_at: now,
        },
        {
          id: 'vid-carlos',
          user_id: ids.carlos,
          state: 'failed',
          error: 'no video stream',
          created_at: now,
          updated_at: now,
        },
      ])
      .execute();
    const post = await make({ video_id: 'vid-olivia' });
    expect(post).toMatchObject({
      has_video: true,
      video_state: 'ready',
      video_url: '/media/v.mp4',
      video_poster_url: '/media/v.webp',
      fileResourceBitMask: 2,
    });
    const before = await postCount();
    expectError(
      await save(
        { id: randomUUID(), title: 't', description: 'd', type: 'deal', video_id: 'vid-carlos' },
        as.olivia,
      ),
      403,
      17108,
    );
    expectError(
      await save(
        { id: randomUUID(), title: 't', description: 'd', type: 'deal', video_id: 'vid-none' },
        as.olivia,
      ),
      400,
      17107,
    );
    expect(await postCount()).toBe(before);
    const removed = postOf(
      await save(
        { id: post.postid, version: 1, title: 't', description: 'd', type: 'deal', video_id: 'EMPTY' },
        as.olivia,
      ),
    );
    expect(removed).toMatchObject({
      has_video: false,
      video_state: null,
      video_url: null,
      fileResourceBitMask: 0,
    });
  });

  it("answers the issue's bad inputs with the catalogue's error and stores nothing", async () => {
    const before = await postCount();
    const long = await save(
      { id: randomUUID(), title: 'x'.repeat(121), description: 'd', type: 'deal' },
      as.olivia,
    );
    expectError(long, 400, 1003, 'title: Please enter valid text. Text is too long!');
    const longForm = await saveForm(
      { id: randomUUID(), title: 'x'.repeat(121), description: 'd', type: 'deal' },
      as.olivia,
      {
        name: 'c.jpg',
        type: 'image/jpeg',
        data: await jpeg(64, 64),
      },
    );
    expectError(longForm, 400, 1003, 'title: Please enter valid text. Text is too long!');
    // neither JSON nor a form: refused before it reaches the store (it was a 500, a post without a title)
    const plain = await t.app.inject({
      method: 'POST',
      url: '/myposts/save',
      headers: { ...as.olivia, 'content-type': 'text/plain', 'x-forwarded-for': freshIp() },
      payload: JSON.stringify({ id: randomUUID(), resultMode: 'ReturnJson' }),
    });
    expectError(plain, 415, 1005, 'Content-Type text/plain is not accepted here.');
    expectError(
      await save({ title: 't', description: 'd', type: 'deal' }, as.olivia),
      400,
      6705,
      'Param [postid] is invalid!',
    );
    expectError(
      await save(
        { id: randomUUID(), title: 't', description: 'd', type: 'deal', xpointid: 'no such!' },
        as.olivia,
      ),
      400,
      6705,
      'Param [xpointId] is invalid!',
    );
    expectError(
      await save(
        { id: randomUUID(), title: 't', description: 'd', type: 'deal', xpointid: 'pstMissing01' },
        as.olivia,
      ),
      404,
      17103,
    );
    expectError(
      await save({ id: randomUUID(), title: 't', description: 'd', type: 'auction' }, as.olivia),
      400,
      1003,
    );
    const notImage = await saveForm(
      { id: randomUUID(), title: 't', description: 'd', type: 'deal' },
      as.olivia,
      {
        name: 'run.jpg',
        type: 'image/jpeg',
        data: Buffer.from('MZ\x90\x00 this is an executable, not a photo'),
      },
    );
    expectError(notImage, 400, 2009);
    // two covers in one form: refused, and neither is stored
    const mediaFiles = () =>
      fs.existsSync(mediaDir()) ? fs.readdirSync(mediaDir(), { recursive: true }).length : 0;
    const filesBefore = mediaFiles();
    const twoCovers = new FormData();
    for (const [name, value] of Object.entries({
      id: randomUUID(),
      title: 't',
      description: 'd',
      type: 'deal',
    }))
      twoCovers.append(name, value);
    const cover = await jpeg(300, 200);
    for (const name of ['a.jpg', 'b.jpg'])
      twoCovers.append('cover_file', new Blob([new Uint8Array(cover)], { type: 'image/jpeg' }), name);
    const twoRequest = new Request('http://localhost/', { method: 'POST', body: twoCovers });
    const two = await t.app.inject({
      method: 'POST',
      url: '/myposts/save',
      headers: { ...as.olivia, 'content-type': twoRequest.headers.get('content-type') ?? '' },
      payload: Buffer.from(await twoRequest.arrayBuffer()),
    });
    expectError(
      two,
      400,
      1002,
      'The request could not be read: multipart/form-data: send one file per call.',
    );
    expect(mediaFiles()).toBe(filesBefore);
    const tooBig = 'A'.repeat(Math.ceil(10.5 * 1024 * 1024 * 1.3333));
    expectError(
      await save(
        { id: randomUUID(), title: 't', description: 'd', type: 'deal', cover_image: tooBig },
        as.olivia,
      ),
      413,
      2008,
      'Invalid image size. Max allowed 10 MB',
    );
    expect(await postCount()).toBe(before);

    expectError(await inject('GET', '/myposts/details', as.visitor), 400, 6705, 'Param [postid] is invalid!');
    expectError(await inject('GET', '/myposts/details?id=nope', as.visitor), 400, 6705);
    expectError(await inject('GET', `/myposts/details?id=${randomUUID()}`, as.visitor), 404, 17101);
    expectError(await inject('GET', '/myposts/edit?id=', as.olivia), 400, 6705, 'Param [postid] is invalid!');
    // never a redirect to another site
    for (const returnUrl of ['//evil.example/x', '/\\evil.example', 'https://evil.example/', '/a b'])
      expectError(
        await save(
          {
            id: randomUUID(),
            title: 't',
            description: 'd',
            type: 'deal',
            resultMode: 'DoRedirect',
            returnUrl,
          },
          as.olivia,
        ),
        400,
        1003,
        'returnUrl: must be a path on this site.',
      );
    expect(await postCount()).toBe(before);
    const deleted = expectError(
      await inject('POST', '/myposts/delete', as.olivia, {}),
      400,
      19812,
      'Param [postid] is invalid!',
    );
    expect(deleted).toMatchObject({ error_n: 19812, error_msg: 'Param [postid] is invalid!' });
  });

  it('limits edits per person (120 an hour) with a retry time', async () => {
    expect((await registerUser(t, 'editor', PASSWORD)).statusCode).toBe(201);
    const editor = bearer((await signIn(t, 'editor', PASSWORD)).token);
    const post = await make({}, editor);
    const fields = { id: post.postid, title: 't', description: 'd', type: 'deal' };
    let version = 1;
    for (let i = 0; i < 120; i++) {
      const res = await save({ ...fields, version }, editor);
      expect(res.statusCode, res.body).toBe(200);
      version += 1;
    }
    const refused = await save({ ...fields, version }, editor);
    expectError(refused, 429, 1020, /try again in \d+ s/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    expect((await row(post.postid))?.version).toBe(version);
    // counted per person: an admin's edit of the same post goes through
    expect((await save({ ...fields, version }, as.admin)).statusCode).toBe(200);
  });

  it('limits cover uploads per person (30 in 30 minutes), counted before the image is stored', async () => {
    expect((await registerUser(t, 'uploader', PASSWORD)).statusCode).toBe(201);
    const uploader = bearer((await signIn(t, 'uploader', PASSWORD)).token);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#08f' } })
      .png()
      .toBuffer();
    const post = await make({ cover_image: png.toString('base64') }, uploader);
    const fields = {
      id: post.postid,
      title: 't',
      description: 'd',
      type: 'deal',
      cover_image: png.toString('base64'),
    };
    let version = 1;
    for (let i = 1; i < 30; i++) {
      const res = await save({ ...fields, version }, uploader);
      expect(res.statusCode, res.body).toBe(200);
      version += 1;
    }
    const refused = await save({ ...fields, version }, uploader);
    expectError(refused, 429, 1020);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(1700);
    // an edit without a new cover is not an upload
    expect((await save({ ...fields, cover_image: undefined, version }, uploader)).statusCode).toBe(200);
  });
});
