import { randomUUID } from 'node:crypto';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewPost } from '../../src/server/store/schema';
import { openTestApp, type TestApp } from '../support/app';
import { newUser } from '../support/factories';
import { TEST_DIALECTS } from '../support/store';

/**
 * Posts with a place on the map (the `post` layer group) and in search (the `post` supertype), as a
 * visitor sees them: rows written straight into the store, as any process's write would be, reach
 * every process through the change feed; an expired post leaves without any write.
 */

/** What a person sees "at once": a write shows on the map and in search within this (issue 17). */
const AT_ONCE_MS = 1000;
const DAY = 86_400_000;
/** Lower Manhattan: the posts' place, and the bounds searched. */
const HERE = { lat: 40.7128, lon: -74.006 };
const BOUNDS = { southwest: { lat: 40.6, lon: -74.1 }, northeast: { lat: 40.8, lon: -73.9 } };
const USER_ID = 'post-author';
const CITY_ID = 5128581;

interface Feature {
  properties: Record<string, unknown>;
}

/** The tile holding (lat, lon) at zoom z. */
function tileOf(lat: number, lon: number, z: number): [number, number] {
  const n = 2 ** z;
  const x = Math.floor(((lon + 180) / 360) * n);
  const s = Math.sin((lat * Math.PI) / 180);
  const y = Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n);
  return [x, y];
}

function layersOf(body: Buffer): Record<string, Feature[]> {
  const tile = new VectorTile(new PbfReader(body));
  const out: Record<string, Feature[]> = {};
  for (const [name, layer] of Object.entries(tile.layers)) {
    out[name] = Array.from({ length: layer.length }, (_, i) => ({ properties: layer.feature(i).properties }));
  }
  return out;
}

