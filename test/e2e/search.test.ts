import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { newPoint } from '../support/factories';
import { DESKTOP, MOBILE, saveScreenshot, type Viewport } from './support/browser';
import type { PageDocument, PageWindow } from './support/globals';
import { openWithMap, startJourney } from './support/journey';
import { mapIdleOrStill } from './support/map';
import { expectSuggested, panelTitle, searchBox } from './support/page';

declare const window: PageWindow;
declare const document: PageDocument;

/**
 * Journeys of search (issue 6): suggestions picked with the keyboard, a submitted search paged, its
 * mode switched and kept, a reload on a deep page, and the map moved with and without
 * update-on-move. The journey's 30 harbour places sit together on an empty coast of Kerguelen.
 */
const SPOT = { lat: -49.35, lon: 70.22 };
const HARBOUR = Array.from({ length: 30 }, (_, i) => ({
  id: `harbour_${String(i + 1).padStart(2, '0')}`,
  title: i === 0 ? 'Harbour Bakery' : `Harbour Stall ${i + 1}`,
}));

const searchData = (page: Page) => {
  const path = decodeURIComponent(new URL(page.url()).pathname);
  const data = path.split('/data=')[1];
  return data === undefined
    ? null
    : (JSON.parse(data) as { search?: { paging?: { pageNumber?: number }; southwest?: unknown } });
};

describe('search', () => {
  const journey = startJourney({
    seed: 200,
    prepare: async (store) => {
      await store.db
        .insertInto('points')
        .values(
          HARBOUR.map(({ id, title }, i) =>
            newPoint({
              id,
              title,
              type: i === 0 ? 'bakery' : 'marketplace',
              full_address: 'Quai de Port-aux-Français',
              lat: SPOT.lat + (i % 6) * 0.0015,
              lon: SPOT.lon + Math.floor(i / 6) * 0.0015,
              rating: 60 + i,
              rating_count: 3,
            }),
          ),
        )
        .execute();
    },
  });

  const open = (path: string, viewport: Viewport = DESKTOP) =>
    openWithMap(journey.browser, journey.url(path), viewport);

  test('given a few letters typed, when a suggestion is picked with the keyboard, then its place opens', async () => {
    const { page } = await open(`/maps#14/${SPOT.lat}/${SPOT.lon}`);
    // the index learns the journey's places from the store's change feed within a second
    await expectSuggested(page, 'harbour bak', /Harbour Bakery/);
    expect(await page.getByRole('listbox').getAttribute('class')).toContain('search-form__suggestions');
    expect(await page.locator('body.state-suggestions').count()).toBe(1);
    await saveScreenshot(page, 'search-suggestions-1280');

    await searchBox(page).press('ArrowDown');
    await searchBox(page).press('Enter');
    await expect.poll(() => panelTitle(page)).toBe('Harbour Bakery');
    expect(new URL(page.url()).pathname).toBe('/b/harbour_01');
    await page.close();
  });

  test('given nothing matches, when typing, then the notice offers to add a new XPoint', async () => {
    const { page } = await open('/maps');
    await searchBox(page).pressSequentially('zqxwv', { delay: 20 });
    const notice = page.locator('.search-form__empty');
    await notice.waitFor();
    await expect(notice.textContent()).resolves.toContain('Nothing matches');
    await notice.getByRole('link', { name: 'Add New XPoint' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/new');
    await page.close();
  });

  test('given a submitted search, when switching mode, paging and reloading, then the same page comes back', async () => {
    const { page, errors } = await open(`/maps#14/${SPOT.lat + 0.003}/${SPOT.lon + 0.003}`);
    await mapIdleOrStill(page);
    await searchBox(page).fill('harbour');
    await searchBox(page).press('Escape');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const panel = page.locator('aside.search-panel');
    await expect.poll(() => panel.locator('.search-results__count').textContent()).toMatch(/^30 places/);
    expect(searchData(page)?.search?.southwest).toBeDefined();
    expect(await panel.locator('.search-results--tile > li').count()).toBe(12);
    // the page's results are drawn on the map too
    await expect
      .poll(() =>
        page.evaluate(
          () => window.__xpointMap?.queryRenderedFeatures({ layers: ['search-results-dot'] }).length ?? 0,
        ),
      )
      .toBe(12);
    await saveScreenshot(page, 'search-results-tile-1280');

    await panel.getByRole('radio', { name: 'List' }).click();
    expect(await panel.locator('.search-results--list > li').count()).toBe(12);
    expect(await page.evaluate(() => document.cookie)).toContain('search.resultmode=list');

    await panel.getByRole('button', { name: 'Page 3' }).click();
    await expect.poll(() => searchData(page)?.search?.paging?.pageNumber).toBe(3);
    await expect.poll(() => panel.locator('.search-results--list > li').count()).toBe(6);
    await page.reload();
    await expect.poll(() => page.locator('aside.search-panel .search-results--list > li').count()).toBe(6);
    expect(await page.locator('.pagination [aria-current="page"]').textContent()).toBe('3');
    expect(await searchBox(page).inputValue()).toBe('harbour');

    // a result opens as the next level; back restores the page of results
    await page.locator('.search-result').first().click();
    await expect.poll(() => page.locator('aside.point-panel').count()).toBe(1);
    await page.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => page.locator('.pagination [aria-current="page"]').textContent()).toBe('3');

    // page size: back to page 1
    await page.getByLabel('Per page').selectOption('24');
    await expect.poll(() => page.locator('.search-results--list > li').count()).toBe(24);
    expect(searchData(page)?.search?.paging?.pageNumber).toBeUndefined();
    expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
    await page.close();
  });

  for (const viewport of [MOBILE, DESKTOP]) {
    test(`given results at ${viewport.width} px, when the map is panned, then update-on-move decides whether it searches again`, async () => {
      const { page } = await open(`/maps#14/${SPOT.lat + 0.003}/${SPOT.lon + 0.003}`, viewport);
      await mapIdleOrStill(page);
      await searchBox(page).fill('harbour');
      await searchBox(page).press('Enter');
      const toggle = page.getByLabel('Search as I move the map');
      await toggle.waitFor();
      // §4: off by default below 640 px
      expect(await toggle.isChecked()).toBe(viewport.width >= 640);
      await saveScreenshot(page, `search-results-${viewport.width}`);

      const drag = async () => {
        const x = viewport.width - 60;
        const y = 120;
        await page.mouse.move(x, y);
        await page.mouse.down();
        await page.mouse.move(x - 40, y + 30, { steps: 5 });
        await page.mouse.up();
        await mapIdleOrStill(page);
      };
      if (await toggle.isChecked()) await toggle.uncheck();
      const before = page.url();
      await drag();
      await page.getByRole('button', { name: 'Search this area' }).waitFor();
      expect(page.url().split('#')[0]).toBe(before.split('#')[0]);

      await toggle.check();
      await drag();
      await expect.poll(() => page.url().split('#')[0]).not.toBe(before.split('#')[0]);
      expect(await page.getByRole('button', { name: 'Search this area' }).count()).toBe(0);
      await page.close();
    });
  }
});
