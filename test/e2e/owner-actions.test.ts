import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { allPointLayerIds } from '../../src/shared/map/contract';
import type { Store } from '../../src/server/store/store';
import { newPoint } from '../support/factories';
import { DESKTOP, MOBILE, waitForMapReady, type OpenedPage, type Viewport } from './support/browser';
import type { PageDocument, PageWindow } from './support/globals';
import { openWithMap, startJourney } from './support/journey';
import { panelTitle, pathOf } from './support/page';
import { signIn } from './support/session';
import { userId } from './support/store';

/**
 * Journeys of the owner's tools (issue 8): an owner deletes a point and it leaves the map and search
 * without a reload; a user claims a point and it waits for verification (an admin approves it in
 * claims.test.ts), becomes the consultant of an unowned one and stops again; an owner adds an event to their point, edits its time, finds it in the point's
 * lists and deletes it; an end before the start is refused beside the field with nothing stored, a
 * fake image gets the server's reason, and a user without rights sees the server's refusal. The
 * journey's places sit in the empty southern Indian Ocean, away from the demo points.
 */
const SPOT = { lat: -40.5, lon: 80.3 };
const HERE = `#15/${SPOT.lat}/${SPOT.lon}`;
const SHED = { id: 'owner_shed', title: 'Harbour Boat Shed' };
const LOOKOUT = { id: 'owner_lookout', title: 'Windy Lookout' };
const BAKERY = { id: 'owner_bakery', title: 'Quay Bakery' };
const HALL = { id: 'owner_hall', title: 'Southern Ocean Hall' };
const TRIP = { id: 'owner_trip', title: 'Albatross Boat Trip' };
const PIER = { id: 'owner_pier', title: 'Old Ferry Pier' };
const SHOTS_DIR = path.resolve('.tmp');
/** Pages load over a full navigation on 2 shared cores: a generous wait for what a user waits for. */
const SETTLE = { timeout: 15_000 };
/** The journeys that walk through several pages. */
const LONG = { timeout: 150_000 };

declare const window: PageWindow & { xpJourneyMark?: string };
declare const document: PageDocument;

async function addJourneyPlaces(store: Store): Promise<void> {
  const olivia = await userId(store, 'olivia');
  const at = (step: number) => ({ lat: SPOT.lat, lon: SPOT.lon + step * 0.004 });
  await store.db
    .insertInto('points')
    .values([
      newPoint({ ...SHED, type: 'boat_rental', owner_userid: olivia, ...at(0) }),
      newPoint({ ...HALL, type: 'restaurant', owner_userid: olivia, ...at(2) }),
      newPoint({ ...LOOKOUT, supertype: 'poi', type: 'viewpoint', ...at(-2) }),
      newPoint({ ...BAKERY, type: 'bakery', owner_userid: olivia, allow_consulting: 1, ...at(4) }),
      newPoint({ ...TRIP, supertype: 'experience', type: 'boat_trip', ...at(-4) }),
      newPoint({ ...PIER, supertype: 'poi', type: 'viewpoint', ...at(6) }),
    ])
    .execute();
}

