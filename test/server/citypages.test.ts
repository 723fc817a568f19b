import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import type { CityPageData, CityPagesRenderer, EventPageData } from '../../src/shared/citypages/page';
import { newPoint } from '../support/factories';
import { jsonLdOf, schemaOrgProblems } from '../support/schemaOrg';
import { openTestStore, TEST_DIALECTS, type TestStore } from '../support/store';

/**
 * The city deals page /cads/{city} and the event page /e/{id} rendered on the server (issue 19): whole
 * pages with their head (title, description, canonical, JSON-LD that is schema.org's), the data for
 * hydration, the hot order (Lemlemy's rank with at most two posts per author), events on now and
 * soon, the most visited places, the city search, and every refusal: an unknown or malformed city
 * and an unknown or malformed event id answer 404 pages (or the catalogue's error to a JSON client).
 * The renderer is the web app's own source (src/web/ssr/citypages.tsx), as `vite build --ssr` bundles it.
 */
const RENDERER_MODULE = '../../src/web/ssr/citypages.tsx';
const ORIGIN = 'https://xpoint.example';
const MIN = 60_000;
const HOUR = 60 * MIN;
const NYC = 5128581;
const LISBON = 2267057;
const XSS = '</script><script>alert("owned")</script>';

/** The stand-in of the build's citypage.html: its markers, as Vite leaves them. */
const TEMPLATE =
  '<!doctype html><html lang="en"><head><!--xp-head--><script type="module" src="/assets/citypage-1.js"></script></head>' +
  '<body class="citypage-document"><div id="root" data-ssr="citypages"><!--xp-root--></div><!--xp-data--></body></html>';

async function sourceRenderer(): Promise<CityPagesRenderer> {
  // a path the type checker does not follow: the web app's TSX is checked by tsconfig.web.json
  const module = (await import(/* @vite-ignore */ RENDERER_MODULE)) as { renderCityPages: CityPagesRenderer };
  return module.renderCityPages;
}

/** The text of an HTML page, without tags, on one line. */
const textOf = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

/** The page's data as the browser hydrates from it. */
function pageData<T>(html: string): T {
  const match = /<script type="application\/json" id="xp-page-data">([\s\S]*?)<\/script>/.exec(html);
  return JSON.parse(match?.[1] ?? 'null') as T;
}

