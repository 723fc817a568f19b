import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewEvent } from '../../src/server/store/schema';
import { openTestApp, type TestApp } from '../support/app';
import { bearer, signIn, registerUser } from '../support/accounts';
import { newPoint } from '../support/factories';
import { TEST_DIALECTS } from '../support/store';

const MINUTE = 60_000;
/** Around Times Square, Manhattan. */
const NYC = { southwest: { lat: 40.7, lon: -74.02 }, northeast: { lat: 40.8, lon: -73.93 } };
/** Around central London. */
const LONDON = { southwest: { lat: 51.45, lon: -0.2 }, northeast: { lat: 51.55, lon: 0.0 } };
const LONG_ADDRESS = `${'Very Long Avenue '.repeat(12)}, New York`;

function event(fields: Partial<NewEvent> & { id: string; start_date: number; end_date: number }): NewEvent {
  const now = Date.now();
  return {
    title: fields.id,
    type: 'concert',
    lat: 40.7585,
    lon: -73.9855,
    admission: 'free',
    created_at: now,
    updated_at: now,
    ...fields,
  };
}

describe.each(TEST_DIALECTS)('search over HTTP (%s)', (dialect) => {
  let t: TestApp;
  let visitor: { cookie: string; token: string };
  const now = Date.now();

  beforeAll(async () => {
    t = await openTestApp({
      dialect,
      prepare: async (app) => {
        void app;
      },
    });
    // the rows exist before the first search: they reach the index through the change feed
    await t.store.db
      .insertInto('points')
      .values([
        newPoint({
          id: 'cafe1',
          type: 'cafe',
          title: 'Café Crème',
          lat: 40.758,
          lon: -73.9855,
          full_address: '1 Broadway, New York',
        }),
        newPoint({
          id: 'cafe2',
          type: 'cafe',
          title: 'Creamery Corner',
          lat: 40.759,
          lon: -73.985,
          rating: 90,
        }),
        newPoint({
          id: 'bake1',
          type: 'bakery',
          title: 'Golden Loaf',
          lat: 40.757,
          lon: -73.986,
          full_address: LONG_ADDRESS,
        }),
        newPoint({
          id: 'bake2',
          type: 'bakery',
          title: 'Golden Loaf',
          lat: 51.5,
          lon: -0.12,
          full_address: '2 Strand, London',
        }),
        newPoint({
          id: 'svc1',
          supertype: 'service',
          type: 'plumber',
          title: 'Pat the Plumber',
          lat: 40.75,
          lon: -73.99,
        }),
        newPoint({ id: 'fiji1', type: 'cafe', title: 'Taveuni Coffee', lat: -16.8, lon: 179.9 }),
        newPoint({
          id: 'host1',
          type: 'bar',
          title: 'Harmony Hall',
          lat: 40.76,
          lon: -73.98,
          beamtype: 1,
          stats_this_month: 42,
        }),
        ...Array.from({ length: 14 }, (_, i) =>
          newPoint({
            id: `many${i}`,
            type: 'restaurant',
            title: `Manhattan Diner ${i}`,
            lat: 40.75 + i * 0.001,
            lon: -73.99,
          }),
        ),
      ])
      .execute();
    await t.store.db
      .insertInto('events')
      .values([
        event({
          id: 'ev-now',
          xpoint_id: 'host1',
          title: 'Jazz Tonight',
          start_date: now - 30 * MINUTE,
          end_date: now + 90 * MINUTE,
        }),
        event({
          id: 'ev-soon',
          xpoint_id: 'host1',
          title: 'Jazz Brunch',
          start_date: now + 60 * MINUTE,
          end_date: now + 180 * MINUTE,
        }),
        event({
          id: 'ev-later',
          xpoint_id: 'host1',
          title: 'Jazz Next Week',
          start_date: now + 7 * 1440 * MINUTE,
          end_date: now + 7 * 1440 * MINUTE + 120 * MINUTE,
        }),
      ])
      .execute();
    await t.store.db
      .insertInto('event_intervals')
      .values([
        { event_id: 'ev-now', start_at: now - 30 * MINUTE, end_at: now + 90 * MINUTE },
        { event_id: 'ev-soon', start_at: now + 60 * MINUTE, end_at: now + 180 * MINUTE },
        {
          event_id: 'ev-later',
          start_at: now + 7 * 1440 * MINUTE,
          end_at: now + 7 * 1440 * MINUTE + 120 * MINUTE,
        },
      ])
      .execute();
    await visible('Jazz Next Week', { includeevents: true });
    const res = await t.app.inject({ method: 'GET', url: '/v1/account/antiforgery' });
    const cookie = res.cookies.find((c) => c.name === 'xp_af');
    visitor = { cookie: `xp_af=${cookie?.value}`, token: res.json().token };
  });
  afterAll(() => t?.close());

  const suggest = (payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/v1/app/searchsuggestions', payload });
  const suggestForm = (form: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/app/searchsuggestions',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form,
    });
  const titles = (res: LightMyRequestResponse) => (res.json() as { title: string }[]).map((s) => s.title);
  const page = (payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/webonly/pagedmapsearch',
      headers: {
        'content-type': 'application/json',
        'x-requested-with': 'XMLHttpRequest',
        cookie: visitor.cookie,
        requestverificationtoken: visitor.token,
        ...headers,
      },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  /** Waits until a suggestion for `q` includes `title` (the change feed polls every 500 ms). */
  async function visible(
    title: string,
    extra: Record<string, unknown> = {},
    timeoutMs = 5000,
  ): Promise<number> {
    const started = Date.now();
    for (;;) {
      const res = await suggest({ q: title, ...extra });
      if (res.statusCode === 200 && titles(res).includes(title)) return Date.now() - started;
      if (Date.now() - started > timeoutMs)
        throw new Error(`"${title}" not searchable after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  describe('suggestions', () => {
    it('answers form fields with the §3 suggestion fields, accents and case folded', async () => {
      const res = await suggestForm(
        'q=creme&maxresults=5&southwest%5Blat%5D=40.7&southwest%5Blon%5D=-74.02&northeast%5Blat%5D=40.8&northeast%5Blon%5D=-73.93',
      );
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const [first] = res.json();
      expect(first).toEqual({
        id: 'cafe1',
        lon: -73.9855,
        lat: 40.758,
        title: 'Café Crème',
        businesstype: 'cafe',
        subtype: '',
        hotpointclickurl: '/b/cafe1',
        address: '1 Broadway, New York',
        hotpointrank: 0,
        chatrank: 0,
        currentevent: null,
        upcomingevent: null,
      });
      expect(titles(await suggest({ q: 'CAFÉ CRÈME' }))[0]).toBe('Café Crème');
    });

    it('matches a prefix of any word of the title, the type name and the address', async () => {
      expect(titles(await suggest({ q: 'loa', ...NYC }))).toEqual(['Golden Loaf']);
      expect(titles(await suggest({ q: 'bakery', ...NYC }))).toEqual(['Golden Loaf']);
      expect(titles(await suggest({ q: 'plumb' }))).toEqual(['Pat the Plumber']);
      expect(titles(await suggest({ q: 'broadway' }))).toEqual(['Café Crème']);
    });

    it('tolerates one typo in words of five letters or more', async () => {
      expect(titles(await suggest({ q: 'goldne loaf' }))).toContain('Golden Loaf');
      expect(titles(await suggest({ q: 'golden laof' }))).toEqual([]);
      expect(titles(await suggest({ q: 'plumbr' }))).toEqual(['Pat the Plumber']);
      // four letters: no typo tolerance
      expect(titles(await suggest({ q: 'lofa' }))).toEqual([]);
    });

    it('keeps to the bounds, across the antimeridian too', async () => {
      const ids = async (payload: Record<string, unknown>) =>
        ((await suggest(payload)).json() as { id: string }[]).map((s) => s.id).sort();
      expect(await ids({ q: 'golden', ...NYC })).toEqual(['bake1']);
      expect(await ids({ q: 'golden', ...LONDON })).toEqual(['bake2']);
      expect(await ids({ q: 'golden' })).toEqual(['bake1', 'bake2']);
      const fiji = { southwest: { lat: -20, lon: 175 }, northeast: { lat: -10, lon: -175 } };
      expect(await ids({ q: 'taveuni', ...fiji })).toEqual(['fiji1']);
      expect(await ids({ q: 'taveuni', southwest: '-20,170', northeast: '-10,175' })).toEqual([]);
    });

    it('answers at most maxresults, and at most 10', async () => {
      expect((await suggest({ q: 'manhattan' })).json()).toHaveLength(10);
      expect((await suggest({ q: 'manhattan', maxresults: 3 })).json()).toHaveLength(3);
    });

    it('truncates addresses to 140 characters', async () => {
      const [loaf] = (await suggest({ q: 'golden loaf', ...NYC })).json();
      expect(LONG_ADDRESS.length).toBeGreaterThan(140);
      expect(loaf.address).toHaveLength(140);
      expect(LONG_ADDRESS.startsWith(loaf.address.slice(0, 139))).toBe(true);
    });

    it('includes events only when asked, and marks current and upcoming events', async () => {
      expect(titles(await suggest({ q: 'jazz' }))).toEqual([]);
      const withEvents = (await suggest({ q: 'jazz', includeevents: 'true' })).json() as {
        id: string;
        hotpointclickurl: string;
        currentevent: unknown;
        upcomingevent: unknown;
      }[];
      expect(withEvents.map((s) => s.id).sort()).toEqual(['ev-later', 'ev-now', 'ev-soon']);
      const byId = new Map(withEvents.map((s) => [s.id, s]));
      expect(byId.get('ev-now')?.hotpointclickurl).toBe('/e/ev-now');
      expect(byId.get('ev-now')?.currentevent).toMatchObject({ id: 'ev-now', title: 'Jazz Tonight' });
      expect(byId.get('ev-soon')?.upcomingevent).toMatchObject({ id: 'ev-soon' });
      expect(byId.get('ev-later')).toMatchObject({ currentevent: null, upcomingevent: null });
      const [hall] = (await suggest({ q: 'harmony hall' })).json();
      expect(hall).toMatchObject({
        id: 'host1',
        hotpointrank: 42,
        currentevent: { id: 'ev-now', title: 'Jazz Tonight', start_date: now - 30 * MINUTE },
        upcomingevent: { id: 'ev-soon', title: 'Jazz Brunch' },
      });
    });
  });

  describe('paged map search', () => {
    it('answers a page with the §3 result and page fields', async () => {
      const res = await page({ keywords: 'golden', ...NYC, pageNumber: 1, pageSize: 12, supertype: 'all' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        results: [
          {
            marker: {
              id: 'bake1',
              lng: -73.986,
              lat: 40.757,
              title: 'Golden Loaf',
              type: 'bakery',
              subtype: '',
              classes: 'marker-business marker-bakery',
              select: false,
              data: { hotpointclickurl: '/b/bake1' },
            },
            supertype: 'business',
            address: LONG_ADDRESS,
            cover_url: null,
            stars_rating: null,
            healthdata: { status: 0 },
            start_date: null,
            name: 'Golden Loaf',
            class: 'business',
            subclass: 'bakery',
            beamtype: 0,
          },
        ],
        posts_total: 1,
        posts_total_exact: true,
        page_current: 1,
        page_total: 1,
        page_size: 12,
      });
    });

    it('pages through the results without repeats; page size 12 by default, 24 for any other size', async () => {
      const first = (await page({ keywords: 'manhattan', pageSize: 12 })).json();
      const second = (await page({ keywords: 'manhattan', pageNumber: 2 })).json();
      expect(first).toMatchObject({ posts_total: 14, page_total: 2, page_size: 12, page_current: 1 });
      expect(first.results).toHaveLength(12);
      expect(second).toMatchObject({ page_current: 2, page_size: 12 });
      expect(second.results).toHaveLength(2);
      const ids = [...first.results, ...second.results].map((r: { marker: { id: string } }) => r.marker.id);
      expect(new Set(ids).size).toBe(14);
      const odd = (await page({ keywords: 'manhattan', pageSize: 13 })).json();
      expect(odd).toMatchObject({ page_size: 24, page_total: 1 });
      expect(odd.results).toHaveLength(14);
      expect((await page({ keywords: 'manhattan', pageNumber: 9 })).json()).toMatchObject({
        results: [],
        page_current: 9,
        page_total: 2,
      });
    });

    it('limits to a supertype given as a keywords prefix or as a field', async () => {
      const byPrefix = (await page({ keywords: 'service=pat' })).json();
      expect(byPrefix.results.map((r: { name: string }) => r.name)).toEqual(['Pat the Plumber']);
      expect((await page({ keywords: 'business=pat' })).json().results).toEqual([]);
      expect((await page({ keywords: 'pat', supertype: 'service' })).json().posts_total).toBe(1);
      // a supertype alone lists that supertype in the bounds
      const services = (await page({ keywords: 'service=', ...NYC })).json();
      expect(services.results.map((r: { name: string }) => r.name)).toEqual(['Pat the Plumber']);
      const events = (await page({ keywords: 'event=jazz' })).json();
      expect(events.posts_total).toBe(3);
      expect(events.results[0]).toMatchObject({ supertype: 'event', class: 'event' });
      expect(events.results[0].start_date).toEqual(expect.any(Number));
    });

    it('accepts an API client token instead of the anti-forgery token, and a signed-in browser with its own', async () => {
      expect((await registerUser(t, 'searcher')).statusCode).toBe(201);
      const session = await signIn(t, 'searcher', 'correct-horse-1');
      const api = await page(
        { keywords: 'golden' },
        { ...bearer(session.token), cookie: '', requestverificationtoken: '' },
      );
      expect(api.statusCode).toBe(200);
      const browser = await page(
        { keywords: 'golden' },
        { cookie: session.cookie, requestverificationtoken: session.antiforgery },
      );
      expect(browser.statusCode).toBe(200);
      const wrong = await page(
        { keywords: 'golden' },
        { cookie: session.cookie, requestverificationtoken: visitor.token },
      );
      expect(wrong.statusCode).toBe(403);
    });
  });

  describe('freshness', () => {
    it('shows a new, a renamed and a deleted point in search within 1 s', async () => {
      const started = Date.now();
      await t.store.db
        .insertInto('points')
        .values(
          newPoint({ id: 'fresh1', type: 'florist', title: 'Quokka Flowers', lat: 40.751, lon: -73.99 }),
        )
        .execute();
      const shownAfter = await visible('Quokka Flowers', {}, 3000);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(shownAfter).toBeLessThan(1000);

      await t.store.db
        .updateTable('points')
        .set({ title: 'Wombat Blooms' })
        .where('id', '=', 'fresh1')
        .execute();
      expect(await visible('Wombat Blooms', {}, 3000)).toBeLessThan(1000);
      expect(titles(await suggest({ q: 'quokka' }))).toEqual([]);

      await t.store.db.deleteFrom('points').where('id', '=', 'fresh1').execute();
      const goneStarted = Date.now();
      while (titles(await suggest({ q: 'wombat' })).length > 0) {
        expect(Date.now() - goneStarted).toBeLessThan(1000);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
  });

  describe('bad input: a clear 4xx JSON error, never a 500', () => {
    it.each([
      ['an empty q', { q: '' }, 400, 5001, 'q: type at least 1 character.'],
      ['an all-space q', { q: '   ' }, 400, 5001, 'q: type at least 1 character.'],
      ['a missing q', {}, 400, 5001, 'q: type at least 1 character.'],
      [
        'a 10,000-character q',
        { q: 'x'.repeat(10_000) },
        400,
        5001,
        'q: must be at most 200 characters long.',
      ],
      [
        'maxresults=-1',
        { q: 'golden', maxresults: -1 },
        400,
        5002,
        'maxresults: must be a whole number from 1 to 10.',
      ],
      [
        'maxresults=1e9',
        { q: 'golden', maxresults: '1e9' },
        400,
        5002,
        'maxresults: must be a whole number from 1 to 10.',
      ],
      [
        'maxresults=abc',
        { q: 'golden', maxresults: 'abc' },
        400,
        5002,
        'maxresults: must be a whole number.',
      ],
      [
        'inverted bounds',
        { q: 'golden', southwest: { lat: 41, lon: -74 }, northeast: { lat: 40, lon: -73 } },
        400,
        5003,
        'southwest: must be south of northeast.',
      ],
      [
        'a latitude out of range',
        { q: 'golden', southwest: { lat: -91, lon: 0 }, northeast: { lat: 10, lon: 10 } },
        400,
        5003,
        'southwest: lat must be between -90 and 90.',
      ],
      [
        'a longitude out of range',
        { q: 'golden', southwest: { lat: 0, lon: 0 }, northeast: { lat: 10, lon: 181 } },
        400,
        5003,
        'northeast: lon must be between -180 and 180.',
      ],
      [
        'one corner only',
        { q: 'golden', southwest: { lat: 0, lon: 0 } },
        400,
        5003,
        'northeast: is required when the other corner is given.',
      ],
      [
        'a corner that is not a place',
        { q: 'golden', southwest: [1, 2], northeast: { lat: 1, lon: 2 } },
        400,
        5003,
        'southwest: must be {lat, lon} or "lat,lon".',
      ],
      [
        'includeevents=maybe',
        { q: 'golden', includeevents: 'maybe' },
        400,
        5007,
        'includeevents: must be true or false.',
      ],
    ])('suggestions refuse %s', async (_name, payload, status, errorcode, error) => {
      const res = await suggest(payload);
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual({ errorcode, error, field: error.slice(0, error.indexOf(':')) });
    });

    it('treats form keys named like object internals as plain fields', async () => {
      const res = await suggestForm('q=golden&__proto__%5Blat%5D=1&constructor=x&maxresults=2');
      expect(res.statusCode).toBe(200);
      expect(({} as Record<string, unknown>)['lat']).toBeUndefined();
      expect(titles(res)).toEqual(['Golden Loaf', 'Golden Loaf']);
    });

    it('suggestions refuse a body that is not JSON, or not an object', async () => {
      const broken = await t.app.inject({
        method: 'POST',
        url: '/v1/app/searchsuggestions',
        headers: { 'content-type': 'application/json' },
        payload: '{"q": "gol',
      });
      expect(broken.statusCode).toBe(400);
      expect(broken.json()).toEqual({
        errorcode: 1002,
        error: 'The request could not be read: the body is not valid JSON.',
      });
      const list = await t.app.inject({
        method: 'POST',
        url: '/v1/app/searchsuggestions',
        headers: { 'content-type': 'application/json' },
        payload: '["golden"]',
      });
      expect(list.statusCode).toBe(400);
      expect(list.json().errorcode).toBe(5007);
    });

    it.each([
      [
        'pageNumber=0',
        { keywords: 'golden', pageNumber: 0 },
        400,
        5004,
        'pageNumber: must be a whole number from 1.',
      ],
      [
        'pageNumber=-3',
        { keywords: 'golden', pageNumber: -3 },
        400,
        5004,
        'pageNumber: must be a whole number from 1.',
      ],
      [
        'pageNumber=1.5',
        { keywords: 'golden', pageNumber: 1.5 },
        400,
        5004,
        'pageNumber: must be a whole number from 1.',
      ],
      [
        'empty keywords',
        { keywords: '  ' },
        400,
        5006,
        'keywords: type what to search for, or choose a supertype.',
      ],
      [
        '10,000-character keywords',
        { keywords: 'y'.repeat(10_000) },
        400,
        5006,
        'keywords: must be at most 200 characters long.',
      ],
      [
        'an unknown supertype',
        { keywords: 'golden', supertype: 'spaceship' },
        400,
        5005,
        'supertype: "spaceship" is not a supertype one can search (use service, virtualstore, poi, business, experience, rental, event, helprequest, incident, post, or all).',
      ],
      [
        'a near point off the globe',
        { keywords: 'golden', near: { lat: 95, lon: 0 } },
        400,
        5003,
        'near: lat must be between -90 and 90.',
      ],
      [
        'inverted bounds',
        { keywords: 'golden', southwest: { lat: 50, lon: 0 }, northeast: { lat: 40, lon: 1 } },
        400,
        5003,
        'southwest: must be south of northeast.',
      ],
    ])('paged search refuses %s', async (_name, payload, status, errorcode, error) => {
      const res = await page(payload);
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual({ errorcode, error, field: error.slice(0, error.indexOf(':')) });
    });

    it('paged search refuses a body that is not JSON', async () => {
      const res = await page('{"keywords": ');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        errorcode: 1002,
        error: 'The request could not be read: the body is not valid JSON.',
      });
    });

    it('paged search refuses a request without the anti-forgery token, or with a wrong one', async () => {
      const missing = await page({ keywords: 'golden' }, { requestverificationtoken: '' });
      const wrongCookie = await page(
        { keywords: 'golden' },
        { cookie: 'xp_af=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
      );
      for (const res of [missing, wrongCookie]) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({
          errorcode: 2003,
          error: 'The anti-forgery token is missing or wrong; reload the page and try again.',
        });
      }
    });
  });
});
