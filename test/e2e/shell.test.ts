import { describe, expect, test } from 'vitest';
import type { Store } from '../../src/server/store/store';
import { newPoint } from '../support/factories';
import { DESKTOP, MOBILE, saveScreenshot, type OpenedPage, type Viewport } from './support/browser';
import type { PageDocument, PageImage } from './support/globals';
import { openWithMap, startJourney } from './support/journey';
import { mapIdle, pagePixel } from './support/map';
import { bodyClasses, panelTitle, pathOf } from './support/page';

declare const document: PageDocument;

/**
 * Journeys of the app shell (issue 5): deep links from the address bar, levels opened one from
 * another and restored by back and forward, the address corrected or cleaned, and the frame at
 * phone and desktop widths. The journey's own places sit in the empty South Pacific, so no demo
 * point joins their cluster.
 */
const SPOT = { lat: -48.5, lon: -140.25 };
const BAKERY = 'shell_bakery';
const EVENT = 'shell_market';
const NEIGHBOURS = ['shell_cafe', 'shell_bank'];

async function addJourneyPlaces(store: Store): Promise<void> {
  const now = Date.now();
  await store.db
    .insertInto('points')
    .values([
      newPoint({
        id: BAKERY,
        title: 'Southern Cross Bakery',
        supertype: 'business',
        type: 'bakery',
        tagline: 'Sourdough at the end of the world',
        description: 'Bread baked every morning. '.repeat(14),
        full_address: '-48.5,-140.25',
        ...SPOT,
      }),
      newPoint({
        id: NEIGHBOURS[0] ?? '',
        title: 'Albatross Cafe',
        type: 'cafe',
        // the three share one building: a click on their cluster lists them (zooming in never parts them)
        ...SPOT,
      }),
      newPoint({
        id: NEIGHBOURS[1] ?? '',
        title: 'Tide Bank',
        type: 'bank',
        ...SPOT,
      }),
    ])
    .execute();
  await store.db
    .insertInto('events')
    .values({
      id: EVENT,
      xpoint_id: BAKERY,
      parent_id: null,
      owner_userid: null,
      title: 'Night Market',
      cover_url: null,
      type: 'farmers_market',
      subtype: null,
      start_date: now - 3_600_000,
      end_date: now + 7_200_000,
      // the market square, a few hundred metres north: the event's own marker stays clear of the cluster
      lat: SPOT.lat + 0.006,
      lon: SPOT.lon,
      full_address: null,
      city_id: null,
      admission: 'free',
      admissionprice: null,
      website: null,
      description: 'Stalls under the stars.',
      marker: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await store.db
    .insertInto('event_intervals')
    .values({ event_id: EVENT, start_at: now - 3_600_000, end_at: now + 7_200_000 })
    .execute();
}

describe('the app shell', () => {
  const journey = startJourney({ seed: 200, prepare: addJourneyPlaces });

  const open = (path: string, viewport: Viewport = DESKTOP): Promise<OpenedPage> =>
    openWithMap(journey.browser, journey.url(path), viewport);

  /** Errors the page logged, without the 401 a visitor's account check gets. */
  const unexpected = (errors: string[]) =>
    errors.filter((error) => !/status of 401 .*\/v1\/account\//.test(error));

  test('given deep links to a point, an event, a search and a cluster, when each is opened from the address bar, then its view shows', async () => {
    const point = await open(`/b/${BAKERY}`);
    await expect.poll(() => panelTitle(point.page)).toBe('Southern Cross Bakery');
    expect(await point.page.locator('.point-panel__address').textContent()).toBe('48°30′00″S 140°15′00″W');
    expect(await bodyClasses(point.page)).toEqual(['point']);
    expect(await point.page.title()).toBe('Southern Cross Bakery · XPoint');
    expect(unexpected(point.errors)).toEqual([]);
    await point.page.close();

    const data = encodeURIComponent(JSON.stringify({ event: { id: EVENT } }));
    const event = await open(`/maps/data=${data}`);
    await expect.poll(() => panelTitle(event.page)).toBe('Night Market');
    expect(await bodyClasses(event.page)).toEqual(['event']);
    await event.page.close();

    const search = await open(
      `/maps/${encodeURIComponent('southern cross')}/data=${encodeURIComponent('{}')}`,
    );
    await search.page.locator('aside.search-panel').waitFor();
    await expect
      .poll(() => search.page.locator('.search-result__name').first().textContent())
      .toBe('Southern Cross Bakery');
    expect(await bodyClasses(search.page)).toEqual(['search']);
    expect(await search.page.getByRole('combobox', { name: 'Search places' }).inputValue()).toBe(
      'southern cross',
    );
    await search.page.close();

    const loc = { zoom: 12, lng: SPOT.lon, lat: SPOT.lat };
    const cluster = await open(`/cluster/data=${encodeURIComponent(JSON.stringify({ loc }))}`);
    await cluster.page.locator('aside.cluster-list').waitFor();
    expect(await bodyClasses(cluster.page)).toEqual(['cluster']);
    await cluster.page.close();
  });

  test('given the map alone, once it has gone idle, then the scripts of a point, an event and a search are fetched before any click', async () => {
    const { page, errors } = await open('/maps');
    const fetched = () =>
      page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((entry) => /\/assets\/(PointPanel|EventPanel|SearchScreen)-/.exec(entry.name)?.[1])
          .filter((name) => name !== undefined)
          .sort(),
      );
    await expect.poll(fetched).toEqual(['EventPanel', 'PointPanel', 'SearchScreen']);
    expect(await page.locator('aside.side-panel').count()).toBe(0);
    expect(unexpected(errors)).toEqual([]);
    await page.close();
  });

  test('given five levels opened one from another, when going back and forward, then each view is restored', async () => {
    const { page, errors } = await open(`/#12/${SPOT.lat}/${SPOT.lon}`);
    const landing = page.getByRole('heading', { name: 'Find what is around you, right now' });
    await landing.waitFor();
    expect(await bodyClasses(page)).toEqual(['landing']);

    // 2: the map
    await page.getByRole('button', { name: 'Explore the map' }).click();
    await expect.poll(() => pathOf(page)).toBe('/maps');
    await landing.waitFor({ state: 'detached' });
    await mapIdle(page);

    // 3: the cluster of the journey's three places
    const at = await pagePixel(page, SPOT.lon, SPOT.lat);
    await page.mouse.click(at.x, at.y);
    const list = page.locator('aside.cluster-list');
    await list.waitFor();
    await expect.poll(() => list.locator('.cluster-list__count').textContent()).toBe('3 places');

    // 4: the bakery, from the list
    await list.getByRole('link', { name: /Southern Cross Bakery/ }).click();
    await expect.poll(() => panelTitle(page)).toBe('Southern Cross Bakery');
    expect(pathOf(page)).toBe(`/b/${BAKERY}`);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H2');

    // 5: its event running now
    await page.getByRole('link', { name: 'Night Market' }).click();
    await expect.poll(() => panelTitle(page)).toBe('Night Market');
    expect(await bodyClasses(page)).toEqual(['event']);

    // the panel's back button restores the point, as the browser's back does
    await page.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => panelTitle(page)).toBe('Southern Cross Bakery');
    await page.goForward();
    await expect.poll(() => panelTitle(page)).toBe('Night Market');

    // back through every level...
    await page.goBack();
    await expect.poll(() => panelTitle(page)).toBe('Southern Cross Bakery');
    await page.goBack();
    await expect.poll(() => list.locator('.cluster-list__count').textContent()).toBe('3 places');
    expect(await bodyClasses(page)).toEqual(['cluster']);
    await page.goBack();
    await expect.poll(() => pathOf(page)).toBe('/maps');
    await expect.poll(() => page.locator('aside.side-panel').count()).toBe(0);
    expect(await page.title()).toBe("XPoint — what's around you");
    await page.goBack();
    await landing.waitFor();
    expect(await bodyClasses(page)).toEqual(['landing']);

    // ...and forward again
    await page.goForward();
    await landing.waitFor({ state: 'detached' });
    await page.goForward();
    await list.waitFor();
    await page.goForward();
    await expect.poll(() => panelTitle(page)).toBe('Southern Cross Bakery');
    await page.goForward();
    await expect.poll(() => panelTitle(page)).toBe('Night Market');
    await saveScreenshot(page, 'shell-event-level-desktop');

    // closing returns to map mode, and the map takes the focus
    await page.getByRole('button', { name: 'Close the panel' }).click();
    await expect.poll(() => pathOf(page)).toBe('/maps');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('CANVAS');
    await expect.poll(() => page.locator('aside.side-panel').count()).toBe(0);
    expect(unexpected(errors)).toEqual([]);
    await page.close();
  });

  test('given a point address with the wrong prefix, when it opens, then the address is corrected in place', async () => {
    const { page } = await open(`/rent/${BAKERY}`);
    await expect.poll(() => pathOf(page)).toBe(`/b/${BAKERY}`);
    await expect.poll(() => panelTitle(page)).toBe('Southern Cross Bakery');
    // replaced, not pushed: back leaves the page instead of returning to the wrong prefix
    await page.goBack();
    expect(page.url()).not.toContain('/rent/');
    await page.close();
  });

  test('given a malformed data segment, when it opens, then the map shows with the panel closed and the problem is logged', async () => {
    const { page, errors } = await open('/maps/bakery/data=%7B%22loc%22%3A%7Bbroken');
    await mapIdle(page);
    expect(await page.locator('aside.side-panel').count()).toBe(0);
    expect(await page.locator('canvas.maplibregl-canvas').count()).toBe(1);
    expect(errors.some((error) => error.includes("the address's data segment could not be read"))).toBe(true);
    await page.close();
  });

  test('given /search with only a data segment, when it opens, then the landing page shows at /', async () => {
    const { page } = await open('/search/data=%7B%7D');
    await page.getByRole('heading', { name: 'Find what is around you, right now' }).waitFor();
    await expect.poll(() => pathOf(page)).toBe('/');
    await page.close();
  });

  test('given /new with a supertype that cannot be added, when it opens, then the error panel says so', async () => {
    const { page } = await open('/new/incident');
    const alert = page.locator('.error-panel');
    await alert.waitFor();
    expect(await alert.locator('.error-panel__title').textContent()).toBe(
      'Oops! Something went wrong. Error.',
    );
    await page.close();
  });

  test('given an image that cannot load, then the local no-image picture takes its place', async () => {
    const { page } = await open('/maps');
    await page.evaluate(() => {
      const image = document.createElement('img');
      image.alt = 'broken';
      image.src = '/media/0000000000000000000000000000000000000000000000000000000000000000.webp';
      document.body.append(image);
    });
    await expect
      .poll(() => page.evaluate(() => document.querySelector<PageImage>('img[alt="broken"]')?.src ?? ''))
      .toMatch(/\/assets\/no-image-[\w-]+\.svg$|^data:image\/svg\+xml/);
    await page.close();
  });

  test('given an unknown point, when its address opens, then the error panel shows the server message', async () => {
    const { page } = await open('/b/no_such_point');
    const alert = page.locator('.error-panel');
    await alert.waitFor();
    expect(await alert.locator('.error-panel__message').textContent()).toMatch(/no_such_point/);
    await page.close();
  });

  for (const viewport of [MOBILE, DESKTOP]) {
    test(`given the point level at ${viewport.width} px, then the panel and the map share the screen`, async () => {
      const { page } = await open(`/b/${BAKERY}`, viewport);
      await expect.poll(() => panelTitle(page)).toBe('Southern Cross Bakery');
      // the panel's stylesheet comes with its lazily loaded script, and a phone's sheet slides up:
      // wait until the panel has settled where it belongs
      const settled = async () => {
        const panel = await page.locator('aside.side-panel').boundingBox();
        if (panel === null) return 'the panel is not drawn';
        if (panel.x < 0 || panel.x + panel.width > viewport.width)
          return `off screen: ${JSON.stringify(panel)}`;
        if (viewport.width <= 600)
          return Math.abs(panel.y + panel.height - viewport.height) < 0.5
            ? 'ok'
            : `not at the bottom: ${JSON.stringify(panel)}`;
        return panel.width < viewport.width / 2 ? 'ok' : `too wide: ${JSON.stringify(panel)}`;
      };
      await expect.poll(settled).toBe('ok');
      await saveScreenshot(page, `shell-point-${viewport.width}`);
      await page.close();
    });
  }
});
