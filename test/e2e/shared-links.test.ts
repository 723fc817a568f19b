import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { newPoint } from '../support/factories';
import { DESKTOP, MOBILE, saveScreenshot } from './support/browser';
import type { PageWindow } from './support/globals';
import { openWithMap, startJourney } from './support/journey';
import { mapIdleOrStill } from './support/map';

declare const window: PageWindow;

/**
 * Links people share (issue 21, items 1 and 2; map-and-search §2: the address is the state). A search
 * link holding bounds opens the map on those bounds with the results on it, in a fresh browser whose
 * last view was elsewhere; a link holding only a location opens the map there with no panel at all.
 */
const PARIS = { southwest: { lat: 48.83, lon: 2.28 }, northeast: { lat: 48.89, lon: 2.4 } };
const CAFES = [
  { id: 'paris_cafe_1', title: 'Café des Deux Ponts', lat: 48.8527, lon: 2.3561 },
  { id: 'paris_cafe_2', title: 'Le Petit Comptoir', lat: 48.8649, lon: 2.3318 },
  { id: 'paris_cafe_3', title: 'Café Oberkampf', lat: 48.8654, lon: 2.3781 },
];
const RENTALS = [
  { id: 'paris_rental_1', title: 'Loft on the Canal Saint-Martin', lat: 48.8711, lon: 2.3655 },
  { id: 'paris_rental_2', title: 'Studio near the Panthéon', lat: 48.8462, lon: 2.3464 },
];
const link = (path: string, data: unknown) => `${path}/data=${encodeURIComponent(JSON.stringify(data))}`;

const mapView = (page: Page) =>
  page.evaluate(() => {
    const map = window.__xpointMap;
    if (!map) throw new Error('the map is not ready');
    return { ...map.getCenter(), zoom: map.getZoom() };
  });

describe('shared links', () => {
  const journey = startJourney({
    seed: 120,
    prepare: async (store) => {
      await store.db
        .insertInto('points')
        .values(
          CAFES.map(({ id, title, lat, lon }) =>
            newPoint({
              id,
              title,
              type: 'cafe',
              full_address: 'Paris',
              lat,
              lon,
              rating: 80,
              rating_count: 4,
            }),
          ),
        )
        .execute();
      await store.db
        .insertInto('points')
        .values(
          RENTALS.map(({ id, title, lat, lon }) =>
            newPoint({ id, title, supertype: 'rental', type: 'apartment', full_address: 'Paris', lat, lon }),
          ),
        )
        .execute();
    },
  });

  for (const viewport of [DESKTOP, MOBILE])
    test(`given a search link with Paris bounds at ${viewport.width} px, when it opens in a browser last on New York, then the map shows Paris with the cafés on it`, async () => {
      const { browser } = journey;
      await browser.context.clearCookies();
      // the visitor's last view was New York: the link's bounds must win over it
      await browser.context.addCookies([
        {
          name: 'mapbox_loc_json',
          value: encodeURIComponent(JSON.stringify({ zoom: 13, lng: -74.006, lat: 40.7128 })),
          url: journey.url('/'),
        },
      ]);
      const { page, errors } = await openWithMap(
        browser,
        journey.url(link('/maps/cafe', { search: PARIS })),
        viewport,
      );
      const panel = page.locator('aside.search-panel');
      for (const { title } of CAFES) await panel.getByText(title).first().waitFor();
      // each says what it is, as people say it (issue 21, item 10), not "Business"
      expect(await panel.locator('.search-result__meta').allTextContents()).toEqual(
        CAFES.map(() => 'Cafe · Paris'),
      );
      const view = await mapView(page);
      expect(view.lng).toBeGreaterThan(PARIS.southwest.lon);
      expect(view.lng).toBeLessThan(PARIS.northeast.lon);
      expect(view.lat).toBeGreaterThan(PARIS.southwest.lat);
      expect(view.lat).toBeLessThan(PARIS.northeast.lat);
      // the results are drawn where the map is
      await expect
        .poll(() =>
          page.evaluate(
            () => window.__xpointMap?.queryRenderedFeatures({ layers: ['search-results-dot'] }).length ?? 0,
          ),
        )
        .toBeGreaterThanOrEqual(CAFES.length);
      await mapIdleOrStill(page);
      await saveScreenshot(page, `shared-search-link-${viewport.width}`);
      expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
      await page.close();
    });

  for (const viewport of [DESKTOP, MOBILE])
    test(`given a location-only link at ${viewport.width} px, when it opens, then the map is over London with no panel and no error`, async () => {
      const { page, errors } = await openWithMap(
        journey.browser,
        journey.url(link('/maps', { loc: { zoom: 11, lng: -0.1276, lat: 51.5072 } })),
        viewport,
      );
      await expect.poll(() => new URL(page.url()).pathname).toBe('/maps');
      expect(new URL(page.url()).hash).toBe('#11/51.5072/-0.1276');
      const view = await mapView(page);
      expect(view.zoom).toBeCloseTo(11, 1);
      expect(view.lng).toBeCloseTo(-0.1276, 3);
      expect(view.lat).toBeCloseTo(51.5072, 3);
      expect(await page.locator('aside.side-panel').count()).toBe(0);
      expect(await page.getByText('Oops! Something went wrong').count()).toBe(0);
      await saveScreenshot(page, `shared-location-link-${viewport.width}`);
      expect(errors).toEqual([]);
      await page.close();
    });

  for (const viewport of [DESKTOP, MOBILE])
    test(`given Rentals chosen with an empty box at ${viewport.width} px, when searching, then the rentals in view are listed, and the link does the same`, async () => {
      const { page, errors } = await openWithMap(
        journey.browser,
        journey.url('/maps#12/48.86/2.35'),
        viewport,
      );
      await page.getByLabel('Kind of place').selectOption('rental');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      const panel = page.locator('aside.search-panel');
      await panel.getByRole('heading', { name: 'Rentals' }).waitFor();
      for (const { title } of RENTALS) await panel.getByText(title).first().waitFor();
      // rentals only: none of the cafés around them
      expect(await panel.getByText('Café des Deux Ponts').count()).toBe(0);
      expect(decodeURIComponent(new URL(page.url()).pathname)).toContain('"supertype":"rental"');
      await saveScreenshot(page, `browse-rentals-${viewport.width}`);

      // the same list from a link with the supertype as the keywords' prefix (§2)
      await page.goto(journey.url(link('/maps/rental=', { loc: { zoom: 12, lng: 2.35, lat: 48.86 } })));
      await panel.getByRole('heading', { name: 'Rentals' }).waitFor();
      for (const { title } of RENTALS) await panel.getByText(title).first().waitFor();
      expect(await page.getByText('Oops! Something went wrong').count()).toBe(0);
      expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
      await page.close();
    });
});