/** Screenshots go to .tmp/ (gitignored) to be looked at. */
async function shot(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`), animations: 'disabled' });
}

/** Whether the map draws the point with this id (a single point or inside no cluster). */
function mapShows(page: Page, id: string): Promise<boolean> {
  return page.evaluate(
    ({ ids, id }) => {
      const map = window.__xpointMap;
      if (!map) throw new Error('the map is not ready');
      const layers = ids.filter((layer) => map.getLayer(layer) !== undefined);
      return map.queryRenderedFeatures({ layers }).some((feature) => feature.properties.appnetid === id);
    },
    { ids: allPointLayerIds(), id },
  );
}

/** A call to our API from the page, as the page makes it (session cookie, anti-forgery token). */
function callApi(page: Page, method: 'GET' | 'POST', url: string, body?: unknown) {
  return page.evaluate(
    async ({ method, url, body }) => {
      const token = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';
      const response = await fetch(url, {
        method,
        headers: { 'Content-Type': 'application/json', RequestVerificationToken: token },
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'same-origin',
      });
      return { status: response.status, json: (await response.json()) as Record<string, unknown> };
    },
    { method, url, body },
  );
}

describe('owner tools: delete, claim, consult, events', () => {
  const journey = startJourney({ seed: 200, prepare: addJourneyPlaces });
  const { withStore } = journey;

  /** Opens `address` as a visitor: the cookies of journeys before are cleared first. */
  async function open(address: string, viewport: Viewport = DESKTOP): Promise<OpenedPage> {
    await journey.browser.context.clearCookies();
    return await openWithMap(journey.browser, journey.url(address), viewport);
  }
  /** Errors the page logged, without the refusals the journeys cause on purpose. */
  const unexpected = (errors: string[]) =>
    errors.filter((error) => !/status of 40[01349] .*\/v1\//.test(error) && !/net::ERR_ABORTED/.test(error));

  test('given an owner on their point, when they delete it and confirm, then it leaves the map at once and search', async () => {
    const { page, errors } = await open(`/b/${SHED.id}${HERE}`);
    await expect.poll(() => panelTitle(page), SETTLE).toBe(SHED.title);
    await signIn(page, 'olivia', 'Olivia Owner');
    const manage = page.locator('aside.point-panel').getByRole('navigation', { name: 'Manage this XPoint' });
    // the link opens the page that asks first (§5), not a browser dialog as well
    await manage.getByRole('link', { name: 'Delete' }).click();

    // the confirmation page: the question, the name, the action and a way back
    await expect.poll(() => pathOf(page), SETTLE).toBe(`/MyXPoints/Delete/${SHED.id}`);
    await waitForMapReady(page);
    const form = page.getByRole('form', { name: 'Delete this XPoint' });
    await form.waitFor();
    expect(await form.locator('.owner-confirm__question').textContent()).toBe(`Delete “${SHED.title}”?`);
    expect(await form.getByRole('button', { name: 'Cancel' }).count()).toBe(1);
    // the place is on the map before, beside another of hers
    await expect.poll(() => mapShows(page, SHED.id), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => mapShows(page, HALL.id), { timeout: 15_000 }).toBe(true);
    await shot(page, 'owner-delete-confirm-1280');

    // a mark on the page: it must survive, the map is refreshed without a reload
    await page.evaluate(() => {
      window.xpJourneyMark = 'same page';
    });
    // MapLibre fetches a visible tile again when its 5 s max-age runs out; right after it did, the
    // next such fetch is 5 s away, so a point gone within 3 s was removed by the page's own refresh
    await page.waitForResponse((response) => response.url().includes('/tiles/points/'), SETTLE);
    await form.getByRole('button', { name: 'Delete', exact: true }).click();
    // the successUrl was the point's own page, which is gone: the map
    await expect.poll(() => pathOf(page), SETTLE).toBe('/maps');
    await expect.poll(() => mapShows(page, SHED.id), { timeout: 5_000 }).toBe(false);
    expect(await mapShows(page, HALL.id)).toBe(true);
    expect(await page.evaluate(() => window.xpJourneyMark)).toBe('same page');
    expect(await page.locator('aside.side-panel').count()).toBe(0);

    // search no longer finds it, its page says it is gone, the store has no row
    const suggestions = await callApi(page, 'POST', '/v1/app/searchsuggestions', {
      q: 'Harbour Boat Shed',
      maxresults: 10,
    });
    expect(JSON.stringify(suggestions.json)).not.toContain(SHED.id);
    expect((await callApi(page, 'GET', `/v1/webonly/xpointdetails/${SHED.id}`)).status).toBe(404);
    expect(
      await withStore((store) =>
        store.db.selectFrom('points').select('id').where('id', '=', SHED.id).execute(),
      ),
    ).toEqual([]);
    expect(unexpected(errors)).toEqual([]);
    await page.close();
  });

  test(
    'given a signed-in user, when they claim an unowned point, then it waits for verification; they consult another and stop after confirming',
    LONG,
    async () => {
      const { page, errors } = await open(`/p/${LOOKOUT.id}${HERE}`);
      await expect.poll(() => panelTitle(page), SETTLE).toBe(LOOKOUT.title);
      await signIn(page, 'uma', 'Uma User');
      const panel = page.locator('aside.point-panel');
      await panel.locator('.point-controls').getByRole('link', { name: 'Claim this XPoint' }).click();
      await expect.poll(() => pathOf(page), SETTLE).toBe(`/business/claim/${LOOKOUT.id}`);
      const claim = page.getByRole('form', { name: 'Claim this XPoint' });
      await claim.waitFor();
      expect(await claim.locator('.owner-confirm__question').textContent()).toBe(`Claim “${LOOKOUT.title}”?`);
      // the claim text is only for experiences and rentals (§6)
      expect(await claim.locator('textarea').count()).toBe(0);
      await claim.getByRole('button', { name: 'Send my claim' }).click();

      // the point opens saying the claim waits for verification (issue 16): no owner, no controls yet
      await expect.poll(() => pathOf(page), SETTLE).toBe(`/p/${LOOKOUT.id}`);
      await panel.getByText('Verification pending: our team checks your claim.').waitFor();
      expect(await panel.getByRole('navigation', { name: 'Manage this XPoint' }).count()).toBe(0);
      expect(await panel.locator('.person').filter({ hasText: 'Owner' }).count()).toBe(0);
      expect(await panel.getByRole('link', { name: 'Claim this XPoint' }).count()).toBe(0);

      // a point already owned: the server's refusal shows, nothing changes
      await page.goto(journey.url(`/business/claim/${BAKERY.id}`));
      const refused = page.getByRole('form', { name: 'Claim this XPoint' });
      await refused.getByRole('button', { name: 'Send my claim' }).click();
      await expect.poll(() => refused.getByRole('alert').textContent()).toMatch(/owner/i);
      expect(pathOf(page)).toBe(`/business/claim/${BAKERY.id}`);

      // become the consultant of the pier: unowned, so at once (an owned one asks its owner: claims.test.ts)
      await page.goto(journey.url(`/p/${PIER.id}${HERE}`));
      await expect.poll(() => panelTitle(page), SETTLE).toBe(PIER.title);
      await panel.getByRole('link', { name: 'Become a consultant' }).click();
      const become = page.getByRole('form', { name: 'Become a consultant' });
      await become.getByRole('button', { name: 'Become consultant' }).click();
      await expect.poll(() => pathOf(page), SETTLE).toBe(`/p/${PIER.id}`);
      await panel.getByRole('navigation', { name: 'Manage this XPoint' }).waitFor();
      expect(await panel.locator('.person').filter({ hasText: 'Consultant' }).textContent()).toContain(
        'Uma User',
      );

      // and stop, after confirming twice: the link asks, the page asks
      const stopLink = panel.getByRole('link', { name: 'Stop consulting' });
      await stopLink.click();
      await expect.poll(() => pathOf(page), SETTLE).toBe(`/business/ClearConsultant/${PIER.id}`);
      const stop = page.getByRole('form', { name: 'Stop consulting' });
      await stop.waitFor();
      await page.setViewportSize(MOBILE);
      await shot(page, 'owner-stop-consulting-375');
      await page.setViewportSize(DESKTOP);
      await stop.getByRole('button', { name: 'Stop consulting' }).click();
      await expect.poll(() => pathOf(page), SETTLE).toBe(`/p/${PIER.id}`);
      await panel.getByRole('link', { name: 'Become a consultant' }).waitFor();
      expect(await panel.locator('.person').filter({ hasText: 'Consultant' }).count()).toBe(0);
      const people = await withStore((store) =>
        store.db
          .selectFrom('points')
          .select(['id', 'owner_userid', 'consultant_userid'])
          .where('id', 'in', [LOOKOUT.id, PIER.id])
          .orderBy('id')
          .execute(),
      );
      expect(people).toEqual([
        { id: LOOKOUT.id, owner_userid: null, consultant_userid: null },
        { id: PIER.id, owner_userid: null, consultant_userid: null },
      ]);
      const uma = await withStore((store) => userId(store, 'uma'));
      expect(
        await withStore((store) =>
          store.db
            .selectFrom('point_claims')
            .select(['user_id', 'status'])
            .where('point_id', '=', LOOKOUT.id)
            .execute(),
        ),
      ).toEqual([{ user_id: uma, status: 'pending' }]);
      expect(unexpected(errors)).toEqual([]);
      await page.close();
    },
  );

  test(
    'given an owner, when they add an event to their point, edit its time, copy it and delete it, then the point’s lists follow; a stale save is refused',
    LONG,
    async () => {
      const { page, errors } = await open(`/b/${HALL.id}${HERE}`);
      await expect.poll(() => panelTitle(page), SETTLE).toBe(HALL.title);
      await signIn(page, 'olivia', 'Olivia Owner');
      const panel = page.locator('aside.point-panel');
      await panel.getByRole('link', { name: 'Add an event' }).click();
      await expect.poll(() => pathOf(page), SETTLE).toBe('/Event/AddAsChild');
      const form = page.getByRole('form', { name: 'The event' });
      await form.waitFor();
      expect(await form.textContent()).toContain(`At ${HALL.title}`);

      const day = new Date(Date.now() + 3 * 86_400_000);
      const date = `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
      await form.getByLabel('Title').fill('Midwinter Concert');
      await form.getByRole('combobox', { name: 'Type' }).selectOption('concert');
      await form.getByLabel('Starts: date').fill(date);
      await form.getByLabel('Starts: time').fill('19:00');
      await form.getByLabel('Ends: date').fill(date);
      await form.getByLabel('Ends: time').fill('22:00');
      await form.getByLabel('Admission', { exact: true }).selectOption('paid');
      await form.getByLabel('Admission price').fill('10');
      await form.getByRole('button', { name: 'Add a ticket option' }).click();
      await form.getByLabel('Ticket 1 name').fill('Standing');
      await form.getByLabel('Unit price').fill('12.5');
      await form.getByLabel('Most per order').fill('4');
      expect(await form.locator('.owner-ticket__total').textContent()).toBe('Up to 4 × 12.50 = 50.00');
      await form.getByLabel('Ticket 1 name').scrollIntoViewIfNeeded();
      await shot(page, 'owner-event-form-1280');
      await form.getByRole('button', { name: 'Add the event' }).click();

      // the new event's page opens; it sits at the hall
      await expect.poll(() => pathOf(page), SETTLE).toMatch(/^\/e\/[\w-]+$/);
      const eventId = pathOf(page).split('/')[2] ?? '';
      await expect.poll(() => panelTitle(page), SETTLE).toBe('Midwinter Concert');
      const stored = () =>
        withStore((store) =>
          store.db
            .selectFrom('events')
            .select(['title', 'xpoint_id', 'start_date', 'end_date', 'admission', 'admissionprice'])
            .where('id', '=', eventId)
            .execute(),
        );
      const local = (time: string) => new Date(`${date}T${time}:00`).getTime();
      expect(await stored()).toEqual([
        {
          title: 'Midwinter Concert',
          xpoint_id: HALL.id,
          start_date: local('19:00'),
          end_date: local('22:00'),
          admission: 'paid',
          admissionprice: 10,
        },
      ]);

      // edit its end
      const eventPanel = page.locator('aside.event-panel');
      await eventPanel
        .getByRole('navigation', { name: 'Manage this event' })
        .getByRole('link', { name: 'Edit' })
        .click();
      await expect.poll(() => pathOf(page), SETTLE).toBe(`/e/${eventId}/Edit`);
      const edit = page.getByRole('form', { name: 'The event' });
      await edit.waitFor();
      expect(await edit.getByLabel('Title').inputValue()).toBe('Midwinter Concert');
      expect(await edit.getByLabel('Unit price').inputValue()).toBe('12.5');
      await edit.getByLabel('Ends: time').fill('23:30');
      await edit.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => pathOf(page), SETTLE).toBe(`/e/${eventId}`);
      await expect.poll(async () => (await stored())[0]?.end_date).toBe(local('23:30'));

      // someone else saves first: the second save is refused with a clear message, nothing is written
      await page.goto(journey.url(`/e/${eventId}/Edit${HERE}`));
      const stale = page.getByRole('form', { name: 'The event' });
      await stale.waitFor(SETTLE);
      const loaded = await callApi(page, 'GET', `/v1/event/${eventId}/edit`);
      const elsewhere = await callApi(page, 'POST', '/v1/event/update', {
        id: eventId,
        version: loaded.json.version,
        description: 'Changed in another tab.',
      });
      expect(elsewhere.status).toBe(200);
      await stale.getByLabel('Title').fill('Midwinter Concert, renamed');
      await stale.getByRole('button', { name: 'Save' }).click();
      await expect
        .poll(() => stale.getByRole('alert').textContent(), SETTLE)
        .toMatch(/^Someone else changed this event/);
      expect(pathOf(page)).toBe(`/e/${eventId}/Edit`);
      expect((await stored())[0]?.title).toBe('Midwinter Concert');

      // copy it to a second night
      await page.goto(journey.url(`/e/${eventId}/CopyToNew${HERE}`));
      const copy = page.getByRole('form', { name: 'The event' });
      await copy.waitFor(SETTLE);
      expect(await copy.getByLabel('Title').inputValue()).toBe('Midwinter Concert');
      expect(await copy.getByLabel('Ends: time').inputValue()).toBe('23:30');
      await copy.getByLabel('Title').fill('Midwinter Concert, second night');
      await copy.getByRole('button', { name: 'Add the event' }).click();
      await expect.poll(() => panelTitle(page), SETTLE).toBe('Midwinter Concert, second night');
      expect(pathOf(page)).not.toBe(`/e/${eventId}`);
      const copies = await withStore((store) =>
        store.db
          .selectFrom('events')
          .select(['xpoint_id', 'description', 'end_date'])
          .where('title', '=', 'Midwinter Concert, second night')
          .execute(),
      );
      expect(copies).toEqual([
        { xpoint_id: HALL.id, description: 'Changed in another tab.', end_date: local('23:30') },
      ]);

      // the hall lists it
      await page.goto(journey.url(`/b/${HALL.id}${HERE}`));
      await expect.poll(() => panelTitle(page), SETTLE).toBe(HALL.title);
      await panel.getByRole('link', { name: 'Midwinter Concert', exact: true }).waitFor();
      expect(await panel.getByRole('link', { name: 'Midwinter Concert, second night' }).count()).toBe(1);

      // delete it from its panel, confirming on the page
      await panel.getByRole('link', { name: 'Midwinter Concert', exact: true }).click();
      await expect.poll(() => panelTitle(page), SETTLE).toBe('Midwinter Concert');
      const controls = eventPanel.getByRole('navigation', { name: 'Manage this event' });
      await controls.getByRole('link', { name: 'Delete' }).click();
      const remove = page.getByRole('form', { name: 'Delete this event' });
      await remove.waitFor();
      expect(await remove.locator('.owner-confirm__question').textContent()).toBe(
        'Delete the event “Midwinter Concert”?',
      );
      await remove.getByRole('button', { name: 'Delete', exact: true }).click();
      // its own page is gone: back to the hall, whose lists no longer have it
      await expect.poll(() => pathOf(page), SETTLE).toBe(`/b/${HALL.id}`);
      await expect.poll(() => panelTitle(page), SETTLE).toBe(HALL.title);
      expect(await panel.getByRole('link', { name: 'Midwinter Concert', exact: true }).count()).toBe(0);
      expect(await panel.getByRole('link', { name: 'Midwinter Concert, second night' }).count()).toBe(1);
      expect(await stored()).toEqual([]);
      expect(unexpected(errors)).toEqual([]);
      await page.close();
    },
  );

  for (const viewport of [MOBILE, DESKTOP])
    test(`given the event form at ${viewport.width} px, when the end is before the start, then it is refused beside the field and nothing is stored`, async () => {
      const { page } = await open(`/Event/AddAsChild?parentid=${HALL.id}${HERE}`, viewport);
      // a visitor is asked to sign in first
      await page.getByText('You need to sign in to add or edit events.').waitFor();
      await signIn(page, 'olivia', 'Olivia Owner');
      const form = page.getByRole('form', { name: 'The event' });
      await form.waitFor();
      const title = `Backwards Party ${viewport.width}`;
      await form.getByLabel('Title').fill(title);
      await form.getByRole('combobox', { name: 'Type' }).selectOption('party');
      await form.getByLabel('Starts: date').fill('2031-03-10');
      await form.getByLabel('Starts: time').fill('20:00');
      await form.getByLabel('Ends: date').fill('2031-03-10');
      await form.getByLabel('Ends: time').fill('18:00');
      await form.getByRole('button', { name: 'Add the event' }).click();

      const endError = form
        .locator('.owner-datetime')
        .filter({ hasText: 'Ends' })
        .locator('.owner-field__error');
      await expect.poll(() => endError.textContent()).toBe('The end must be after the start.');
      expect(await form.getByRole('alert').textContent()).toBe('Please correct the marked fields.');
      expect(await form.getByLabel('Ends: date').getAttribute('aria-invalid')).toBe('true');
      // a date before 1901 is refused too
      await form.getByLabel('Starts: date').fill('1899-03-10');
      await form.getByRole('button', { name: 'Add the event' }).click();
      const startError = form
        .locator('.owner-datetime')
        .filter({ hasText: 'Starts' })
        .locator('.owner-field__error');
      await expect.poll(() => startError.textContent()).toBe('Dates before 1901 are invalid.');
      await form.getByLabel('Starts: date').fill('2031-03-10');
      await form.getByRole('button', { name: 'Add the event' }).click();
      await expect.poll(() => endError.textContent()).toBe('The end must be after the start.');
      await shot(page, `owner-event-error-${viewport.width}`);

      // the server refuses the same body with its own clear message, and nothing is stored
      const direct = await callApi(page, 'POST', '/v1/event/create', {
        title,
        type: 'party',
        start_date: '2031-03-10T20:00:00Z',
        end_date: '2031-03-10T18:00:00Z',
        xpoint_id: HALL.id,
      });
      expect(direct).toEqual({
        status: 400,
        json: { field: 'end_date', errorcode: 7010, error: 'end_date: must be after start_date.' },
      });
      const mine = await callApi(page, 'GET', '/v1/account/mypoints?supertype=event&pagesize=96');
      expect(JSON.stringify(mine.json)).not.toContain(title);
      expect(
        await withStore((store) =>
          store.db.selectFrom('events').select('id').where('title', '=', title).execute(),
        ),
      ).toEqual([]);
      await page.close();
    });

  test('given an event with a fake image as its cover, then the server’s reason shows beside the cover', async () => {
    const { page } = await open(`/Event/AddAsChild?parentid=${HALL.id}${HERE}`);
    await signIn(page, 'olivia', 'Olivia Owner');
    const form = page.getByRole('form', { name: 'The event' });
    await form.waitFor();
    await form.getByLabel('Title').fill('Cover Test Night');
    await form.getByRole('combobox', { name: 'Type' }).selectOption('film');
    await form.getByLabel('Cover image').setInputFiles({
      name: 'poster.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from('this is a text file, not a picture\n'),
    });
    await form.getByRole('button', { name: 'Add the event' }).click();
    const coverError = form
      .locator('.owner-field')
      .filter({ hasText: 'Cover image' })
      .locator('.owner-field__error');
    await expect.poll(() => coverError.textContent(), { timeout: 10_000 }).toMatch(/image/i);
    expect(await form.getByRole('alert').textContent()).toContain('its cover image was refused');
    // the event itself was saved, without a cover; saving again edits it rather than adding another
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => pathOf(page), SETTLE).toMatch(/^\/e\/[\w-]+$/);
    const rows = await withStore((store) =>
      store.db
        .selectFrom('events')
        .select(['id', 'cover_url'])
        .where('title', '=', 'Cover Test Night')
        .execute(),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.cover_url).toBeNull();
    await page.close();
  });

  test('given an unowned experience, when a user claims it with a few words, then the words are kept with the pending claim', async () => {
    const { page, errors } = await open(`/business/claim/${TRIP.id}${HERE}`);
    await signIn(page, 'carlos', 'Carlos Consultant');
    const claim = page.getByRole('form', { name: 'Claim this XPoint' });
    await claim.getByLabel(/Why is this experience yours\?/).fill('I have skippered this boat since 2019.');
    await claim.getByRole('button', { name: 'Send my claim' }).click();
    await expect.poll(() => pathOf(page), SETTLE).toBe(`/exp/${TRIP.id}`);
    await page
      .locator('aside.point-panel')
      .getByText('Verification pending: our team checks your claim.')
      .waitFor();
    const claims = await withStore(async (store) =>
      store.db
        .selectFrom('point_claims')
        .select(['user_id', 'text', 'status'])
        .where('point_id', '=', TRIP.id)
        .execute(),
    );
    expect(claims).toEqual([
      {
        user_id: await withStore((store) => userId(store, 'carlos')),
        text: 'I have skippered this boat since 2019.',
        status: 'pending',
      },
    ]);
    expect(unexpected(errors)).toEqual([]);
    await page.close();
  });

  test('given a user without rights, when they try to delete someone else’s point, then they see the refusal and it stays', async () => {
    const { page } = await open(`/MyXPoints/Delete/${HALL.id}${HERE}`);
    const form = page.getByRole('form', { name: 'Delete this XPoint' });
    await form.waitFor();
    // signed out: asked to sign in, no delete button
    expect(await form.getByText('You need to sign in to delete an XPoint.').count()).toBe(1);
    expect(await form.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    await signIn(page, 'carlos', 'Carlos Consultant');
    await form.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toMatch(/not allowed|permission/i);
    expect(pathOf(page)).toBe(`/MyXPoints/Delete/${HALL.id}`);
    expect((await callApi(page, 'GET', `/v1/webonly/xpointdetails/${HALL.id}`)).status).toBe(200);
    await shot(page, 'owner-delete-refused-1280');
    // cancel goes back to the point
    await form.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => pathOf(page), SETTLE).toBe(`/b/${HALL.id}`);
    await page.close();
  });

  test('given the owner’s my-points panel, then her points and events are listed with their controls', async () => {
    const { page } = await open(`/MeOnMap/Index${HERE}`);
    await signIn(page, 'olivia', 'Olivia Owner');
    const panel = page.locator('aside.my-points');
    await panel.getByRole('radio', { name: 'All my points and events' }).check();
    const hall = panel.getByRole('article', { name: HALL.title, exact: true });
    await hall.waitFor();
    const links = await hall.getByRole('navigation').getByRole('link').allTextContents();
    expect(links).toEqual(['Open', 'Edit', 'Delete']);
    expect(await hall.getByRole('link', { name: 'Delete' }).getAttribute('href')).toBe(
      `/MyXPoints/Delete/${HALL.id}?successUrl=${encodeURIComponent('/MeOnMap/Index')}`,
    );
    await shot(page, 'owner-my-points-1280');
    await page.setViewportSize(MOBILE);
    await hall.scrollIntoViewIfNeeded();
    await shot(page, 'owner-my-points-375');
    await page.close();
  });
});
