import fs from 'node:fs';
import { PassThrough } from 'node:stream';
import path from 'node:path';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { Database, NewPoint } from '../../src/server/store/schema';
import { openTestApp, type TestApp } from '../support/app';
import { TEST_DIALECTS } from '../support/store';
import { bearer, registerUser, signIn, createAdmin } from '../support/accounts';
import { newPoint } from '../support/factories';
import { formBody } from '../support/multipart';

/**
 * The point and event write API of issue 8 through HTTP, on a real temporary store of each dialect:
 * every action allowed and refused per role (visitor, signed-in stranger, owner, consultant, admin),
 * bad input refused with a clear error and nothing stored, the two-editors conflict, a new point in
 * the map tiles within 2 s, and the opening-hours warnings. Expected values are written out here.
 */
const PASSWORD = 'writes-password-1';
type Role = 'visitor' | 'stranger' | 'owner' | 'consultant' | 'admin';
type Headers = Record<string, string>;

/** A small real PNG, as a data URL. */
async function pngDataUrl(width = 64, height = 48): Promise<string> {
  const png = await sharp({
    create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } },
  })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** The tile holding (lat, lon) at zoom z. */
function tileOf(lat: number, lon: number, z: number): [number, number] {
  const n = 2 ** z;
  const x = Math.floor(((lon + 180) / 360) * n);
  const s = Math.sin((lat * Math.PI) / 180);
  const y = Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n);
  return [x, y];
}

