import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openTestStore, TEST_DIALECTS, type TestStore } from '../support/store';
import { loadCities } from '../../src/server/features/cities/load';
import { citiesStartingWith, closestCities } from '../../src/server/features/cities/queries';

/** Loading some 135,000 rows takes seconds, more on a busy machine. */
const LOAD_TIMEOUT_MS = 120_000;

describe.each(TEST_DIALECTS)('loadCities on %s', (dialect) => {
  let store: TestStore;

  beforeAll(async () => {
    store = await openTestStore(dialect);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  const count = async () =>
    Number(
      (
        await store.db
          .selectFrom('cities')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it(
    'leaves no city behind when the load fails part-way',
    async () => {
      // New York City is among the first rows inserted (largest first): failing on it proves the rollback.
      if (dialect === 'sqlite') {
        await sql`create trigger cities_fail before insert on cities when new.id = 5128581
          begin select raise(abort, 'refused for the test'); end`.execute(store.db);
      } else {
        await sql`create function cities_fail() returns trigger language plpgsql as $$
          begin if new.id = 5128581 then raise exception 'refused for the test'; end if; return new; end $$`.execute(
          store.db,
        );
        await sql`create trigger cities_fail before insert on cities for each row execute function cities_fail()`.execute(
          store.db,
        );
      }
      await expect(loadCities(store)).rejects.toThrow(/refused for the test/);
      expect(await count()).toBe(0);
      await sql`drop trigger cities_fail${sql.raw(dialect === 'postgres' ? ' on cities' : '')}`.execute(
        store.db,
      );
    },
    LOAD_TIMEOUT_MS,
  );

  it(
    'loads every city once, with unique slugs, states and time zones',
    async () => {
      const messages: string[] = [];
      const inserted = await loadCities(store, (m) => messages.push(m));
      expect(inserted).toBeGreaterThan(110_000);
      expect(await count()).toBe(inserted);
      expect(messages.join('\n')).toMatch(/loaded \d+ cities/);

      const slugs = await store.db
        .selectFrom('cities')
        .select((eb) => eb.fn.count('city_forurl').distinct().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(slugs.n)).toBe(inserted);

      const nyc = await store.db
        .selectFrom('cities')
        .selectAll()
        .where('city_forurl', '=', 'new-york-city-us')
        .executeTakeFirstOrThrow();
      expect(nyc).toMatchObject({
        id: 5128581,
        city: 'New York City',
        state: 'New York',
        country: 'United States of America',
        iso2: 'US',
        time_zone: 'America/New_York',
      });
      expect(nyc.population).toBeGreaterThan(8_000_000);
      expect(nyc.lat).toBeCloseTo(40.71, 1);
      expect(nyc.lon).toBeCloseTo(-74.01, 1);

      // the best-known place gets the plain slug
      expect(
        await store.db
          .selectFrom('cities')
          .select('city')
          .where('city_forurl', '=', 'paris-fr')
          .executeTakeFirst(),
      ).toEqual({ city: 'Paris' });
      const bad = await store.db
        .selectFrom('cities')
        .select('city_forurl')
        .where((eb) =>
          eb.or([
            eb('city_forurl', '=', ''),
            eb('city_forurl', 'like', '%--%'),
            eb('city_forurl', 'like', '-%'),
          ]),
        )
        .execute();
      expect(bad).toEqual([]);

      expect(await loadCities(store)).toBe(0);
      expect(await count()).toBe(inserted);
    },
    LOAD_TIMEOUT_MS,
  );

  it('answers the city calls on the full table', async () => {
    const [nearest] = await closestCities(store.db, 40.7128, -74.006, 5);
    expect(nearest?.city_forurl).toMatch(/-us$/);
    const near = await closestCities(store.db, 48.8566, 2.3522, 5);
    expect(near.map((c) => c.city)).toContain('Paris');
    const options = await citiesStartingWith(store.db, 'new yo', 10);
    expect(options[0]).toMatchObject({ city: 'New York City', state: 'New York', iso2: 'US' });
    expect((await citiesStartingWith(store.db, 'zuri', 10))[0]?.city).toBe('Zürich');
  });
});
