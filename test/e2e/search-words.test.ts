import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { newPoint } from '../support/factories';
import { DESKTOP, MOBILE, saveScreenshot, type Viewport } from './support/browser';
import { openWithMap, startJourney } from './support/journey';
import { mapIdleOrStill } from './support/map';
import { panelTitle, searchBox } from './support/page';

/**
 * Journeys of search in people's words (issue 21 items 4 and 6): "coffee shop" lists cafés whatever
 * their names say, "drugstore" lists pharmacies, add-new step 2 offers the rented bike for "bicycle";
 * and a search as broad as the world says its count as an estimate, with a last page that stays put
 * when the visitor goes there. The journey's places sit together at Grytviken, South Georgia, where
 * the demo data has none; 25,000 demo points and SEARCH_COUNT_LIMIT 1,000 make "s" world-wide an
 * estimate.
 */
const SPOT = { lat: -54.2811, lon: -36.5092 };
const PLACES = [
  { id: 'words_grind', title: 'Grind & Roast', type: 'cafe' },
  { id: 'words_mensah', title: "Mensah's Espresso Bar", type: 'cafe' },
  { id: 'words_named', title: 'Harbour Coffee Shop', type: 'cafe' },
  { id: 'words_rx', title: 'Grytviken Dispensary', type: 'pharmacy' },
  { id: 'words_rx2', title: 'Pier Pharmacy', type: 'pharmacy' },
  { id: 'words_museum', title: 'Whalers Museum', type: 'museum' },
];

describe('search in people’s words', () => {
  const journey = startJourney({
    seed: 25_000,
    env: { SEARCH_COUNT_LIMIT: '1000' },
    prepare: async (store) => {
      await store.db
        .insertInto('points')
        .values(
          PLACES.map(({ id, title, type }, i) =>
            newPoint({
              id,
              title,
              type,
              full_address: 'King Edward Point',
              lat: SPOT.lat + (i % 3) * 0.0008,
              lon: SPOT.lon + Math.floor(i / 3) * 0.0012,
              rating: 50 + i,
              rating_count: 3,
            }),
          ),
        )
        .execute();
    },
  });

  const open = (path: string, viewport: Viewport = DESKTOP) =>
    openWithMap(journey.browser, journey.url(path), viewport);

  const names = (page: Page) => page.locator('aside.search-panel .search-result__name').allTextContents();

  /** Submits the words typed into the search box, as a person presses Enter. */
  async function search(page: Page, words: string): Promise<void> {
    await mapIdleOrStill(page);
    await searchBox(page).fill(words);
    await searchBox(page).press('Escape');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => panelTitle(page), { timeout: 10_000 }).toBe(`“${words}”`);
  }

  for (const viewport of [DESKTOP, MOBILE]) {
    test(`given cafés without the words in their names, when "coffee shop" is searched at ${viewport.width} px, then they are listed after the one whose name says it`, async () => {
      const { page } = await open(`/maps#16/${SPOT.lat}/${SPOT.lon}`, viewport);
      // the index learns the journey's places from the store's change feed within a second
      await expect
        .poll(
          async () => {
            await search(page, 'coffee shop');
            return names(page);
          },
          { timeout: 15_000 },
        )
        .toEqual(expect.arrayContaining(['Grind & Roast', "Mensah's Espresso Bar", 'Harbour Coffee Shop']));
      const listed = await names(page);
      // the name that says "coffee shop" first; the museum and the pharmacies are not cafés
      expect(listed[0]).toBe('Harbour Coffee Shop');
      expect(listed).toHaveLength(3);
      expect(await page.locator('.search-results__count').textContent()).toMatch(/^3 places/);
      await saveScreenshot(page, `search-words-coffee-shop-${viewport.width}`);

      await search(page, 'drugstore');
      await expect
        .poll(() => names(page))
        .toEqual(expect.arrayContaining(['Grytviken Dispensary', 'Pier Pharmacy']));
      expect(await names(page)).toHaveLength(2);
      await saveScreenshot(page, `search-words-drugstore-${viewport.width}`);
      await page.close();
    });
  }

  test('given add-new step 2 of a rental, when "bicycle" is typed, then the rented bike is offered', async () => {
    const { page } = await open(`/new/rental#15/${SPOT.lat}/${SPOT.lon}`);
    await expect.poll(() => panelTitle(page)).toBe('Add a new XPoint · Step 2 of 3');
    await page.getByLabel('Find a type').fill('bicycle');
    await expect.poll(() => page.getByRole('radio', { name: 'Bike', exact: true }).count()).toBe(1);
    await saveScreenshot(page, 'search-words-addnew-bicycle-1280');
    await page.getByRole('radio', { name: 'Bike', exact: true }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/new/rental/bike');
    await page.close();
  });

  for (const viewport of [DESKTOP, MOBILE]) {
    test(`given a search as broad as the world at ${viewport.width} px, when paging to the last page, then the count says "about" and the last page stays`, async () => {
      // a phone's screen shows less than the world at any zoom: there the search is an address
      // without bounds, as the landing page's searches are
      const { page } =
        viewport === MOBILE
          ? await open('/search/s/data={}', viewport)
          : await open('/maps#1/20/0', viewport);
      if (viewport !== MOBILE) await search(page, 's');
      const count = page.locator('.search-results__count');
      await expect.poll(() => count.textContent(), { timeout: 10_000 }).toMatch(/^about [\d,]+ places/);
      const pager = page.locator('nav.pagination button[aria-label^="Page "]');
      const lastLabel = await pager.last().getAttribute('aria-label');
      const last = Number(lastLabel?.replace('Page ', ''));
      expect(last).toBeGreaterThan(1);
      await saveScreenshot(page, `search-words-about-${viewport.width}`);

      await pager.last().click();
      await expect
        .poll(() => page.locator('.pagination [aria-current="page"]').textContent(), { timeout: 15_000 })
        .toBe(String(last));
      // the last page is where it was, and it holds results
      expect(await pager.last().getAttribute('aria-label')).toBe(`Page ${last}`);
      expect(await page.locator('aside.search-panel .search-result').count()).toBeGreaterThan(0);
      await saveScreenshot(page, `search-words-last-page-${viewport.width}`);
      await page.close();
    });
  }
});
