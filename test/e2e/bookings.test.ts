import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { addDays, todayIso } from '../../src/shared/api/bookings';
import type { Store } from '../../src/server/store/store';
import { newPoint } from '../support/factories';
import { DESKTOP, MOBILE, saveScreenshot, type Viewport } from './support/browser';
import { startJourney } from './support/journey';
import { panelTitle } from './support/page';
import { apiToken, signIn } from './support/session';
import { userId } from './support/store';

/**
 * Rental bookings as people do them (issue 22): uma picks three nights of olivia's cabin on the
 * calendar, sees their number and total and requests them; carlos, after her, sees those nights taken
 * and cannot pick them; nights that were taken while his page was open are refused by the server
 * with its reason in the form (the store decides, not the page); olivia, the owner, sees the request
 * on the rental's page and accepts it from her inbox; uma sees her booking confirmed. Screenshots at 375 and 1280 px.
 */
const RENTAL = { id: 'book_cabin', title: 'Fjord Cabin' };
const SPOT = { lat: -41.2, lon: 79.6 };
const SETTLE = { timeout: 15_000 };
const LONG = { timeout: 180_000 };
const today = todayIso();
const day = (n: number) => addDays(today, n);
/** uma's three nights, and the two carlos tries while someone else takes them. */
const UMA = { start: day(10), last: day(12) };
const RACE = { start: day(20), last: day(21) };

async function addRental(store: Store): Promise<void> {
  const olivia = await userId(store, 'olivia');
  await store.db
    .insertInto('points')
    .values(newPoint({ ...RENTAL, supertype: 'rental', type: 'cabin', owner_userid: olivia, ...SPOT }))
    .execute();
  await store.db
    .insertInto('rental_availability')
    .values({
      rental_id: RENTAL.id,
      start_date: day(1),
      end_date: day(90),
      is_open: 1,
      nightly_price: 9000,
      hourly_price: null,
      currency: 'EUR',
      created_by: olivia,
      created_at: Date.now(),
    })
    .execute();
}

/** The calendar's cell of a day, turning to its month first. */
async function dayCell(page: Page, iso: string) {
  const calendar = page.locator('.bookings-calendar');
  const cell = calendar.locator(`[data-day="${iso}"]:not([data-outside])`);
  for (let turns = 0; turns < 4 && (await cell.count()) === 0; turns += 1) {
    await calendar.getByRole('button', { name: /next month/i }).click();
  }
  await cell.waitFor(SETTLE);
  return cell;
}

async function pick(page: Page, first: string, last: string): Promise<void> {
  await (await dayCell(page, first)).getByRole('button').click();
  await (await dayCell(page, last)).getByRole('button').click();
}

