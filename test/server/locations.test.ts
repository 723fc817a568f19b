import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewCity } from '../../src/server/store/schema';
import { openTestApp, type TestApp } from '../support/app';
import { TEST_DIALECTS } from '../support/store';

/** POST /v1/locations/startingwith and GET /v1/locations/top (issue 19, social §7, §9) over HTTP. */
const PLACES: [id: number, city: string, slug: string, population: number, state: string | null][] = [
  [1, 'São Paulo', 'sao-paulo-br', 12_000_000, null],
  [2, 'San Francisco', 'san-francisco-us', 870_000, 'California'],
  [3, 'San Diego', 'san-diego-us', 1_400_000, 'California'],
  [4, 'Santiago', 'santiago-cl', 4_800_000, null],
  [5, 'Zürich', 'zurich-ch', 420_000, null],
  [6, 'Sanaa', 'sanaa-ye', 1_900_000, null],
  [7, 'Октябрьский', 'oktyabrskiy-ru', 110_000, null],
  [8, "N'Djamena", 'ndjamena-td', 720_000, null],
  [9, 'New York City', 'new-york-city-us', 8_800_000, 'New York'],
  [10, 'Newark', 'newark-us', 280_000, 'New Jersey'],
  [11, 'San Jose', 'san-jose-us', 1_000_000, 'California'],
  [12, 'San Antonio', 'san-antonio-us', 1_400_000, 'Texas'],
  [13, 'Sandnes', 'sandnes-no', 80_000, null],
  [14, 'San Juan', 'san-juan-pr', 340_000, null],
  [15, 'Santa Ana', 'santa-ana-us', 310_000, 'California'],
  [16, 'San Bernardino', 'san-bernardino-us', 220_000, 'California'],
  [17, 'Sancti Spíritus', 'sancti-spiritus-cu', 140_000, null],
  [18, 'San Miguel', 'san-miguel-sv', 160_000, null],
];

const city = ([id, name, slug, population, state]: (typeof PLACES)[number]): NewCity => ({
  id,
  city: name,
  city_forurl: slug,
  state,
  country: 'Somewhere',
  iso2: 'XX',
  lat: id,
  lon: -id,
  population,
  time_zone: null,
});

describe.each(TEST_DIALECTS)('city autocomplete over HTTP (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp({ dialect });
  });
  afterAll(() => t?.close());

  const ask = (payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/locations/startingwith',
      payload: payload as string,
      headers,
    });
  const names = async (query: string, limit?: number) => {
    const res = await ask(limit === undefined ? { query } : { query, limit });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ city: string }[]>().map((c) => c.city);
  };

  it('answers nothing before the cities are loaded, then finds them', async () => {
    expect(await names('san')).toEqual([]);
    await t.store.db.insertInto('cities').values(PLACES.map(city)).execute();
    expect((await names('san')).length).toBe(10);
  });

  it('ranks by population, folds accents and punctuation, answers the option fields', async () => {
    expect(await names('san', 10)).toEqual([
      'Santiago',
      'Sanaa',
      'San Diego',
      'San Antonio',
      'San Jose',
      'San Francisco',
      'San Juan',
      'Santa Ana',
      'San Bernardino',
      'San Miguel',
    ]);
    expect(await names('SAO P')).toEqual(['São Paulo']);
    expect(await names('zuri')).toEqual(['Zürich']);
    expect(await names('ndja')).toEqual(["N'Djamena"]);
    expect(await names('new ')).toEqual(['New York City']);
    expect(await names('new', 1)).toEqual(['New York City']);
    expect(await names('окт')).toEqual(['Октябрьский']);
    expect(await names('xyzzy')).toEqual([]);
    const [option] = (await ask({ query: 'san d' })).json<Record<string, unknown>[]>();
    expect(option).toEqual({
      id: 3,
      city: 'San Diego',
      country: 'Somewhere',
      state: 'California',
      osm_id: null,
      lat: 3,
      lon: -3,
      city_forurl: 'san-diego-us',
    });
  });

  it('takes form fields as the spec posts them', async () => {
    const res = await ask('query=zu&limit=3', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ city: string }[]>().map((c) => c.city)).toEqual(['Zürich']);
  });

  it('refuses an empty, a 1,000-character or a missing query and a bad limit, clearly', async () => {
    for (const [payload, code, field] of [
      [{ query: '' }, 19101, 'query'],
      [{ query: '   ' }, 19101, 'query'],
      [{ query: 'a'.repeat(1000) }, 19101, 'query'],
      [{}, 19101, 'query'],
      [{ query: 'san', limit: 0 }, 19102, 'limit'],
      [{ query: 'san', limit: 11 }, 19102, 'limit'],
    ] as const) {
      const res = await ask(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ errorcode: code, field });
    }
    expect((await ask({ query: 'a'.repeat(1000) })).json<{ error: string }>().error).toBe(
      'query: must be at most 100 characters long.',
    );
  });

  it('lists the top destinations, most populous first', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/locations/top' });
    expect(res.statusCode).toBe(200);
    const top = res.json<{ city: string }[]>().map((c) => c.city);
    expect(top.slice(0, 3)).toEqual(['São Paulo', 'New York City', 'Santiago']);
    expect(top).toHaveLength(12);
  });
});
