import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { DESKTOP, MOBILE, launchBrowser, type Viewport } from './support/browser';
import { startJourney } from './support/journey';
import { DEMO_PASSWORD, signIn } from './support/session';
import { userId } from './support/store';

/**
 * Follows and notifications (issue 18), as people do it: Uma, a visitor, opens one of Olivia's
 * posts, tries Follow in its feed-item menu and gets the login modal, signs in there and follows;
 * copy link says COPIED. Olivia, in a second browser on her profile, sees the bell's unread count
 * rise without a reload, opens the list ("Uma User followed you."), and the count goes away. Uma
 * opens Olivia's profile: Following, and the follower count; she unfollows, follows again and
 * unfollows: Olivia's bell counts the new follow, then loses it as it is taken back. At 1280 and 375 px.
 */
/** Screenshots to look at: .tmp/ (gitignored), or SHOTS_DIR. */
const SHOTS = process.env.SHOTS_DIR ?? path.resolve('.tmp');
const journey = startJourney({
  prepare: async (store) => {
    // a known start: Uma follows nobody, nobody has notifications
    const uma = await userId(store, 'uma');
    await store.db.deleteFrom('follows').where('follower_id', '=', uma).execute();
    await store.db.deleteFrom('notifications').execute();
  },
});

async function olivasPost(): Promise<string> {
  return journey.withStore(async (store) => {
    const olivia = await userId(store, 'olivia');
    const row = await store.db
      .selectFrom('posts')
      .where('user_id', '=', olivia)
      .where('hidden_at', 'is', null)
      .select('id')
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    if (!row) throw new Error('the seed has no post by olivia');
    return row.id;
  });
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SHOTS}/${name}.png`, animations: 'disabled' });

describe.each([
  ['1280', DESKTOP],
  ['375', MOBILE],
] as Array<[string, Viewport]>)('follows at %s px', (width, viewport) => {
  test('a visitor follows the author from the feed-item menu; the author sees the notification live', async () => {
    await mkdir(SHOTS, { recursive: true });
    // each width starts as a visitor
    await journey.browser.context.clearCookies();
    const postId = await olivasPost();
    await journey.withStore(async (store) => {
      const uma = await userId(store, 'uma');
      await store.db.deleteFrom('follows').where('follower_id', '=', uma).execute();
      await store.db.deleteFrom('notifications').execute();
    });

    // Olivia, in her own browser, on her profile
    const second = await launchBrowser();
    try {
      const author = await second.open(journey.url('/u/olivia'), viewport);
      await signIn(author.page, 'olivia', 'Olivia Owner');
      const bell = author.page.getByRole('button', { name: /^Notifications/ });
      await bell.waitFor();
      await expect(bell.getAttribute('aria-label')).resolves.toBe('Notifications');

      // Uma, a visitor, opens Olivia's post and its menu
      const { page, errors } = await journey.browser.open(journey.url(`/post/${postId}`), viewport);
      const menu = page.getByRole('button', { name: 'More actions' });
      await menu.waitFor({ timeout: 30_000 });
      const actions = page.getByRole('group', { name: 'Post actions' });
      await menu.click();
      await actions.getByRole('button', { name: 'Copy link' }).click();
      await actions.getByRole('button', { name: 'COPIED' }).waitFor();
      await shot(page, `feed-menu-${width}`);
      await actions.getByRole('button', { name: 'Follow', exact: true }).click();
      // a visitor is asked to sign in first
      const modal = page.locator('#ppreg');
      await modal.getByText('You need to login to follow this user.').waitFor();
      await modal.getByLabel('Username or email').fill('uma');
      await modal.getByLabel('Password').fill(DEMO_PASSWORD);
      await modal.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('button', { name: 'Account menu for Uma User' }).waitFor();
      await menu.click();
      await actions.getByRole('button', { name: 'Follow', exact: true }).click();
      await page.locator('.feed-menu').getByText('Following', { exact: true }).waitFor();
      await shot(page, `feed-followed-${width}`);

      // Olivia's bell counts it without a reload
      await author.page.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor({ timeout: 10_000 });
      await shot(author.page, `bell-${width}`);
      await author.page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
      const list = author.page.getByRole('dialog', { name: 'Notifications' });
      await list.getByText('Uma User followed you.').waitFor();
      await shot(author.page, `notifications-${width}`);
      // opened, so read: the count goes
      await author.page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
      // the follower count on her profile followed live too
      await list.getByRole('button', { name: 'Close' }).click();
      await author.page
        .locator('.profile-follows')
        .getByText(/follower/)
        .waitFor();
      expect(await author.page.locator('.profile-follows__count').first().textContent()).toMatch(
        /^\d+ followers?$/,
      );

      // Uma on Olivia's profile: Following, and the lists
      await page.goto(journey.url('/u/olivia'), { waitUntil: 'load' });
      await page.getByRole('button', { name: 'Unfollow Olivia Owner' }).waitFor();
      await page.locator('.profile-follows__count').first().click();
      const followers = page.getByRole('dialog', { name: 'Followers of @olivia' });
      await followers.getByText('Uma User').waitFor();
      await shot(page, `profile-followers-${width}`);
      await followers.getByRole('button', { name: 'Close' }).click();
      // unfollow from the profile: the button and the count change at once
      await page.getByRole('button', { name: 'Unfollow Olivia Owner' }).click();
      await page.getByRole('button', { name: 'Follow Olivia Owner' }).waitFor();
      await shot(page, `profile-${width}`);

      // she follows again, and Olivia's bell counts it; she thinks better of it, and the notification
      // is taken back: the bell's count goes without a reload, and the list no longer says it
      await page.getByRole('button', { name: 'Follow Olivia Owner' }).click();
      await page.getByRole('button', { name: 'Unfollow Olivia Owner' }).waitFor();
      await author.page.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor({ timeout: 10_000 });
      await page.getByRole('button', { name: 'Unfollow Olivia Owner' }).click();
      await page.getByRole('button', { name: 'Follow Olivia Owner' }).waitFor();
      await author.page
        .getByRole('button', { name: 'Notifications', exact: true })
        .waitFor({ timeout: 10_000 });
      await author.page.getByRole('button', { name: 'Notifications', exact: true }).click();
      await list.getByText('Nothing yet: likes, comments, reviews and follows show here.').waitFor();
      expect(await list.getByText('Uma User followed you.').count()).toBe(0);
      await shot(author.page, `notifications-withdrawn-${width}`);
      await list.getByRole('button', { name: 'Close' }).click();
      expect(errors).toEqual([]);
      expect(author.errors).toEqual([]);
      await page.close();
    } finally {
      await second.close();
    }
  });
});