describe.each(TEST_DIALECTS)('the city page and the event page (%s)', (dialect) => {
  let store: TestStore;
  let app: FastifyInstance;
  let root = '';
  const now = Date.now();

  const user = (name: string) => ({
    id: `u_${name}`,
    username: name,
    username_lower: name,
    email: `${name}@example.com`,
    email_lower: `${name}@example.com`,
    fullname: `${name[0]?.toUpperCase()}${name.slice(1)} Example`,
    avatar_url: null,
    status: 'active',
    is_admin: 0,
    password_hash: null,
    created_at: now - 100 * 24 * HOUR,
    updated_at: now,
  });

  const post = (
    id: string,
    author: string,
    type: string,
    hoursOld: number,
    fields: Record<string, unknown> = {},
  ) => ({
    id,
    user_id: `u_${author}`,
    title: `Post ${id}`,
    description: `What ${author} offers: ${id}.`,
    type,
    city_id: NYC,
    xpoint_id: null,
    parent_type: null,
    image_url: null,
    image_variants: null,
    image_placeholder: null,
    video_url: null,
    file_resource_bitmask: 0,
    expires_at: null,
    created_at: now - hoursOld * HOUR,
    updated_at: now - hoursOld * HOUR,
    listed_at: now - hoursOld * HOUR,
    hidden_at: null,
    ...fields,
  });

  const event = (id: string, startMin: number, endMin: number, fields: Record<string, unknown> = {}) => ({
    id,
    xpoint_id: null,
    owner_userid: 'u_olivia',
    title: `Event ${id}`,
    type: 'concert',
    start_date: now + startMin * MIN,
    end_date: now + endMin * MIN,
    lat: 40.7128,
    lon: -74.006,
    city_id: NYC,
    full_address: '1 Pier Street',
    admission: 'free',
    created_at: now,
    updated_at: now,
    ...fields,
  });

  beforeAll(async () => {
    store = await openTestStore(dialect);
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-citypages-'));
    const webDir = path.join(root, 'web');
    fs.mkdirSync(webDir, { recursive: true });
    fs.writeFileSync(
      path.join(webDir, 'index.html'),
      '<!doctype html><title>XPoint test</title><div id="root"></div>',
    );
    fs.writeFileSync(path.join(webDir, 'citypage.html'), TEMPLATE);
    const config = {
      ...loadConfig({ SEED: 'none', LOG_LEVEL: 'silent', TRUST_PROXY: 'loopback', PUBLIC_URL: ORIGIN }, root),
      webDir,
    };
    app = await buildApp({ config, store, pageRenderer: null, cityPagesRenderer: await sourceRenderer() });
    await app.ready();

    const city = (
      id: number,
      name: string,
      forUrl: string,
      country: string,
      population: number,
      tz: string,
    ) => ({
      id,
      city: name,
      city_forurl: forUrl,
      state: null,
      country,
      iso2: country,
      lat: 40.71,
      lon: -74,
      population,
      time_zone: tz,
    });
    await store.db
      .insertInto('cities')
      .values([
        {
          ...city(NYC, 'New York City', 'new-york-city-us', 'US', 8_000_000, 'America/New_York'),
          state: 'New York',
        },
        city(LISBON, 'Lisbon', 'lisbon-pt', 'PT', 500_000, 'Europe/Lisbon'),
        city(2, 'Lisburn', 'lisburn-gb', 'GB', 45_000, 'Europe/London'),
        city(3, 'São Paulo', 'sao-paulo-br', 'BR', 12_000_000, 'America/Sao_Paulo'),
      ])
      .execute();
    await store.db.insertInto('users').values(['olivia', 'busy', 'ana', 'ben', 'cy'].map(user)).execute();
    await store.db
      .insertInto('posts')
      .values([
        // one busy author with many well-liked fresh deals: at most two of them in each list
        ...Array.from({ length: 8 }, (_, i) => post(`busy${i}`, 'busy', 'deal', 1 + i / 10)),
        post('ana_gig', 'ana', 'gig', 2),
        post('ben_petition', 'ben', 'petition', 5),
        post('cy_old', 'cy', 'classified', 72),
        post('cy_xss', 'cy', 'general', 3, { title: XSS }),
        post('hidden', 'ana', 'deal', 1, { hidden_at: now }),
        post('expired', 'ben', 'deal', 1, { expires_at: now - MIN }),
        post('elsewhere', 'ana', 'deal', 1, { city_id: LISBON }),
      ])
      .execute();
    await store.db
      .insertInto('like_counts')
      .values(
        Array.from({ length: 8 }, (_, i) => ({ object_type: 'P', object_id: `busy${i}`, up: 20, down: 0 })),
      )
      .execute();
    await store.db
      .insertInto('points')
      .values([
        newPoint({
          id: 'pier_hall',
          title: 'Pier Hall',
          supertype: 'business',
          type: 'cafe',
          city_id: NYC,
          stats_this_month: 900,
          stats_total: 5000,
        }),
        newPoint({
          id: 'quiet_park',
          title: 'Quiet Park',
          supertype: 'poi',
          type: 'park',
          city_id: NYC,
          stats_this_month: 40,
          stats_total: 90000,
        }),
        newPoint({
          id: 'busy_museum',
          title: 'Busy Museum',
          supertype: 'business',
          type: 'museum',
          city_id: NYC,
          stats_this_month: 2500,
          stats_total: 9000,
        }),
        newPoint({
          id: 'lisbon_cafe',
          title: 'Lisbon Café',
          supertype: 'business',
          type: 'cafe',
          city_id: LISBON,
          stats_this_month: 9999,
          stats_total: 99999,
        }),
      ])
      .execute();
    await store.db
      .insertInto('events')
      .values([
        event('ev_now', -30, 120, {
          xpoint_id: 'pier_hall',
          admission: 'paid',
          admissionprice: 12.5,
          description: 'Jazz on the pier.\n\nBring a coat.',
          cover_url: '/media/jazz.webp',
        }),
        event('ev_soon', 3 * 24 * 60, 3 * 24 * 60 + 90, { title: 'Harbour Market' }),
        event('ev_far', 30 * 24 * 60, 30 * 24 * 60 + 90),
        event('ev_past', -3 * 60, -60),
        event('ev_lisbon', 60, 120, { city_id: LISBON }),
      ])
      .execute();
    await store.db
      .insertInto('event_intervals')
      .values([{ event_id: 'ev_now', start_at: now - 30 * MIN, end_at: now + 120 * MIN }])
      .execute();
    await store.db
      .insertInto('event_tickets')
      .values([
        { event_id: 'ev_now', name: 'Standard', unit_price: 12.5, max_quantity: 3 },
        { event_id: 'ev_now', name: 'Front row', unit_price: 40, max_quantity: 0 },
      ])
      .execute();
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  const get = (url: string, accept = 'text/html') => app.inject({ method: 'GET', url, headers: { accept } });

  it('GET /cads/{city} is the city page: title, description, canonical, live posts hot first with at most two per author', async () => {
    const res = await get('/cads/new-york-city-us');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.body;
    expect(html).toContain('<title>Deals and posts in New York City — XPoint</title>');
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/cads/new-york-city-us">`);
    expect(html).toContain(
      '<meta name="description" content="Deals, classifieds, gigs and more posted by people in New York City, New York; events on now and soon, and the places most visited.">',
    );
    const data = pageData<CityPageData>(html);
    const hot = data.hot.map((p) => p.id);
    // live posts only, of this city
    expect(hot).not.toContain('hidden');
    expect(hot).not.toContain('expired');
    expect(hot).not.toContain('elsewhere');
    // two of the busy author's eight, then everyone else by rank
    expect(hot.filter((id) => id.startsWith('busy'))).toEqual(['busy0', 'busy1']);
    expect(hot).toEqual(['busy0', 'busy1', 'ana_gig', 'cy_xss', 'ben_petition', 'cy_old']);
    // each category its own list, social §1's categories in the page's order
    expect(data.categories.map((c) => c.type)).toEqual(['deal', 'classified', 'gig', 'petition', 'general']);
    expect(data.categories[0]?.posts.map((p) => p.id)).toEqual(['busy0', 'busy1']);
    expect(data.hot[0]).toMatchObject({ url: '/post/busy0', score: 20, author: { username: 'busy' } });
    const text = textOf(html);
    for (const expected of [
      'Hot in New York City',
      'Post ana_gig',
      'By category',
      'Petitions',
      'Busy Example',
    ])
      expect(text).toContain(expected);
    // a title is text, never markup
    expect(html).not.toContain(XSS);
  });

  it('lists the city’s events on now and within a week, and its most visited places this month', async () => {
    const data = pageData<CityPageData>((await get('/cads/new-york-city-us')).body);
    expect(data.events.map((e) => [e.id, e.running])).toEqual([
      ['ev_now', true],
      ['ev_soon', false],
    ]);
    expect(data.points.map((p) => p.id)).toEqual(['busy_museum', 'pier_hall', 'quiet_park']);
    expect(data.points[0]).toMatchObject({ url: '/b/busy_museum', visits_month: 2500, category: 'Museum' });
    const text = textOf((await get('/cads/new-york-city-us')).body);
    expect(text).toMatch(/On now, until \d\d \w{3} \d{4} \d\d:\d\d \((AM|PM)\)/);
    expect(text).toContain('2,500 visits this month');
  });

  it('says an ItemList of the posts and an Event per event in JSON-LD that is schema.org', async () => {
    const documents = jsonLdOf((await get('/cads/new-york-city-us')).body);
    expect(documents).toHaveLength(3);
    expect(documents[0]).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      numberOfItems: 6,
    });
    expect((documents[0] as { itemListElement: unknown[] }).itemListElement[0]).toEqual({
      '@type': 'ListItem',
      position: 1,
      url: `${ORIGIN}/post/busy0`,
      name: 'Post busy0',
    });
    expect(documents[1]).toMatchObject({
      '@type': 'Event',
      name: 'Event ev_now',
      url: `${ORIGIN}/e/ev_now`,
      location: {
        '@type': 'Place',
        address: { addressLocality: 'New York City', streetAddress: '1 Pier Street' },
      },
    });
    expect(schemaOrgProblems(documents)).toEqual([[], [], []]);
  }, 60_000);

  it('answers the data itself to a client that asks for JSON', async () => {
    const res = await get('/cads/new-york-city-us', 'application/json');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      kind: 'city',
      city: { city_forurl: 'new-york-city-us', time_zone: 'America/New_York' },
    });
  });

  it('GET /e/{id} is the event page with a schema.org Event: dates, place, organizer, offers from its tickets, status', async () => {
    const res = await get('/e/ev_now');
    expect(res.statusCode, res.body).toBe(200);
    const html = res.body;
    expect(html).toContain('<title>Event ev_now — XPoint</title>');
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/e/ev_now">`);
    expect(html).toContain('<meta name="description" content="Jazz on the pier. Bring a coat.">');
    const text = textOf(html);
    for (const expected of [
      'Event ev_now',
      'Happening now',
      'Paid: 12.50',
      'Standard',
      'Sold out',
      'Pier Hall',
      'America/New York',
    ])
      expect(text).toContain(expected);
    const data = pageData<EventPageData>(html);
    expect(data).toMatchObject({ kind: 'event', time_zone: 'America/New_York', event: { id: 'ev_now' } });
    expect(data.map_url).toMatch(/^\/maps\/data=/);
    expect(data).toMatchObject({ city_url: '/cads/new-york-city-us', owner_url: '/u/olivia' });
    const [event] = jsonLdOf(html);
    expect(event).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: 'Event ev_now',
      startDate: new Date(now - 30 * MIN).toISOString(),
      endDate: new Date(now + 120 * MIN).toISOString(),
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      image: [`${ORIGIN}/media/jazz.webp`],
      organizer: { '@type': 'Organization', name: 'Pier Hall', url: `${ORIGIN}/b/pier_hall` },
      location: {
        '@type': 'Place',
        address: {
          '@type': 'PostalAddress',
          streetAddress: '1 Pier Street',
          addressLocality: 'New York City',
        },
        geo: { '@type': 'GeoCoordinates', latitude: 40.7128, longitude: -74.006 },
      },
      offers: [
        { '@type': 'Offer', name: 'Standard', price: 12.5, availability: 'https://schema.org/InStock' },
        { '@type': 'Offer', name: 'Front row', price: 40, availability: 'https://schema.org/SoldOut' },
      ],
    });
    expect(schemaOrgProblems([event])).toEqual([[]]);
  }, 60_000);

  it('an unknown city answers 404 with a city search listing the cities that start like it', async () => {
    const res = await get('/cads/lisbn-pt');
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<meta name="robots" content="noindex">');
    const text = textOf(res.body);
    expect(text).toContain('We do not know this city');
    expect(res.body).toMatch(/<form[^>]*action="\/cads"[^>]*method="get"/);
    expect(res.body).toContain('href="/cads/lisbon-pt"');
    expect(res.body).toContain('href="/cads/lisburn-gb"');
    // a JSON client gets the catalogue's error
    const json = await get('/cads/lisbn-pt', 'application/json');
    expect(json.statusCode).toBe(404);
    expect(json.json()).toEqual({ errorcode: 19301, error: 'There is no city lisbn-pt.' });
  });

  it('a malformed city answers 404 with the search, and 400 with the catalogue’s error to JSON', async () => {
    for (const url of ['/cads/%3Cscript%3E', `/cads/${'a'.repeat(200)}`, '/cads/', '/cads/a%20b']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(textOf(res.body), url).toContain('That is not a city address');
      expect(res.body).not.toContain('<script>alert');
    }
    const json = await get('/cads/%3Cscript%3E', 'application/json');
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ errorcode: 19302 });
  });

  it('GET /cads?q= lists the cities whose name starts with q, accents folded, most populous first', async () => {
    const res = await get('/cads?q=Lisb');
    expect(res.statusCode).toBe(200);
    const order = ['lisbon-pt', 'lisburn-gb'].map((slug) => res.body.indexOf(`/cads/${slug}`));
    expect(order[0]).toBeGreaterThan(0);
    expect(order[1]).toBeGreaterThan(order[0] ?? 0);
    expect((await get('/cads?q=s%C3%A3o', 'application/json')).json()).toEqual({
      cities: [
        {
          city: 'São Paulo',
          state: null,
          country: 'BR',
          city_forurl: 'sao-paulo-br',
          url: '/cads/sao-paulo-br',
        },
      ],
    });
    expect(textOf((await get('/cads?q=zzzz')).body)).toContain('No results found');
  });

  it('refuses a 1,000-character city query and an empty one with 19303', async () => {
    const long = await get(`/cads?q=${'a'.repeat(1000)}`);
    expect(long.statusCode).toBe(400);
    expect(textOf(long.body)).toContain('q: at most 100 characters.');
    const json = await get(`/cads?q=${'a'.repeat(1000)}`, 'application/json');
    expect(json.json()).toEqual({ errorcode: 19303, error: 'q: at most 100 characters.', field: 'q' });
    expect((await get('/cads?q=%20', 'application/json')).json()).toMatchObject({ errorcode: 19303 });
  });

  it('an unknown event id answers a 404 page, a malformed one too; JSON clients get 2011 and 2012', async () => {
    for (const url of ['/e/no_such_event', '/e/%3Cb%3E']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(textOf(res.body)).toContain('Event not found');
      expect(res.body).not.toContain('<b>');
    }
    expect((await get('/e/no_such_event', 'application/json')).json()).toMatchObject({ errorcode: 2011 });
    const bad = await get('/e/%3Cb%3E', 'application/json');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ errorcode: 2012 });
  });

  it('changes nothing: the pages only read', async () => {
    const before = await store.db
      .selectFrom('posts')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirst();
    await get('/cads/new-york-city-us');
    await get('/e/ev_now');
    const after = await store.db
      .selectFrom('posts')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirst();
    expect(Number(after?.n)).toBe(Number(before?.n));
  });
});
