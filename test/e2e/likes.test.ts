import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { DESKTOP, MOBILE, launchBrowser, type Browser } from './support/browser';
import { profileLink } from '../../src/shared/address/links';
import { startJourney } from './support/journey';
import { DEMO_PASSWORD } from './support/session';

/**
 * Likes (issue 18), as a person uses them: a visitor opens a demo post and presses 👍, is told to
 * log in and opens the login modal from the message's link; signed in as Uma, she likes the post,
 * sees who likes it, changes to a dislike and removes it, each time seeing the counts move by one;
 * a second browser (a visitor on another context) sees Uma's like arrive live, without a reload.
 * Screenshots at 1280 and 375 px under .tmp/ (or SHOTS_DIR).
 */
/** Screenshots to look at: .tmp/ (gitignored), or SHOTS_DIR. */
const SHOTS = process.env.SHOTS_DIR ?? path.resolve('.tmp');

describe('likes', () => {
  const journey = startJourney({ seed: 60 });
  let watcherBrowser: Browser | undefined;
  afterAll(async () => watcherBrowser?.close());

  /** A demo post of someone else's that Uma has not liked, and its counts. */
  const pickPost = () =>
    journey.withStore(async (store) => {
      const uma = await store.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', 'uma')
        .executeTakeFirstOrThrow();
      const post = await store.db
        .selectFrom('posts as p')
        .leftJoin('like_counts as c', (join) =>
          join.onRef('c.object_id', '=', 'p.id').on('c.object_type', '=', 'P'),
        )
        .innerJoin('users as a', 'a.id', 'p.user_id')
        .select(['p.id', 'p.title', 'c.up', 'c.down', 'a.username'])
        .where('p.user_id', '<>', uma.id)
        .where('p.hidden_at', 'is', null)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('likes as l')
                .select('l.id')
                .whereRef('l.object_id', '=', 'p.id')
                .where('l.user_id', '=', uma.id),
            ),
          ),
        )
        .orderBy('c.up', 'desc')
        .executeTakeFirstOrThrow();
      return {
        author: post.username,
        umaId: uma.id,
        id: post.id,
        title: post.title,
        up: Number(post.up ?? 0),
        down: Number(post.down ?? 0),
      };
    });

  const likeButton = (scope: Page | Locator, name: 'Like' | 'Dislike') =>
    scope.getByRole('group', { name: 'Likes' }).getByRole('button', { name, exact: true });
  const countButton = (scope: Page | Locator, count: number, noun: string) =>
    scope.getByRole('group', { name: 'Likes' }).getByRole('button', { name: `${count} ${noun}: see who` });

  test('given a visitor on a post, when they like it, sign in, like, dislike and remove, then the counts and the other browser follow', async () => {
    const { browser, server } = journey;
    await mkdir(SHOTS, { recursive: true });
    const post = await pickPost();
    const noun = (n: number, word: string) => `${word}${n === 1 ? '' : 's'}`;

    // a second browser: a visitor watching the same post
    watcherBrowser = await launchBrowser();
    const { page } = await browser.open(`${server.url}/post/${post.id}`, DESKTOP);
    await page.getByRole('heading', { name: post.title }).waitFor();
    await countButton(page, post.up, noun(post.up, 'like')).waitFor();

    // a visitor presses 👍: the spec's message with a login link, nothing changes
    await likeButton(page, 'Like').click();
    const notice = page.getByRole('alert').filter({ hasText: 'Sorry, You need to login to Like/Dislike.' });
    await notice.waitFor();
    expect(await likeButton(page, 'Like').getAttribute('aria-pressed')).toBe('false');
    await countButton(page, post.up, noun(post.up, 'like')).waitFor();
    await page.screenshot({ path: `${SHOTS}/likes-visitor-1280.png` });
    // the same at 375 px, in the other browser (a visitor too)
    const visitorSmall = (await watcherBrowser.open(`${server.url}/post/${post.id}`, MOBILE)).page;
    await likeButton(visitorSmall, 'Like').click();
    await visitorSmall
      .getByRole('alert')
      .filter({ hasText: 'Sorry, You need to login to Like/Dislike.' })
      .waitFor();
    await visitorSmall.screenshot({ path: `${SHOTS}/likes-visitor-375.png` });
    await visitorSmall.close();
    await notice.getByRole('button', { name: 'Log in' }).click();
    const modal = page.locator('#ppreg');
    await modal.getByText('Sorry, You need to login to Like/Dislike.').waitFor();
    await modal.getByLabel('Username or email').fill('uma');
    await modal.getByLabel('Password').fill(DEMO_PASSWORD);
    await modal.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Account menu for Uma User' }).waitFor();
    await modal.waitFor({ state: 'detached' });

    // the watcher opens the same post as a visitor
    const watcher = (await watcherBrowser.open(`${server.url}/post/${post.id}`, DESKTOP)).page;
    await countButton(watcher, post.up, noun(post.up, 'like')).waitFor();

    // like: pressed, one more like, on this page and live on the watcher's
    await likeButton(page, 'Like').click();
    await countButton(page, post.up + 1, noun(post.up + 1, 'like')).waitFor();
    expect(await likeButton(page, 'Like').getAttribute('aria-pressed')).toBe('true');
    await countButton(watcher, post.up + 1, noun(post.up + 1, 'like')).waitFor();
    await page.screenshot({ path: `${SHOTS}/likes-liked-1280.png` });

    // who likes it: Uma first
    await countButton(page, post.up + 1, noun(post.up + 1, 'like')).click();
    const likers = page.getByRole('dialog', { name: 'People who like this' });
    const first = likers.getByRole('listitem').first();
    await first.getByText('Uma User').waitFor();
    expect(await first.getByRole('link').getAttribute('href')).toContain('uma');
    await page.screenshot({ path: `${SHOTS}/likes-likers-1280.png` });
    await likers.getByRole('button', { name: 'Close' }).click();
    await likers.waitFor({ state: 'detached' });

    // change to a dislike: the like goes back, one more dislike
    await likeButton(page, 'Dislike').click();
    await countButton(page, post.down + 1, noun(post.down + 1, 'dislike')).waitFor();
    await countButton(page, post.up, noun(post.up, 'like')).waitFor();
    expect(await likeButton(page, 'Like').getAttribute('aria-pressed')).toBe('false');
    expect(await likeButton(page, 'Dislike').getAttribute('aria-pressed')).toBe('true');
    await countButton(watcher, post.down + 1, noun(post.down + 1, 'dislike')).waitFor();

    // the same button again removes it
    await likeButton(page, 'Dislike').click();
    await countButton(page, post.down, noun(post.down, 'dislike')).waitFor();
    expect(await likeButton(page, 'Dislike').getAttribute('aria-pressed')).toBe('false');
    await likeButton(page, 'Dislike').and(page.locator(':not([aria-busy])')).waitFor();
    const stored = await journey.withStore((store) =>
      store.db
        .selectFrom('likes')
        .select('id')
        .where('object_id', '=', post.id)
        .where('user_id', '=', post.umaId)
        .execute(),
    );
    expect(stored).toHaveLength(0);

    // at 375 px: liked again, the bar under the post
    const small = await browser.open(`${server.url}/post/${post.id}`, MOBILE);
    await likeButton(small.page, 'Like').click();
    await countButton(small.page, post.up + 1, noun(post.up + 1, 'like')).waitFor();
    await likeButton(small.page, 'Like').scrollIntoViewIfNeeded();
    await small.page.screenshot({ path: `${SHOTS}/likes-liked-375.png` });
    await small.page.close();

    // the author's profile: each post card shows its counts (Uma's like among them)
    for (const [viewport, width] of [
      [DESKTOP, 1280],
      [MOBILE, 375],
    ] as const) {
      const profile = await browser.open(`${server.url}${profileLink(post.author)}`, viewport);
      const counts = profile.page.locator('.likes-counts', {
        hasText: `${post.up + 1} ${noun(post.up + 1, 'like')}, ${post.down} ${noun(post.down, 'dislike')}`,
      });
      await counts.waitFor();
      await counts.scrollIntoViewIfNeeded();
      await profile.page.screenshot({ path: `${SHOTS}/likes-cards-${width}.png` });
      await profile.page.close();
    }
    await page.close();
  });
});
