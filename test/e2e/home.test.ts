import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type { Store } from '../../src/server/store/store';
import { DESKTOP, MOBILE, saveScreenshot, waitForMapReady } from './support/browser';
import type { PageDocument } from './support/globals';
import { startJourney } from './support/journey';
import { signIn } from './support/session';
import { userId } from './support/store';

/**
 * The home page (issue 19), as a visitor uses it: opens the home page, opens top destinations, types
 * three letters of Lisbon and picks it with the keyboard; the map moves there (its hash and the
 * mapbox_loc_json cookie at zoom 9.7) and the horizontal feed shows Lisbon's posts, newest first; the
 * next and previous buttons slide through them, the next page read when the row nears its end. A post
 * written while the page is open slides in live. A name that matches nothing says 'No results found'.
 * Screenshots at 1280 and 375 px, and at 375 px nothing scrolls sideways. Signed in, Uma follows a
 * post's author from its card menu in the feed, and the menu says so after a reload.
 */
declare const document: PageDocument & { documentElement: { scrollWidth: number; clientWidth: number } };

const POSTS = 24;
const TITLES = [
  'Half-price pastéis de nata at the Alfama bakery',
  'Looking for a guitar teacher in Graça',
  'Sign the petition for a bike lane on Avenida da Liberdade',
  'Room for rent near Cais do Sodré, bills included',
  'Weekend sardine grill in Mouraria: two for one',
  'Free Portuguese conversation meetup on Thursday',
];

async function lisbonPosts(store: Store, now: number): Promise<void> {
  const city = await store.db
    .selectFrom('cities')
    .select('id')
    .where('city_forurl', '=', 'lisbon-pt')
    .executeTakeFirstOrThrow();
  const author = await userId(store, 'olivia');
  const types = ['deal', 'gig', 'petition', 'classified', 'promotion', 'general'];
  await store.db
    .insertInto('posts')
    .values(
      Array.from({ length: POSTS }, (_, i) => ({
        id: randomUUID(),
        user_id: author,
        title: `${TITLES[i % TITLES.length]} #${POSTS - i}`,
        description: 'Posted for the home page journey.',
        type: types[i % types.length] as string,
        city_id: Number(city.id),
        xpoint_id: null,
        parent_type: null,
        // one with a picture that is not there: a random placeholder replaces it
        image_url: i === 0 ? '/media/missing-picture.jpg' : null,
        image_placeholder: null,
        video_url: null,
        file_resource_bitmask: i === 0 ? 1 : 0,
        expires_at: null,
        created_at: now - (i + 1) * 3_600_000,
        updated_at: now - (i + 1) * 3_600_000,
        lat: null,
        lon: null,
        listed_at: now - (i + 1) * 3_600_000,
        renewed_at: null,
        hidden_at: null,
        image_variants: null,
        video_id: null,
      })),
    )
    .execute();
}