describe.each(TEST_DIALECTS)('posts on the map and in search (%s)', (dialect) => {
  let t: TestApp;
  let visitor: { cookie: string; token: string };
  let n = 0;

  beforeAll(async () => {
    t = await openTestApp({ dialect });
    await t.store.db
      .insertInto('users')
      .values(newUser({ id: USER_ID, username: 'poster', fullname: 'Pat Poster' }))
      .execute();
    await t.store.db
      .insertInto('cities')
      .values({
        id: CITY_ID,
        city: 'New York City',
        city_forurl: 'new-york-city',
        state: 'NY',
        country: 'United States',
        iso2: 'US',
        lat: HERE.lat,
        lon: HERE.lon,
        population: 8_000_000,
        time_zone: 'America/New_York',
      })
      .execute();
    const res = await t.app.inject({ method: 'GET', url: '/v1/account/antiforgery' });
    const cookie = res.cookies.find((c) => c.name === 'xp_af');
    visitor = { cookie: `xp_af=${cookie?.value}`, token: res.json<{ token: string }>().token };
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A post row near HERE (each a little apart), as the posts feature writes it. */
  function postRow(fields: Partial<NewPost> = {}): NewPost {
    n += 1;
    const now = Date.now();
    return {
      id: randomUUID(),
      user_id: USER_ID,
      title: `Post ${n}`,
      description: 'Fresh today, ask at the counter.',
      type: 'deal',
      city_id: CITY_ID,
      xpoint_id: null,
      lat: HERE.lat + n * 0.0007,
      lon: HERE.lon + n * 0.0005,
      listed_at: now,
      created_at: now,
      updated_at: now,
      file_resource_bitmask: 0,
      ...fields,
    };
  }

  async function insert(row: NewPost): Promise<number> {
    await t.store.db.insertInto('posts').values(row).execute();
    return Date.now();
  }

  /** The post's feature in its z18 tile's `post` layer, or undefined. */
  async function onMap(post: { id: string; lat: number; lon: number }): Promise<Feature | undefined> {
    const [x, y] = tileOf(post.lat, post.lon, 18);
    const res = await t.app.inject({ method: 'GET', url: `/tiles/points/18/${x}/${y}.mvt?layers=post` });
    if (res.statusCode === 204) return undefined;
    expect(res.statusCode).toBe(200);
    return (layersOf(res.rawPayload)['post'] ?? []).find((f) => f.properties['appnetid'] === post.id);
  }

  async function suggestions(q: string): Promise<Record<string, unknown>[]> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/app/searchsuggestions',
      payload: { q, ...BOUNDS },
    });
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  async function results(payload: Record<string, unknown>): Promise<Record<string, unknown>[]> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/webonly/pagedmapsearch',
      headers: {
        'content-type': 'application/json',
        'x-requested-with': 'XMLHttpRequest',
        cookie: visitor.cookie,
        requestverificationtoken: visitor.token,
      },
      payload: JSON.stringify({ ...BOUNDS, pageSize: 96, ...payload }),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ results: Record<string, unknown>[] }>().results;
  }

  /** Where a visitor can see a post: its tile, a suggestion for `q`, and the paged search for `q`. */
  async function seen(post: { id: string; lat: number; lon: number }, q: string) {
    const [tile, suggested, paged] = await Promise.all([
      onMap(post),
      suggestions(q),
      results({ keywords: `post=${q}` }),
    ]);
    return {
      tile,
      suggestion: suggested.find((s) => s['id'] === post.id),
      result: paged.find((r) => (r['marker'] as { id: string }).id === post.id),
    };
  }

  /** Polls until `check` holds; answers the ms since `since`. Fails past `ms`. */
  async function until(check: () => Promise<boolean>, since: number, ms = 3000): Promise<number> {
    for (;;) {
      if (await check()) return Date.now() - since;
      if (Date.now() - since > ms) throw new Error(`not so within ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  const everywhere = async (post: { id: string; lat: number; lon: number }, q: string) => {
    const s = await seen(post, q);
    return s.tile !== undefined && s.suggestion !== undefined && s.result !== undefined;
  };
  const nowhere = async (post: { id: string; lat: number; lon: number }, q: string) => {
    const s = await seen(post, q);
    return s.tile === undefined && s.suggestion === undefined && s.result === undefined;
  };

  const feedPosition = async () =>
    Number(
      (
        await t.store.db
          .selectFrom('point_changes')
          .select((eb) => eb.fn.max('seq').as('seq'))
          .executeTakeFirst()
      )?.seq ?? 0,
    );

  it('shows a new post on the map, in suggestions and in paged search within 1 s, with its fields', async () => {
    const variants = { map: '/media/abc-map.webp', feed: '/media/abc-feed.webp', detail: 'd', fallback: 'f' };
    const row = postRow({ title: 'Half-price bagels today', image_variants: JSON.stringify(variants) });
    const post = { id: row.id, lat: row.lat as number, lon: row.lon as number };
    const written = await insert(row);
    const took = await until(() => everywhere(post, 'bagels'), written);
    expect(took).toBeLessThan(AT_ONCE_MS);

    const { tile, suggestion, result } = await seen(post, 'bagels');
    expect(tile?.properties).toEqual({
      appnetid: row.id,
      lat: Math.round(post.lat * 1e6) / 1e6,
      lon: Math.round(post.lon * 1e6) / 1e6,
      supertype: 'post',
      businesstype: 'deal',
      subtype: '',
      name: 'Half-price bagels today',
      title: 'Half-price bagels today',
      clickurl: `/post/${row.id}`,
      beamtype: 0,
      promo: 0,
    });
    expect(suggestion).toMatchObject({
      id: row.id,
      title: 'Half-price bagels today',
      businesstype: 'deal',
      subtype: '',
      hotpointclickurl: `/post/${row.id}`,
      address: 'New York City',
      currentevent: null,
      upcomingevent: null,
    });
    expect(result).toEqual({
      marker: {
        id: row.id,
        lng: Math.round(post.lon * 1e6) / 1e6,
        lat: Math.round(post.lat * 1e6) / 1e6,
        title: 'Half-price bagels today',
        type: 'deal',
        subtype: '',
        classes: 'marker-post marker-deal',
        select: false,
        data: { hotpointclickurl: `/post/${row.id}` },
      },
      supertype: 'post',
      address: 'New York City',
      cover_url: variants.map,
      stars_rating: null,
      healthdata: { status: 0 },
      start_date: null,
      name: 'Half-price bagels today',
      class: 'post',
      subclass: 'deal',
      beamtype: 0,
    });

    // found by its category's name, by the supertype alone, and with the supertype field
    expect((await suggestions('deal')).map((s) => s['id'])).toContain(row.id);
    expect((await results({ keywords: '', supertype: 'post' })).map((r) => r['supertype'])).toEqual(
      expect.arrayContaining(['post']),
    );
    expect(
      (await results({ keywords: 'bagels', supertype: 'post' })).map(
        (r) => (r['marker'] as { id: string }).id,
      ),
    ).toEqual([row.id]);
    // limited to another supertype, or outside the bounds, it is not found
    expect(await results({ keywords: 'business=bagels' })).toEqual([]);
    expect(
      await results({ keywords: 'bagels', southwest: { lat: 51, lon: -1 }, northeast: { lat: 52, lon: 0 } }),
    ).toEqual([]);
  });

  it('shows an edit within 1 s: the new title is found, the old one is not', async () => {
    const row = postRow({ title: 'Guitar lessons wanted', type: 'gig' });
    const post = { id: row.id, lat: row.lat as number, lon: row.lon as number };
    await until(() => everywhere(post, 'guitar'), await insert(row));

    await t.store.db
      .updateTable('posts')
      .set({ title: 'Violin lessons wanted', updated_at: Date.now() })
      .where('id', '=', row.id)
      .execute();
    const edited = Date.now();
    expect(await until(() => everywhere(post, 'violin'), edited)).toBeLessThan(AT_ONCE_MS);
    expect((await onMap(post))?.properties['title']).toBe('Violin lessons wanted');
    expect(await seen(post, 'guitar')).toMatchObject({ suggestion: undefined, result: undefined });
  });

  it('takes a hidden post off the map and out of search within 1 s', async () => {
    const row = postRow({ title: 'Save the riverside library', type: 'petition' });
    const post = { id: row.id, lat: row.lat as number, lon: row.lon as number };
    await until(() => everywhere(post, 'riverside'), await insert(row));

    await t.store.db.updateTable('posts').set({ hidden_at: Date.now() }).where('id', '=', row.id).execute();
    expect(await until(() => nowhere(post, 'riverside'), Date.now())).toBeLessThan(AT_ONCE_MS);
  });

  it('takes a deleted post off the map and out of search within 1 s', async () => {
    const row = postRow({ title: 'Lost umbrella found', type: 'general' });
    const post = { id: row.id, lat: row.lat as number, lon: row.lon as number };
    await until(() => everywhere(post, 'umbrella'), await insert(row));

    await t.store.db.deleteFrom('posts').where('id', '=', row.id).execute();
    expect(await until(() => nowhere(post, 'umbrella'), Date.now())).toBeLessThan(AT_ONCE_MS);
  });

  it('takes an expired post off the map and out of search when it expires, with no write; a renew brings it back', async () => {
    const expiresAt = Date.now() + 2000;
    const row = postRow({ title: 'Flash sale on kettles', expires_at: expiresAt });
    const post = { id: row.id, lat: row.lat as number, lon: row.lon as number };
    await until(() => everywhere(post, 'kettles'), await insert(row));
    const position = await feedPosition();
    expect(Date.now()).toBeLessThan(expiresAt);

    const goneAfter = await until(() => nowhere(post, 'kettles'), expiresAt, 4000);
    // never before its time, and at once after it
    expect(goneAfter).toBeGreaterThanOrEqual(0);
    expect(goneAfter).toBeLessThan(AT_ONCE_MS);
    // nothing was written: the store's change feed did not move
    expect(await feedPosition()).toBe(position);

    // renew: a new expiry (and listing time) is a write like any other
    const renewed = Date.now();
    await t.store.db
      .updateTable('posts')
      .set({ expires_at: renewed + DAY, listed_at: renewed, renewed_at: renewed })
      .where('id', '=', row.id)
      .execute();
    expect(await until(() => everywhere(post, 'kettles'), renewed)).toBeLessThan(AT_ONCE_MS);
  });

  it('never shows a post without a place, nor one that had expired when written', async () => {
    const placeless = postRow({
      title: 'Recommend a quiet dentist',
      type: 'recommendation',
      lat: null,
      lon: null,
    });
    const expired = postRow({ title: 'Yesterday only: quiet hour', expires_at: Date.now() - DAY });
    const marker = postRow({ title: 'Quiet carriage tickets', type: 'classified' });
    await t.store.db.insertInto('posts').values([placeless, expired, marker]).execute();
    const post = { id: marker.id, lat: marker.lat as number, lon: marker.lon as number };
    // the marker came in the same write: once it shows, the others have been read too
    await until(() => everywhere(post, 'quiet'), Date.now());

    const found = (await suggestions('quiet')).map((s) => s['id']);
    expect(found).toEqual([marker.id]);
    const paged = (await results({ keywords: 'quiet' })).map((r) => (r['marker'] as { id: string }).id);
    expect(paged).toEqual([marker.id]);
    const withoutBounds = await t.app.inject({
      method: 'POST',
      url: '/v1/app/searchsuggestions',
      payload: { q: 'dentist' },
    });
    expect(withoutBounds.json()).toEqual([]);
    expect(await onMap({ id: expired.id, lat: expired.lat as number, lon: expired.lon as number })).toBe(
      undefined,
    );
    expect(t.app.pointTiles.index.groupSize('post')).toBeGreaterThan(0);
  });

  it('clusters posts like every group, and the cluster lists them with their links', async () => {
    const rows = Array.from({ length: 5 }, (_, i) =>
      postRow({
        title: `Cluster post ${i}`,
        lat: -33.86 + i * 1e-4,
        lon: 151.2 + i * 1e-4,
        type: 'promotion',
      }),
    );
    await t.store.db.insertInto('posts').values(rows).execute();
    const first = rows[0] as NewPost;
    await until(
      async () =>
        (await onMap({ id: first.id, lat: first.lat as number, lon: first.lon as number })) !== undefined,
      Date.now(),
    );
    const [x, y] = tileOf(first.lat as number, first.lon as number, 4);
    const tile = await t.app.inject({ method: 'GET', url: `/tiles/points/4/${x}/${y}.mvt?layers=post` });
    const cluster = (layersOf(tile.rawPayload)['post'] ?? []).find((f) => f.properties['cluster']);
    expect(cluster?.properties).toMatchObject({ cluster: true, point_count: 5, supertype: 'post' });
    const leaves = await t.app.inject({
      method: 'GET',
      url: `/tiles/points/clusters/post/${String(cluster?.properties['cluster_id'])}/leaves?limit=10&offset=0`,
    });
    expect(leaves.statusCode).toBe(200);
    const body = leaves.json<{
      total: number;
      leaves: { appnetid: string; clickurl: string; businesstype: string }[];
    }>();
    expect(body.total).toBe(5);
    expect(body.leaves.map((l) => l.appnetid).sort()).toEqual(rows.map((r) => r.id).sort());
    for (const leaf of body.leaves) {
      expect(leaf.clickurl).toBe(`/post/${leaf.appnetid}`);
      expect(leaf.businesstype).toBe('promotion');
    }
  });

  it('refuses a supertype it does not know, naming post among the ones it does', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/webonly/pagedmapsearch',
      headers: {
        'content-type': 'application/json',
        'x-requested-with': 'XMLHttpRequest',
        cookie: visitor.cookie,
        requestverificationtoken: visitor.token,
      },
      payload: JSON.stringify({ keywords: 'posts=bagels' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errorcode: 5005, field: 'supertype' });
    expect(res.json<{ error: string }>().error).toContain('incident, post');
  });
});
