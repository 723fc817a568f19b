import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../support/app';
import { TEST_DIALECTS } from '../support/store';
import { registerUser, signIn } from '../support/accounts';
import { newPoint } from '../support/factories';
import { sourceRenderers } from '../support/ssr';
import { BASEMAP_ATTRIBUTION } from '../../src/shared/map/contract';

/**
 * A point's level in the app painted by the server (issue 23): a visitor's /b/{id} arrives with the
 * level's text in #root, the point's title, description and canonical link in the head, and the
 * answer it was painted from for the app's cache; a signed-in viewer, a point that does not exist and
 * bad input get the app as before. The painted search form's plain GET lands on the app's search.
 */
const PASSWORD = 'first-paint-password-1';
const XSS = '</script><script>alert("owned")</script>';

describe.each(TEST_DIALECTS)('the first paint of a point in the app (%s)', (dialect) => {
  let t: TestApp;
  let cookie = '';

  beforeAll(async () => {
    t = await openTestApp({
      dialect,
      firstPaint: (await sourceRenderers()).firstPaint,
      publicUrl: 'https://xpoint.example',
    });
    expect((await registerUser(t, 'olivia', PASSWORD)).statusCode).toBe(201);
    cookie = (await signIn(t, 'olivia', PASSWORD)).cookie;
    await t.store.db
      .insertInto('points')
      .values([
        newPoint({
          id: 'bluedoor',
          type: 'bakery',
          title: 'Blue Door Bakery',
          description: `Sourdough and cinnamon buns, baked at dawn. ${XSS}`,
          full_address: 'Rua Augusta 10, Lisbon',
          lat: 38.7223,
          lon: -9.1393,
        }),
        // one name in two cities: which comes first depends on where the visitor's map opens
        newPoint({
          id: 'sourdough_lx',
          type: 'bakery',
          title: 'Sourdough Corner',
          full_address: 'Rua da Prata 80, Lisbon',
          lat: 38.7105,
          lon: -9.1364,
        }),
        newPoint({
          id: 'sourdough_ny',
          type: 'bakery',
          title: 'Sourdough Corner',
          full_address: '120 Mulberry St, New York',
          lat: 40.7193,
          lon: -73.9973,
        }),
      ])
      .execute();
  });
  afterAll(() => t?.close());

  it('paints a visitor’s /b/{id}: the level’s text, its head, and the answer for the app', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/b/bluedoor' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    const html = res.body;
    expect(html).toContain('<div id="root" data-first-paint="point">');
    expect(html).toMatch(/<h2[^>]*class="side-panel__title"[^>]*>Blue Door Bakery<\/h2>/);
    expect(html).toContain('Sourdough and cinnamon buns, baked at dawn.');
    expect(html).toContain('<title>Blue Door Bakery');
    expect(html).toContain('<link rel="canonical" href="https://xpoint.example/');
    expect(html).toMatch(/<meta name="description" content="[^"]*Sourdough/);
    // the answer the app seeds its cache with, as GET /v1/webonly/xpointdetails/{id} answers a visitor
    const answers = JSON.parse(
      /<script type="application\/json" id="xp-first-answers">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? 'null',
    ) as { path: string; viewer: string; data: { id: string; title: string } }[];
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ path: '/v1/webonly/xpointdetails/bluedoor', viewer: '' });
    const api = await t.app.inject({ method: 'GET', url: '/v1/webonly/xpointdetails/bluedoor' });
    expect(answers[0]?.data).toEqual({ ...api.json(), evaluated_at: expect.any(Number) });
    // the description's markup is text, in the page and in its data
    expect(html).not.toContain(XSS);
  });

  it('leaves a signed-in viewer’s level, an unknown point and a bad id to the app, as before', async () => {
    const signedIn = await t.app.inject({ method: 'GET', url: '/b/bluedoor', headers: { cookie } });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.body).toContain('<div id="root"></div>');
    expect(signedIn.body).not.toContain('Blue Door Bakery');
    for (const url of ['/b/nosuchpoint', `/b/${encodeURIComponent('<x>')}`]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<div id="root"></div>');
    }
  });

  it('paints a visitor’s landing card, with the page’s canonical link; a signed-in viewer gets the app', async () => {
    for (const url of ['/', '/home']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<div id="root" data-first-paint="landing">');
      expect(res.body, url).toMatch(/<h1[^>]*>Find what is around you, right now<\/h1>/);
      expect(res.body, url).toContain('Loading your city…');
      expect(res.body, url).toContain('<link rel="canonical" href="https://xpoint.example/">');
    }
    const signedIn = await t.app.inject({ method: 'GET', url: '/', headers: { cookie } });
    expect(signedIn.body).toContain('<div id="root"></div>');
  });

  it('paints a visitor’s /maps as the shell’s frame with the map’s place, so the map starts at once', async () => {
    for (const url of [
      '/maps',
      '/maps/data=%7B%22loc%22%3A%7B%22zoom%22%3A11%2C%22lng%22%3A-0.1276%2C%22lat%22%3A51.5072%7D%7D',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<div id="root" data-first-paint="map">');
      expect(res.body, url).toContain(
        '<div class="map-view" role="region" aria-label="Map" aria-busy="true">',
      );
      expect(res.body, url).toMatch(
        /<form class="search-form" role="search" action="\/search" method="get">/,
      );
      expect(res.body, url).toContain('<link rel="canonical" href="https://xpoint.example/maps">');
      // no panel: the map alone
      expect(res.body, url).not.toContain('side-panel');
      // the basemap's credit where the map's attribution control will show it, already open
      expect(res.body, url).toContain(
        '<div class="maplibregl-ctrl-bottom-right painted-credit"><details class="maplibregl-ctrl maplibregl-ctrl-attrib maplibregl-compact maplibregl-compact-show" open="">',
      );
      expect(res.body, url).toContain(
        `<div id="painted-map-credit" class="maplibregl-ctrl-attrib-inner">${BASEMAP_ATTRIBUTION}</div>`,
      );
    }
    const signedIn = await t.app.inject({ method: 'GET', url: '/maps', headers: { cookie } });
    expect(signedIn.body).toContain('<div id="root"></div>');
  });

  it('paints no credit over an external basemap style, whose credits only its own document holds', async () => {
    const external = await openTestApp({
      dialect,
      firstPaint: (await sourceRenderers()).firstPaint,
      basemap: 'https://tiles.example.com/style.json',
    });
    try {
      const res = await external.app.inject({ method: 'GET', url: '/maps' });
      expect(res.body).toContain('<div id="root" data-first-paint="map">');
      expect(res.body).not.toContain('maplibregl-ctrl-attrib');
    } finally {
      await external.close();
    }
  });

  it('inlines the page’s stylesheets and drops the module preloads, so nothing holds the first paint', async () => {
    const index = path.join(t.config.webDir, 'index.html');
    const before = fs.readFileSync(index, 'utf8');
    fs.writeFileSync(path.join(t.config.webDir, 'assets', 'shell-1a2b.css'), '.side-panel{color:#123}');
    fs.writeFileSync(
      index,
      '<!doctype html><html><head><title>XPoint</title>' +
        '<script type="module" crossorigin src="/assets/index-1.js"></script>' +
        '<link rel="modulepreload" crossorigin href="/assets/react-1.js">' +
        '<link rel="stylesheet" crossorigin href="/assets/shell-1a2b.css">' +
        '<link rel="stylesheet" crossorigin href="/assets/missing-9.css">' +
        '</head><body><div id="root"></div></body></html>',
    );
    try {
      const html = (await t.app.inject({ method: 'GET', url: '/b/bluedoor' })).body;
      expect(html).toContain(
        '<style>.side-panel{color:#123}</style><link rel="stylesheet" crossorigin href="/assets/shell-1a2b.css" disabled>',
      );
      // a stylesheet that cannot be read stays a link, as built
      expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/missing-9.css">');
      expect(html).not.toContain('modulepreload');
      expect(html).toContain('<script type="module" crossorigin src="/assets/index-1.js"></script>');
      expect(html).toContain('<body class="point">');
      // the app's page for a signed-in viewer is the build's, as it is
      const signedIn = (await t.app.inject({ method: 'GET', url: '/b/bluedoor', headers: { cookie } })).body;
      expect(signedIn).toContain('<link rel="modulepreload" crossorigin href="/assets/react-1.js">');
    } finally {
      fs.writeFileSync(index, before);
    }
  });

  it('sends the painted search form’s plain GET to the app’s search, and refuses an unknown kind', async () => {
    const found = await t.app.inject({
      method: 'GET',
      url: '/search?keywords=coffee+shop&supertype=business',
    });
    expect(found.statusCode).toBe(303);
    expect(decodeURIComponent(found.headers.location ?? '')).toBe(
      '/maps/coffee shop/data={"search":{"supertype":"business"}}',
    );
    const nothing = await t.app.inject({ method: 'GET', url: '/search?keywords=+' });
    expect(nothing.statusCode).toBe(303);
    expect(nothing.headers.location).toBe('/maps');
    const bad = await t.app.inject({ method: 'GET', url: '/search?keywords=x&supertype=castle' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ errorcode: 5005 });
    expect(bad.json().error).toContain('"castle" is not a supertype');
  });

  /** A visitor's search page, once the bakery has reached the search index (through the change feed). */
  async function paintedSearch(
    url: string,
    headers: Record<string, string> = {},
    until = 'Blue Door Bakery',
  ): Promise<string> {
    const started = Date.now();
    for (;;) {
      const res = await t.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode).toBe(200);
      if (res.body.includes(until) || Date.now() - started > 20_000) return res.body;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('paints a visitor’s search page with its results as links, in the visitor’s result mode, and the answer for the app', async () => {
    const html = await paintedSearch('/maps/blue%20door');
    expect(html).toContain('<div id="root" data-first-paint="search">');
    expect(html).toMatch(/<h2[^>]*class="side-panel__title"[^>]*>“blue door”<\/h2>/);
    // React writes its text joints as comments: read as the browser shows it
    expect(html.replaceAll('<!-- -->', '')).toContain('1 place · showing 1–1');
    expect(html).toContain('<ol class="search-results search-results--tile"');
    // the result is a link to its level over the search, which works without the app's script
    const href = /<a class="search-result" href="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(decodeURIComponent(href.replaceAll('&amp;', '&'))).toBe(
      '/maps/blue door/data={"xpoint":{"id":"bluedoor"}}',
    );
    // the search box holds the words, and the page is not one to index
    expect(html).toMatch(/<input[^>]*class="search-form__input"[^>]*value="blue door"/);
    expect(html).toContain('<meta name="robots" content="noindex, follow">');
    expect(html).toContain('<title>blue door — search · XPoint</title>');
    const answers = JSON.parse(
      /<script type="application\/json" id="xp-first-answers">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? 'null',
    ) as { path: string; viewer: string; data: { results: { marker: { id: string } }[] } }[];
    expect(answers).toHaveLength(1);
    expect(answers[0]?.path).toBe(
      // the call the app would make: without a location cookie its map opens on New York
      'search:{"keywords":"blue door","pageNumber":1,"pageSize":12,"supertype":null,"near":{"lat":40.7128,"lon":-74.006}}',
    );
    expect(answers[0]?.data.results.map((r) => r.marker.id)).toEqual(['bluedoor']);
    // in the list mode the visitor chose last time
    const list = await paintedSearch('/maps/blue%20door', { cookie: 'search.resultmode=list' });
    expect(list).toContain('<ol class="search-results search-results--list"');
  });

  it('ranks a search without bounds around where the visitor’s map opens, as the app does', async () => {
    /** The ids of the painted results, in order, and the centre the answer was ranked around. */
    const painted = async (url: string, headers: Record<string, string> = {}) => {
      const html = await paintedSearch(url, headers, 'Sourdough Corner');
      const ids = [...html.matchAll(/<a class="search-result" href="([^"]+)"/g)].map(
        (match) => /"id":"(\w+)"/.exec(decodeURIComponent(match[1] ?? ''))?.[1],
      );
      const answers = JSON.parse(
        /<script type="application\/json" id="xp-first-answers">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '[]',
      ) as { path: string }[];
      return { ids, near: JSON.parse(answers[0]?.path.slice('search:'.length) ?? '{}').near };
    };
    // a first visit: New York, the map's default
    expect(await painted('/maps/sourdough%20corner')).toEqual({
      ids: ['sourdough_ny', 'sourdough_lx'],
      near: { lat: 40.7128, lon: -74.006 },
    });
    // the visitor's last map position, kept in its cookie
    const lisbon = encodeURIComponent(JSON.stringify({ zoom: 13, lng: -9.14, lat: 38.71 }));
    expect(await painted('/maps/sourdough%20corner', { cookie: `mapbox_loc_json=${lisbon}` })).toEqual({
      ids: ['sourdough_lx', 'sourdough_ny'],
      near: { lat: 38.71, lon: -9.14 },
    });
    // a search from the landing page comes painted the same way
    expect(await painted('/search/sourdough%20corner', { cookie: `mapbox_loc_json=${lisbon}` })).toEqual({
      ids: ['sourdough_lx', 'sourdough_ny'],
      near: { lat: 38.71, lon: -9.14 },
    });
    // that one is a page for search engines, under its plain address; the map's search is not
    const landing = await paintedSearch('/search/sourdough%20corner', {}, 'Sourdough Corner');
    expect(landing).toContain(
      '<link rel="canonical" href="https://xpoint.example/search/sourdough%20corner">',
    );
    expect(landing).not.toContain('noindex');
    const later = await paintedSearch(
      `/search/sourdough%20corner/data=${encodeURIComponent('{"search":{"paging":{"pageNumber":2}}}')}`,
      {},
      '“sourdough corner”',
    );
    expect(later).toContain('<meta name="robots" content="noindex, follow">');
    // the address's own location wins over the cookie
    const loc = encodeURIComponent(JSON.stringify({ loc: { zoom: 12, lng: -74, lat: 40.72 } }));
    expect(
      await painted(`/maps/sourdough%20corner/data=${loc}`, { cookie: `mapbox_loc_json=${lisbon}` }),
    ).toMatchObject({ ids: ['sourdough_ny', 'sourdough_lx'] });
  });

  it('leaves a signed-in viewer’s search and a search with a refused data segment to the app', async () => {
    const signedIn = await t.app.inject({ method: 'GET', url: '/maps/blue%20door', headers: { cookie } });
    expect(signedIn.body).toContain('<div id="root"></div>');
    const bad = await t.app.inject({ method: 'GET', url: '/maps/blue%20door/data={bad' });
    expect(bad.statusCode).toBe(200);
    expect(bad.body).not.toContain('data-first-paint="search"');
  });
});
