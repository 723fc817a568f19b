import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { newPoint } from '../support/factories';
import { DESKTOP, MOBILE, saveScreenshot, type Viewport } from './support/browser';
import type { PageDocument } from './support/globals';
import { openWithMap, startJourney } from './support/journey';
import { mapIdle, pagePixel } from './support/map';
import { expectSuggested, panelTitle } from './support/page';

declare const document: PageDocument;

/**
 * Journeys of the add-new flow (issue 8, map-and-search §2, §4): a visitor adds a point of each of
 * the four supertypes through the three steps, going back once, sees it open in its panel and finds
 * it by search; a name already used close by is offered as a possible duplicate; an empty title is
 * refused beside its field. The journey's places are in the middle of Reykjavík, so the nearest
 * city fills the address.
 */
const SPOT = { lat: 64.144, lon: -21.901 };
const HERE = `#15/${SPOT.lat}/${SPOT.lon}`;
const EXISTING = { id: 'addnew_kayaks', title: 'Old Harbour Kayaks', lat: 64.1445, lon: -21.915 };

describe('add a new XPoint', () => {
  const journey = startJourney({
    seed: 200,
    prepare: async (store) => {
      await store.db
        .insertInto('points')
        .values(newPoint({ ...EXISTING, type: 'boat_rental', full_address: 'Ægisgarður' }))
        .execute();
    },
  });

  /** Points with this title, or all points. */
  const countPoints = (title?: string): Promise<number> =>
    journey.withStore(async (store) => {
      let query = store.db.selectFrom('points').select('id');
      if (title !== undefined) query = query.where('title', '=', title);
      return (await query.execute()).length;
    });

  const open = (path: string, viewport: Viewport = DESKTOP) =>
    openWithMap(journey.browser, journey.url(path), viewport);

  const pathname = (page: Page) => new URL(page.url()).pathname;
  const bodyClass = (page: Page) => page.evaluate(() => document.body.className);
  const theForm = (page: Page) => page.getByRole('form', { name: 'The new XPoint' });

  /** Step 3: the nearest city has filled the address, the title is typed, the form sent. */
  async function fillAndSend(page: Page, form: Locator, title: string): Promise<void> {
    await expect.poll(() => form.getByLabel('Country').inputValue(), { timeout: 10_000 }).toBe('Iceland');
    await expect.poll(() => form.getByLabel('City').inputValue(), { timeout: 10_000 }).toMatch(/^Reykjav/);
    await form.getByLabel('Title').fill(title);
    await form.getByRole('button', { name: 'Add this XPoint' }).click();
  }

  /** The new point has opened in its panel and search suggests it. */
  async function expectAdded(page: Page, title: string, prefix: string): Promise<void> {
    await expect.poll(() => pathname(page), { timeout: 10_000 }).toMatch(new RegExp(`^/${prefix}/[\\w-]+$`));
    await expect.poll(() => panelTitle(page), { timeout: 10_000 }).toBe(title);
    expect(await page.locator('aside.point-panel').count()).toBe(1);
    await expectSuggested(page, title.slice(0, 12), new RegExp(title));
    expect(await countPoints(title)).toBe(1);
  }

  test('given a visitor on a desktop, when they add a virtual store, then it opens and search finds it', async () => {
    const { page, errors } = await open(`/new${HERE}`);
    await expect.poll(() => panelTitle(page)).toBe('Add a new XPoint · Step 1 of 3');
    expect(await bodyClass(page)).toMatch(/\baddnew\b.*\bstep-1\b|\bstep-1\b.*\baddnew\b/);
    // focus is on the step's heading
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H2');
    await saveScreenshot(page, 'addnew-step1-1280');
    await page.getByRole('button', { name: /^Virtual store/ }).click();

    await expect.poll(() => pathname(page)).toBe('/new/virtualstore');
    await expect.poll(() => panelTitle(page)).toBe('Add a new XPoint · Step 2 of 3');
    expect(await bodyClass(page)).toContain('step-2');
    // typing filters, and the exact name selects
    await page.getByLabel('Find a type').fill('online');
    expect(await page.getByRole('radio').count()).toBe(1);
    expect(await page.getByRole('radio', { name: 'Online Shop' }).isChecked()).toBe(false);
    await page.getByLabel('Find a type').fill('Online shop');
    expect(await page.getByRole('radio', { name: 'Online Shop' }).isChecked()).toBe(true);
    await saveScreenshot(page, 'addnew-step2-1280');
    await page.getByRole('button', { name: 'Next' }).click();

    await expect.poll(() => pathname(page)).toBe('/new/virtualstore/online_shop');
    await expect.poll(() => panelTitle(page)).toBe('Add a new XPoint · Step 3 of 3');
    expect(await bodyClass(page)).toContain('step-3');
    // the form is in the marker's popup, 25 px from the marker
    const form = theForm(page);
    expect(await page.locator('.maplibregl-popup.addnew-popup form').count()).toBe(1);
    expect(await page.locator('.maplibregl-marker').count()).toBeGreaterThan(0);
    await mapIdle(page);
    await expect.poll(() => form.getByLabel('Country').inputValue(), { timeout: 10_000 }).toBe('Iceland');
    await saveScreenshot(page, 'addnew-step3-1280');
    await fillAndSend(page, form, 'Saga Online Books');
    await expectAdded(page, 'Saga Online Books', 's');
    expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
    await page.close();
  });

  test('given a phone, when a visitor adds a service and goes back once, then the choice is kept and it is added', async () => {
    const { page, errors } = await open(`/new${HERE}`, MOBILE);
    await expect.poll(() => panelTitle(page)).toBe('Add a new XPoint · Step 1 of 3');
    await saveScreenshot(page, 'addnew-step1-375');
    await page.getByRole('button', { name: /^Service/ }).click();

    await expect.poll(() => pathname(page)).toBe('/new/service');
    // Tutoring is not among the common types: show all
    expect(await page.getByRole('radio', { name: 'Tutoring' }).count()).toBe(0);
    await page.getByLabel(/^Show all \d+ types$/).check();
    await page.getByRole('radio', { name: 'Tutoring' }).check();
    await saveScreenshot(page, 'addnew-step2-375');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => pathname(page)).toBe('/new/service/tutoring');

    // back once: step 2 at /new/service, with Tutoring still chosen
    await page.getByRole('button', { name: 'Back' }).first().click();
    await expect.poll(() => pathname(page)).toBe('/new/service');
    await expect.poll(() => panelTitle(page)).toBe('Add a new XPoint · Step 2 of 3');
    expect(await page.getByRole('radio', { name: 'Tutoring' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => pathname(page)).toBe('/new/service/tutoring');

    // on a phone the form is in the bottom sheet
    const form = page.locator('aside.side-panel').getByRole('form', { name: 'The new XPoint' });
    await form.waitFor();
    expect(await page.locator('.maplibregl-popup').count()).toBe(0);
    await mapIdle(page);
    await expect.poll(() => form.getByLabel('Country').inputValue(), { timeout: 10_000 }).toBe('Iceland');
    await saveScreenshot(page, 'addnew-step3-375');
    await fillAndSend(page, form, 'Reykjavik Maths Tutoring');
    await expectAdded(page, 'Reykjavik Maths Tutoring', 'm');
    await saveScreenshot(page, 'addnew-added-375');
    expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
    await page.close();
  });

  for (const [supertype, prefix, title] of [
    ['Experience', 'exp', 'Northern Lights Night Walk'],
    ['Rental', 'rent', 'Lava Field Bike Hire'],
  ] as const)
    test(`given a visitor, when they add ${supertype === 'Experience' ? 'an experience' : 'a rental'} through the three steps, then it opens and search finds it`, async () => {
      const { page, errors } = await open(`/new${HERE}`);
      await expect.poll(() => panelTitle(page)).toBe('Add a new XPoint · Step 1 of 3');
      await page.getByRole('button', { name: new RegExp(`^${supertype}`) }).click();
      await expect.poll(() => pathname(page)).toBe(`/new/${supertype.toLowerCase()}`);
      // the first of the common types
      const first = page.getByRole('radio').first();
      await first.check();
      await page.getByRole('button', { name: 'Next' }).click();
      await expect.poll(() => pathname(page)).toMatch(new RegExp(`^/new/${supertype.toLowerCase()}/\\w+$`));
      const form = theForm(page);
      await mapIdle(page);
      await fillAndSend(page, form, title);
      await expectAdded(page, title, prefix);
      expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
      await page.close();
    });

  test('given step 3, when the map is clicked on a point, then the marker moves there and the point does not open', async () => {
    // an address with a type experiences do not have asks for one
    const { page } = await open(`/new/experience/spaceship#15/${EXISTING.lat}/-21.911`);
    await expect.poll(() => panelTitle(page)).toBe('Add a new XPoint · Step 2 of 3');
    expect(await page.getByRole('alert').textContent()).toContain('“spaceship” is not a type of experience');
    await page.getByLabel('Find a type').fill('boat');
    await page.getByRole('radio', { name: 'Boat Trip' }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => pathname(page)).toBe('/new/experience/boat_trip');
    const form = theForm(page);
    await form.waitFor();
    await mapIdle(page);

    // the existing place, beside the panel, would open its panel on any other screen
    const at = await pagePixel(page, EXISTING.lon, EXISTING.lat);
    expect(at.x).toBeGreaterThan(400);
    await page.mouse.click(at.x, at.y);
    await expect
      .poll(async () => Math.abs(Number(await form.getByLabel('Longitude').inputValue()) - EXISTING.lon))
      .toBeLessThan(0.0002);
    expect(Math.abs(Number(await form.getByLabel('Latitude').inputValue()) - EXISTING.lat)).toBeLessThan(
      0.0002,
    );
    expect(pathname(page)).toBe('/new/experience/boat_trip');
    expect(await page.locator('aside.point-panel').count()).toBe(0);
    await saveScreenshot(page, 'addnew-moved-1280');

    await fillAndSend(page, form, 'Northern Lights Boat Trip');
    await expectAdded(page, 'Northern Lights Boat Trip', 'exp');
    await page.close();
  });

  test('given an empty title, when the form is sent, then the error shows beside the field, nothing is stored, and a title fixes it', async () => {
    const { page } = await open(`/new/rental/bike${HERE}`);
    const form = theForm(page);
    await form.waitFor();
    const before = await countPoints();
    await form.getByRole('button', { name: 'Add this XPoint' }).click();
    const title = form.getByLabel('Title');
    await expect.poll(() => title.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await title.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe('Title is required.');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('title');
    await saveScreenshot(page, 'addnew-error-1280');
    expect(pathname(page)).toBe('/new/rental/bike');
    expect(await countPoints()).toBe(before);

    await fillAndSend(page, form, 'Harbour Bike Hire');
    await expectAdded(page, 'Harbour Bike Hire', 'rent');
    await page.close();
  });

  test('given a similar place within 100 m, when a rental of that name is added, then it is offered first and can be saved anyway', async () => {
    const { page, errors } = await open(`/new/rental${HERE}`);
    await page.getByLabel('Find a type').fill('Kayak');
    expect(await page.getByRole('radio', { name: 'Kayak' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Next' }).click();
    const form = theForm(page);
    await form.waitFor();
    // coordinates typed from the keyboard move the marker
    await form.getByLabel('Latitude').fill(String(EXISTING.lat + 0.0002));
    await form.getByLabel('Longitude').fill(String(EXISTING.lon));
    await fillAndSend(page, form, EXISTING.title);

    const notice = form.getByRole('alert').filter({ hasText: 'Is it already on the map?' });
    await notice.waitFor();
    const openIt = notice.getByRole('link', { name: `Open it: ${EXISTING.title}` });
    expect(await openIt.getAttribute('href')).toBe(`/b/${EXISTING.id}`);
    expect(await countPoints(EXISTING.title)).toBe(1);
    await saveScreenshot(page, 'addnew-duplicate-1280');

    await notice.getByRole('button', { name: 'Save anyway' }).click();
    await expect.poll(() => pathname(page), { timeout: 10_000 }).toMatch(/^\/rent\/[\w-]+$/);
    await expect.poll(() => panelTitle(page)).toBe(EXISTING.title);
    expect(await countPoints(EXISTING.title)).toBe(2);
    expect(errors.filter((e) => !/status of (401|409)/.test(e))).toEqual([]);
    await page.close();
  });
});
