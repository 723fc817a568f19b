import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildMapHash } from '../../src/shared/address';
import { allPointLayerIds } from '../../src/shared/map/contract';
import { newPoint } from '../support/factories';
import { DESKTOP, MOBILE, saveScreenshot, waitForMapReady } from './support/browser';
import type { PageDocument, PageWindow } from './support/globals';
import { startJourney } from './support/journey';
import { mapIdle, pagePixel } from './support/map';
import { apiToken, signIn } from './support/session';

/**
 * Posts (issue 17), as a person makes one: Olivia signs in, opens a café's full-screen page and
 * creates a deal there with a cropped cover and a short video, both chosen through the file chooser;
 * sees it on the map, on the café's page and on her profile; opens it, copies its link, edits it,
 * lets it expire (it leaves the café's page and the map and stays on her profile marked Expired),
 * renews it and deletes it after the confirmation. The café is nobody's (an owner's server-rendered
 * page loads ConsultantRequests, which needs the app's session provider that page lacks: reported)
 * and sits in the empty South Atlantic, away
 * from the demo points, so the nearby list and the map show only what the journey made.
 */
const CAFE = 'posts_journey_cafe';
const CAFE_TITLE = 'Tern Island Coffee';
const AT = { lat: -48.71, lon: -28.42 };
const TITLE = 'Two flat whites for one';
const EDITED = 'Two flat whites for one, all week';
const DESCRIPTION = 'Bring a friend before noon. Menu at https://tern-coffee.example/menu';
const FFMPEG = 'node_modules/@ffmpeg-installer/linux-x64/ffmpeg';

/** The page's globals the journey reads (it compiles without the DOM library). */
declare const window: PageWindow;
declare const document: PageDocument;
declare const navigator: { clipboard: { readText(): Promise<string> } };

const files = { dir: '', cover: '', big: '', video: '' };

beforeAll(async () => {
  files.dir = await mkdtemp(path.join(tmpdir(), 'xpoint-posts-journey-'));
  // a real photo-like JPEG, wider than tall, so the crop has something to move
  files.cover = path.join(files.dir, 'harbour.jpg');
  await sharp({
    create: { width: 1200, height: 800, channels: 3, background: { r: 30, g: 110, b: 160 } },
  })
    .composite([
      {
        input: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800"><circle cx="600" cy="400" r="260" fill="#f4c542"/><rect x="0" y="620" width="1200" height="180" fill="#20415c"/></svg>',
        ),
      },
    ])
    .jpeg({ quality: 85 })
    .toFile(files.cover);
  // social §5: 10.5 MB is over the cover's 10 MB; refused before anything is read or sent
  files.big = path.join(files.dir, 'too-big.jpg');
  await writeFile(files.big, Buffer.alloc(Math.round(10.5 * 1024 * 1024), 1));
  // a 2-second H.264 MP4 of noise (4.5 MB: noise does not compress) made with the ffmpeg we ship
  files.video = path.join(files.dir, 'clip.mp4');
  const made = spawnSync(
    FFMPEG,
    [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      "nullsrc=s=480x270:r=15,geq=lum='random(1)*255':cb=128:cr=128",
      '-t',
      '2',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-crf',
      '4',
      '-pix_fmt',
      'yuv420p',
      files.video,
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`ffmpeg failed: ${made.stderr}`);
});

afterAll(async () => {
  if (files.dir) await rm(files.dir, { recursive: true, force: true });
});

/** Chooses `file` through the file chooser a click on `opener` (the field's visible button) opens. */
async function choose(page: Page, opener: Locator, file: string): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), opener.click()]);
  await chooser.setFiles(file);
}

