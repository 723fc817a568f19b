import { describe, expect, test } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { DESKTOP, MOBILE, saveScreenshot, type Viewport } from './support/browser';
import { startJourney } from './support/journey';
import { newPoint } from '../support/factories';

/**
 * A point's level painted by the server (issue 23), as a visitor on a slow phone meets it: the place's
 * name, category and description are on screen before any of the app's scripts has arrived, the page
 * is titled after the place, and when the app takes over it draws the same level in the same place
 * with no loader in between. What the visitor typed into the search box meanwhile is still there, and
 * the box still has the focus (issue 21, item 8: no keystroke lost).
 */
describe('the first paint of a point', () => {
  const journey = startJourney({
    seed: 0,
    prepare: async (store) => {
      await store.db
        .insertInto('points')
        .values(
          newPoint({
            id: 'fpbakery',
            type: 'bakery',
            title: 'Blue Door Bakery',
            description: 'Sourdough and cinnamon buns, baked at dawn by the river.',
            full_address: '10 Quay Street, Far Away',
            lat: 40.7128,
            lon: -74.006,
          }),
        )
        .execute();
    },
  });

  /** Opens `path` with the app's scripts (`held`, all of them by default) held until `release()` is called. */
  async function openHeld(path: string, viewport: Viewport, heldScripts = '**/assets/*.js') {
    const page = await journey.browser.context.newPage();
    await page.setViewportSize(viewport);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(heldScripts, async (route: Route) => {
      await held;
      await route.continue();
    });
    // whether the level's loader ever showed, from the first parse on
    await page.addInitScript(`
      window.sawLoader = false;
      new MutationObserver(() => {
        if (document.querySelector('.point-panel .panel-loader')) window.sawLoader = true;
      }).observe(document, { subtree: true, childList: true });
    `);
    await page.goto(journey.url(path), { waitUntil: 'commit' });
    return { page, release };
  }

  const sawLoader = (page: Page) => page.evaluate<boolean>('window.sawLoader');

  for (const viewport of [MOBILE, DESKTOP]) {
    test(`given a visitor at ${viewport.width} px, when /b/{id} opens before the app's scripts arrive, then the place reads at once and the app takes over in place, keeping what was typed`, async () => {
      const { page, release } = await openHeld('/b/fpbakery', viewport);
      try {
        const heading = page.getByRole('heading', { name: 'Blue Door Bakery' });
        await heading.waitFor();
        await expect(page.title()).resolves.toBe('Blue Door Bakery — XPoint');
        await page.getByText('Sourdough and cinnamon buns, baked at dawn by the river.').waitFor();
        await page.getByText('Bakery', { exact: true }).waitFor();
        // painted, no script has run: the chat is a plain link yet
        await page.getByRole('link', { name: 'Chat' }).waitFor();
        // what the app draws must land where the paint had it: the heading, and the section below the summary
        const facts = page.getByRole('heading', { name: 'Contact and location' });
        const painted = { heading: await heading.boundingBox(), facts: await facts.boundingBox() };
        await saveScreenshot(page, `first-paint-${viewport.width}-painted`);

        // the visitor starts typing before the app is there
        // (a plain search box painted, the app's combobox after: the same place on the bar)
        const box = page.locator('input.search-form__input');
        await box.click();
        await box.pressSequentially('coff');
        release();

        // the app's level: the chat is the app's button now, in the same panel
        await page.getByRole('button', { name: 'Chat' }).waitFor();
        await expect(heading.boundingBox()).resolves.toEqual(painted.heading);
        await expect(facts.boundingBox()).resolves.toEqual(painted.facts);
        expect(await sawLoader(page)).toBe(false);
        await expect(box.inputValue()).resolves.toBe('coff');
        await expect
          .poll(() =>
            page.evaluate<boolean>("document.activeElement?.classList.contains('search-form__input')"),
          )
          .toBe(true);
        // and it is live: the next letter asks for suggestions
        await page.keyboard.type('e');
        await expect(box.inputValue()).resolves.toBe('coffe');
        await saveScreenshot(page, `first-paint-${viewport.width}-app`);
      } finally {
        await page.close();
      }
    });
  }

  for (const viewport of [MOBILE, DESKTOP]) {
    test(`given a visitor at ${viewport.width} px, when /maps opens and the app's own script is held, then the map draws in the painted place, and the app takes that same map over`, async () => {
      // the app's entry only: the map's early start and maplibre come through
      const { page, release } = await openHeld('/maps', viewport, '**/assets/index-*.js');
      try {
        // painted: the top bar's plain form, and the map drawn in the painted map's box
        await page.locator('#root[data-first-paint="map"] form.search-form').waitFor();
        await page.locator('body[data-map-drawn="true"]').waitFor({ state: 'attached' });
        const canvas = page.locator('#root[data-first-paint="map"] .map-view canvas.maplibregl-canvas');
        await expect(canvas.count()).resolves.toBe(1);
        const box = await canvas.boundingBox();
        expect(box?.width).toBe(viewport.width);
        expect(box?.height).toBe(viewport.height);
        // the app has not run: no map is ready for it yet
        await expect(page.locator('body[data-map-ready]').count()).resolves.toBe(0);
        await page.evaluate("document.querySelector('canvas.maplibregl-canvas').dataset.early = 'yes'");
        await saveScreenshot(page, `first-paint-maps-${viewport.width}-early-map`);

        release();
        await page.locator('body[data-map-ready="true"]').waitFor({ state: 'attached' });
        // the app's own top bar, over the same map: one canvas, the one drawn before the app came
        await page.locator('.topbar input[role="combobox"]').waitFor();
        await expect(page.locator('canvas.maplibregl-canvas').count()).resolves.toBe(1);
        await expect(
          page.locator('.map-view canvas.maplibregl-canvas[data-early="yes"]').count(),
        ).resolves.toBe(1);
        await saveScreenshot(page, `first-paint-maps-${viewport.width}-app`);
      } finally {
        release();
        await page.close();
      }
    });
  }

  test("given a visitor at 1280 px, when a search page opens before the app's scripts arrive, then its results read at once and the app takes them over in place", async () => {
    const { page, release } = await openHeld('/maps/blue door', DESKTOP);
    try {
      const result = page.locator('.search-result__name', { hasText: 'Blue Door Bakery' });
      await result.waitFor();
      await page.getByText('1 place · showing 1–1').waitFor();
      const painted = await result.boundingBox();
      await saveScreenshot(page, 'first-paint-search-1280-painted');
      release();
      // the app's panel: its own toolbar works now, the result where the paint had it, no "Searching…"
      await page.locator('.topbar input[role="combobox"]').waitFor();
      await page.getByRole('radio', { name: 'List' }).click();
      await page.locator('.search-results--list').waitFor();
      await page.getByRole('radio', { name: 'Tiles' }).click();
      await expect(result.boundingBox()).resolves.toEqual(painted);
      await expect(page.getByText('Searching…').count()).resolves.toBe(0);
      await saveScreenshot(page, 'first-paint-search-1280-app');
    } finally {
      release();
      await page.close();
    }
  });

  test('given a visitor at 375 px with JavaScript off, when a search from the landing page opens, then its results read and their links open the place', async () => {
    const page = await journey.browser.context.newPage();
    await page.setViewportSize(MOBILE);
    const devtools = await journey.browser.context.newCDPSession(page);
    await devtools.send('Emulation.setScriptExecutionDisabled', { value: true });
    try {
      await page.goto(journey.url('/search/blue door'));
      await page.getByText('1 place · showing 1–1').waitFor();
      await saveScreenshot(page, 'first-paint-search-375-no-script');
      await page.getByRole('link', { name: /Blue Door Bakery/ }).click();
      await page.getByRole('heading', { name: 'Blue Door Bakery' }).waitFor();
      await page.getByText('Sourdough and cinnamon buns, baked at dawn by the river.').waitFor();
      expect(decodeURIComponent(new URL(page.url()).pathname)).toBe(
        '/maps/blue door/data={"xpoint":{"id":"fpbakery"}}',
      );
    } finally {
      await devtools.detach();
      await page.close();
    }
  });

  /**
   * The page's cumulative layout shift so far (the sum of the browser's layout-shift entries not caused
   * by input), from an observer the page starts before its first parse.
   */
  async function openMeasuringShift(path: string, viewport: Viewport) {
    const page = await journey.browser.context.newPage();
    await page.setViewportSize(viewport);
    await page.addInitScript(`
      window.layoutShift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.layoutShift += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
    `);
    await page.goto(journey.url(path));
    return { page, layoutShift: () => page.evaluate<number>('window.layoutShift') };
  }

  for (const viewport of [MOBILE, DESKTOP]) {
    test(`given a visitor at ${viewport.width} px, when the landing page and everything it waits for have arrived, then nothing on the screen has moved (CLS <= 0.1)`, async () => {
      const { page, layoutShift } = await openMeasuringShift('/', viewport);
      try {
        // the map drawn and taken over, its controls in their corner, the home page's answers shown
        await page
          .locator('body[data-map-drawn="true"][data-map-ready="true"]')
          .waitFor({ state: 'attached' });
        await page.getByRole('button', { name: 'Zoom in' }).waitFor();
        await page.locator('.home-nearby__list button').first().waitFor();
        await page.getByRole('heading', { name: /^News in / }).waitFor();
        expect(await layoutShift()).toBeLessThanOrEqual(0.1);
        await saveScreenshot(page, `first-paint-landing-${viewport.width}-settled`);
      } finally {
        await page.close();
      }
    });

    test(`given a visitor at ${viewport.width} px, when /maps opens and its map is drawn and taken over, then nothing on the screen has moved (CLS <= 0.1)`, async () => {
      const { page, layoutShift } = await openMeasuringShift('/maps', viewport);
      try {
        await page
          .locator('body[data-map-drawn="true"][data-map-ready="true"]')
          .waitFor({ state: 'attached' });
        await page.getByRole('button', { name: 'Zoom in' }).waitFor();
        await page.locator('.maplibregl-ctrl-attrib:not(.maplibregl-attrib-empty)').waitFor();
        expect(await layoutShift()).toBeLessThanOrEqual(0.1);
      } finally {
        await page.close();
      }
    });
  }

  for (const viewport of [MOBILE, DESKTOP]) {
    test(`given a visitor at ${viewport.width} px, when /maps paints before the app's scripts arrive, then the painted map credit is the largest paint and MapLibre's, after the take-over, is not a larger one`, async () => {
      const { page, release } = await openHeld('/maps', viewport);
      try {
        // the page's largest-contentful-paint candidates in order: an element's id, else what it is
        await page.evaluate(`
          window.largestPaints = [];
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries())
              window.largestPaints.push(entry.id || (entry.element?.closest('.maplibregl-ctrl-attrib') ? 'MapLibre credit' : entry.element?.tagName ?? 'removed'));
          }).observe({ type: 'largest-contentful-paint', buffered: true });
        `);
        const largestPaints = () => page.evaluate<string[]>('window.largestPaints');
        await page.getByRole('link', { name: 'OpenStreetMap' }).waitFor();
        await expect.poll(async () => (await largestPaints()).at(-1)).toBe('painted-map-credit');
        release();
        await page
          .locator('body[data-map-drawn="true"][data-map-ready="true"]')
          .waitFor({ state: 'attached' });
        await page.getByRole('button', { name: 'Zoom in' }).waitFor();
        await page
          .locator('.maplibregl-ctrl-attrib:not(.maplibregl-attrib-empty)')
          .getByRole('link', { name: 'OpenStreetMap' })
          .waitFor();
        expect(await page.locator('#painted-map-credit').count()).toBe(0);
        expect((await largestPaints()).at(-1)).toBe('painted-map-credit');
      } finally {
        release();
        await page.close();
      }
    });
  }

  test("given a visitor at 375 px, when the landing page opens before the app's scripts arrive, then its card reads at once and the app takes it over in place", async () => {
    const { page, release } = await openHeld('/', MOBILE);
    // the card's home page (a lazy chunk) is held longer: when it arrives the card fills in, as it should,
    // so the card is compared while it still says "Loading your city…" (routes added later win)
    let releaseHome = () => {};
    const homeHeld = new Promise<void>((resolve) => (releaseHome = resolve));
    await page.route('**/assets/HomePage-*.js', async (route: Route) => {
      await homeHeld;
      await route.continue();
    });
    try {
      const heading = page.getByRole('heading', { name: 'Find what is around you, right now' });
      await heading.waitFor();
      await page.getByText('Loading your city…').waitFor();
      const painted = await heading.boundingBox();
      await saveScreenshot(page, 'first-paint-landing-painted');
      release();
      // the app's card: its button now leads to the map
      await expect
        .poll(() => page.evaluate<string | undefined>('document.activeElement?.id'))
        .toBe('landing-title');
      await page.getByText('Loading your city…').waitFor();
      await expect(heading.boundingBox()).resolves.toEqual(painted);
      releaseHome();
      await page.getByRole('button', { name: 'Explore the map' }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/maps');
    } finally {
      releaseHome();
      await page.close();
    }
  });
});

/**
 * A painted page's first picture is its largest paint, and the app's first render is the longest task
 * of its start: the app takes the page over once the picture is on the screen, not while it is still
 * arriving (issue 23: run first, the render held the picture's paint back until it ended).
 */
describe('the take-over of a painted page with a picture', () => {
  const journey = startJourney({ seed: 60 });

  test('given a visitor at 375 px on a place with a cover, when the cover comes after the app is ready, then the app takes the page over only once the cover has loaded', async () => {
    const id = await journey.withStore(
      async (store) =>
        (
          await store.db
            .selectFrom('points')
            .select('id')
            .where('url_cover_image', 'is not', null)
            .orderBy('id')
            .executeTakeFirstOrThrow()
        ).id,
    );
    const page = await journey.browser.context.newPage();
    await page.setViewportSize(MOBILE);
    let releasePictures = () => {};
    const picturesHeld = new Promise<void>((resolve) => (releasePictures = resolve));
    await page.route('**/media/**', async (route: Route) => {
      await picturesHeld;
      await route.continue();
    });
    // when the painted cover loaded, and when the app's search box (a combobox) replaced the painted one
    await page.addInitScript(`
      window.coverLoadedAt = null;
      window.takenOverAt = null;
      document.addEventListener('load', (event) => {
        if (event.target.matches?.('#root[data-first-paint] img[fetchpriority="high"]') && window.coverLoadedAt === null)
          window.coverLoadedAt = performance.now();
      }, true);
      new MutationObserver(() => {
        if (window.takenOverAt === null && document.querySelector('input[role="combobox"]'))
          window.takenOverAt = performance.now();
      }).observe(document, { subtree: true, childList: true });
    `);
    try {
      // the place's level, which the take-over waits for, arrives while the pictures are held
      const levelLoaded = page.waitForResponse(/\/assets\/PointPanel-[\w-]+\.js$/);
      await page.goto(journey.url(`/b/${id}`), { waitUntil: 'commit' });
      await levelLoaded;
      expect(await page.locator('#root[data-first-paint="point"] img[fetchpriority="high"]').count()).toBe(1);
      releasePictures();
      await page.getByRole('combobox', { name: 'Search places' }).waitFor();
      const coverLoadedAt = await page.evaluate<number | null>('window.coverLoadedAt');
      const takenOverAt = await page.evaluate<number | null>('window.takenOverAt');
      expect(coverLoadedAt).not.toBeNull();
      expect(takenOverAt).toBeGreaterThan(coverLoadedAt ?? Infinity);
    } finally {
      releasePictures();
      await page.close();
    }
  });
});
