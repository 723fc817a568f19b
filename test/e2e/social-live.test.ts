import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { newCommentId } from '../../src/server/features/comments/ids';
import { newPoint } from '../support/factories';
import { DESKTOP, MOBILE, waitForMapReady } from './support/browser';
import { startJourney } from './support/journey';
import { apiToken, signIn } from './support/session';
import { userId } from './support/store';

/**
 * Live likes and the live rating (issue 18), as a reader sees them: a visitor reads a post's comments
 * while Uma likes one from her phone, and the comment's count moves on the visitor's page without a
 * reload; the visitor opens a café's reviews while Uma finds one helpful, then changes her mind, and
 * the review's counts follow. The café's full-screen page (rendered on the server) shows its rating;
 * once it is hydrated, a review Uma writes moves the rating under the name and in the reviews section.
 * Olivia, signing in on the demo data, finds unread news in her bell that leads to a real page.
 * The café sits in the empty South Atlantic, away from the demo points. Screenshots at 375 and 1280 px.
 */
const CAFE = 'social_live_cafe';
const CAFE_TITLE = 'Tristan Harbour Café';
const POST = '3f1c6a2e-7d4b-4e8a-9c1f-2a3b4c5d6e7f';
const POST_TITLE = 'Fish soup on Friday';
const AT = { lat: -37.1, lon: -12.3 };
const SHOTS = process.env.SHOTS_DIR ?? path.resolve('.tmp');

async function shots(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  const size = page.viewportSize();
  await page.setViewportSize(MOBILE);
  await page.screenshot({ path: `${SHOTS}/${name}-375.png`, animations: 'disabled' });
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: `${SHOTS}/${name}-1280.png`, animations: 'disabled' });
  if (size) await page.setViewportSize(size);
}

