import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { newPoint } from '../support/factories';
import { DESKTOP, MOBILE, saveScreenshot } from './support/browser';
import type { PageDocument } from './support/globals';
import { startJourney } from './support/journey';
import { apiToken, signIn } from './support/session';
import { userId } from './support/store';

/**
 * The owner's website (issue 20), as a person uses it: olivia opens her business full-screen, turns
 * a section on, writes its title and two lines (an overlong third line blocks saving), uploads three
 * pictures (the upload's progress shows), deletes one after the confirmation, puts the others in a
 * new order with the keyboard, reloads, and sees the site as a visitor does; uma sees no edit
 * controls and her calls are refused; the downloaded static site opens from disk with its pictures
 * and no request to any server. The journey's place sits in the empty South Atlantic.
 */
const SHOP = 'website_bakery';
const TITLE = 'Tidewater Bakery';
declare const document: PageDocument;

async function photo(r: number, g: number, b: number): Promise<Buffer> {
  return sharp({ create: { width: 1200, height: 900, channels: 3, background: { r, g, b } } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** The site's part `idx` on the page. */
const part = (page: Page, idx: number) => page.locator(`section.website-part[data-part="${idx}"]`);

/** Waits for the answer of one website call while `act` makes it. */
async function answered(page: Page, call: string, act: () => Promise<void>): Promise<number> {
  const response = page.waitForResponse((r) => r.url().includes(call));
  await act();
  return (await response).status();
}

describe('the owner’s website', () => {
  const journey = startJourney({
    seed: 60,
    prepare: async (store) => {
      const olivia = await userId(store, 'olivia');
      await store.db
        .insertInto('points')
        .values(
          newPoint({
            id: SHOP,
            title: TITLE,
            supertype: 'business',
            type: 'bakery',
            owner_userid: olivia,
            description: 'Bread from a wood-fired oven by the harbour.',
            opening_hours: 'Mo-Sa 07:00-18:00',
            time_zone_name: 'UTC',
            lat: -51.3,
            lon: -21.4,
          }),
        )
        .execute();
    },
  });

  test('given olivia on her business full-screen, when she turns a section on, writes it and manages its pictures, then after a reload the site shows them to a visitor', async () => {
    const { server, browser } = journey;
    const opened = await browser.open(`${server.url}/`, DESKTOP);
    let page = opened.page;
    const errors = opened.errors;
    await signIn(page, 'olivia', 'Olivia Owner');
    await page.goto(`${server.url}/f/${SHOP}`);
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();

    // the section of her own is off; she turns it on
    const own = part(page, 6);
    const shown = own.getByRole('checkbox', { name: /Shown on the site/ });
    expect(await shown.isChecked()).toBe(false);
    expect(await answered(page, 'updatewebsitesection', () => shown.check())).toBe(200);
    await expect.poll(() => shown.isChecked()).toBe(true);

    // edit in place: title and two lines; an overlong line blocks saving until it is shortened
    await own.getByRole('button', { name: /^Edit/ }).click();
    await own.getByLabel('Title').fill('Our ovens');
    await own.getByLabel('Line 1', { exact: true }).fill('Fired with beech wood');
    await own.getByLabel('Line 2', { exact: true }).fill('Loaves out at 7, 11 and 3');
    await own.getByLabel('Line 3', { exact: true }).fill('x'.repeat(201));
    await own.getByText('Max length for this field has been exceeded').waitFor();
    expect(await own.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await own.getByLabel('Line 3', { exact: true }).fill('');
    expect(
      await answered(page, 'updatewebsiteparts', () => own.getByRole('button', { name: 'Save' }).click()),
    ).toBe(200);
    await own.getByRole('heading', { name: 'Our ovens' }).waitFor();
    await own.getByText('Fired with beech wood').waitFor();

    // three pictures, the upload's progress shown while one is on its way
    await own.getByRole('button', { name: /^Edit/ }).click();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let first = true;
    await page.route('**/v1/xpoint/updatewebsitepartpic', async (route) => {
      if (first) {
        first = false;
        await held;
      }
      await route.continue();
    });
    await own.getByLabel('Add pictures').setInputFiles([
      { name: 'oven.jpg', mimeType: 'image/jpeg', buffer: await photo(200, 80, 40) },
      { name: 'loaves.jpg', mimeType: 'image/jpeg', buffer: await photo(220, 180, 90) },
      { name: 'shop.jpg', mimeType: 'image/jpeg', buffer: await photo(40, 90, 160) },
    ]);
    await own.getByRole('progressbar', { name: 'Uploading the picture' }).waitFor();
    release();
    const grid = own.locator('.website-pictures__item');
    await expect.poll(() => grid.count(), { timeout: 30_000 }).toBe(3);
    await page.unroute('**/v1/xpoint/updatewebsitepartpic');
    const sources = await grid
      .locator('img')
      .evaluateAll((imgs) => imgs.map((img) => img.getAttribute('src')));

    // delete the second, after the confirmation
    await own.getByRole('button', { name: 'Delete picture 2' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this picture?' });
    await dialog.waitFor();
    expect(
      await answered(page, 'deletewebsitepartpic', () =>
        dialog.getByRole('button', { name: 'Delete' }).click(),
      ),
    ).toBe(200);
    await expect.poll(() => grid.count()).toBe(2);

    // the keyboard puts the first picture after the second (Space, arrow, Space)
    await own.getByRole('button', { name: 'Picture 1: drag to reorder' }).focus();
    expect(
      await answered(page, 'reorderwebsitepartpics', async () => {
        // each step waits for what dnd-kit shows and tells a screen reader, as a keyboard user would
        await page.keyboard.press('Space');
        await own.locator('.website-pictures__item.is-dragging').waitFor();
        await expect
          .poll(async () => {
            await page.keyboard.press('ArrowRight');
            return page.locator('[id^="DndLiveRegion"]').first().textContent();
          })
          .toMatch(/moved over droppable area 3/);
        await page.keyboard.press('Space');
      }),
    ).toBe(200);
    await expect
      .poll(() => grid.locator('img').evaluateAll((imgs) => imgs.map((img) => img.getAttribute('src'))))
      .toEqual([sources[2], sources[0]]);
    // and the buttons beside each picture move it one step
    expect(
      await answered(page, 'reorderwebsitepartpics', () =>
        own.getByRole('button', { name: 'Move picture 2 earlier' }).click(),
      ),
    ).toBe(200);
    await expect
      .poll(() => grid.locator('img').evaluateAll((imgs) => imgs.map((img) => img.getAttribute('src'))))
      .toEqual([sources[0], sources[2]]);
    await own.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'website-editor-1280');
    // nothing changed in the text: Cancel closes the editor
    await own.getByRole('button', { name: 'Cancel' }).click();
    await own.getByRole('button', { name: /^Edit/ }).waitFor();
    await saveScreenshot(page, 'website-owner-1280');

    // reloaded: the site as stored
    await page.reload();
    await part(page, 6).getByRole('heading', { name: 'Our ovens' }).waitFor();
    expect(await part(page, 6).locator('.website-part__pictures img').count()).toBe(2);

    expect(errors).toEqual([]);
    await page.close();

    // a visitor sees the sections that are on, with no controls
    await browser.context.clearCookies();
    const visitor = await browser.open(`${server.url}/f/${SHOP}`, MOBILE);
    page = visitor.page;
    const site = page.locator('.website');
    await site.getByRole('heading', { name: 'Our ovens' }).waitFor();
    const text = await site.innerText();
    for (const expected of ['Fired with beech wood', 'Loaves out at 7, 11 and 3', 'Mo-Sa 07:00-18:00'])
      expect(text).toContain(expected);
    expect(await site.getByRole('button', { name: /^Edit/ }).count()).toBe(0);
    expect(await site.getByRole('checkbox').count()).toBe(0);
    const pictures = site.locator('section[data-part="6"] .website-part__pictures img');
    expect(await pictures.count()).toBe(2);
    await pictures.last().scrollIntoViewIfNeeded();
    await expect
      .poll(() =>
        pictures.last().evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      )
      .toBeGreaterThan(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await site.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'website-visitor-375');
    expect(visitor.errors).toEqual([]);
    await page.close();
  });

  test('given uma, who does not control the place, then she sees no edit controls and her calls are refused', async () => {
    const { server, browser } = journey;
    await browser.context.clearCookies();
    const { page } = await browser.open(`${server.url}/`, DESKTOP);
    await signIn(page, 'uma', 'Uma User');
    await page.goto(`${server.url}/f/${SHOP}`);
    await page.locator('.website').getByRole('heading', { name: 'Our ovens' }).waitFor();
    expect(await page.locator('.website').getByRole('button', { name: /^Edit/ }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Download the site' }).count()).toBe(0);
    await saveScreenshot(page, 'website-uma-1280');

    const token = await apiToken(server.url, 'uma');
    const section = await fetch(`${server.url}/v1/xpoint/updatewebsitesection`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `appnettoken ${token}` },
      body: JSON.stringify({ xpointid: SHOP, part_idx: 6, enabled: false }),
    });
    expect(section.status).toBe(403);
    const form = new FormData();
    form.append('xpointid', SHOP);
    form.append('partidx', '6');
    form.append('picidx', '5');
    form.append('imgFile', new Blob([new Uint8Array(await photo(1, 2, 3))], { type: 'image/jpeg' }), 'x.jpg');
    const upload = await fetch(`${server.url}/v1/xpoint/updatewebsitepartpic`, {
      method: 'POST',
      headers: { Authorization: `appnettoken ${token}` },
      body: form,
    });
    expect(upload.status).toBe(403);
    expect(((await upload.json()) as { errorcode: number }).errorcode).toBe(1011);
    const zip = await fetch(`${server.url}/v1/xpoint/${SHOP}/website.zip`, {
      headers: { Authorization: `appnettoken ${token}` },
    });
    expect(zip.status).toBe(403);
    await page.close();
  });

  test('given the site downloaded by olivia, when its folder is opened from disk, then it shows its pictures and asks no server for anything', async () => {
    const { server, browser } = journey;
    const token = await apiToken(server.url, 'olivia');
    const res = await fetch(`${server.url}/v1/xpoint/${SHOP}/website.zip`, {
      headers: { Authorization: `appnettoken ${token}` },
    });
    expect(res.status).toBe(200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-site-'));
    try {
      for (const [name, data] of Object.entries(unzipSync(new Uint8Array(await res.arrayBuffer())))) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), data);
      }
      const index = path.join(dir, `site-${SHOP}`, 'index.html');
      const page = await browser.context.newPage();
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.setViewportSize(DESKTOP);
      await page.goto(pathToFileURL(index).href, { waitUntil: 'load' });
      await page.getByRole('heading', { name: 'Our ovens' }).waitFor();
      const sizes = await page
        .locator('img')
        .evaluateAll((imgs) => imgs.map((img) => (img as unknown as { naturalWidth: number }).naturalWidth));
      expect(sizes).toHaveLength(2);
      for (const width of sizes) expect(width).toBeGreaterThan(0);
      expect(requested.length).toBeGreaterThan(0);
      expect(requested.filter((url) => !url.startsWith('file://'))).toEqual([]);
      await saveScreenshot(page, 'website-static-1280');
      await page.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
