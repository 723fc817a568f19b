import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../support/app';
import { bearer, registerUser, signIn, type SignedIn } from '../support/accounts';
import { newPoint } from '../support/factories';
import { TEST_DIALECTS } from '../support/store';
import type { NewEvent } from '../../src/server/store/schema';

/** The beam API, the map's dynamic and event-beaming calls and promo counting, on every dialect. */
const NOW = Date.now();
const MIN = 60_000;

function event(fields: Partial<NewEvent> & { id: string }): NewEvent {
  return {
    title: fields.id,
    type: 'concert',
    start_date: NOW,
    end_date: NOW + 60 * MIN,
    lat: 0,
    lon: 0,
    admission: 'free',
    created_at: NOW,
    updated_at: NOW,
    ...fields,
  };
}

describe.each(TEST_DIALECTS)('live API on %s', (dialect) => {
  let t: TestApp;
  let owner: SignedIn;
  let consultant: SignedIn;
  let stranger: SignedIn;
  let admin: SignedIn;

  beforeAll(async () => {
    t = await openTestApp({ dialect });
    for (const name of ['owner1', 'consult1', 'stranger1', 'admin1']) await registerUser(t, name);
    owner = await signIn(t, 'owner1', 'correct-horse-1');
    consultant = await signIn(t, 'consult1', 'correct-horse-1');
    stranger = await signIn(t, 'stranger1', 'correct-horse-1');
    admin = await signIn(t, 'admin1', 'correct-horse-1');
    await t.store.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', admin.id).execute();
    await t.store.db
      .insertInto('points')
      .values([
        newPoint({
          id: 'shop1',
          type: 'bakery',
          lat: 10.5,
          lon: 20.5,
          owner_userid: owner.id,
          consultant_userid: consultant.id,
          is_promo: 1,
          url_icon_or_logo: '/media/icon.png',
        }),
        newPoint({ id: 'flag1', type: 'bar', lat: 10.6, lon: 20.6, beamtype: 1 | 64 }),
        newPoint({ id: 'help1', supertype: 'helprequest', type: 'tasks', lat: 10.4, lon: 20.4 }),
        newPoint({ id: 'plain1', type: 'bank', lat: 10.45, lon: 20.45 }),
        newPoint({ id: 'venue1', type: 'theatre', lat: 10.55, lon: 20.55 }),
        newPoint({ id: 'outside1', type: 'bar', lat: 30, lon: 30, beamtype: 1 }),
      ])
      .execute();
    await t.store.db
      .insertInto('events')
      .values([
        event({
          id: 'ev-now',
          xpoint_id: 'venue1',
          owner_userid: owner.id,
          lat: 10.55,
          lon: 20.55,
          start_date: NOW - 30 * MIN,
          end_date: NOW + 60 * MIN,
        }),
        event({
          id: 'ev-soon',
          lat: 10.51,
          lon: 20.51,
          start_date: NOW + 90 * MIN,
          end_date: NOW + 200 * MIN,
        }),
        event({
          id: 'ev-later',
          lat: 10.52,
          lon: 20.52,
          start_date: NOW + 5 * 60 * MIN,
          end_date: NOW + 6 * 60 * MIN,
        }),
        // runs all week, but its first opening interval is tomorrow
        event({
          id: 'ev-interval',
          lat: 10.53,
          lon: 20.53,
          start_date: NOW - 60 * MIN,
          end_date: NOW + 7 * 24 * 60 * MIN,
        }),
      ])
      .execute();
    await t.store.db
      .insertInto('event_intervals')
      .values([
        { event_id: 'ev-now', start_at: NOW - 30 * MIN, end_at: NOW + 60 * MIN },
        { event_id: 'ev-interval', start_at: NOW + 24 * 60 * MIN, end_at: NOW + 25 * 60 * MIN },
      ])
      .execute();
  });
  afterAll(async () => {
    await t.close();
  });

  const beam = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: path, headers, payload: body as Record<string, unknown> });

  describe('POST /api/user/x_point/beam and /api/user/x_event/beam', () => {
    it('answer {"status":"ok"} to the owner, the consultant and an admin, with either token scheme', async () => {
      for (const who of [owner, consultant, admin]) {
        const res = await beam(
          '/api/user/x_point/beam',
          { identifier: 'shop1', kind: 'hot' },
          { authorization: `Bearer ${who.token}` },
        );
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ status: 'ok' });
      }
      const viaScheme = await beam(
        '/api/user/x_point/beam',
        { identifier: 'shop1', kind: 'open' },
        bearer(owner.token),
      );
      expect(viaScheme.json()).toEqual({ status: 'ok' });
      const eventBeam = await beam(
        '/api/user/x_event/beam',
        { identifier: 'ev-now', kind: 'open' },
        { authorization: `Bearer ${owner.token}` },
      );
      expect(eventBeam.json()).toEqual({ status: 'ok' });
    });

    it('refuse a missing or wrong token, a cookie alone, and someone who does not control the point', async () => {
      const missing = await beam('/api/user/x_point/beam', { identifier: 'shop1', kind: 'hot' });
      expect(missing.statusCode).toBe(401);
      expect(missing.json()).toMatchObject({ errorcode: 8001 });
      const wrong = await beam(
        '/api/user/x_point/beam',
        { identifier: 'shop1', kind: 'hot' },
        { authorization: 'Bearer nonsense' },
      );
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toMatchObject({ errorcode: 2002 });
      const forged = await beam(
        '/api/user/x_point/beam',
        { identifier: 'shop1', kind: 'hot' },
        { authorization: `Bearer ${'A'.repeat(43)}.${'B'.repeat(43)}` },
      );
      expect(forged.json()).toMatchObject({ errorcode: 2002 });
      const cookieOnly = await beam(
        '/api/user/x_point/beam',
        { identifier: 'shop1', kind: 'hot' },
        { cookie: owner.cookie },
      );
      expect(cookieOnly.json()).toMatchObject({ errorcode: 8001 });
      const notYours = await beam(
        '/api/user/x_point/beam',
        { identifier: 'shop1', kind: 'hot' },
        { authorization: `Bearer ${stranger.token}` },
      );
      expect(notYours.statusCode).toBe(403);
      expect(notYours.json()).toMatchObject({ errorcode: 8003 });
      const notYourEvent = await beam(
        '/api/user/x_event/beam',
        { identifier: 'ev-now', kind: 'open' },
        { authorization: `Bearer ${stranger.token}` },
      );
      expect(notYourEvent.statusCode).toBe(403);
    });

    it('refuse an unknown kind or identifier with the catalogue error', async () => {
      const auth = { authorization: `Bearer ${owner.token}` };
      const kind = await beam('/api/user/x_point/beam', { identifier: 'shop1', kind: 'warm' }, auth);
      expect(kind.statusCode).toBe(400);
      expect(kind.json()).toEqual({ errorcode: 8002, error: 'Beam kind must be soon, open or hot.' });
      const noKind = await beam('/api/user/x_point/beam', { identifier: 'shop1' }, auth);
      expect(noKind.statusCode).toBe(400);
      const unknownPoint = await beam('/api/user/x_point/beam', { identifier: 'nope', kind: 'hot' }, auth);
      expect(unknownPoint.statusCode).toBe(404);
      expect(unknownPoint.json()).toMatchObject({ errorcode: 2010 });
      const badId = await beam('/api/user/x_point/beam', { identifier: 'a b', kind: 'hot' }, auth);
      expect(badId.json()).toEqual({ errorcode: 6705, error: 'Param [xpointId] is invalid!' });
      const unknownEvent = await beam('/api/user/x_event/beam', { identifier: 'nope', kind: 'soon' }, auth);
      expect(unknownEvent.json()).toMatchObject({ errorcode: 2011 });
      const notJson = await t.app.inject({
        method: 'POST',
        url: '/api/user/x_event/beam',
        headers: { ...auth, 'content-type': 'application/json' },
        payload: '{',
      });
      expect(notJson.statusCode).toBe(400);
    });
  });

  describe('POST /map/dynamic/bybbox', () => {
    it('answers the beaming points in the box with combined flags, promo URLs and ranks', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/map/dynamic/bybbox',
        payload: { southwest: { lat: 10, lon: 20 }, northeast: { lat: 11, lon: 21 } },
      });
      expect(res.statusCode).toBe(200);
      const body = res.json<{
        type: string;
        features: Array<{ geometry: { coordinates: number[] }; properties: Record<string, unknown> }>;
      }>();
      expect(body.type).toBe('FeatureCollection');
      const byId = new Map(body.features.map((f) => [f.properties['appnetid'], f]));
      expect([...byId.keys()].sort()).toEqual(['flag1', 'help1', 'shop1', 'venue1']);
      expect(byId.get('shop1')).toMatchObject({
        geometry: { coordinates: [20.5, 10.5] },
        properties: {
          title: 'shop1',
          class: 'bakery',
          streamtype: 'hotpoint',
          clickurl: '/map/promo/shop1/click',
          impressionurl: '/map/promo/shop1/impression',
          hidden: false,
          iconimage: '/media/icon.png',
        },
      });
      expect(byId.get('flag1')?.properties).toMatchObject({
        beam: ['hot', 'incident'],
        streamtype: 'other',
        clickurl: null,
      });
      expect(byId.get('help1')?.properties['beam']).toEqual(['helprequest']);
      expect(byId.get('venue1')?.properties['beam']).toEqual(['current']);
    });

    it('answers a GET with a JSON 405, not the web app', async () => {
      for (const url of ['/map/dynamic/bybbox', '/event/rbeamingbybbox', '/map/promo/shop1/click']) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(405);
        expect(res.json()).toMatchObject({ errorcode: 1006 });
      }
    });

    it('refuses a box out of range or upside down', async () => {
      for (const payload of [
        { southwest: { lat: -91, lon: 0 }, northeast: { lat: 1, lon: 1 } },
        { southwest: { lat: 5, lon: 0 }, northeast: { lat: 1, lon: 1 } },
        { southwest: { lat: 0, lon: 'x' }, northeast: { lat: 1, lon: 1 } },
        { northeast: { lat: 1, lon: 1 } },
      ]) {
        const res = await t.app.inject({ method: 'POST', url: '/map/dynamic/bybbox', payload });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ errorcode: 1003 });
      }
    });
  });

  describe('POST /event/rbeamingbybbox', () => {
    it('answers current and upcoming events in the box, with their opening intervals in UTC', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/event/rbeamingbybbox',
        payload: {
          southwest: { lat: 10, lon: 20 },
          northeast: { lat: 11, lon: 21 },
          zoomlevel: 12,
          limit: 50,
        },
      });
      expect(res.statusCode).toBe(200);
      const { features } = res.json<{ features: Array<Record<string, unknown>> }>();
      expect(features.map((f) => f['eventid'])).toEqual(['ev-now', 'ev-soon']);
      expect(features[0]).toMatchObject({
        appnetid: 'venue1',
        class: 'concert',
        event_opening_intervals_utc: [
          { start: new Date(NOW - 30 * MIN).toISOString(), end: new Date(NOW + 60 * MIN).toISOString() },
        ],
        lat: 10.55,
        lon: 20.55,
      });
      expect(features[1]).toMatchObject({ appnetid: 'ev-soon' });
      const one = await t.app.inject({
        method: 'POST',
        url: '/event/rbeamingbybbox',
        payload: {
          southwest: { lat: 10, lon: 20 },
          northeast: { lat: 11, lon: 21 },
          zoomlevel: 12,
          limit: 1,
        },
      });
      expect(one.json<{ features: unknown[] }>().features).toHaveLength(1);
      const tooMany = await t.app.inject({
        method: 'POST',
        url: '/event/rbeamingbybbox',
        payload: { southwest: { lat: 10, lon: 20 }, northeast: { lat: 11, lon: 21 }, limit: 51 },
      });
      expect(tooMany.json()).toEqual({
        field: 'limit',
        errorcode: 1003,
        error: 'limit: must be at most 50.',
      });
    });
  });

  describe('promo impressions and clicks', () => {
    /** Opens a long-poll session for each device, as the web app's live socket does, and waits until the server knows them. */
    async function meetDevices(...devices: string[]): Promise<void> {
      // each from its own address: one address may hold at most 20 long-poll sessions
      for (const [i, device] of devices.entries()) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/socket/longpoll?vsn=2.0.0&deviceId=${device}`,
          headers: { accept: 'application/json' },
          remoteAddress: `10.9.${i >> 8}.${i & 255}`,
        });
        expect(res.json()).toMatchObject({ status: 410 });
      }
      for (;;) {
        const known = await t.store.db
          .selectFrom('known_devices')
          .select('device_id')
          .where('device_id', 'in', devices)
          .execute();
        if (known.length === devices.length) return;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    const clicks = async (total: number, device: (i: number) => string, ip: string) => {
      let counted = 0;
      const statuses = new Set<number>();
      for (let i = 0; i < total; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/map/promo/shop1/click',
          headers: { 'x-forwarded-for': ip },
          payload: { deviceid: device(i) },
        });
        statuses.add(res.statusCode);
        if (res.statusCode === 200 && res.json().counted === true) counted++;
      }
      return { counted, statuses: [...statuses].sort() };
    };
    const statsTotal = async () =>
      Number(
        (
          await t.store.db
            .selectFrom('points')
            .select('stats_total')
            .where('id', '=', 'shop1')
            .executeTakeFirstOrThrow()
        ).stats_total,
      );

    it('count nothing for 200 clicks with device ids the server has never seen', async () => {
      const before = await statsTotal();
      const result = await clicks(200, (i) => `invented-${dialect}-${i}`, '192.0.2.10');
      expect(result.counted).toBe(0);
      expect(await statsTotal()).toBe(before);
    });

    it('count at most 60 clicks a minute from one address, even from devices that opened a socket', async () => {
      const devices = Array.from({ length: 200 }, (_, i) => `met-${dialect}-${i}`);
      await meetDevices(...devices);
      const before = await statsTotal();
      const result = await clicks(200, (i) => devices[i] ?? '', '192.0.2.20');
      expect(result.counted).toBe(60);
      expect(result.statuses).toEqual([200, 429]);
      expect(await statsTotal()).toBe(before + 60);
      // another address is not held up
      expect((await clicks(1, () => devices[199] ?? '', '192.0.2.21')).counted).toBe(1);
    });

    it('count once per device per point per hour into the point stats', async () => {
      await meetDevices('dev-1', 'dev-2', 'dev-3');
      await t.store.db.updateTable('points').set({ stats_total: 0 }).where('id', '=', 'shop1').execute();
      await t.store.db.deleteFrom('promo_events').execute();
      await sql`delete from live_activity`.execute(t.store.db);
      const post = (kind: string, deviceid: string, id = 'shop1') =>
        t.app.inject({ method: 'POST', url: `/map/promo/${id}/${kind}`, payload: { deviceid } });
      expect((await post('impression', 'dev-1')).json()).toEqual({ status: 'ok', counted: true });
      expect((await post('impression', 'dev-1')).json()).toEqual({ status: 'ok', counted: false });
      expect((await post('impression', 'dev-2')).json()).toEqual({ status: 'ok', counted: true });
      expect((await post('click', 'dev-1')).json()).toEqual({ status: 'ok', counted: true });
      const stats = await t.store.db
        .selectFrom('points')
        .select(['stats_total', 'stats_today', 'stats_this_month'])
        .where('id', '=', 'shop1')
        .executeTakeFirstOrThrow();
      expect(stats).toEqual({ stats_total: 3, stats_today: 3, stats_this_month: 3 });
      const viaQuery = await t.app.inject({ method: 'POST', url: '/map/promo/shop1/click?deviceid=dev-3' });
      expect(viaQuery.json()).toEqual({ status: 'ok', counted: true });

      const notPromo = await post('impression', 'dev-1', 'plain1');
      expect(notPromo.statusCode).toBe(404);
      expect(notPromo.json()).toMatchObject({ errorcode: 8005 });
      const badDevice = await post('impression', 'not a device');
      expect(badDevice.statusCode).toBe(400);
      expect(badDevice.json()).toMatchObject({ errorcode: 8004 });
      expect((await post('click', 'dev-1', 'ghost')).statusCode).toBe(404);
    });

    it('make a point hot on the dynamic layer', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/map/dynamic/bybbox',
        payload: { southwest: { lat: 10, lon: 20 }, northeast: { lat: 11, lon: 21 } },
      });
      const shop = res
        .json<{ features: Array<{ properties: Record<string, unknown> }> }>()
        .features.find((f) => f.properties['appnetid'] === 'shop1');
      // 2 impressions (1 each) + 2 clicks (3 each)
      expect(shop?.properties['rank']).toBe(8);
      expect(shop?.properties['beam']).toEqual(['hot']);
    });
  });
});
