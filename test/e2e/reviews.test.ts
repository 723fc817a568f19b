import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { newPoint } from '../support/factories';
import { DESKTOP, MOBILE, launchBrowser, waitForMapReady } from './support/browser';
import { startJourney } from './support/journey';
import { DEMO_PASSWORD } from './support/session';

/**
 * Reviews (issue 18), as people write them: a visitor opens a bakery's panel on the map, asks to
 * write a review and is asked to sign in first; Uma signs in there, gives four stars with a few
 * words and sees the bakery's rating on the panel change without a reload; she edits it to five.
 * Olivia, the bakery's owner, has the panel open in a second browser: the rating and her notification
 * arrive live; she sees the review in the Reviews modal, cannot review her own place, answers it in
 * public and opens the invite link with its QR code; the link opens the point with the review form
 * ready. The bakery sits in the empty South Atlantic, away from the demo
 * points.
 */
const BAKERY = 'reviews_journey_bakery';
const BAKERY_TITLE = 'Albatross Bakery';
const AT = { lat: -47.9, lon: -26.7 };
/** Screenshots to look at: .tmp/ (gitignored), or SHOTS_DIR. */
const SHOTS = process.env.SHOTS_DIR ?? path.resolve('.tmp');

async function shot(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, animations: 'disabled' });
}

/** Both widths of one screen. */
async function shots(page: Page, name: string): Promise<void> {
  await page.setViewportSize(MOBILE);
  await shot(page, `${name}-375`);
  await page.setViewportSize(DESKTOP);
  await shot(page, `${name}-1280`);
}