describe('the home page', () => {
  const journey = startJourney({ prepare: (store) => lisbonPosts(store, Date.now()) });

  test('given a visitor on the home page, when she picks Lisbon from top destinations with the keyboard, then the map moves there and its feed slides', async () => {
    const { page, errors } = await journey.browser.open(journey.url('/'), DESKTOP);
    await waitForMapReady(page);
    await page.getByRole('heading', { name: 'Find what is around you, right now' }).waitFor();

    await page.getByRole('button', { name: 'Top destinations' }).click();
    const dialog = page.getByRole('dialog', { name: 'Top destinations' });
    await dialog.waitFor();
    const box = dialog.getByRole('combobox', { name: 'Find a city' });
    // focus starts in the city search
    await box.pressSequentially('zqx');
    await dialog.getByText('No results found').waitFor();
    await box.fill('');
    await box.pressSequentially('Lis');
    const lisbon = dialog.getByRole('option', { name: /^Lisbon/ });
    await lisbon.waitFor();
    await saveScreenshot(page, 'home-picker-1280');
    await box.press('ArrowDown');
    expect(await lisbon.getAttribute('aria-selected')).toBe('true');
    await box.press('Enter');
    await dialog.waitFor({ state: 'detached' });

    // the map moves to Lisbon at zoom 9.7 (after 200 ms), and the cookie says so
    await page.waitForURL((url) => url.hash.startsWith('#9.7/38.7'));
    const cookies = await journey.browser.context.cookies(journey.url('/'));
    const saved = JSON.parse(
      decodeURIComponent(cookies.find((c) => c.name === 'mapbox_loc_json')?.value ?? '{}'),
    );
    expect(saved).toMatchObject({ zoom: 9.7 });
    expect(saved.lat).toBeCloseTo(38.7, 0);
    expect(saved.lng).toBeCloseTo(-9.1, 0);

    // the feed of Lisbon, newest first
    const feed = page.getByRole('region', { name: 'News in Lisbon' });
    await feed.waitFor();
    const cards = feed.locator('li.posts-card');
    await cards.first().waitFor();
    expect(await cards.first().textContent()).toContain(`#${POSTS}`);
    // the broken picture became a placeholder cover
    await feed.locator('img[data-placeholder="true"]').first().waitFor({ state: 'attached' });
    await saveScreenshot(page, 'home-1280');

    // slide: next until the end (the second page comes), then previous back to the start
    const next = feed.getByRole('button', { name: 'Next posts' });
    const previous = feed.getByRole('button', { name: 'Previous posts' });
    expect(await previous.isDisabled()).toBe(true);
    const track = feed.locator('.home-feed__track');
    const scrolled = () => track.evaluate((row) => row.scrollLeft);
    // each slide is waited for until the row stands still: pressed again mid-glide, a smooth scroll
    // restarts from where it is, and on a busy machine forty presses then moved only part of the row
    const settled = async () => {
      let before = -1;
      await expect
        .poll(
          async () => {
            const now = await scrolled();
            const still = now === before;
            before = now;
            return still;
          },
          { timeout: 10_000, interval: 150 },
        )
        .toBe(true);
    };
    for (let i = 0; i < 40 && !(await next.isDisabled()); i++) {
      const from = await scrolled();
      const shown = await cards.count();
      // the last slide can turn the button off while it is being pressed, and a press at the end of
      // the row while the next page is read moves nothing until that page is there
      await next.click({ timeout: 5000 }).catch(() => undefined);
      await expect
        .poll(
          async () =>
            (await scrolled()) !== from || (await next.isDisabled()) || (await cards.count()) > shown,
          { timeout: 10_000 },
        )
        .toBe(true);
      await settled();
    }
    expect(await cards.count()).toBe(POSTS);
    expect(await cards.last().textContent()).toContain('#1');
    const end = await scrolled();
    await previous.click();
    await expect.poll(scrolled, { timeout: 10_000 }).toBeLessThan(end);
    expect(errors.filter((e) => !e.includes('missing-picture'))).toEqual([]);
    await page.close();
  });

  test('given the home page on a phone, when a post is written in the city, then it slides into the feed and nothing scrolls sideways', async () => {
    const { page } = await journey.browser.open(journey.url('/'), MOBILE);
    await waitForMapReady(page);
    // the cookie of the first journey keeps Lisbon: the nearest city is the one shown
    const feed = page.getByRole('region', { name: 'News in Lisbon' });
    await feed.locator('li.posts-card').first().waitFor();
    const fresh = 'Just in: free coffee tasting in Chiado';
    await journey.withStore(async (store) => {
      const city = await store.db
        .selectFrom('cities')
        .select('id')
        .where('city_forurl', '=', 'lisbon-pt')
        .executeTakeFirstOrThrow();
      const now = Date.now();
      await store.db
        .insertInto('posts')
        .values({
          id: randomUUID(),
          user_id: await userId(store, 'olivia'),
          title: fresh,
          description: 'Come by before six.',
          type: 'promotion',
          city_id: Number(city.id),
          xpoint_id: null,
          parent_type: null,
          image_url: null,
          image_placeholder: null,
          video_url: null,
          file_resource_bitmask: 0,
          expires_at: null,
          created_at: now,
          updated_at: now,
          lat: null,
          lon: null,
          listed_at: now,
          renewed_at: null,
          hidden_at: null,
          image_variants: null,
          video_id: null,
        })
        .execute();
    });
    await feed.locator('li.posts-card').first().filter({ hasText: fresh }).waitFor({ timeout: 15_000 });
    const sideways = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(sideways).toBeLessThanOrEqual(0);
    await page.getByRole('region', { name: 'Nearby locations' }).waitFor();
    await saveScreenshot(page, 'home-375');
    await page.close();
  });

  test('given Uma signed in on the home page, when she follows or unfollows a post author from its card menu, then every card of that author and a reload say so', async () => {
    // the home page opens where the last chosen city was (the picker's cookie)
    await journey.browser.context.addCookies([
      {
        name: 'mapbox_loc_json',
        value: encodeURIComponent(JSON.stringify({ zoom: 9.7, lat: 38.7167, lng: -9.1333 })),
        url: journey.url('/'),
      },
    ]);
    const { page, errors } = await journey.browser.open(journey.url('/'), DESKTOP);
    await signIn(page, 'uma', 'Uma User');
    const feed = page.getByRole('region', { name: 'News in Lisbon' });
    const cards = feed.locator('li.posts-card');
    await cards.first().waitFor();
    const followItem = (card: number) =>
      cards.nth(card).getByRole('menuitem', { name: /^(Follow|Unfollow) Olivia Owner$/ });
    const menuOf = async (card: number) => {
      await cards
        .nth(card)
        .getByRole('button', { name: /^More for / })
        .click();
      await followItem(card).waitFor();
      return (await followItem(card).textContent())?.trim();
    };
    const closeMenu = (card: number) => cards.nth(card).getByRole('menuitem', { name: 'Cancel' }).click();

    // all the Lisbon posts are Olivia's: whatever Uma does now, it is the other way round after
    const before = await menuOf(0);
    const after = before === 'Follow Olivia Owner' ? 'Unfollow Olivia Owner' : 'Follow Olivia Owner';
    await followItem(0).click();
    await cards.first().getByRole('menu').waitFor({ state: 'detached' });
    await expect.poll(() => menuOf(0).then(async (text) => (await closeMenu(0), text))).toBe(after);
    // another card of the same author was read again
    await expect.poll(() => menuOf(1).then(async (text) => (await closeMenu(1), text))).toBe(after);
    await menuOf(0);
    await saveScreenshot(page, 'home-follow-1280');
    await closeMenu(0);

    // the server kept it: the feed says so after a reload
    await page.reload();
    await cards.first().waitFor();
    expect(await menuOf(0)).toBe(after);
    expect(errors.filter((e) => !e.includes('missing-picture'))).toEqual([]);
    await page.close();
  });
});