describe.each(TEST_DIALECTS)('point and event writes over HTTP (%s)', (dialect) => {
  let t: TestApp;
  const headers = {} as Record<Role, Headers>;
  const ids = {} as Record<'olivia' | 'carlos' | 'uma' | 'admin', string>;

  const post = (url: string, payload: unknown, as: Headers): Promise<LightMyRequestResponse> =>
    t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers: as });
  const get = (url: string, as: Headers) => t.app.inject({ method: 'GET', url, headers: as });
  const count = async (table: keyof Database) =>
    Number(
      (
        await t.store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const counts = async () => ({
    points: await count('points'),
    contacts: await count('contacts'),
    events: await count('events'),
    intervals: await count('event_intervals'),
    tickets: await count('event_tickets'),
    media: await count('media_assets'),
    screenshots: await count('point_screenshots'),
    claims: await count('point_claims'),
  });
  const pointRow = (id: string) =>
    t.store.db.selectFrom('points').selectAll().where('id', '=', id).executeTakeFirst();
  let made = 0;
  /** A point of olivia's consulted by carlos (or as `fields` say), stored directly. */
  const seedPoint = async (fields: Partial<NewPoint> = {}): Promise<string> => {
    made += 1;
    const id = `pw_${made}`;
    await t.store.db
      .insertInto('points')
      .values(
        newPoint({
          id,
          supertype: 'business',
          type: 'bakery',
          title: `Seeded bakery ${made}`,
          lat: 10 + made * 0.01,
          lon: 20,
          owner_userid: ids.olivia,
          consultant_userid: ids.carlos,
          ...fields,
        }),
      )
      .execute();
    return id;
  };
  const version = async (id: string) => Number((await pointRow(id))?.version);
  const expectError = (
    res: LightMyRequestResponse,
    status: number,
    errorcode: number,
    error?: RegExp | string,
  ) => {
    expect(res.statusCode, res.body).toBe(status);
    const body = res.json<{ errorcode: number; error: string }>();
    expect(body.errorcode, res.body).toBe(errorcode);
    if (typeof error === 'string') expect(body.error).toBe(error);
    else if (error) expect(body.error).toMatch(error);
  };

  beforeAll(async () => {
    t = await openTestApp({ dialect });
    for (const name of ['olivia', 'carlos', 'uma'])
      expect((await registerUser(t, name, PASSWORD)).statusCode).toBe(201);
    await createAdmin(t, PASSWORD);
    const olivia = await signIn(t, 'olivia', PASSWORD);
    const carlos = await signIn(t, 'carlos', PASSWORD);
    const uma = await signIn(t, 'uma', PASSWORD);
    const admin = await signIn(t, 'admin', PASSWORD);
    Object.assign(ids, { olivia: olivia.id, carlos: carlos.id, uma: uma.id, admin: admin.id });
    // API clients send the token; the browser sends the cookie and the anti-forgery token
    headers.owner = bearer(olivia.token);
    headers.consultant = { cookie: carlos.cookie, requestverificationtoken: carlos.antiforgery };
    headers.stranger = bearer(uma.token);
    headers.admin = { cookie: admin.cookie, requestverificationtoken: admin.antiforgery };
    const visitor = await t.app.inject({ method: 'GET', url: '/v1/account/antiforgery' });
    const visitorCookie = visitor.cookies.find((c) => c.name === 'xp_af');
    headers.visitor = {
      cookie: `xp_af=${visitorCookie?.value}`,
      requestverificationtoken: visitor.json<{ token: string }>().token,
    };
  });
  afterAll(() => t?.close());

  describe('create', () => {
    const addNew = (fields: Record<string, unknown> = {}) => ({
      supertype: 'service',
      type: 'dog_walking',
      title: 'Walkies by Wanda',
      lat: 40.7128,
      lon: -74.006,
      address: '',
      street: '12 Main St',
      city: 'New York',
      region: 'NY',
      postalcode: '10001',
      country: 'United States',
      ...fields,
    });

    it('lets a visitor add a point: 201 {id, supertype, url}, unowned and so claimable', async () => {
      const res = await post('/v1/xpoint/create', addNew(), headers.visitor);
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json();
      expect(body).toEqual({
        id: expect.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_-]{11}$/),
        supertype: 'service',
        url: `/m/${body.id}`,
        version: 1,
        openingHoursWarnings: [],
      });
      expect(res.headers['location']).toBe(`/m/${body.id}`);
      const row = await pointRow(body.id);
      expect(row).toMatchObject({
        supertype: 'service',
        type: 'dog_walking',
        title: 'Walkies by Wanda',
        lat: 40.7128,
        lon: -74.006,
        owner_userid: null,
        consultant_userid: null,
        street: '12 Main St',
        city_name: 'New York',
        region: 'NY',
        postalcode: '10001',
        country: 'United States',
        full_address: '12 Main St, 10001 New York, NY, United States',
        time_zone_name: 'America/New_York',
      });
      const permissions = await get(`/v1/xpoint/${body.id}/permissions`, headers.stranger);
      expect(permissions.json()).toMatchObject({ showClaimLink: true, controllable: false });
    });

    it('makes a signed-in creator the owner, for each add-new supertype', async () => {
      const cases = [
        ['virtualstore', 'online_shop', 's'],
        ['service', 'courier', 'm'],
        ['experience', 'city_tour', 'exp'],
        ['rental', 'bike', 'rent'],
      ];
      for (const [index, [supertype, type, prefix]] of cases.entries()) {
        const res = await post(
          '/v1/xpoint/create',
          addNew({ supertype, type, title: `Olivia's ${type}`, lat: 41 + index, lon: 2 }),
          headers.owner,
        );
        expect(res.statusCode, res.body).toBe(201);
        const { id, url } = res.json();
        expect(url).toBe(`/${prefix}/${id}`);
        expect((await pointRow(id))?.owner_userid).toBe(ids.olivia);
        // no address: the spec's 'lat,lon'
        const bare = await post(
          '/v1/xpoint/create',
          { supertype, type, title: `Bare ${type}`, lat: -33.5, lon: 151.25 },
          headers.owner,
        );
        expect((await pointRow(bare.json().id))?.full_address).toBe('-33.5,151.25');
      }
    });

    it('needs the visitor anti-forgery token for a visitor, and stores nothing without it', async () => {
      const before = await counts();
      const none = await post('/v1/xpoint/create', addNew({ title: 'No token' }), {});
      expectError(none, 403, 2003);
      const wrong = await post('/v1/xpoint/create', addNew({ title: 'Wrong token' }), {
        cookie: headers.visitor.cookie ?? '',
        requestverificationtoken: 'x'.repeat(43),
      });
      expectError(wrong, 403, 2003);
      expect(await counts()).toEqual(before);
    });

    it('asks a visitor to sign in before asking for help; a user may', async () => {
      const before = await counts();
      const help = {
        supertype: 'helprequest',
        type: 'tasks',
        title: 'Help me move a sofa',
        lat: 1.5,
        lon: 1.5,
      };
      expectError(await post('/v1/xpoint/create', help, headers.visitor), 401, 7028);
      expect(await counts()).toEqual(before);
      const res = await post(
        '/v1/xpoint/create',
        {
          ...help,
          helprequestdata: {
            taskduration_minutes: 90,
            taskbudget: '40.5',
            taskstart: '2030-01-02T10:00:00Z',
          },
          pickup_destination: '1 Oak Road',
          pickup_date_time: '2030-01-02T09:30:00Z',
        },
        headers.stranger,
      );
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().url).toBe(`/h/${res.json().id}`);
      expect(await pointRow(res.json().id)).toMatchObject({
        owner_userid: ids.uma,
        help_taskduration_minutes: 90,
        help_taskbudget: 40.5,
        help_taskstart: Date.UTC(2030, 0, 2, 10),
        pickup_destination: '1 Oak Road',
        pickup_date_time: Date.UTC(2030, 0, 2, 9, 30),
      });
    });

    it.each([
      ['a missing title', { title: undefined }, 400, 1003, 'title: is required.'],
      ['an all-space title', { title: '   ' }, 400, 1003, 'title: is required.'],
      ['a latitude out of range', { lat: 90.5 }, 400, 1003, 'lat: must be between -90 and 90.'],
      ['a longitude out of range', { lon: -180.01 }, 400, 1003, 'lon: must be between -180 and 180.'],
      ['a latitude that is not a number', { lat: 'north' }, 400, 1003, 'lat: must be a number.'],
      [
        'an unknown supertype',
        { supertype: 'shop' },
        400,
        7002,
        /supertype: "shop" is not something one can add/,
      ],
      [
        'a type of another supertype',
        { type: 'bakery' },
        400,
        7003,
        'type: "bakery" is not a type of service.',
      ],
      ['an unknown type', { type: 'spaceport' }, 400, 7003, /type: "spaceport"/],
      [
        'a help-request field on a service',
        { helprequestdata: { taskbudget: 5 } },
        400,
        7004,
        /helprequestdata/,
      ],
      ['a pickup without its time', { pickup_destination: 'Dock 4' }, 400, 7013, /pickup_date_time/],
      ['a bad email', { link_email: 'me@localhost' }, 400, 1003, /link_email: Please enter a valid email/],
      ['a javascript: website', { link_website: 'javascript:alert(1)' }, 400, 1003, /link_website/],
      [
        'bad opening hours',
        { opening_hours: 'Mo-Fr 25:00-26:99' },
        400,
        7012,
        /opening_hours: .*greater than 59/,
      ],
      [
        'a CUST contact without its role text',
        { contacts: [{ roleid: 'CUST', contact_firstname: 'Al' }] },
        400,
        1003,
        /contacts\.0\.roleoverride/,
      ],
      [
        'an unknown contact role',
        { contacts: [{ roleid: 'BOSS', contact_firstname: 'Al' }] },
        400,
        1003,
        /contacts\.0\.roleid/,
      ],
    ])('refuses %s with a clear error and stores nothing', async (_name, fields, status, code, message) => {
      const before = await counts();
      const res = await post(
        '/v1/xpoint/create',
        addNew({ title: 'Refused place', ...fields }),
        headers.owner,
      );
      expectError(res, status, code, message);
      expect(await counts()).toEqual(before);
    });

    it('limits how many points one visitor adds in ten minutes', async () => {
      const from = { ...headers.visitor, 'x-forwarded-for': '10.250.0.1' };
      const statuses: number[] = [];
      for (let n = 0; n < 61; n++)
        statuses.push((await post('/v1/xpoint/create', addNew({ title: '' }), from)).statusCode);
      expect(statuses.slice(0, 60).every((s) => s === 400)).toBe(true);
      const limited = await post('/v1/xpoint/create', addNew({ title: 'One too many' }), from);
      expectError(limited, 429, 1020, /^Too many requests; try again in \d+ s\.$/);
      expect(limited.headers['retry-after']).toBeDefined();
      // another client address, and a signed-in person, are counted apart
      const other = await post('/v1/xpoint/create', addNew({ title: '' }), {
        ...headers.visitor,
        'x-forwarded-for': '10.250.0.2',
      });
      expect(other.statusCode).toBe(400);
    });

    it('refuses a body that is not an object', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/xpoint/create',
        headers: { ...headers.owner, 'content-type': 'application/json' },
        payload: '[1,2]',
      });
      expectError(res, 400, 1003, 'body: must be a JSON object.');
    });
  });

  describe('possible duplicates', () => {
    it('finds the same or a similar name within 100 m, and create asks before adding it', async () => {
      const original = await post(
        '/v1/xpoint/create',
        {
          supertype: 'experience',
          type: 'food_tour',
          title: 'Café Central Tour',
          lat: 48.2104,
          lon: 16.3655,
        },
        headers.owner,
      );
      expect(original.statusCode, original.body).toBe(201);
      const id = original.json().id;
      // ~50 m north, accent and case folded, one letter off
      const near = {
        supertype: 'experience',
        type: 'food_tour',
        title: 'cafe central tours',
        lat: 48.21085,
        lon: 16.3655,
      };
      const found = await post('/v1/xpoint/duplicates', near, headers.visitor);
      expect(found.statusCode, found.body).toBe(200);
      expect(found.json().candidates).toEqual([
        {
          id,
          title: 'Café Central Tour',
          supertype: 'experience',
          type: 'food_tour',
          url: `/exp/${id}`,
          distance_m: 50,
        },
      ]);

      const before = await counts();
      const refused = await post('/v1/xpoint/create', near, headers.visitor);
      expectError(refused, 409, 7001, /"Café Central Tour" \(50 m\)/);
      expect(refused.json().candidates).toHaveLength(1);
      expect(await counts()).toEqual(before);

      const confirmed = await post(
        '/v1/xpoint/create',
        { ...near, confirmNotDuplicate: true },
        headers.visitor,
      );
      expect(confirmed.statusCode, confirmed.body).toBe(201);

      // another name at the same spot, or the same name 300 m away, is no duplicate
      const other = await post(
        '/v1/xpoint/duplicates',
        { ...near, title: 'Danube Kayak Rental' },
        headers.visitor,
      );
      expect(other.json().candidates).toEqual([]);
      const far = await post('/v1/xpoint/duplicates', { ...near, lat: 48.2131 }, headers.visitor);
      expect(far.json().candidates).toEqual([]);
      // word overlap: most words shared
      const words = await post('/v1/xpoint/duplicates', { ...near, title: 'Central Café' }, headers.visitor);
      expect(words.json().candidates.map((c: { id: string }) => c.id)).toContain(id);
    });
  });

  describe('map tiles', () => {
    /** The properties of `id` in the zoom-18 tile holding (lat, lon), or undefined. */
    const inTile = async (id: string, lat: number, lon: number) => {
      const [x, y] = tileOf(lat, lon, 18);
      const tile = await get(`/tiles/points/18/${x}/${y}.mvt`, {});
      if (tile.statusCode !== 200) return undefined;
      for (const layer of Object.values(new VectorTile(new PbfReader(tile.rawPayload)).layers))
        for (let i = 0; i < layer.length; i++) {
          const properties = layer.feature(i).properties;
          if (properties['appnetid'] === id) return properties;
        }
      return undefined;
    };
    /** Polls until `check` holds; fails past 2 s. */
    const within2s = async (check: () => Promise<boolean>) => {
      const started = Date.now();
      while (!(await check())) {
        if (Date.now() - started > 2000) return false;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return true;
    };

    it('shows a created point in the point tiles within 2 s, moves it on edit and drops it on delete', async () => {
      const lat = -12.0464;
      const lon = -77.0428;
      const res = await post(
        '/v1/xpoint/create',
        { supertype: 'rental', type: 'kayak', title: 'Lima Kayaks', lat, lon },
        headers.owner,
      );
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().id;
      expect(await within2s(async () => (await inTile(id, lat, lon)) !== undefined)).toBe(true);
      expect(await inTile(id, lat, lon)).toMatchObject({
        appnetid: id,
        title: 'Lima Kayaks',
        supertype: 'rental',
        clickurl: `/rent/${id}`,
      });

      const moved = await post(
        '/v1/xpoint/update',
        { id, version: 1, title: 'Lima Kayaks & SUP', lat: -12.1, lon: -77.05 },
        headers.owner,
      );
      expect(moved.statusCode, moved.body).toBe(200);
      expect(
        await within2s(async () => (await inTile(id, -12.1, -77.05))?.['title'] === 'Lima Kayaks & SUP'),
      ).toBe(true);
      expect(await inTile(id, lat, lon)).toBeUndefined();

      expect((await post('/v1/xpoint/delete', { id }, headers.owner)).statusCode).toBe(200);
      expect(await within2s(async () => (await inTile(id, -12.1, -77.05)) === undefined)).toBe(true);
    });

    it('shows a created event in the tiles within 2 s', async () => {
      const start = Date.now() + 3_600_000;
      const res = await post(
        '/v1/event/create',
        {
          title: 'Harbour fireworks',
          type: 'party',
          start_date: start,
          end_date: start + 7_200_000,
          lat: 60.1699,
          lon: 24.9384,
        },
        headers.stranger,
      );
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().id;
      expect(await within2s(async () => (await inTile(id, 60.1699, 24.9384)) !== undefined)).toBe(true);
      expect(await inTile(id, 60.1699, 24.9384)).toMatchObject({ supertype: 'event', clickurl: `/e/${id}` });
    });
  });

  describe('search', () => {
    it('finds a created point by its name within 2 s, and no longer once deleted', async () => {
      const suggested = async (id: string) => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/app/searchsuggestions',
          payload: { q: 'Zebulon Quokka', maxresults: 10 },
        });
        return res.statusCode === 200 && (res.json() as { id: string }[]).some((s) => s.id === id);
      };
      const waitFor = async (want: boolean, id: string) => {
        const started = Date.now();
        while ((await suggested(id)) !== want && Date.now() - started <= 2000)
          await new Promise((resolve) => setTimeout(resolve, 25));
        return (await suggested(id)) === want;
      };
      const res = await post(
        '/v1/xpoint/create',
        {
          supertype: 'experience',
          type: 'bike_tour',
          title: 'Zebulon Quokka Bike Tours',
          lat: -31.95,
          lon: 115.86,
        },
        headers.owner,
      );
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().id;
      expect(await waitFor(true, id), 'found by search within 2 s').toBe(true);
      expect((await post('/v1/xpoint/delete', { id }, headers.owner)).statusCode).toBe(200);
      expect(await waitFor(false, id), 'gone from search within 2 s').toBe(true);
    });
  });

  describe('update', () => {
    it.each([
      ['owner', 200],
      ['consultant', 200],
      ['admin', 200],
      ['stranger', 403],
      ['visitor', 401],
    ] as const)('lets the %s edit a point: %i', async (role, status) => {
      const id = await seedPoint();
      const res = await post(
        '/v1/xpoint/update',
        { id, version: 1, title: `Renamed by ${role}`, tagline: 'Fresh every morning' },
        headers[role],
      );
      expect(res.statusCode, res.body).toBe(status);
      const row = await pointRow(id);
      if (status === 200) {
        expect(res.json()).toEqual({
          id,
          supertype: 'business',
          url: `/b/${id}`,
          version: 2,
          openingHoursWarnings: [],
        });
        expect(row).toMatchObject({
          title: `Renamed by ${role}`,
          tagline: 'Fresh every morning',
          version: 2,
        });
      } else {
        expect(res.json().errorcode).toBe(status === 401 ? 1010 : 1011);
        expect(row).toMatchObject({
          title: expect.stringMatching(/^Seeded bakery/),
          tagline: null,
          version: 1,
        });
      }
    });

    it('refuses the second of two editors who loaded the same version, and writes nothing for it', async () => {
      const id = await seedPoint();
      const loadedByOwner = (await get(`/v1/xpoint/${id}/edit`, headers.owner)).json();
      const loadedByConsultant = (await get(`/v1/xpoint/${id}/edit`, headers.consultant)).json();
      expect(loadedByOwner.version).toBe(1);
      expect(loadedByConsultant.version).toBe(1);
      const first = await post(
        '/v1/xpoint/update',
        { id, version: loadedByOwner.version, description: 'Owner wrote this' },
        headers.owner,
      );
      expect(first.statusCode, first.body).toBe(200);
      const second = await post(
        '/v1/xpoint/update',
        {
          id,
          version: loadedByConsultant.version,
          description: 'Consultant wrote this',
          title: 'Other title',
        },
        headers.consultant,
      );
      expectError(second, 409, 1012, 'This was changed by someone else; reload and try again.');
      expect(await pointRow(id)).toMatchObject({ description: 'Owner wrote this', version: 2 });
      expect((await pointRow(id))?.title).toMatch(/^Seeded bakery/);
      // reloading gives the new version, and then the save goes through
      const reloaded = (await get(`/v1/xpoint/${id}/edit`, headers.consultant)).json();
      const third = await post(
        '/v1/xpoint/update',
        { id, version: reloaded.version, description: 'Consultant wrote this' },
        headers.consultant,
      );
      expect(third.json().version).toBe(3);
    });

    it('lets exactly one of two simultaneous saves of one version through', async () => {
      const id = await seedPoint();
      const [a, b] = await Promise.all([
        post('/v1/xpoint/update', { id, version: 1, tagline: 'From the owner' }, headers.owner),
        post('/v1/xpoint/update', { id, version: 1, tagline: 'From the admin' }, headers.admin),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
      const winner = a.statusCode === 200 ? 'From the owner' : 'From the admin';
      expect(await pointRow(id)).toMatchObject({ tagline: winner, version: 2 });
    });

    it('checks opening hours with the opening_hours library and returns its warnings for the form', async () => {
      const id = await seedPoint();
      const res = await post(
        '/v1/xpoint/update',
        { id, version: 1, opening_hours: 'mon-fri 8-18' },
        headers.owner,
      );
      expect(res.statusCode, res.body).toBe(200);
      const warnings = res.json().openingHoursWarnings as {
        type: string;
        message: string;
        position: number;
      }[];
      expect(warnings.map((w) => w.type)).toEqual([
        'word_error_correction',
        'word_error_correction',
        'without_minutes',
      ]);
      expect(warnings[0]).toEqual({
        type: 'word_error_correction',
        message: 'Please use the English abbreviation "Mo" for "mon".',
        position: 3,
      });
      // wrong words are corrected (spec §5): the stored value is the library's
      expect((await pointRow(id))?.opening_hours).toBe('Mo-Fr 08:00-18:00');

      const clean = await post(
        '/v1/xpoint/update',
        { id, version: 2, opening_hours: 'Mo-Fr 08:00-12:00,13:00-17:30; Sa 09:00-13:00' },
        headers.owner,
      );
      expect(clean.json().openingHoursWarnings).toEqual([]);

      const bad = await post(
        '/v1/xpoint/update',
        { id, version: 3, opening_hours: 'Mo-Fr 08:00-18:60' },
        headers.owner,
      );
      expectError(bad, 400, 7012, /^opening_hours: /);
      expect(await pointRow(id)).toMatchObject({
        opening_hours: 'Mo-Fr 08:00-12:00,13:00-17:30; Sa 09:00-13:00',
        version: 3,
      });
      const cleared = await post('/v1/xpoint/update', { id, version: 3, opening_hours: '' }, headers.owner);
      expect(cleared.statusCode).toBe(200);
      expect((await pointRow(id))?.opening_hours).toBeNull();
    });

    it('edits every field: contacts with role codes, links, coordinates, service and help-request fields', async () => {
      const id = await seedPoint({ supertype: 'service', type: 'courier' });
      const res = await post(
        '/v1/xpoint/update',
        {
          id,
          version: 1,
          description: 'x'.repeat(400),
          lat: 51.5074,
          lon: -0.1278,
          address: '221B Baker Street, London',
          link_email: 'hello@example.com',
          link_phone: '+44 20 7946 0958',
          link_website: 'example.com/courier',
          link_facebook: 'https://facebook.com/courier',
          contacts: [
            { roleid: 'OWNR', contact_firstname: 'Olivia', contact_username: 'olivia' },
            { roleid: 'CUST', roleoverride: 'Head rider', contact_lastname: 'Rider' },
          ],
          meonmap_enabled: 'yes',
          xpointService: 'Same-day delivery',
          owner_callchat_priceperminute: '0.499',
          allow_consulting: false,
        },
        headers.owner,
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(await pointRow(id)).toMatchObject({
        description: 'x'.repeat(400),
        lat: 51.5074,
        lon: -0.1278,
        full_address: '221B Baker Street, London',
        time_zone_name: 'Europe/London',
        link_email: 'hello@example.com',
        link_phone: '+44 20 7946 0958',
        link_website: 'https://example.com/courier',
        link_facebook: 'https://facebook.com/courier',
        meonmap_enabled: 1,
        xpoint_service: 'Same-day delivery',
        owner_callchat_priceperminute: 0.5,
        allow_consulting: 0,
      });
      const edit = (await get(`/v1/xpoint/${id}/edit`, headers.owner)).json();
      expect(edit.contacts).toEqual([
        {
          roleid: 'OWNR',
          roleoverride: null,
          contact_firstname: 'Olivia',
          contact_lastname: null,
          contact_username: 'olivia',
        },
        {
          roleid: 'CUST',
          roleoverride: 'Head rider',
          contact_firstname: null,
          contact_lastname: 'Rider',
          contact_username: null,
        },
      ]);
      expect(edit).toMatchObject({
        version: 2,
        meonmap_enabled: true,
        allow_consulting: false,
        url: `/m/${id}`,
      });

      // [] removes every contact; fields of other supertypes and a supertype change are refused
      await post('/v1/xpoint/update', { id, version: 2, contacts: [] }, headers.owner);
      expect((await get(`/v1/xpoint/${id}/edit`, headers.owner)).json().contacts).toEqual([]);
      const before = await counts();
      expectError(
        await post(
          '/v1/xpoint/update',
          { id, version: 3, helprequestdata: { canquote: true } },
          headers.owner,
        ),
        400,
        7004,
      );
      expectError(
        await post('/v1/xpoint/update', { id, version: 3, supertype: 'rental' }, headers.owner),
        400,
        7005,
      );
      expectError(
        await post('/v1/xpoint/update', { id, version: 3, type: 'bakery' }, headers.owner),
        400,
        7003,
      );
      expectError(await post('/v1/xpoint/update', { id, version: 3, lat: -91 }, headers.owner), 400, 1003);
      expectError(
        await post('/v1/xpoint/update', { id, version: 3, title: '' }, headers.owner),
        400,
        1003,
        'title: is required.',
      );
      expect(await counts()).toEqual(before);
      expect(await version(id)).toBe(3);
    });

    it('lets only the owner or an admin change allow_consulting', async () => {
      const id = await seedPoint();
      expectError(
        await post('/v1/xpoint/update', { id, version: 1, allow_consulting: false }, headers.consultant),
        403,
        7027,
      );
      expect(
        (await post('/v1/xpoint/update', { id, version: 1, allow_consulting: 0 }, headers.admin)).statusCode,
      ).toBe(200);
    });

    it('answers 404 for a point that is not there and 400 for a bad id', async () => {
      expectError(
        await post('/v1/xpoint/update', { id: 'no_such_point', version: 1 }, headers.owner),
        404,
        2010,
      );
      expectError(
        await post('/v1/xpoint/update', { id: 'bad id!', version: 1 }, headers.owner),
        400,
        1003,
        /^id: /,
      );
      expectError(
        await post('/v1/xpoint/update', { id: 'x1' }, headers.owner),
        400,
        1003,
        /^version: is required/,
      );
    });
  });

  describe('delete', () => {
    it.each([
      ['owner', 200],
      ['consultant', 403],
      ['admin', 200],
      ['stranger', 403],
      ['visitor', 401],
    ] as const)('answers the %s deleting a point: %i', async (role, status) => {
      const id = await seedPoint();
      const res = await post('/v1/xpoint/delete', { id }, headers[role]);
      expect(res.statusCode, res.body).toBe(status);
      expect(await pointRow(id)).toEqual(status === 200 ? undefined : expect.objectContaining({ id }));
      if (status === 200) {
        expect(res.json()).toEqual({ ok: true, id });
        expectError(await post('/v1/xpoint/delete', { id }, headers[role]), 404, 2010);
      }
    });

    it('needs a target', async () => {
      expectError(await post('/v1/xpoint/delete', {}, headers.owner), 400, 1003, 'id: is required.');
    });
  });

  describe('claim', () => {
    it('reads the body before asking who writes: a visitor sending no target is told the field', async () => {
      expectError(await post('/v1/xpoint/claim', {}, headers.visitor), 400, 1003, 'id: is required.');
      expectError(await post('/v1/event/create', {}, headers.visitor), 400, 1003, 'title: is required.');
    });

    it('records a claim as pending: the point shows verification pending and the claimant controls nothing', async () => {
      const id = await seedPoint({ owner_userid: null, consultant_userid: null });
      expectError(await post('/v1/xpoint/claim', { id }, headers.visitor), 401, 1010);
      const before = await counts();
      expectError(await post('/v1/xpoint/claim', { id, text: 'It is mine' }, headers.stranger), 400, 7021);
      expect(await counts()).toEqual(before);
      const res = await post('/v1/xpoint/claim', { id }, headers.stranger);
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json()).toEqual({
        id,
        url: `/b/${id}`,
        owner_username: null,
        consultant_username: null,
        version: 2,
        status: 'pending',
      });
      expect(await pointRow(id)).toMatchObject({ owner_userid: null, health_status: 1 });
      // asking again answers the same claim
      expect((await post('/v1/xpoint/claim', { id }, headers.stranger)).statusCode).toBe(202);
      expect(await count('point_claims')).toBe(before.claims + 1);
      // before an admin approves, the claimant can neither edit nor delete it
      expectError(
        await post('/v1/xpoint/update', { id, version: 2, title: 'Uma’s bakery' }, headers.stranger),
        403,
        1011,
      );
      expectError(await post('/v1/xpoint/delete', { id }, headers.stranger), 403, 1011);
      expect(await pointRow(id)).toMatchObject({ title: expect.stringMatching(/^Seeded bakery/) });
      // their panel says what the claim waits for, and offers nothing else in its place
      const panel = (await get(`/v1/webonly/xpointdetails/${id}`, headers.stranger)).json();
      expect(panel.controls).toMatchObject({ claim_pending: true, claim: null, become_consultant: null });
      // the claimant sees it in their points, marked pending
      const mine = (await get('/v1/account/mypoints', headers.stranger)).json();
      expect(mine.items.find((i: { id: string }) => i.id === id)).toMatchObject({ role: 'claimant' });
    });

    it('lets an admin approve a claim from the queue: the claimant owns it, verified, other claims declined', async () => {
      const id = await seedPoint({ owner_userid: null, consultant_userid: null, title: 'Queue bakery' });
      expect((await post('/v1/xpoint/claim', { id }, headers.stranger)).statusCode).toBe(202);
      expect((await post('/v1/xpoint/claim', { id }, headers.owner)).statusCode).toBe(202);
      expectError(await get('/v1/admin/claims', headers.visitor), 401, 1010);
      expectError(await get('/v1/admin/claims', headers.stranger), 403, 1011);
      const queue = (await get('/v1/admin/claims', headers.admin)).json();
      const claims = queue.items.filter((c: { point_id: string }) => c.point_id === id);
      expect(claims.map((c: { username: string }) => c.username)).toEqual(['uma', 'olivia']);
      expect(claims[0]).toMatchObject({ point_title: 'Queue bakery', url: `/b/${id}`, text: null });
      expectError(await post('/v1/admin/claims/approve', { id: claims[0].id }, headers.stranger), 403, 1011);
      const ok = await post('/v1/admin/claims/approve', { id: claims[0].id }, headers.admin);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ status: 'approved', owner_username: 'uma', point_id: id });
      expect(await pointRow(id)).toMatchObject({ owner_userid: ids.uma, health_status: 2 });
      // the other claim was declined with it
      expectError(await post('/v1/admin/claims/approve', { id: claims[1].id }, headers.admin), 404, 7041);
      const current = await version(id);
      expect(
        (await post('/v1/xpoint/update', { id, version: current, title: 'Uma’s bakery' }, headers.stranger))
          .statusCode,
      ).toBe(200);
    });

    it('lets an admin decline a claim: the point returns to its earlier health status', async () => {
      const id = await seedPoint({ owner_userid: null, consultant_userid: null });
      await post('/v1/xpoint/claim', { id }, headers.stranger);
      const queue = (await get('/v1/admin/claims', headers.admin)).json();
      const claim = queue.items.find((c: { point_id: string }) => c.point_id === id);
      const res = await post('/v1/admin/claims/decline', { id: claim.id }, headers.admin);
      expect(res.statusCode, res.body).toBe(200);
      expect(await pointRow(id)).toMatchObject({ owner_userid: null, health_status: 0 });
    });

    it('takes a claim text for experiences and rentals only', async () => {
      for (const supertype of ['experience', 'rental']) {
        const id = await seedPoint({
          supertype,
          type: 'custom',
          owner_userid: null,
          consultant_userid: null,
        });
        const res = await post(
          '/v1/xpoint/claim',
          { id, text: 'I run this tour every Sunday.' },
          headers.stranger,
        );
        expect(res.statusCode, res.body).toBe(202);
        const claim = await t.store.db
          .selectFrom('point_claims')
          .select(['user_id', 'text', 'status'])
          .where('point_id', '=', id)
          .executeTakeFirst();
        expect(claim).toEqual({ user_id: ids.uma, text: 'I run this tour every Sunday.', status: 'pending' });
      }
    });

    it('refuses an owned point', async () => {
      const id = await seedPoint();
      expectError(await post('/v1/xpoint/claim', { id }, headers.stranger), 409, 7020);
      expect((await pointRow(id))?.owner_userid).toBe(ids.olivia);
    });
  });

  describe('consulting', () => {
    it('makes asking to consult an owned point a request: the requester can neither update nor delete it', async () => {
      const id = await seedPoint({ consultant_userid: null });
      expectError(await post('/v1/xpoint/becomeconsultant', { id }, headers.visitor), 401, 1010);
      expectError(await post('/v1/xpoint/becomeconsultant', { id }, headers.owner), 409, 7024);
      const res = await post('/v1/xpoint/becomeconsultant', { id }, headers.stranger);
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json()).toMatchObject({
        owner_username: 'olivia',
        consultant_username: null,
        status: 'pending',
      });
      // asking again answers the same request
      expect((await post('/v1/xpoint/becomeconsultant', { id }, headers.stranger)).statusCode).toBe(202);
      expectError(
        await post('/v1/xpoint/update', { id, version: 1, tagline: 'By Uma' }, headers.stranger),
        403,
        1011,
      );
      expectError(await post('/v1/xpoint/delete', { id }, headers.stranger), 403, 1011);
      expect(await pointRow(id)).toMatchObject({ consultant_userid: null, tagline: null });
      // the owner sees one request and accepts it
      expectError(await get(`/v1/xpoint/consultantrequests?id=${id}`, headers.stranger), 403, 1011);
      const list = (await get(`/v1/xpoint/consultantrequests?id=${id}`, headers.owner)).json();
      expect(list.items.map((r: { username: string }) => r.username)).toEqual(['uma']);
      expectError(
        await post('/v1/xpoint/consultantrequest/accept', { id, username: 'uma' }, headers.stranger),
        403,
        1011,
      );
      const accepted = await post(
        '/v1/xpoint/consultantrequest/accept',
        { id, username: 'uma' },
        headers.owner,
      );
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(accepted.json()).toMatchObject({ consultant_username: 'uma', status: 'done' });
      // now a consultant: edits, but never deletes, nor changes who consults
      expect(
        (await post('/v1/xpoint/update', { id, version: 2, tagline: 'By Uma' }, headers.stranger)).statusCode,
      ).toBe(200);
      expectError(await post('/v1/xpoint/delete', { id }, headers.stranger), 403, 1011);
      expectError(
        await post('/v1/xpoint/update', { id, version: 3, allow_consulting: false }, headers.stranger),
        403,
        7027,
      );
      // the consultant stops
      const stop = await post('/v1/xpoint/clearconsultant', { id }, headers.stranger);
      expect(stop.statusCode, stop.body).toBe(200);
      expect(stop.json()).toMatchObject({ consultant_username: null });
      expectError(
        await post('/v1/xpoint/update', { id, version: 4, tagline: 'Still Uma?' }, headers.stranger),
        403,
        1011,
      );
    });

    it('lets the owner decline a request; the requester then controls nothing', async () => {
      const id = await seedPoint({ consultant_userid: null });
      expect((await post('/v1/xpoint/becomeconsultant', { id }, headers.stranger)).statusCode).toBe(202);
      const res = await post('/v1/xpoint/consultantrequest/decline', { id, username: 'UMA' }, headers.owner);
      expect(res.statusCode, res.body).toBe(200);
      expectError(
        await post('/v1/xpoint/consultantrequest/accept', { id, username: 'uma' }, headers.owner),
        404,
        7040,
      );
      expect((await pointRow(id))?.consultant_userid).toBeNull();
    });

    it('lets the owner dismiss the consultant at any time', async () => {
      const id = await seedPoint();
      expectError(await post('/v1/xpoint/clearconsultant', { id }, headers.stranger), 403, 7025);
      const res = await post('/v1/xpoint/clearconsultant', { id }, headers.owner);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ consultant_username: null, owner_username: 'olivia' });
      expect((await pointRow(id))?.consultant_userid).toBeNull();
      expectError(await post('/v1/xpoint/clearconsultant', { id }, headers.owner), 409, 7042);
    });

    it('declines the pending requests when the owner turns consulting off', async () => {
      const id = await seedPoint({ consultant_userid: null });
      expect((await post('/v1/xpoint/becomeconsultant', { id }, headers.stranger)).statusCode).toBe(202);
      const off = await post('/v1/xpoint/update', { id, version: 1, allow_consulting: false }, headers.owner);
      expect(off.statusCode, off.body).toBe(200);
      const list = (await get(`/v1/xpoint/consultantrequests?id=${id}`, headers.owner)).json();
      expect(list.items).toEqual([]);
      expectError(
        await post('/v1/xpoint/consultantrequest/accept', { id, username: 'uma' }, headers.owner),
        404,
        7040,
      );
      expectError(await post('/v1/xpoint/becomeconsultant', { id }, headers.stranger), 403, 7023);
      expect((await pointRow(id))?.consultant_userid).toBeNull();
    });

    it('lets an admin end consulting', async () => {
      const id = await seedPoint();
      const res = await post('/v1/xpoint/clearconsultant', { id }, headers.admin);
      expect(res.statusCode, res.body).toBe(200);
      expect((await pointRow(id))?.consultant_userid).toBeNull();
    });

    it('makes the consultant of an unowned point at once; refuses when consulting is off, and on reports', async () => {
      const closed = await seedPoint({ consultant_userid: null, allow_consulting: 0 });
      expectError(await post('/v1/xpoint/becomeconsultant', { id: closed }, headers.stranger), 403, 7023);
      const unowned = await seedPoint({ owner_userid: null, consultant_userid: null, allow_consulting: 0 });
      const res = await post('/v1/xpoint/becomeconsultant', { id: unowned }, headers.stranger);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ consultant_username: 'uma', status: 'done' });
      const report = await seedPoint({ supertype: 'incident', type: 'accident', consultant_userid: null });
      expectError(await post('/v1/xpoint/becomeconsultant', { id: report }, headers.stranger), 400, 7026);
      expect((await pointRow(closed))?.consultant_userid).toBeNull();
    });
  });

  describe('media', () => {
    const mediaDir = () => path.join(t.config.dataDir, 'media');
    /** temporary files of uploads in progress (the resumable video uploads keep a directory of their own there) */
    const uploadLeftovers = () =>
      fs.readdirSync(path.join(mediaDir(), '.uploads')).filter((name) => name !== 'videos');
    /** the stored files (the .uploads directory of uploads in progress left out) */
    const mediaFiles = () => fs.readdirSync(mediaDir()).filter((name) => !name.startsWith('.'));
    /** POST /v1/xpoint/media as multipart/form-data, as the web app sends it */
    const upload = async (
      fields: Record<string, string | number>,
      file?: { name: string; type: string; data: Buffer },
      as: Headers = headers.owner,
    ) => {
      const form = await formBody(fields, file);
      return t.app.inject({
        method: 'POST',
        url: '/v1/xpoint/media',
        headers: { ...as, ...form.headers },
        payload: form.payload,
      });
    };

    it.each(['/v1/xpoint/media', '/v1/event/media', '/v1/account/avatar'])(
      'tells a visitor to sign in at %s before reading a body that claims 130 MB',
      async (url) => {
        // the body never ends: only an answer given before reading it can come back
        const body = new PassThrough();
        body.write('{"id":"x","version":1,"slot":"cover_video","data":"data:video/mp4;base64,AAAA');
        try {
          const res = await t.app.inject({
            method: 'POST',
            url,
            headers: { 'content-type': 'application/json', 'content-length': String(130 * 1024 * 1024) },
            payload: body,
          });
          expectError(res, 401, 1010);
        } finally {
          body.destroy();
        }
      },
      10_000,
    );

    it('stores a cover image resized as WebP, content-addressed, and bumps the version', async () => {
      const id = await seedPoint();
      const image = await pngDataUrl(3000, 1000);
      expectError(
        await post(
          '/v1/xpoint/media',
          { id, version: 1, slot: 'cover_image', data: image },
          headers.stranger,
        ),
        403,
        1011,
      );
      const res = await post(
        '/v1/xpoint/media',
        { id, version: 1, slot: 'cover_image', data: image },
        headers.owner,
      );
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toEqual({
        id,
        slot: 'cover_image',
        position: null,
        url: expect.stringMatching(/^\/media\/[0-9a-f]{64}\.webp$/),
        version: 2,
      });
      const file = path.join(mediaDir(), path.basename(body.url));
      expect(await sharp(fs.readFileSync(file)).metadata()).toMatchObject({
        format: 'webp',
        width: 1920,
        height: 640,
      });
      expect((await pointRow(id))?.url_cover_image).toBe(body.url);
      const asset = await t.store.db
        .selectFrom('media_assets')
        .selectAll()
        .where('id', '=', path.basename(body.url, '.webp'))
        .executeTakeFirst();
      expect(asset).toMatchObject({ mime: 'image/webp', width: 1920, height: 640, owner_userid: ids.olivia });
      const served = await get(body.url, {});
      expect(served.statusCode).toBe(200);
      // a stale version is a conflict, and the slot keeps its file
      expectError(
        await post('/v1/xpoint/media', { id, version: 1, slot: 'logo', data: image }, headers.owner),
        409,
        1012,
      );
      // null removes
      const removed = await post(
        '/v1/xpoint/media',
        { id, version: 2, slot: 'cover_image', data: null },
        headers.owner,
      );
      expect(removed.json()).toMatchObject({ url: null, version: 3 });
      expect((await pointRow(id))?.url_cover_image).toBeNull();
    });

    it('refuses a text file named .jpg, an oversized image and a fake video, storing nothing', async () => {
      const id = await seedPoint();
      const before = await counts();
      const files = mediaFiles().length;
      const textBytes = Buffer.from('this is not a picture, just text in a file called photo.jpg');
      const text = textBytes.toString('base64');
      expectError(
        await post(
          '/v1/xpoint/media',
          { id, version: 1, slot: 'logo', data: `data:image/jpeg;base64,${text}` },
          headers.owner,
        ),
        400,
        2009,
      );
      expectError(
        await upload(
          { id, version: 1, slot: 'logo' },
          { name: 'photo.jpg', type: 'image/jpeg', data: textBytes },
        ),
        400,
        2009,
      );
      const big = Buffer.alloc(10_485_760 + 1024, 7).toString('base64');
      expectError(
        await post(
          '/v1/xpoint/media',
          { id, version: 1, slot: 'cover_image', data: `data:image/png;base64,${big}` },
          headers.owner,
        ),
        413,
        2008,
        'Invalid image size. Max allowed 10 MB',
      );
      expectError(
        await upload(
          { id, version: 1, slot: 'cover_image' },
          { name: 'big.png', type: 'image/png', data: Buffer.alloc(10_485_760 + 1, 7) },
        ),
        413,
        2008,
        'Invalid image size. Max allowed 10 MB',
      );
      expectError(
        await upload(
          { id, version: 1, slot: 'cover_video' },
          { name: 'clip.mp4', type: 'video/mp4', data: textBytes },
        ),
        400,
        7030,
      );
      expectError(
        await upload(
          { id, version: 1, slot: 'cover_video' },
          { name: 'clip.mp4', type: 'video/mp4', data: Buffer.alloc(0) },
        ),
        400,
        7033,
        /the file is empty/,
      );
      expect(await counts()).toEqual(before);
      expect(mediaFiles().length).toBe(files);
      expect(uploadLeftovers()).toEqual([]);
      expect(await version(id)).toBe(1);
    });

    it('refuses a video sent as base64 JSON, pointing to multipart', async () => {
      const id = await seedPoint();
      const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom'), Buffer.alloc(200, 1)]);
      expectError(
        await post(
          '/v1/xpoint/media',
          { id, version: 1, slot: 'cover_video', data: `data:video/mp4;base64,${mp4.toString('base64')}` },
          headers.owner,
        ),
        415,
        7034,
        /multipart\/form-data/,
      );
      // removing a video needs no file, so JSON still does it
      const removed = await post(
        '/v1/xpoint/media',
        { id, version: 1, slot: 'cover_video', data: null },
        headers.owner,
      );
      expect(removed.statusCode, removed.body).toBe(200);
    });

    it('stores a video and an image sent as multipart/form-data', async () => {
      const id = await seedPoint();
      // the start of an MP4: a 'ftyp' box with the isom brand
      const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom'), Buffer.alloc(200, 1)]);
      const res = await upload(
        { id, version: 1, slot: 'cover_video' },
        { name: 'clip.mp4', type: 'video/mp4', data: mp4 },
        headers.consultant,
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ slot: 'cover_video', version: 2 });
      expect(res.json().url).toMatch(/^\/media\/[0-9a-f]{64}\.mp4$/);
      expect(fs.readFileSync(path.join(mediaDir(), path.basename(res.json().url))).equals(mp4)).toBe(true);
      expect((await pointRow(id))?.url_cover_video).toBe(res.json().url);

      const png = await sharp({ create: { width: 900, height: 300, channels: 3, background: '#48c' } })
        .png()
        .toBuffer();
      const shot = await upload(
        { id, version: 2, slot: 'screenshot', position: 3 },
        { name: 'deck.png', type: 'image/png', data: png },
      );
      expect(shot.statusCode, shot.body).toBe(200);
      expect(shot.json()).toMatchObject({ slot: 'screenshot', position: 3, version: 3 });
      const file = path.join(mediaDir(), path.basename(shot.json().url));
      expect(await sharp(fs.readFileSync(file)).metadata()).toMatchObject({ format: 'webp', width: 900 });
      expect(uploadLeftovers()).toEqual([]);
    });

    it('checks the fields and who may upload before the file, in multipart too', async () => {
      const id = await seedPoint();
      const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#000' } })
        .png()
        .toBuffer();
      const file = { name: 'a.png', type: 'image/png', data: png };
      expectError(await upload({ id, version: 1, slot: 'logo' }, file, headers.stranger), 403, 1011);
      expectError(await upload({ id, version: 7, slot: 'logo' }, file), 409, 1012);
      expectError(await upload({ id, version: 1, slot: 'poster' }, file), 400, 1003, /^slot: must be one of/);
      expectError(await upload({ id, version: 1, slot: 'logo' }), 400, 1003, 'file: is required.');
      expect(await version(id)).toBe(1);
    });

    it('takes up to 14 screenshots', async () => {
      const id = await seedPoint();
      let v = 1;
      const image = await pngDataUrl(40, 40);
      for (let n = 1; n <= 14; n++) {
        const res = await post(
          '/v1/xpoint/media',
          { id, version: v, slot: 'screenshot', data: image },
          headers.owner,
        );
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().position).toBe(n);
        v = res.json().version;
      }
      expectError(
        await post('/v1/xpoint/media', { id, version: v, slot: 'screenshot', data: image }, headers.owner),
        400,
        7032,
        /at most 14 screenshots/,
      );
      expectError(
        await post(
          '/v1/xpoint/media',
          { id, version: v, slot: 'screenshot', position: 15, data: image },
          headers.owner,
        ),
        400,
        1003,
        'position: must be between 1 and 14.',
      );
      const removed = await post(
        '/v1/xpoint/media',
        { id, version: v, slot: 'screenshot', position: 3, data: null },
        headers.owner,
      );
      expect(removed.statusCode, removed.body).toBe(200);
      const edit = (await get(`/v1/xpoint/${id}/edit`, headers.owner)).json();
      expect(edit.screenshots.map((s: { position: number }) => s.position)).toEqual([
        1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
      ]);
    });
  });

  describe('events', () => {
    const event = (fields: Record<string, unknown> = {}) => ({
      title: 'Jazz in the park',
      type: 'concert',
      start_date: '2030-06-01T18:00:00Z',
      end_date: '2030-06-01T22:00:00Z',
      lat: 52.52,
      lon: 13.405,
      admission: 'paid',
      admissionprice: 12.5,
      tickets: [
        { name: 'Standing', unit_price: 12.5, max_quantity: 10 },
        { name: 'Seat', unit_price: 30, max_quantity: 4 },
      ],
      ...fields,
    });

    it('lets a signed-in user add an event; a visitor must sign in', async () => {
      expectError(await post('/v1/event/create', event(), headers.visitor), 401, 1010);
      const res = await post('/v1/event/create', event(), headers.stranger);
      expect(res.statusCode, res.body).toBe(201);
      const { id } = res.json();
      expect(res.json()).toEqual({ id, url: `/e/${id}`, version: 1, xpoint_id: null });
      const edit = (await get(`/v1/event/${id}/edit`, headers.stranger)).json();
      expect(edit).toMatchObject({
        title: 'Jazz in the park',
        start_date: Date.UTC(2030, 5, 1, 18),
        end_date: Date.UTC(2030, 5, 1, 22),
        event_opening_intervals_utc: [{ start: Date.UTC(2030, 5, 1, 18), end: Date.UTC(2030, 5, 1, 22) }],
        admission: 'paid',
        admissionprice: 12.5,
        tickets: [
          { name: 'Standing', unit_price: 12.5, max_quantity: 10 },
          { name: 'Seat', unit_price: 30, max_quantity: 4 },
        ],
        owner_username: 'uma',
        version: 1,
      });
      expectError(await get(`/v1/event/${id}/edit`, headers.owner), 403, 1011);
    });

    it.each([
      [
        'an end before the start',
        { end_date: '2030-06-01T17:00:00Z' },
        7010,
        'end_date: must be after start_date.',
      ],
      ['an end equal to the start', { end_date: '2030-06-01T18:00:00Z' }, 7010, /end_date/],
      [
        'a start before 1901',
        { start_date: '1900-12-31T23:59:59Z' },
        7011,
        'start_date: dates before 1901 are invalid.',
      ],
      [
        'an interval before 1901',
        { event_opening_intervals_utc: [{ start: -2_300_000_000_000, end: '2030-06-01T19:00:00Z' }] },
        7011,
        /event_opening_intervals_utc\.0\.start: dates before 1901/,
      ],
      [
        'an interval outside the event',
        { event_opening_intervals_utc: [{ start: '2030-06-01T17:00:00Z', end: '2030-06-01T19:00:00Z' }] },
        7010,
        /event_opening_intervals_utc\.0/,
      ],
      ['an unknown type', { type: 'rave' }, 7003, 'type: "rave" is not a type of event.'],
      ['a paid admission without a price', { admissionprice: undefined }, 7014, /admissionprice/],
      ['no place', { lat: undefined, lon: undefined }, 7015, /lat/],
      [
        'a date that is no date',
        { start_date: 'next friday' },
        1003,
        /start_date: Please enter a valid date/,
      ],
      [
        'a negative ticket price',
        { tickets: [{ name: 'A', unit_price: -1, max_quantity: 1 }] },
        1003,
        /tickets\.0\.unit_price/,
      ],
    ])('refuses %s and stores nothing', async (_name, fields, code, message) => {
      const before = await counts();
      expectError(await post('/v1/event/create', event(fields), headers.stranger), 400, code, message);
      expect(await counts()).toEqual(before);
    });

    it('adds an event as a child of a point its creator controls', async () => {
      const parent = await seedPoint();
      const child = { ...event(), lat: undefined, lon: undefined, xpoint_id: parent };
      expectError(await post('/v1/event/create', child, headers.stranger), 403, 1011);
      const res = await post('/v1/event/create', child, headers.owner);
      expect(res.statusCode, res.body).toBe(201);
      const row = await t.store.db
        .selectFrom('events')
        .selectAll()
        .where('id', '=', res.json().id)
        .executeTakeFirst();
      const point = await pointRow(parent);
      expect(row).toMatchObject({
        xpoint_id: parent,
        owner_userid: ids.olivia,
        lat: point?.lat,
        lon: point?.lon,
      });
      expectError(
        await post('/v1/event/create', { ...child, xpoint_id: 'no_such_point' }, headers.owner),
        404,
        2010,
      );
    });

    it('lets the owner and an admin edit and delete an event, not the point’s consultant; versions guard edits', async () => {
      const parent = await seedPoint();
      const created = await post('/v1/event/create', { ...event(), xpoint_id: parent }, headers.owner);
      const id = created.json().id;
      expectError(
        await post('/v1/event/update', { id, version: 1, title: 'Mine now' }, headers.consultant),
        403,
        1011,
      );
      expectError(
        await post('/v1/event/update', { id, version: 1, title: 'Mine now' }, headers.visitor),
        401,
        1010,
      );
      const moved = await post(
        '/v1/event/update',
        { id, version: 1, start_date: '2030-06-02T18:00:00Z', end_date: '2030-06-02T23:00:00Z' },
        headers.owner,
      );
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json()).toEqual({ id, url: `/e/${id}`, version: 2, xpoint_id: parent });
      // the default opening follows the dates
      expect((await get(`/v1/event/${id}/edit`, headers.owner)).json().event_opening_intervals_utc).toEqual([
        { start: Date.UTC(2030, 5, 2, 18), end: Date.UTC(2030, 5, 2, 23) },
      ]);
      const before = await counts();
      expectError(
        await post('/v1/event/update', { id, version: 1, title: 'Stale' }, headers.admin),
        409,
        1012,
      );
      expectError(
        await post('/v1/event/update', { id, version: 2, end_date: '2030-06-02T17:00:00Z' }, headers.owner),
        400,
        7010,
      );
      expectError(
        await post('/v1/event/update', { id, version: 2, start_date: '1850-01-01' }, headers.owner),
        400,
        7011,
      );
      expectError(
        await post('/v1/event/update', { id, version: 2, admissionprice: null }, headers.owner),
        400,
        7014,
      );
      expect(await counts()).toEqual(before);
      const byAdmin = await post(
        '/v1/event/update',
        {
          id,
          version: 2,
          title: 'Jazz by the river',
          admission: 'free',
          event_opening_intervals_utc: [
            { start: '2030-06-02T18:00:00Z', end: '2030-06-02T20:00:00Z' },
            { start: '2030-06-02T21:00:00Z', end: '2030-06-02T23:00:00Z' },
          ],
          tickets: [],
        },
        headers.admin,
      );
      expect(byAdmin.statusCode, byAdmin.body).toBe(200);
      const edit = (await get(`/v1/event/${id}/edit`, headers.owner)).json();
      expect(edit).toMatchObject({ title: 'Jazz by the river', admission: 'free', tickets: [], version: 3 });
      expect(edit.event_opening_intervals_utc).toHaveLength(2);

      expectError(await post('/v1/event/delete', { id }, headers.stranger), 403, 1011);
      expectError(await post('/v1/event/delete', { id }, headers.consultant), 403, 1011);
      const gone = await post('/v1/event/delete', { id }, headers.owner);
      expect(gone.json()).toEqual({ ok: true, id });
      expect(await counts()).toMatchObject({ events: before.events - 1 });
      expectError(await post('/v1/event/delete', { id }, headers.owner), 404, 2011);
    });
  });

  describe('event cover', () => {
    it('lets the event owner set a cover image, checked by content, at the version loaded', async () => {
      const created = await post(
        '/v1/event/create',
        {
          title: 'Gallery night',
          type: 'art',
          start_date: '2030-03-01T19:00:00Z',
          end_date: '2030-03-01T23:00:00Z',
          lat: 3,
          lon: 3,
        },
        headers.owner,
      );
      const id = created.json().id;
      const image = await pngDataUrl(100, 50);
      expectError(
        await post('/v1/event/media', { id, version: 1, data: image }, headers.stranger),
        403,
        1011,
      );
      const text = Buffer.from('plain text pretending to be a jpeg').toString('base64');
      expectError(
        await post(
          '/v1/event/media',
          { id, version: 1, data: `data:image/jpeg;base64,${text}` },
          headers.owner,
        ),
        400,
        2009,
      );
      const res = await post('/v1/event/media', { id, version: 1, data: image }, headers.owner);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        id,
        cover_url: expect.stringMatching(/^\/media\/[0-9a-f]{64}\.webp$/),
        version: 2,
      });
      expect((await get(`/v1/event/${id}/edit`, headers.owner)).json().cover_url).toBe(res.json().cover_url);
      expectError(await post('/v1/event/media', { id, version: 1, data: null }, headers.owner), 409, 1012);
    });
  });

  describe('copy to new', () => {
    it('copies a help request: the edit fields of one, sent to create, make another', async () => {
      const created = await post(
        '/v1/xpoint/create',
        {
          supertype: 'helprequest',
          type: 'jobs',
          title: 'Paint my fence',
          lat: 7.25,
          lon: 7.25,
          description: 'Two coats, white.',
          helprequestdata: { taskduration_minutes: 240, taskbudget: 80, canquote: 'yes' },
        },
        headers.stranger,
      );
      const source = (await get(`/v1/xpoint/${created.json().id}/edit`, headers.stranger)).json();
      expectError(await get(`/v1/xpoint/${created.json().id}/edit`, headers.owner), 403, 1011);
      expectError(await get(`/v1/xpoint/${created.json().id}/edit`, headers.visitor), 401, 1010);
      const copy = await post(
        '/v1/xpoint/create',
        {
          supertype: source.supertype,
          type: source.type,
          title: source.title,
          lat: source.lat,
          lon: source.lon,
          description: source.description,
          helprequestdata: source.helprequestdata,
          confirmNotDuplicate: true,
        },
        headers.stranger,
      );
      expect(copy.statusCode, copy.body).toBe(201);
      expect(copy.json().id).not.toBe(source.id);
      const copied = (await get(`/v1/xpoint/${copy.json().id}/edit`, headers.stranger)).json();
      expect(copied).toMatchObject({
        title: 'Paint my fence',
        description: 'Two coats, white.',
        helprequestdata: {
          taskduration_minutes: 240,
          taskbudget: 80,
          taskstart: null,
          canacceptjob: false,
          canquote: true,
        },
        owner_username: 'uma',
        version: 1,
      });
    });
  });

  describe('my points', () => {
    it('lists the signed-in user’s points and events, and needs an account', async () => {
      expectError(await get('/v1/account/mypoints', {}), 401, 1010);
      const fresh = await registerUser(t, 'mona', PASSWORD);
      expect(fresh.statusCode).toBe(201);
      const mona = await signIn(t, 'mona', PASSWORD);
      const as = bearer(mona.token);
      const a = (
        await post(
          '/v1/xpoint/create',
          { supertype: 'rental', type: 'boat', title: 'Mona boats', lat: 5, lon: 5 },
          as,
        )
      ).json();
      const h = (
        await post(
          '/v1/xpoint/create',
          { supertype: 'helprequest', type: 'jobs', title: 'Need a painter', lat: 5.5, lon: 5 },
          as,
        )
      ).json();
      const e = (
        await post(
          '/v1/event/create',
          {
            title: 'Boat day',
            type: 'sports',
            start_date: '2031-01-01',
            end_date: '2031-01-02',
            lat: 5,
            lon: 5,
          },
          as,
        )
      ).json();
      const consulted = await seedPoint({ consultant_userid: mona.id });
      const all = (await get('/v1/account/mypoints', as)).json();
      expect(all.total).toBe(4);
      expect(all.pagenumber).toBe(1);
      expect(all.pagesize).toBe(12);
      expect(all.items.map((i: { id: string }) => i.id).sort()).toEqual([a.id, h.id, e.id, consulted].sort());
      expect(all.items.find((i: { id: string }) => i.id === e.id)).toMatchObject({
        kind: 'event',
        supertype: 'event',
        url: `/e/${e.id}`,
        role: 'owner',
        start_date: Date.UTC(2031, 0, 1),
      });
      expect(all.items.find((i: { id: string }) => i.id === consulted)).toMatchObject({
        kind: 'point',
        role: 'consultant',
        url: `/b/${consulted}`,
      });
      const help = (await get('/v1/account/mypoints?supertype=helprequest', as)).json();
      expect(help.items.map((i: { id: string }) => i.id)).toEqual([h.id]);
      expect(help.total).toBe(1);
      const events = (await get('/v1/account/mypoints?supertype=event', as)).json();
      expect(events.items.map((i: { id: string }) => i.id)).toEqual([e.id]);
      const page2 = (await get('/v1/account/mypoints?pagesize=3&pagenumber=2', as)).json();
      expect(page2).toMatchObject({ total: 4, pagenumber: 2, pagesize: 3 });
      expect(page2.items).toHaveLength(1);
      expectError(await get('/v1/account/mypoints?supertype=spaceship', as), 400, 7002);
    });
  });
});