describe('reviews', () => {
  const journey = startJourney({
    seed: 60,
    prepare: async (store) => {
      const olivia = await store.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', 'olivia')
        .executeTakeFirstOrThrow();
      // the journey counts Olivia's bell from empty: the demo data's notifications of hers go
      await store.db.deleteFrom('notifications').where('recipient_id', '=', olivia.id).execute();
      await store.db
        .insertInto('points')
        .values(
          newPoint({
            id: BAKERY,
            title: BAKERY_TITLE,
            supertype: 'business',
            type: 'bakery',
            description: 'Bread for the sailors.',
            lat: AT.lat,
            lon: AT.lon,
            owner_userid: olivia.id,
          }),
        )
        .execute();
    },
  });

  test('given a bakery with no reviews, when Uma reviews it and Olivia answers, then each sees the rating and the review as they are', async () => {
    const { server, browser } = journey;
    // Olivia, the owner, in another browser, has her bakery's panel open
    const second = await launchBrowser();
    const owner = await second.open(`${server.url}/b/${BAKERY}`, DESKTOP);
    await waitForMapReady(owner.page);
    await owner.page.locator('header').getByRole('button', { name: 'Sign in', exact: true }).click();
    const ownerLogin = owner.page.locator('#ppreg');
    await ownerLogin.getByLabel('Username or email').fill('olivia');
    await ownerLogin.getByLabel('Password').fill(DEMO_PASSWORD);
    await ownerLogin.getByRole('button', { name: 'Sign in', exact: true }).click();
    await owner.page.getByRole('button', { name: 'Account menu for Olivia Owner' }).waitFor();
    await owner.page.locator('.reviews-rating').getByText('No reviews yet').waitFor();

    const { page, errors } = await browser.open(`${server.url}/b/${BAKERY}`, DESKTOP);
    await waitForMapReady(page);
    const rating = page.locator('.reviews-rating');
    await rating.getByText('No reviews yet').waitFor();

    // a visitor: the modal opens, says there are no reviews, and asks to sign in before writing
    await rating.getByRole('button', { name: 'Write a review' }).click();
    const modal = page.locator('dialog.reviews-modal');
    await modal.getByRole('heading', { name: 'Reviews', exact: true }).waitFor();
    await modal.getByText('No reviews yet. Be the first to review this place.').waitFor();
    const login = page.locator('#ppreg');
    await login.getByText('You need to login to write a review.').waitFor();
    await shots(page, 'reviews-visitor-login');
    await login.getByLabel('Username or email').fill('uma');
    await login.getByLabel('Password').fill(DEMO_PASSWORD);
    await login.getByRole('button', { name: 'Sign in', exact: true }).click();

    // signed in: the form is ready; no stars is refused before anything is sent
    const form = modal.getByRole('form', { name: 'Write a review' });
    await form.waitFor();
    await form.getByRole('button', { name: 'Post review' }).click();
    await form.getByText('Choose from 1 to 5 stars.').waitFor();
    await form.getByRole('radio', { name: '4 stars' }).check({ force: true });
    await form.getByLabel('Your review').fill('Still warm at seven in the morning. Try the rye.');
    await shots(page, 'reviews-form');
    await form.getByRole('button', { name: 'Post review' }).click();
    const own = modal.getByRole('region', { name: 'Your review' });
    await own.getByText('Still warm at seven in the morning. Try the rye.').waitFor();
    const summary = modal.locator('.reviews-summary');
    await expect.poll(() => summary.textContent()).toMatch(/4\.0 \/ 5 · 1 review$/);

    // a second review of the same place is not offered: her own is there to edit, to 5 stars
    expect(await modal.getByRole('button', { name: 'Write a review' }).count()).toBe(0);
    await own.getByRole('button', { name: 'Edit review' }).click();
    const edit = modal.getByRole('form', { name: 'Edit your review' });
    expect(await edit.getByRole('radio', { name: '4 stars' }).isChecked()).toBe(true);
    await edit.getByRole('radio', { name: '5 stars' }).check({ force: true });
    await edit.getByRole('button', { name: 'Save review' }).click();
    await own.getByRole('button', { name: 'Edit review' }).waitFor();
    await expect.poll(() => summary.textContent()).toMatch(/5\.0 \/ 5 · 1 review$/);
    await shots(page, 'reviews-modal-own');
    await modal.getByRole('button', { name: 'Close' }).click();

    // the panel's rating changed without a reload
    await rating.getByText('5.0').waitFor();
    await rating.getByRole('button', { name: '1 review' }).waitFor();
    await shots(page, 'reviews-panel-rated');

    // Olivia's panel heard the review: its rating and her notification arrived without a reload
    try {
      const ownerRating = owner.page.locator('.reviews-rating');
      await ownerRating.getByRole('button', { name: '1 review' }).waitFor();
      await owner.page.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor();
      await shots(owner.page, 'reviews-owner-live');
      // the review is there; she cannot review her own place
      await ownerRating.getByRole('button', { name: '1 review' }).click();
      const ownerModal = owner.page.locator('dialog.reviews-modal');
      const item = ownerModal.locator('.reviews-item').filter({ hasText: 'Try the rye.' });
      await item.waitFor();
      expect(await ownerModal.getByRole('button', { name: 'Write a review' }).count()).toBe(0);

      // her public answer
      await item.getByRole('button', { name: 'Reply' }).click();
      await item.getByLabel('Your public answer').fill('Thank you, Uma! The rye is my grandmother’s recipe.');
      await item.getByRole('button', { name: 'Post answer' }).click();
      await item.getByText('Response from Olivia Owner').waitFor();
      await item.getByRole('button', { name: 'Edit reply' }).waitFor();

      // the panel's "Invite reviews" control: the reviews again, with the link and its QR code open
      await ownerModal.getByRole('button', { name: 'Close' }).click();
      await owner.page.locator('.point-panel').getByRole('link', { name: 'Invite reviews' }).click();
      await expect.poll(() => new URL(owner.page.url()).pathname).toBe(`/b/${BAKERY}`);
      const qr = ownerModal.getByRole('img', { name: `QR code of the link to review ${BAKERY_TITLE}` });
      await qr.waitFor();
      expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
      const link = await ownerModal.getByLabel('Link to write a review').inputValue();
      expect(link).toBe(`${server.url}/b/${BAKERY}?review=open`);
      await shots(owner.page, 'reviews-owner-reply-invite');
      expect(owner.errors).toEqual([]);

      // the link opens the place with the form ready: Uma's own review, to edit
      await page.goto(link);
      await waitForMapReady(page);
      await page.locator('dialog.reviews-modal').getByRole('form', { name: 'Edit your review' }).waitFor();
      await expect.poll(() => new URL(page.url()).search).toBe('');
      // she leaves it as it is; her review shows Olivia's answer
      const again = page.locator('dialog.reviews-modal');
      await again.getByRole('button', { name: 'Cancel' }).click();
      await again
        .getByRole('region', { name: 'Your review' })
        .getByText('Thank you, Uma! The rye is my grandmother’s recipe.')
        .waitFor();
      await shots(page, 'reviews-own-answered');
    } finally {
      await second.close();
    }
    expect(errors.filter((error) => !error.includes('social'))).toEqual([]);
  });
});
