import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../support/app';
import { newPoint } from '../support/factories';
import { TEST_DIALECTS } from '../support/store';

/**
 * A search without bounds from a map lists the places around `near` first (issue 21, item 7), then
 * the rest of the world, and pages through the two without repeating or skipping a place.
 */
const NEW_YORK = { lat: 40.7128, lon: -74.006 };
/** Titles starting with the word rank above the New York ones on relevance alone. */
const FAR = [
  { id: 'far1', title: 'Coffee Garden', lat: 32.06, lon: 118.79 },
  { id: 'far2', title: 'Coffee Corner', lat: 13.18, lon: 30.22 },
  { id: 'far3', title: 'Coffee Hall', lat: 48.85, lon: 2.35 },
];
const NEAR = [
  { id: 'ny1', title: 'Hudson Street Coffee', lat: 40.72, lon: -74.008 },
  { id: 'ny2', title: 'Bleecker Coffee Bar', lat: 40.73, lon: -74.0 },
  { id: 'ny3', title: 'Newark Coffee Stop', lat: 40.735, lon: -74.17 },
];

describe.each(TEST_DIALECTS)('search near the map (%s)', (dialect) => {
  let t: TestApp;
  let visitor: { cookie: string; token: string };

  beforeAll(async () => {
    t = await openTestApp({ dialect });
    await t.store.db
      .insertInto('points')
      .values([...FAR, ...NEAR].map((p) => newPoint({ ...p, type: 'cafe' })))
      .execute();
    const res = await t.app.inject({ method: 'GET', url: '/v1/account/antiforgery' });
    const cookie = res.cookies.find((c) => c.name === 'xp_af');
    visitor = { cookie: `xp_af=${cookie?.value}`, token: res.json().token };
    // the rows reach the index through the change feed
    for (const started = Date.now(); ;) {
      if ((await ids({ keywords: 'coffee', pageSize: 12 })).length === 6) break;
      if (Date.now() - started > 5000) throw new Error('the cafés are not searchable');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  afterAll(() => t?.close());

  async function ids(payload: Record<string, unknown>): Promise<string[]> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/webonly/pagedmapsearch',
      headers: {
        'content-type': 'application/json',
        'x-requested-with': 'XMLHttpRequest',
        cookie: visitor.cookie,
        requestverificationtoken: visitor.token,
      },
      payload: JSON.stringify(payload),
    });
    expect(res.statusCode).toBe(200);
    return (res.json() as { results: { marker: { id: string } }[] }).results.map((r) => r.marker.id);
  }

  it('lists the places around near first, then the world', async () => {
    const all = await ids({ keywords: 'coffee', pageSize: 12, near: NEW_YORK });
    expect(all.slice(0, 3).sort()).toEqual(['ny1', 'ny2', 'ny3']);
    expect(all.slice(3).sort()).toEqual(['far1', 'far2', 'far3']);
  });

  it('pages through both lists without repeating or skipping a place', async () => {
    const all = await ids({ keywords: 'coffee', pageSize: 12, near: NEW_YORK });
    const pages: string[] = [];
    for (let pageNumber = 1; pageNumber <= 3; pageNumber++)
      pages.push(...(await ids({ keywords: 'coffee', pageSize: 2, pageNumber, near: NEW_YORK })));
    expect(pages).toEqual(all);
  });

  it('ranks by relevance alone inside bounds, where near is not used', async () => {
    const inParis = await ids({
      keywords: 'coffee',
      near: NEW_YORK,
      southwest: { lat: 48.8, lon: 2.2 },
      northeast: { lat: 48.9, lon: 2.5 },
    });
    expect(inParis).toEqual(['far3']);
  });
});
