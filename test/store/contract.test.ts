import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { openTestStore, type TestStore } from '../support/store';
import { TEST_DIALECTS } from '../support/store';
import { openStore } from '../../src/server/store/store';
import { migrateToLatest } from '../../src/server/store/migrate';
import { pointsInBounds, searchPointsText } from '../../src/server/store/geo';
import type { Database, NewCity, NewPoint, NewUser } from '../../src/server/store/schema';
import { citiesStartingWith, cityBySlug, closestCities } from '../../src/server/features/cities/queries';
import { newPoint } from '../support/factories';

/** Every table of schema.ts; `satisfies` makes a new table there fail to compile until it is listed. */
const TABLES = Object.keys({
  users: true,
  cities: true,
  points: true,
  point_screenshots: true,
  contacts: true,
  events: true,
  event_intervals: true,
  event_tickets: true,
  posts: true,
  reviews: true,
  likes: true,
  like_counts: true,
  comments: true,
  follows: true,
  notifications: true,
  website_parts: true,
  website_part_pictures: true,
  websites: true,
  media_assets: true,
  promo_events: true,
  sessions: true,
  login_throttle: true,
  known_devices: true,
  point_changes: true,
  callback_requests: true,
  inbox_messages: true,
  point_health_photos: true,
  point_claims: true,
  consultant_requests: true,
  videos: true,
  jobs: true,
  rental_availability: true,
  bookings: true,
  booking_nights: true,
  chat_conversations: true,
  chat_messages: true,
  web_vitals: true,
} satisfies Record<keyof Database, true>);

/** A time past 2^32 ms, so a bigint read back as a string or a truncated int would show. */
const T0 = 1_717_171_717_171;

let made = 0;
/** A point with every NOT NULL column filled; ids are unique within the run. */
function pointRow(fields: Partial<NewPoint> = {}): NewPoint {
  made += 1;
  return newPoint({ id: `pt_${made}`, title: `Point ${made}`, created_at: T0, updated_at: T0, ...fields });
}

function userRow(username: string, fields: Partial<NewUser> = {}): NewUser {
  return {
    id: `u_${username}`,
    username,
    username_lower: username.toLowerCase(),
    email: `${username}@example.test`,
    email_lower: `${username.toLowerCase()}@example.test`,
    fullname: `${username} Example`,
    avatar_url: null,
    status: 'active',
    is_admin: 0,
    password_hash: null,
    created_at: T0,
    updated_at: T0,
    ...fields,
  };
}

function cityRow(
  id: number,
  city: string,
  slug: string,
  lat: number,
  lon: number,
  population: number,
  iso2 = 'XX',
): NewCity {
  return {
    id,
    city,
    city_forurl: slug,
    state: null,
    country: `Country ${iso2}`,
    iso2,
    lat,
    lon,
    population,
    time_zone: 'UTC',
  };
}

/** Great-circle distance by the spherical law of cosines: a formula apart from the code's haversine. */
function referenceDistance(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const c =
    Math.sin(lat1 * r) * Math.sin(lat2 * r) +
    Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.cos((lon2 - lon1) * r);
  return Math.acos(Math.max(-1, Math.min(1, c)));
}

const HOSTILE_QUERIES = [
  '',
  ' ',
  '"',
  '""',
  "'",
  "''",
  '*',
  '**',
  '(',
  ')',
  'AND',
  'OR',
  'NOT',
  'a AND',
  'NEAR(a b)',
  '-',
  '^',
  ':',
  ':*',
  '&',
  '|',
  '!',
  '<->',
  '\\',
  'caf"é',
  "o'brien",
  'title:caf',
  '{title}: x',
  '%_',
  '😀',
  '\u0301',
  'a \u0301 b',
  '_',
  'ǅ',
  '١٢٣',
  'a\u200bb',
  'ﬁ',
  'ß',
  'İstanbul',
  '\u0000',
  'x'.repeat(2000),
  'a b c d e f g h i j k l m n o p',
];