describe('posts', () => {
  const journey = startJourney({
    seed: 60,
    prepare: async (store) => {
      await store.db
        .insertInto('points')
        .values(
          newPoint({
            id: CAFE,
            title: CAFE_TITLE,
            supertype: 'business',
            type: 'cafe',
            description: 'Coffee at the end of the world.',
            lat: AT.lat,
            lon: AT.lon,
          }),
        )
        .execute();
    },
  });

  /** Whether the map (centred on the café) draws the post. */
  const mapShows = (page: Page, id: string) =>
    page.evaluate(
      ({ ids, id }) => {
        const map = window.__xpointMap;
        if (!map) throw new Error('the map is not ready');
        const layers = ids.filter((layer) => map.getLayer(layer) !== undefined);
        return map.queryRenderedFeatures({ layers }).some((feature) => feature.properties.appnetid === id);
      },
      { ids: allPointLayerIds(), id },
    );

  test('given Olivia on a café’s page, when she creates, edits, expires, renews and deletes a deal, then every page shows it as it is', async () => {
    const { server, browser } = journey;
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const { page, errors } = await browser.open(`${server.url}/maps`, DESKTOP);
    await waitForMapReady(page);
    await signIn(page, 'olivia', 'Olivia Owner');

    // the café's full-screen page: an honest empty state and the create-post box
    await page.goto(`${server.url}/${CAFE}`);
    await page.getByText(`No posts from ${CAFE_TITLE} yet.`).waitFor();
    await saveScreenshot(page, 'posts-point-empty-1280');
    await page.getByRole('button', { name: 'Create a post' }).click();
    const modal = page.locator('dialog.posts-modal');
    await modal.getByRole('heading', { name: 'Post', exact: true }).waitFor();
    expect(
      await modal.getByRole('button', { name: 'Close (also Cancels upload)' }).getAttribute('title'),
    ).toBe('Close (also Cancels upload)');
    const title = modal.getByLabel('Title', { exact: true });
    await title.waitFor();
    // with the form open a press on the backdrop does not close the modal (AllFeatures, social §2)
    await page.mouse.click(8, 400);
    expect(await modal.isVisible()).toBe(true);
    // the café is chosen as the post's place
    await expect.poll(() => modal.getByRole('radio', { name: CAFE_TITLE }).isChecked()).toBe(true);

    // bad input: a title too long and a 10.5 MB picture, each told beside its field
    await title.fill('x'.repeat(121));
    await modal.getByLabel('Description').fill(DESCRIPTION);
    await modal.getByRole('button', { name: 'Publish' }).click();
    await modal.getByText('Please enter valid text. Text is too long!').waitFor();
    expect(await title.getAttribute('aria-invalid')).toBe('true');
    await choose(page, modal.getByText('Choose a picture'), files.big);
    await modal.getByText('Invalid image size. Max allowed 10 MB').waitFor();
    await page.setViewportSize(MOBILE);
    await saveScreenshot(page, 'posts-form-refused-375');
    await page.setViewportSize(DESKTOP);

    // the cover: chosen, cropped (keys move it, the slider zooms), OK makes the 512x512 crop
    await title.fill(TITLE);
    await modal.getByLabel('Category').selectOption('deal');
    await choose(page, modal.getByText('Choose a picture'), files.cover);
    const cropArea = modal.getByLabel('Crop area: arrow keys move the picture');
    await cropArea.waitFor();
    await cropArea.focus();
    await page.keyboard.press('ArrowLeft');
    await modal.getByLabel('Zoom').fill('1.5');
    await saveScreenshot(page, 'posts-form-crop-1280');
    await page.setViewportSize(MOBILE);
    await saveScreenshot(page, 'posts-form-crop-375');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await page.setViewportSize(DESKTOP);
    await modal.getByRole('button', { name: 'OK', exact: true }).click();
    await modal.getByRole('img', { name: 'The cover picture' }).waitFor();
    const cropped = await modal.getByRole('img', { name: 'The cover picture' }).evaluate((image) => {
      const { naturalWidth, naturalHeight } = image as unknown as {
        naturalWidth: number;
        naturalHeight: number;
      };
      return [naturalWidth, naturalHeight];
    });
    expect(cropped).toEqual([512, 512]);
    await modal.getByRole('button', { name: 'Delete', exact: true }).waitFor();

    // the video, through tus with a progress bar in bytes and percent, then its processing state
    await modal.getByRole('tab', { name: 'Video' }).click();
    // a phone's upstream (1.5 MB/s), so the 4.5 MB upload takes long enough to be watched
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 1_500_000,
    });
    await choose(page, modal.getByText('Choose a video'), files.video);
    // the progress bar moves, in bytes and percent
    const bar = modal.getByRole('progressbar', { name: 'Uploading clip.mp4' });
    await bar.waitFor();
    await modal.getByText(/Uploading \d+(\.\d)? (Kb|Mb) of 4\.3 Mb \([1-9]\d?%\)/).waitFor();
    // then the server's processing state
    await modal.getByText(/Video uploaded|Video ready/).waitFor({ timeout: 60_000 });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await modal.getByRole('tab', { name: 'Cover image' }).click();

    await modal.getByRole('button', { name: 'Publish' }).click();
    // saved: the modal shows the post
    await modal.getByRole('heading', { name: TITLE }).waitFor();
    expect(
      await modal.getByRole('link', { name: 'https://tern-coffee.example/menu' }).getAttribute('rel'),
    ).toBe('nofollow ugc noopener');
    await modal.getByRole('link', { name: CAFE_TITLE }).waitFor();
    // the video, once the server has it ready, with our play/pause button; or its state meanwhile
    await modal
      .getByRole('button', { name: 'Play' })
      .or(modal.getByText(/The video is (waiting to be processed|being processed)/))
      .first()
      .waitFor();
    // the copy-link button: COPIED, and the clipboard holds the post's address
    await modal.getByRole('button', { name: 'Copy link' }).click();
    await modal.getByRole('button', { name: 'COPIED' }).waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(new RegExp(`^${server.url}/post/[0-9a-f-]{36}$`));
    const postId = link.slice(link.lastIndexOf('/') + 1);
    await modal.getByRole('button', { name: 'Copy link' }).waitFor();
    await saveScreenshot(page, 'posts-detail-1280');
    await page.setViewportSize(MOBILE);
    await saveScreenshot(page, 'posts-detail-375');
    await page.setViewportSize(DESKTOP);
    await modal.getByRole('button', { name: 'Close', exact: true }).click();

    // the café's page lists it
    const cafePosts = page.locator('[data-posts-block]');
    await cafePosts.getByRole('link', { name: new RegExp(TITLE) }).waitFor();
    // the cropped cover is served (its feed-sized WebP or JPEG), square as cropped, on the café's list
    await expect
      .poll(() =>
        cafePosts.locator('.posts-card__cover img').evaluate((image) => {
          const { naturalWidth, naturalHeight } = image as unknown as {
            naturalWidth: number;
            naturalHeight: number;
          };
          return naturalWidth > 0 && naturalWidth === naturalHeight;
        }),
      )
      .toBe(true);
    await saveScreenshot(page, 'posts-point-list-1280');
    // the card's menu (social §2 feed-item menu): Copy link, then COPIED; Cancel closes it
    await cafePosts.getByRole('button', { name: `More for ${TITLE}` }).click();
    await page.getByRole('menuitem', { name: 'Copy link' }).click();
    await cafePosts.getByRole('button', { name: 'COPIED' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await cafePosts.getByRole('button', { name: `More for ${TITLE}` }).click();
    await page.getByRole('menuitem', { name: 'Cancel' }).click();
    await page.getByRole('menu').waitFor({ state: 'detached' });

    // on the map (posts-map's layer), at once
    const mapPage = (
      await browser.open(`${server.url}/maps${buildMapHash({ zoom: 14, lng: AT.lon, lat: AT.lat })}`, DESKTOP)
    ).page;
    await waitForMapReady(mapPage);
    // drawn as soon as the map has its first tiles, no later than 1 s after (the write-to-tiles time
    // itself is posts-map's measure)
    await expect.poll(() => mapShows(mapPage, postId), { timeout: 1_000 }).toBe(true);
    // a click on its badge (up and to the right of the café's icon) opens it: /post/{id}, the modal
    await mapIdle(mapPage);
    const place = await pagePixel(mapPage, AT.lon, AT.lat);
    await mapPage.mouse.click(place.x + 14, place.y - 14);
    const mapModal = mapPage.locator('dialog.posts-modal');
    await mapModal.getByRole('heading', { name: TITLE }).waitFor();
    expect(new URL(mapPage.url()).pathname).toBe(`/post/${postId}`);
    await mapModal.getByRole('button', { name: 'Close (also Cancels upload)' }).click();
    await mapModal.waitFor({ state: 'detached' });
    // the copied link, opened while the map is on the other side of the world, opens the post in the
    // modal and takes the map to the post's place; closing it leaves the map
    await mapPage.goto(`${server.url}/maps${buildMapHash({ zoom: 10, lng: -74.006, lat: 40.7128 })}`);
    await waitForMapReady(mapPage);
    await mapPage.goto(link);
    await mapModal.getByRole('heading', { name: TITLE }).waitFor();
    await expect
      .poll(async () => {
        const centre = await mapPage.evaluate(() => window.__xpointMap?.getCenter() ?? null);
        return (
          centre !== null && Math.abs(centre.lat - AT.lat) < 0.05 && Math.abs(centre.lng - AT.lon) < 0.05
        );
      })
      .toBe(true);
    await mapModal.getByRole('button', { name: 'Close (also Cancels upload)' }).click();
    await mapModal.waitFor({ state: 'detached' });
    expect(new URL(mapPage.url()).pathname).not.toContain('/post/');
    // createpost=open on any page opens the form, and leaves the address
    await mapPage.goto(`${server.url}/maps?createpost=open`);
    await mapModal.getByRole('form', { name: 'New post' }).waitFor();
    expect(mapPage.url()).not.toContain('createpost');
    await mapModal.getByRole('button', { name: 'Cancel', exact: true }).click();
    await mapModal.waitFor({ state: 'detached' });
    // "Close (also Cancels upload)": an upload on its way is stopped and deleted on the server
    await mapPage.goto(`${server.url}/maps?createpost=open`);
    await mapModal.getByRole('tab', { name: 'Video' }).click();
    const slow = await browser.context.newCDPSession(mapPage);
    await slow.send('Network.enable');
    await slow.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 200_000,
    });
    await choose(mapPage, mapModal.getByText('Choose a video'), files.video);
    await mapModal.getByRole('progressbar', { name: 'Uploading clip.mp4' }).waitFor();
    const terminated = mapPage.waitForResponse(
      (response) => response.request().method() === 'DELETE' && response.url().includes('/v1/uploads/video/'),
    );
    await mapModal.getByRole('button', { name: 'Close (also Cancels upload)' }).click();
    await mapModal.waitFor({ state: 'detached' });
    expect((await terminated).status()).toBe(204);
    await slow.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    // the same from the account menu's New post, where the app offers what a person can add
    await mapPage.getByRole('button', { name: 'Account menu for Olivia Owner' }).click();
    await mapPage.getByRole('menuitem', { name: 'New post' }).click();
    await mapModal.getByRole('form', { name: 'New post' }).waitFor();
    expect(mapPage.url()).not.toContain('createpost');
    await mapPage.keyboard.press('Escape');
    await mapModal.waitFor({ state: 'detached' });
    await mapPage.goto(`${server.url}/maps${buildMapHash({ zoom: 14, lng: AT.lon, lat: AT.lat })}`);

    // the profile lists it; the modal opens from there; edit
    await page.goto(`${server.url}/u/olivia?pagenumber=1&pagesize=12`);
    const profilePosts = page.locator('[data-posts-block]');
    await profilePosts.getByRole('link', { name: new RegExp(TITLE) }).click();
    await modal.getByRole('heading', { name: TITLE }).waitFor();
    await modal.getByRole('button', { name: 'Edit' }).click();
    await title.waitFor();
    expect(await title.inputValue()).toBe(TITLE);
    await title.fill(EDITED);
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.getByRole('heading', { name: EDITED }).waitFor();

    // let it expire: the expiry set in the past
    await modal.getByRole('button', { name: 'Edit' }).click();
    await modal.getByLabel('Expires').selectOption('custom');
    await modal.getByLabel('Expiry date').fill('2024-01-01T10:00');
    await modal.getByText('This date has passed').waitFor();
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.getByText('Expired', { exact: true }).first().waitFor();
    // the details view: a press on the backdrop closes it
    await page.mouse.click(8, 400);
    await modal.waitFor({ state: 'detached' });
    // it stays on the profile, marked Expired
    const card = profilePosts.getByRole('link', { name: new RegExp(EDITED) });
    await card.getByText('Expired').waitFor();
    await saveScreenshot(page, 'posts-profile-1280');
    await page.setViewportSize(MOBILE);
    await profilePosts.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'posts-profile-375');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await page.setViewportSize(DESKTOP);
    // and leaves the café's page and the map
    const cafePage = (await browser.open(`${server.url}/${CAFE}`, DESKTOP)).page;
    await cafePage.getByText(`No posts from ${CAFE_TITLE} yet.`).waitFor();
    await mapPage.reload();
    await waitForMapReady(mapPage);
    // the point tiles may be taken from the browser's cache for their max-age of 5 s
    await expect.poll(() => mapShows(mapPage, postId), { timeout: 5_000 }).toBe(false);

    // renew: back on the café's page, and the next renew is two days away
    await card.click();
    await modal.getByRole('button', { name: 'Renew' }).click();
    await modal.getByText(/Renew possible from/).waitFor();
    await expect.poll(() => modal.getByText('Expired', { exact: true }).count()).toBe(0);
    await cafePage.reload();
    await cafePage
      .locator('[data-posts-block]')
      .getByRole('link', { name: new RegExp(EDITED) })
      .waitFor();
    await cafePage.setViewportSize(MOBILE);
    await saveScreenshot(cafePage, 'posts-point-list-375');

    // delete, after the confirmation
    // nothing failed on the page until here
    expect(errors).toEqual([]);
    await modal.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.locator('dialog.posts-confirm');
    await confirm.getByRole('heading', { name: 'Delete this post?' }).waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await modal.waitFor({ state: 'detached' });
    await profilePosts
      .getByText('@olivia has not posted yet.')
      .or(profilePosts.getByText(/of \d+/))
      .first()
      .waitFor();
    await expect.poll(() => profilePosts.getByRole('link', { name: new RegExp(EDITED) }).count()).toBe(0);
    expect(await (await fetch(`${server.url}/myposts/details?id=${postId}`)).json()).toMatchObject({
      errorcode: expect.any(Number),
    });

    expect(errors).toEqual([]);
    await Promise.all([page.close(), mapPage.close(), cafePage.close()]);
  }, 240_000);

  test('given an admin on a post’s address, when Hide and then Show are pressed, then the post says it is hidden and then not', async () => {
    const { server, browser } = journey;
    // Uma posts through the API, as an app does
    const id = crypto.randomUUID();
    const saved = await fetch(`${server.url}/myposts/save`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `appnettoken ${await apiToken(server.url, 'uma')}`,
      },
      body: JSON.stringify({
        id,
        title: 'Bike for sale',
        description: 'Barely used.',
        type: 'classified',
        xpointid: CAFE,
        resultMode: 'ReturnJson',
      }),
    });
    expect(saved.status).toBe(201);
    await browser.context.clearCookies();
    const { page } = await browser.open(`${server.url}/maps`, DESKTOP);
    await waitForMapReady(page);
    await signIn(page, 'admin', 'Ada Admin');
    await page.goto(`${server.url}/post/${id}`);
    const modal = page.locator('dialog.posts-modal');
    await modal.getByRole('heading', { name: 'Bike for sale' }).waitFor();
    await modal.getByRole('button', { name: 'Hide' }).click();
    await modal.getByText('Hidden', { exact: true }).waitFor();
    await modal.getByRole('button', { name: 'Show' }).click();
    await modal.getByRole('button', { name: 'Hide' }).waitFor();
    expect(await modal.getByText('Hidden', { exact: true }).count()).toBe(0);
    await page.close();
  });

  test('given a visitor on a café’s page, when Create a post is pressed, then the login modal asks to sign in', async () => {
    const { server, browser } = journey;
    // the browser's context is shared with the journey before: a visitor has no session cookie
    await browser.context.clearCookies();
    const { page } = await browser.open(`${server.url}/${CAFE}`, MOBILE);
    await page.getByRole('button', { name: 'Create a post' }).click();
    await page.locator('#ppreg').getByText('You need to login to create a post.').waitFor();
    await page.close();

    // posts=1 scrolls the page to its posts block once it is there
    // (a short phone, so the page surely scrolls)
    const scrolled = (await browser.open(`${server.url}/${CAFE}?posts=1`, { width: 375, height: 420 })).page;
    await expect
      .poll(() =>
        scrolled.locator('[data-posts-block]').evaluate((block) => {
          const { top } = (
            block as unknown as { getBoundingClientRect(): { top: number } }
          ).getBoundingClientRect();
          return Math.round(top);
        }),
      )
      .toBeLessThan(120);
    expect(await scrolled.evaluate(() => document.documentElement.scrollTop)).toBeGreaterThan(0);
    await scrolled.close();
  });
});