describe('live likes and ratings', () => {
  const ids = { carlosReview: '', adminReview: '', comment: '' };
  const journey = startJourney({
    seed: 60,
    prepare: async (store) => {
      const olivia = await userId(store, 'olivia');
      const carlos = await userId(store, 'carlos');
      const admin = await userId(store, 'admin');
      const now = Date.now();
      await store.db
        .insertInto('points')
        .values({
          ...newPoint({
            id: CAFE,
            title: CAFE_TITLE,
            supertype: 'business',
            type: 'cafe',
            description: 'Coffee and soup by the quay.',
            lat: AT.lat,
            lon: AT.lon,
            owner_userid: olivia,
          }),
          // two reviews below: (5 + 4) / 2 stars
          rating: 90,
          rating_count: 2,
        })
        .execute();
      ids.carlosReview = 'social_live_review_carlos';
      ids.adminReview = 'social_live_review_admin';
      await store.db
        .insertInto('reviews')
        .values([
          {
            id: ids.carlosReview,
            point_id: CAFE,
            user_id: carlos,
            stars: 5,
            text: 'The best fish soup on the island.',
            created_at: now - 3_600_000,
            updated_at: now - 3_600_000,
          },
          {
            id: ids.adminReview,
            point_id: CAFE,
            user_id: admin,
            stars: 4,
            text: 'Good coffee, slow on Sundays.',
            created_at: now - 7_200_000,
            updated_at: now - 7_200_000,
          },
        ])
        .execute();
      await store.db
        .insertInto('posts')
        .values({
          id: POST,
          user_id: olivia,
          title: POST_TITLE,
          description: 'Cod, mussels and bread from noon.',
          type: 'general',
          city_id: null,
          xpoint_id: null,
          parent_type: null,
          image_url: null,
          image_variants: null,
          image_placeholder: null,
          video_url: null,
          file_resource_bitmask: 0,
          expires_at: null,
          created_at: now - 3_600_000,
          updated_at: now - 3_600_000,
          listed_at: now - 3_600_000,
          hidden_at: null,
          comments_count: 1,
        })
        .execute();
      ids.comment = newCommentId(now - 600_000);
      await store.db
        .insertInto('comments')
        .values({
          id: ids.comment,
          object_id: POST,
          object_type: 'P',
          user_id: carlos,
          text: 'Keep me a bowl, please.',
          created_at: now - 600_000,
          updated_at: now - 600_000,
        })
        .execute();
    },
  });

  /** Topics whose join the server accepted, per page: a page hears a topic once it is in here. */
  const joined = new WeakMap<Page, Set<string>>();
  const watchJoins = () =>
    journey.browser.context.on('page', (page) => {
      const topics = new Set<string>();
      joined.set(page, topics);
      page.on('websocket', (ws) =>
        ws.on('framereceived', (frame) => {
          if (typeof frame.payload !== 'string') return;
          const [joinRef, ref, topic, event, payload] = JSON.parse(frame.payload) as [
            string | null,
            string | null,
            string,
            string,
            { status?: string },
          ];
          if (event === 'phx_reply' && joinRef === ref && payload.status === 'ok') topics.add(topic);
        }),
      );
    });
  beforeAll(() => void watchJoins());
  const heardJoin = async (page: Page, topic: string) =>
    expect.poll(() => joined.get(page)?.has(topic) ?? false, { timeout: 15_000 }).toBe(true);

  /** Uma, from her app: a call with her token. */
  const asUma = async (pathname: string, body: Record<string, unknown>) => {
    const token = await apiToken(journey.server.url, 'uma');
    const res = await fetch(`${journey.server.url}${pathname}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `appnettoken ${token}` },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    return (await res.json()) as Record<string, unknown>;
  };

  test("given a visitor reading a post's comments and a café's reviews, when Uma likes a comment and a review, then the counts move on the visitor's page without a reload", async () => {
    const { server, browser } = journey;
    await browser.context.clearCookies();
    const { page, errors } = await browser.open(`${server.url}/post/${POST}`, MOBILE);
    const modal = page.locator('dialog.posts-modal');
    await modal.getByRole('heading', { name: POST_TITLE }).waitFor();
    const comment = modal.getByRole('listitem').filter({ hasText: 'Keep me a bowl, please.' });
    await comment.getByRole('button', { name: '0 likes: see who', exact: true }).waitFor();
    // a comment's bar hears its likes only while on screen (a connection holds 200 topics at most)
    await comment.scrollIntoViewIfNeeded();
    await heardJoin(page, `social:C:${ids.comment}`);

    await asUma('/v1/webonly/like/add', { objectid: ids.comment, objecttype: 'C', liketype: 0 });
    await comment.getByRole('button', { name: '1 like: see who', exact: true }).waitFor();
    await shots(page, 'live-comment-like');

    // the café's reviews, opened from its panel on the map
    await page.goto(`${server.url}/b/${CAFE}`);
    await waitForMapReady(page);
    await page.locator('.reviews-rating').getByRole('button', { name: '2 reviews' }).click();
    const reviews = page.locator('dialog.reviews-modal');
    const carlos = reviews.locator('.reviews-item').filter({ hasText: 'The best fish soup on the island.' });
    await carlos.getByRole('button', { name: '0 likes: see who', exact: true }).waitFor();
    await carlos.scrollIntoViewIfNeeded();
    await heardJoin(page, `social:R:${ids.carlosReview}`);

    const like = await asUma('/v1/webonly/like/add', {
      objectid: ids.carlosReview,
      objecttype: 'R',
      liketype: 0,
    });
    await carlos.getByRole('button', { name: '1 like: see who', exact: true }).waitFor();
    await asUma('/v1/webonly/like/changetype', { likeid: like['likeid'], newliketype: 1 });
    await carlos.getByRole('button', { name: '1 dislike: see who', exact: true }).waitFor();
    await carlos.getByRole('button', { name: '0 likes: see who', exact: true }).waitFor();
    // the other review heard nothing
    const other = reviews.locator('.reviews-item').filter({ hasText: 'Good coffee, slow on Sundays.' });
    await other.getByRole('button', { name: '0 likes: see who', exact: true }).waitFor();
    await shots(page, 'live-review-like');
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);

  test('given the demo data, when Olivia signs in, then her bell counts unread news that leads to real pages', async () => {
    const { server, browser } = journey;
    await browser.context.clearCookies();
    const { page, errors } = await browser.open(`${server.url}/maps`, DESKTOP);
    await waitForMapReady(page);
    await signIn(page, 'olivia', 'Olivia Owner');
    const bell = page.getByRole('button', { name: /^Notifications, \d+ unread$/ });
    await bell.waitFor();
    await bell.click();
    const list = page.getByRole('dialog', { name: 'Notifications' });
    const first = list.getByRole('link').first();
    await first.waitFor();
    // Uma follows Olivia in every demo store, so her bell always has that much
    expect(await list.textContent()).toMatch(
      /followed you\.|liked your post\.|commented on your post\.|reviewed your point\./,
    );
    await shots(page, 'demo-bell');
    const href = await first.getAttribute('href');
    expect(href).toMatch(/^\/(post|x|u)\//);
    await first.click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(href);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  test("given the café's full-screen page, when Uma reviews the café, then its rating moves under the name and in the reviews without a reload", async () => {
    const { server, browser } = journey;
    await browser.context.clearCookies();
    const { page, errors } = await browser.open(`${server.url}/f/${CAFE}`, DESKTOP);
    const line = page.locator('.fullscreen-page .point-panel__rating');
    const section = page.locator('.fullscreen-page__reviews');
    await expect.poll(() => line.textContent()).toBe('★ 4.5 / 5 · 2 reviews');
    // hydrated: the reviews' count has become the button that opens them, and the page hears the café
    await section.getByRole('button', { name: '2 reviews' }).waitFor();
    await heardJoin(page, `social:X:${CAFE}`);

    // (5 + 4 + 3) / 3 = 4.0
    await asUma('/v1/reviews/add', { appid: CAFE, stars: 3, text: 'Soup was good, the wait was long.' });
    await expect.poll(() => line.textContent()).toBe('★ 4.0 / 5 · 3 reviews');
    await section.getByRole('button', { name: '3 reviews' }).waitFor();
    expect(await section.textContent()).toContain('Rated 4.0 out of 5 from 3 reviews.');
    await shots(page, 'live-fullscreen-rating');

    // her review's deletion moves it back
    await asUma('/v1/reviews/delete', { appid: CAFE });
    await expect.poll(() => line.textContent()).toBe('★ 4.5 / 5 · 2 reviews');
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