describe.each(TEST_DIALECTS)('store contract on %s', (dialect) => {
  let store: TestStore;
  let db: Kysely<Database>;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    db = store.db;
  });
  afterAll(async () => {
    await store?.dispose();
  });

  describe('schema', () => {
    it('applies the migrations once: re-opening the store runs none again', async () => {
      expect(await migrateToLatest(db as unknown as Kysely<unknown>, dialect)).toEqual([]);
      const again =
        dialect === 'sqlite'
          ? await openStore({
              dataDir: path.dirname(store.location),
              sqliteFile: path.basename(store.location),
            })
          : await openStore({ databaseUrl: store.location, dataDir: '/nonexistent' });
      try {
        expect(await migrateToLatest(again.db as unknown as Kysely<unknown>, dialect)).toEqual([]);
        const applied = await (again.db as unknown as Kysely<{ kysely_migration: { name: string } }>)
          .selectFrom('kysely_migration')
          .select('name')
          .execute();
        // each migration once, in name order (new ones are appended by their own changes)
        const names = applied.map((m) => m.name);
        expect(names[0]).toBe('0001_initial');
        expect(names).toContain('0002_sessions');
        expect(names).toEqual([...new Set(names)].sort());
      } finally {
        await again.close();
      }
    });

    it('has every table of schema.ts', async () => {
      const tables = (await db.introspection.getTables()).map((t) => t.name);
      for (const table of TABLES) expect(tables).toContain(table);
    });
  });

  describe('values and constraints', () => {
    it('reads a user back with the same JavaScript values (times and flags are numbers)', async () => {
      const user = userRow('RoundTrip', {
        is_admin: 1,
        avatar_url: 'https://example.test/a.png',
        password_hash: 'x',
      });
      await db.insertInto('users').values(user).execute();
      const back = await db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(back).toEqual(user);
      expect(typeof back.created_at).toBe('number');
      expect(typeof back.is_admin).toBe('number');
    });

    it('reads a point back with numbers for coordinates, flags, times and its generated keys', async () => {
      const row = pointRow({ lat: 12.345678, lon: -98.765432, rating: 87.5, pickup_date_time: T0 + 1 });
      await db.insertInto('points').values(row).execute();
      const back = await db
        .selectFrom('points')
        .selectAll()
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow();
      expect(back).toMatchObject(row);
      expect(back.version).toBe(1);
      expect(typeof back.seq).toBe('number');
    });

    it('keeps usernames unique whatever their case', async () => {
      await db.insertInto('users').values(userRow('Alice')).execute();
      await expect(
        db
          .insertInto('users')
          .values(
            userRow('alice', {
              id: 'u_alice_2',
              email: 'other@example.test',
              email_lower: 'other@example.test',
            }),
          )
          .execute(),
      ).rejects.toThrow();
    });

    it('enforces foreign keys', async () => {
      await expect(
        db
          .insertInto('contacts')
          .values({ point_id: 'no_such_point', roleid: 'OWNR', position: 0 })
          .execute(),
      ).rejects.toThrow();
    });

    it('deletes a point with its contacts, screenshots and events', async () => {
      const point = pointRow();
      await db.insertInto('points').values(point).execute();
      await db
        .insertInto('contacts')
        .values([
          { point_id: point.id, roleid: 'OWNR', position: 0 },
          { point_id: point.id, roleid: 'CUST', roleoverride: 'Chef', position: 1 },
        ])
        .execute();
      await db
        .insertInto('point_screenshots')
        .values({ point_id: point.id, position: 1, url: 'https://example.test/1.png' })
        .execute();
      await db
        .insertInto('events')
        .values({
          id: `ev_${point.id}`,
          xpoint_id: point.id,
          title: 'Opening night',
          type: 'party',
          start_date: T0,
          end_date: T0 + 3_600_000,
          lat: 0,
          lon: 0,
          admission: 'free',
          created_at: T0,
          updated_at: T0,
        })
        .execute();

      await db.deleteFrom('points').where('id', '=', point.id).execute();

      const left = await Promise.all([
        db.selectFrom('contacts').select('id').where('point_id', '=', point.id).execute(),
        db.selectFrom('point_screenshots').select('url').where('point_id', '=', point.id).execute(),
        db.selectFrom('events').select('id').where('xpoint_id', '=', point.id).execute(),
      ]);
      expect(left.map((rows) => rows.length)).toEqual([0, 0, 0]);
    });

    it('enforces check constraints (stars 1..5, screenshot positions 1..14)', async () => {
      const point = pointRow();
      await db.insertInto('points').values(point).execute();
      await db.insertInto('users').values(userRow('Reviewer')).execute();
      const review = {
        point_id: point.id,
        user_id: 'u_Reviewer',
        text: null,
        created_at: T0,
        updated_at: T0,
      };
      await expect(
        db
          .insertInto('reviews')
          .values({ ...review, id: 'r_bad', stars: 6 })
          .execute(),
      ).rejects.toThrow();
      await db
        .insertInto('reviews')
        .values({ ...review, id: 'r_good', stars: 5 })
        .execute();
      await expect(
        db.insertInto('point_screenshots').values({ point_id: point.id, position: 15, url: 'u' }).execute(),
      ).rejects.toThrow();
      await db
        .insertInto('point_screenshots')
        .values({ point_id: point.id, position: 14, url: 'u' })
        .execute();
    });
  });

  describe('pointsInBounds', () => {
    const inside = pointRow({ id: 'geo_inside', lat: 40.7, lon: -74.0 });
    const edge = pointRow({ id: 'geo_edge', lat: 41, lon: -73 });
    const outside = pointRow({ id: 'geo_outside', lat: 40.7, lon: -72.9 });
    const east = pointRow({ id: 'geo_east_of_180', lat: -17, lon: 179.5 });
    const west = pointRow({ id: 'geo_west_of_180', lat: -17, lon: -179.5 });
    const far = pointRow({ id: 'geo_far', lat: -17, lon: 170 });
    const nyc = { south: 40, west: -75, north: 41, east: -73 };

    beforeAll(async () => {
      await db.insertInto('points').values([inside, edge, outside, east, west, far]).execute();
    });

    it('finds the points inside the bounds, edges included, and not those outside', async () => {
      const ids = await pointsInBounds(store, nyc, 100);
      expect(ids.sort()).toEqual(['geo_edge', 'geo_inside']);
    });

    it('finds points on both sides of the antimeridian when west > east', async () => {
      const ids = await pointsInBounds(store, { south: -18, west: 179, north: -16, east: -179 }, 100);
      expect(ids.sort()).toEqual(['geo_east_of_180', 'geo_west_of_180']);
    });

    it('reads longitudes beyond 180 as the repeated world', async () => {
      const ids = await pointsInBounds(store, { south: -18, west: 179, north: -16, east: 181 }, 100);
      expect(ids.sort()).toEqual(['geo_east_of_180', 'geo_west_of_180']);
      const whole = await pointsInBounds(store, { south: -18, west: -200, north: -16, east: 200 }, 100);
      expect(whole.sort()).toEqual(['geo_east_of_180', 'geo_far', 'geo_west_of_180']);
    });

    it('does not wrap a box that stays on one side', async () => {
      const ids = await pointsInBounds(store, { south: -18, west: -179, north: -16, east: 179 }, 100);
      expect(ids).toContain('geo_far');
      expect(ids).not.toContain('geo_east_of_180');
      expect(ids).not.toContain('geo_west_of_180');
    });

    it('honours the limit and rejects inverted or non-numeric bounds', async () => {
      expect(await pointsInBounds(store, nyc, 1)).toHaveLength(1);
      expect(await pointsInBounds(store, { ...nyc, south: 42 }, 100)).toEqual([]);
      expect(await pointsInBounds(store, { ...nyc, west: Number.NaN }, 100)).toEqual([]);
    });

    it('follows a point whose coordinates change', async () => {
      const moving = pointRow({ id: 'geo_moving', lat: 40.5, lon: -74.5 });
      await db.insertInto('points').values(moving).execute();
      expect(await pointsInBounds(store, nyc, 100)).toContain('geo_moving');
      await db.updateTable('points').set({ lat: 10, lon: 10 }).where('id', '=', moving.id).execute();
      expect(await pointsInBounds(store, nyc, 100)).not.toContain('geo_moving');
      expect(await pointsInBounds(store, { south: 9, west: 9, north: 11, east: 11 }, 100)).toContain(
        'geo_moving',
      );
      await db.deleteFrom('points').where('id', '=', moving.id).execute();
      expect(await pointsInBounds(store, { south: 9, west: 9, north: 11, east: 11 }, 100)).not.toContain(
        'geo_moving',
      );
    });
  });

  describe('searchPointsText', () => {
    beforeAll(async () => {
      await db
        .insertInto('points')
        .values([
          pointRow({ id: 'txt_cafe_accent', title: 'Café Crème', type: 'coffee_shop' }),
          pointRow({ id: 'txt_cafe_plain', title: 'Cafe Luna', type: 'coffee_shop' }),
          pointRow({
            id: 'txt_bakery',
            title: 'Golden Crust',
            tagline: 'Bread every morning',
            type: 'bakery',
          }),
          pointRow({ id: 'txt_address', title: 'Corner Store', full_address: '12 Quayside Road, Hull' }),
        ])
        .execute();
    });

    it('finds points by a prefix of a title word, case-insensitively', async () => {
      expect((await searchPointsText(store, 'caf', 10)).sort()).toEqual([
        'txt_cafe_accent',
        'txt_cafe_plain',
      ]);
      expect(await searchPointsText(store, 'GOLD', 10)).toEqual(['txt_bakery']);
    });

    it('finds points by type, tagline and address', async () => {
      expect(await searchPointsText(store, 'baker', 10)).toEqual(['txt_bakery']);
      expect(await searchPointsText(store, 'morning', 10)).toEqual(['txt_bakery']);
      expect(await searchPointsText(store, 'quaysi', 10)).toEqual(['txt_address']);
    });

    it('needs every word to match', async () => {
      expect(await searchPointsText(store, 'cafe lu', 10)).toEqual(['txt_cafe_plain']);
      expect(await searchPointsText(store, 'golden luna', 10)).toEqual([]);
    });

    it('matches an accented query against accented and plain spellings', async () => {
      expect((await searchPointsText(store, 'café', 10)).sort()).toEqual([
        'txt_cafe_accent',
        'txt_cafe_plain',
      ]);
      expect(await searchPointsText(store, 'CRÈME', 10)).toEqual(['txt_cafe_accent']);
    });

    it('matches a plain query against an accented title', async () => {
      expect(await searchPointsText(store, 'creme', 10)).toEqual(['txt_cafe_accent']);
    });

    it('reflects updates and deletes', async () => {
      const point = pointRow({ id: 'txt_changing', title: 'Old Mill' });
      await db.insertInto('points').values(point).execute();
      expect(await searchPointsText(store, 'mill', 10)).toEqual(['txt_changing']);
      await db.updateTable('points').set({ title: 'Windmill Tavern' }).where('id', '=', point.id).execute();
      expect(await searchPointsText(store, 'mill', 10)).toEqual([]);
      expect(await searchPointsText(store, 'old', 10)).toEqual([]);
      expect(await searchPointsText(store, 'tavern', 10)).toEqual(['txt_changing']);
      await db.deleteFrom('points').where('id', '=', point.id).execute();
      expect(await searchPointsText(store, 'tavern', 10)).toEqual([]);
    });

    it('honours the limit', async () => {
      expect(await searchPointsText(store, 'caf', 1)).toHaveLength(1);
    });

    it('never throws on hostile input', async () => {
      for (const query of HOSTILE_QUERIES) {
        const ids = await searchPointsText(store, query, 10);
        expect(Array.isArray(ids), JSON.stringify(query)).toBe(true);
      }
      expect(await searchPointsText(store, '"', 10)).toEqual([]);
      expect(await searchPointsText(store, '', 10)).toEqual([]);
      expect((await searchPointsText(store, '"caf" OR (', 10)).sort()).toEqual([]);
      expect((await searchPointsText(store, 'caf*', 10)).sort()).toEqual([
        'txt_cafe_accent',
        'txt_cafe_plain',
      ]);
    });
  });

  describe('cities', () => {
    const fixture = [
      cityRow(101, 'Eastgate', 'eastgate-fj', -17, 179.4, 5_000, 'FJ'),
      cityRow(102, 'Westgate', 'westgate-fj', -17, -179.9, 3_000, 'FJ'),
      cityRow(103, 'Farwest', 'farwest-ws', -16.5, -178.5, 2_000, 'WS'),
      cityRow(104, 'Northisle', 'northisle-fj', -16, 179.9, 1_500, 'FJ'),
      cityRow(105, 'Southreef', 'southreef-to', -20, -178, 1_200, 'TO'),
      cityRow(106, 'Polar One', 'polar-one-aq', 89.5, 180, 10, 'AQ'),
      cityRow(107, 'Polar Two', 'polar-two-aq', 88, 0, 20, 'AQ'),
      cityRow(108, 'Zürich', 'zurich-ch', 47.37, 8.54, 341_730, 'CH'),
      cityRow(109, 'Zurich', 'zurich-us', 40.87, -97.99, 1_100, 'US'),
      cityRow(110, 'Zug', 'zug-ch', 47.17, 8.52, 30_000, 'CH'),
      cityRow(111, 'São Paulo', 'sao-paulo-br', -23.55, -46.63, 10_021_295, 'BR'),
      cityRow(112, 'Bad', 'bad-de', 50, 10, 5_000, 'DE'),
      cityRow(113, 'Bad Doberan', 'bad-doberan-de', 54.1, 11.9, 12_000, 'DE'),
      // near (0, 0): one in the corner of the search box, a nearer one just outside its side
      cityRow(114, 'Cornerville', 'cornerville-gh', 0.85, 0.85, 1_000, 'GH'),
      cityRow(115, 'Edgeton', 'edgeton-gh', 0, 1.0, 1_000, 'GH'),
      cityRow(116, 'Октябрьский', '116-by', 53.6, 30.2, 2_000, 'BY'),
    ];

    beforeAll(async () => {
      await db.insertInto('cities').values(fixture).execute();
    });

    const nearestByReference = (lat: number, lon: number, n: number) =>
      [...fixture]
        .sort((a, b) => referenceDistance(lat, lon, a.lat, a.lon) - referenceDistance(lat, lon, b.lat, b.lon))
        .slice(0, n)
        .map((c) => c.id);

    it('finds the nearest city across the antimeridian first', async () => {
      const found = await closestCities(db, -17, 179.9, 5);
      expect(found.map((c) => c.id)).toEqual(nearestByReference(-17, 179.9, 5));
      expect(found[0]).toMatchObject({
        id: 102,
        city: 'Westgate',
        city_forurl: 'westgate-fj',
        lat: -17,
        lon: -179.9,
      });
    });

    it('prefers a nearer city outside the first box that found one to a farther one in its corner', async () => {
      const found = await closestCities(db, 0, 0, 2);
      expect(found.map((c) => c.city)).toEqual(['Edgeton', 'Cornerville']);
      expect((await closestCities(db, 0, 0, 1)).map((c) => c.city)).toEqual(['Edgeton']);
    });

    it('finds the nearest city across a pole', async () => {
      const found = await closestCities(db, 89.9, 0, 2);
      expect(found.map((c) => c.id)).toEqual([106, 107]);
    });

    it('orders by true distance wherever it is asked', async () => {
      let seed = 7;
      const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647) * 2 - 1;
      for (let i = 0; i < 25; i++) {
        const lat = random() * 90;
        const lon = random() * 180;
        const found = await closestCities(db, lat, lon, 5);
        expect(
          found.map((c) => c.id),
          `${lat},${lon}`,
        ).toEqual(nearestByReference(lat, lon, 5));
        const distances = found.map((c) => c.distance_m);
        expect(distances).toEqual([...distances].sort((a, b) => a - b));
      }
    });

    it('returns at most n cities, and none for n below 1 or bad coordinates', async () => {
      expect(await closestCities(db, 47, 8, 3)).toHaveLength(3);
      expect(await closestCities(db, 47, 8, 50)).toHaveLength(fixture.length);
      expect(await closestCities(db, 47, 8, 0)).toEqual([]);
      expect(await closestCities(db, Number.NaN, 8, 5)).toEqual([]);
    });

    it('autocompletes city names ignoring case and accents, most populous first', async () => {
      const names = async (text: string, limit = 10) =>
        (await citiesStartingWith(db, text, limit)).map((c) => c.city);
      expect(await names('zur')).toEqual(['Zürich', 'Zurich']);
      expect(await names('ZÜR')).toEqual(['Zürich', 'Zurich']);
      expect(await names('z')).toEqual(['Zürich', 'Zug', 'Zurich']);
      expect(await names('z', 2)).toEqual(['Zürich', 'Zug']);
      expect(await names('sao p')).toEqual(['São Paulo']);
      expect(await names('São Paulo')).toEqual(['São Paulo']);
      expect(await names('bad d')).toEqual(['Bad Doberan']);
      expect(await names('bad')).toEqual(['Bad Doberan', 'Bad']);
      expect(await names('xyz')).toEqual([]);
      expect(await names('')).toEqual([]);
      expect(await names('%')).toEqual([]);
      expect(await names("'")).toEqual([]);
    });

    it('autocompletes names in other scripts as typed or capitalised', async () => {
      expect((await citiesStartingWith(db, 'Окт', 10)).map((c) => c.id)).toEqual([116]);
      expect((await citiesStartingWith(db, 'окт', 10)).map((c) => c.id)).toEqual([116]);
    });

    it('never throws on hostile autocomplete input', async () => {
      for (const text of [...HOSTILE_QUERIES, '\u0000Окт', 'Ок%', 'О_т', '\\Окт']) {
        const options = await citiesStartingWith(db, text, 10);
        expect(Array.isArray(options), JSON.stringify(text)).toBe(true);
      }
      expect(await citiesStartingWith(db, 'О_т', 10)).toEqual([]);
      expect(await citiesStartingWith(db, 'Ок%', 10)).toEqual([]);
    });

    it('answers city options with the spec fields', async () => {
      const [option] = await citiesStartingWith(db, 'sao', 10);
      expect(option).toMatchObject({
        id: 111,
        city: 'São Paulo',
        city_forurl: 'sao-paulo-br',
        state: null,
        country: 'Country BR',
        iso2: 'BR',
        lat: -23.55,
        lon: -46.63,
      });
    });

    it('finds a city by its slug', async () => {
      expect(await cityBySlug(db, 'zurich-ch')).toMatchObject({ id: 108, city: 'Zürich' });
      expect(await cityBySlug(db, 'ZURICH-CH')).toMatchObject({ id: 108 });
      expect(await cityBySlug(db, 'nowhere-xx')).toBeUndefined();
    });
  });
});
