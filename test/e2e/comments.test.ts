import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { newCommentId } from '../../src/server/features/comments/ids';
import { DESKTOP, MOBILE, waitForMapReady } from './support/browser';
import { startJourney } from './support/journey';
import { apiToken, signIn, signUp } from './support/session';
import { userId } from './support/store';

/**
 * Comments (issue 18), as people use them: a visitor opens a post, reads its comments and is asked
 * to sign in to write one; Uma signs in, comments (shown at once, Edit and Remove once the server
 * has answered), sends the same words again and reads the server's refusal while her copy is taken
 * back, edits her comment inline, removes it; and a comment Olivia writes elsewhere arrives on
 * Uma's open page without a reload. Screenshots at 375 and 1280 px in .tmp/ (or SHOTS_DIR).
 */
const POST = '7c0a2f4e-9b1d-4c3e-8f5a-1e2d3c4b5a69';
const POST_TITLE = 'Harbour market this Saturday';
/** Screenshots to look at: .tmp/ (gitignored), or SHOTS_DIR. */
const SHOTS = process.env.SHOTS_DIR ?? path.resolve('.tmp');

async function shot(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, animations: 'disabled' });
}

describe('comments', () => {
  const journey = startJourney({
    seed: 60,
    prepare: async (store) => {
      const olivia = await userId(store, 'olivia');
      const carlos = await userId(store, 'carlos');
      const now = Date.now();
      await store.db
        .insertInto('posts')
        .values({
          id: POST,
          user_id: olivia,
          title: POST_TITLE,
          description: 'Fish, bread and music from nine.',
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
      await store.db
        .insertInto('comments')
        .values({
          id: newCommentId(now - 600_000),
          object_id: POST,
          object_type: 'P',
          user_id: carlos,
          text: 'Is there parking nearby?',
          created_at: now - 600_000,
          updated_at: now - 600_000,
        })
        .execute();
    },
  });

  test('given a visitor on a post, when they read its comments, then there is no box but a sign-in prompt', async () => {
    const { server, browser } = journey;
    await browser.context.clearCookies();
    const { page, errors } = await browser.open(`${server.url}/post/${POST}`, MOBILE);
    const modal = page.locator('dialog.posts-modal');
    await modal.getByRole('heading', { name: POST_TITLE }).waitFor();
    const comments = modal.getByRole('region', { name: /^Comments/ });
    await comments.getByText('Is there parking nearby?').waitFor();
    await comments.getByRole('heading', { name: 'Comments (1)' }).waitFor();
    expect(await comments.getByRole('textbox').count()).toBe(0);
    expect(await comments.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    await comments.getByRole('button', { name: 'Sign in to comment' }).scrollIntoViewIfNeeded();
    await shot(page, 'visitor-375');
    await comments.getByRole('button', { name: 'Sign in to comment' }).click();
    await page.locator('#ppreg').getByText('You need to login to comment.').waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  for (const [label, viewport] of [
    ['1280', DESKTOP],
    ['375', MOBILE],
  ] as const)
    test(`given ${label === '1280' ? 'Uma' : 'a newcomer'} signed in (${label} px), when she comments, repeats herself, edits and removes, then the page follows each step and the server's refusal is shown`, async () => {
      const { server, browser } = journey;
      await browser.context.clearCookies();
      const { page, errors } = await browser.open(`${server.url}/maps`, viewport);
      await waitForMapReady(page);
      // one comment per person every 5 s: the phone's run is a newcomer's, so it never waits on Uma's
      let fullname = 'Uma User';
      if (label === '1280') await signIn(page, 'uma', fullname);
      else fullname = (await signUp(page, 'Noor Haddad', 'noor')).fullname;
      await page.goto(`${server.url}/post/${POST}`);
      await page.getByRole('button', { name: `Account menu for ${fullname}` }).waitFor();
      const modal = page.locator('dialog.posts-modal');
      await modal.getByRole('heading', { name: POST_TITLE }).waitFor();
      const comments = modal.getByRole('region', { name: /^Comments/ });
      await comments.getByText('Is there parking nearby?').waitFor();
      const box = comments.getByRole('textbox', { name: 'Write a comment' });

      // empty text is never sent: the button stays off for spaces
      await box.fill('    ');
      expect(await comments.getByRole('button', { name: 'Comment', exact: true }).isDisabled()).toBe(true);

      const words = `See you there (${label})! Menu at https://harbour.example/menu`;
      await box.fill(words);
      await comments.getByRole('button', { name: 'Comment', exact: true }).click();
      const mine = comments.getByRole('listitem').filter({ hasText: `See you there (${label})` });
      await mine.waitFor();
      // its Edit and Remove come with the server's replid
      await mine.getByRole('button', { name: 'Edit' }).waitFor();
      expect(await mine.getByRole('link', { name: 'https://harbour.example/menu' }).getAttribute('rel')).toBe(
        'nofollow ugc noopener',
      );
      await comments.getByRole('heading', { name: 'Comments (2)' }).waitFor();
      // nobody else's comment offers Edit
      const others = comments.getByRole('listitem').filter({ hasText: 'Is there parking nearby?' });
      expect(await others.getByRole('button', { name: 'Edit' }).count()).toBe(0);
      await shot(page, `commented-${label}`);

      // the same words again: shown at once, then taken back with the server's text in the alert
      await box.fill(words);
      await comments.getByRole('button', { name: 'Comment', exact: true }).click();
      await comments
        .getByRole('alert')
        .getByText('text: you posted this same comment here a moment ago.')
        .waitFor();
      await expect.poll(() => mine.count()).toBe(1);
      await comments.getByRole('heading', { name: 'Comments (2)' }).waitFor();
      await shot(page, `refused-${label}`);

      // inline edit: Cancel keeps the text, Save changes it (hers is the newest, on top; while it is
      // edited its text is in the field, so it is found by its place)
      const top = comments.getByRole('listitem').first();
      expect(await top.textContent()).toContain(`See you there (${label})`);
      await top.getByRole('button', { name: 'Edit' }).click();
      const editor = top.getByRole('textbox', { name: 'Edit your comment' });
      await editor.fill('changed my mind');
      await top.getByRole('button', { name: 'Cancel' }).click();
      await mine.getByText(`See you there (${label})!`, { exact: false }).waitFor();
      await top.getByRole('button', { name: 'Edit' }).click();
      await editor.fill(`Running late (${label}), keep me a loaf`);
      await shot(page, `editing-${label}`);
      await top.getByRole('button', { name: 'Save' }).click();
      const edited = comments.getByRole('listitem').filter({ hasText: `Running late (${label})` });
      await edited.getByText('· edited').waitFor();
      await edited.getByRole('button', { name: 'Edit' }).waitFor();

      // a comment is liked like a post: the count shows at once and the server keeps it
      await edited.getByRole('button', { name: `Like ${fullname}’s comment`, exact: true }).click();
      await edited.getByRole('button', { name: '1 like: see who', exact: true }).waitFor();
      await expect
        .poll(() =>
          journey.withStore(async (store) =>
            Number(
              (
                await store.db
                  .selectFrom('like_counts')
                  .innerJoin('comments', 'comments.id', 'like_counts.object_id')
                  .select('like_counts.up')
                  .where('like_counts.object_type', '=', 'C')
                  .where('comments.object_id', '=', POST)
                  .executeTakeFirst()
              )?.up ?? 0,
            ),
          ),
        )
        .toBe(1);
      await shot(page, `liked-${label}`);

      // remove: gone at once, and from the server
      await edited.getByRole('button', { name: 'Remove' }).click();
      await edited.waitFor({ state: 'detached' });
      await comments.getByRole('heading', { name: 'Comments (1)' }).waitFor();
      const left = await journey.withStore((store) =>
        store.db.selectFrom('comments').select('text').where('object_id', '=', POST).execute(),
      );
      expect(left.map((row) => row.text)).toEqual(['Is there parking nearby?']);
      // the browser logs the refused request, and nothing else went wrong
      expect(errors).toEqual([expect.stringMatching(/status of 409 .*\/v1\/webonly\/comment\/add/)]);
      await page.close();
    }, 60_000);

  test("given Uma's page open on the post, when Olivia comments from her app, then the comment arrives without a reload", async () => {
    const { server, browser } = journey;
    await browser.context.clearCookies();
    const { page, errors } = await browser.open(`${server.url}/maps`, DESKTOP);
    await waitForMapReady(page);
    await signIn(page, 'uma', 'Uma User');
    await page.goto(`${server.url}/post/${POST}`);
    const modal = page.locator('dialog.posts-modal');
    const comments = modal.getByRole('region', { name: /^Comments/ });
    await comments.getByText('Is there parking nearby?').waitFor();
    // the page has joined the post's topic once the socket is up; then Olivia writes
    const token = await apiToken(server.url, 'olivia');
    await expect
      .poll(
        async () => {
          const text = 'Plenty behind the fish hall.';
          if ((await comments.getByText(text).count()) > 0) return true;
          const sent = await fetch(`${server.url}/v1/webonly/comment/add`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Authorization: `appnettoken ${token}` },
            body: JSON.stringify({ objectid: POST, objecttype: 'P', text }),
          });
          expect([200, 409, 429]).toContain(sent.status);
          await comments
            .getByText(text)
            .waitFor({ timeout: 2000 })
            .catch(() => undefined);
          return (await comments.getByText(text).count()) > 0;
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(true);
    const live = comments.getByRole('listitem').filter({ hasText: 'Plenty behind the fish hall.' });
    expect(await live.count()).toBe(1);
    // Uma may not edit Olivia's comment (and Olivia, the post's author, is not Uma)
    expect(await live.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    const stored = await journey.withStore((store) =>
      store.db.selectFrom('posts').select('comments_count').where('id', '=', POST).executeTakeFirstOrThrow(),
    );
    await comments.getByRole('heading', { name: `Comments (${Number(stored.comments_count)})` }).waitFor();
    await shot(page, 'live-1280');
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