describe('rental bookings', () => {
  const journey = startJourney({ seed: 200, prepare: addRental });

  async function openAs(username: string | null, fullname: string, viewport: Viewport = DESKTOP) {
    await journey.browser.context.clearCookies();
    // the booking page is the panel: the map behind it need not have drawn
    const opened = await journey.browser.open(journey.url(`/rental/${RENTAL.id}/2`), viewport);
    await expect.poll(() => panelTitle(opened.page), SETTLE).toBe(`Book ${RENTAL.title}`);
    if (username) await signIn(opened.page, username, fullname);
    // the month is read: today (before the first open night) shows as not open
    await opened.page
      .locator(`.bookings-calendar [data-day="${today}"].bookings-day--closed`)
      .waitFor(SETTLE);
    return opened;
  }

  test(
    'uma books three nights; carlos sees them taken and is refused nights taken meanwhile; olivia accepts; uma sees it confirmed',
    LONG,
    async () => {
      // uma, on a phone
      const uma = await openAs('uma', 'Uma User', MOBILE);
      await pick(uma.page, UMA.start, UMA.last);
      const form = uma.page.getByRole('form', { name: 'Request a booking' });
      await expect
        .poll(() => form.locator('.bookings-summary').textContent(), SETTLE)
        .toMatch(/\(3 nights\)Total EUR 270\.00/);
      await saveScreenshot(uma.page, 'bookings-calendar-375');
      await form.getByRole('button', { name: 'Request booking' }).click();
      await form.getByRole('status').filter({ hasText: 'is sent: requested' }).waitFor(SETTLE);
      const mine = uma.page.getByRole('list', { name: 'Your bookings here' });
      await mine.getByText('Requested: waiting for the owner').waitFor(SETTLE);
      // the calendar now shows her nights taken
      await expect
        .poll(async () => (await dayCell(uma.page, UMA.start)).getAttribute('class'), SETTLE)
        .toMatch(/bookings-day--taken/);
      await uma.page.close();

      // carlos, on a desktop: the three nights are taken and cannot be picked
      const carlos = await openAs('carlos', 'Carlos Consultant');
      for (const night of [UMA.start, day(11), UMA.last]) {
        const cell = await dayCell(carlos.page, night);
        await expect.poll(() => cell.getAttribute('class'), SETTLE).toMatch(/bookings-day--taken/);
        expect(await cell.getByRole('button').getAttribute('aria-label')).toMatch(/, taken$/);
        expect(await cell.getByRole('button').isDisabled()).toBe(true);
      }
      await saveScreenshot(carlos.page, 'bookings-calendar-1280');
      // he picks two free nights; before he sends, someone else takes them
      await pick(carlos.page, RACE.start, RACE.last);
      const carlosForm = carlos.page.getByRole('form', { name: 'Request a booking' });
      await expect
        .poll(() => carlosForm.locator('.bookings-summary').textContent(), SETTLE)
        .toMatch(/\(2 nights\)/);
      const token = await apiToken(journey.server.url, 'uma');
      const other = await fetch(journey.url('/v1/bookings/request'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', authorization: `appnettoken ${token}` },
        body: JSON.stringify({ rentalid: RENTAL.id, start: RACE.start, end: addDays(RACE.last, 1) }),
      });
      expect(other.status).toBe(200);
      await carlosForm.getByRole('button', { name: 'Request booking' }).click();
      await carlosForm
        .getByRole('alert')
        .filter({ hasText: `Already taken: ${RACE.start}, ${RACE.last}` })
        .waitFor(SETTLE);
      await expect
        .poll(async () => (await dayCell(carlos.page, RACE.start)).getAttribute('class'), SETTLE)
        .toMatch(/bookings-day--taken/);
      // nothing of his was stored on this rental (the demo seed gives him a stay elsewhere)
      const his = await journey.withStore(async (store) =>
        store.db
          .selectFrom('bookings')
          .select('id')
          .where('guest_userid', '=', await userId(store, 'carlos'))
          .where('rental_id', '=', RENTAL.id)
          .execute(),
      );
      expect(his).toEqual([]);
      await carlos.page.close();

      // olivia, the owner: the availability editor and the requests, on a phone and a desktop
      const olivia = await openAs('olivia', 'Olivia Owner', MOBILE);
      await olivia.page.getByRole('form', { name: 'Availability' }).waitFor(SETTLE);
      const requests = olivia.page.getByRole('list', { name: 'Booking requests' });
      const accept = requests.getByRole('button', { name: /^Accept uma's booking, .*\(3 nights\)$/ });
      await accept.waitFor(SETTLE);
      await saveScreenshot(olivia.page, 'bookings-owner-375');
      await olivia.page.setViewportSize(DESKTOP);
      await saveScreenshot(olivia.page, 'bookings-owner-1280');
      // she answers from her inbox's Bookings tab, where every rental's requests come together
      const inbox = await journey.browser.open(journey.url('/inbox/bookings'), DESKTOP);
      const onRentals = inbox.page.getByRole('list', { name: 'Requests on your rentals' });
      const request = onRentals.locator('li', { hasText: RENTAL.title }).filter({ hasText: '(3 nights)' });
      await request.getByRole('button', { name: /^Accept uma's booking, / }).click(SETTLE);
      await request.getByText('Confirmed').waitFor(SETTLE);
      await saveScreenshot(inbox.page, 'bookings-inbox-1280');
      await inbox.page.close();
      // the rental's page agrees: nothing left to accept
      await olivia.page.reload();
      await requests.getByText('Confirmed').first().waitFor(SETTLE);
      expect(await accept.count()).toBe(0);
      await olivia.page.close();

      // uma sees her booking confirmed
      const back = await openAs('uma', 'Uma User');
      const hers = back.page.getByRole('list', { name: 'Your bookings here' });
      await hers.locator('li', { hasText: '(3 nights)' }).getByText('Confirmed').waitFor(SETTLE);
      await back.page.close();
    },
  );
});
