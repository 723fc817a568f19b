import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import type { Store } from '../../src/server/store/store';
import { HealthStatus } from '../../src/shared/domain/enums';
import { newPoint } from '../support/factories';
import { DESKTOP, MOBILE, saveScreenshot, type Viewport } from './support/browser';
import { openWithMap, startJourney } from './support/journey';
import { panelTitle } from './support/page';
import { signIn } from './support/session';
import { userId } from './support/store';

/**
 * Health photos (issue 21 item 10; map-and-search §3 healthdata, §4 "a verified status shows health
 * photos"): olivia adds a photo of her health papers to her verified café in the edit form; a visitor
 * then sees it in the point's panel, on a desktop and on a phone; she removes it and it is gone.
 * The café sits in the empty South Atlantic, away from the demo points.
 */
const CAFE = 'health_photo_cafe';
const TITLE = 'Clean Kitchen Café';

async function addCafe(store: Store): Promise<void> {
  await store.db
    .insertInto('points')
    .values(
      newPoint({
        id: CAFE,
        title: TITLE,
        supertype: 'business',
        type: 'cafe',
        owner_userid: await userId(store, 'olivia'),
        health_status: HealthStatus.verified,
        full_address: '3 Quay Street, Far Away',
        lat: -46.5,
        lon: -28.5,
        time_zone_name: 'UTC',
      }),
    )
    .execute();
}

describe('health photos', () => {
  const journey = startJourney({ seed: 200, prepare: addCafe });

  async function open(address: string, viewport: Viewport = DESKTOP) {
    await journey.browser.context.clearCookies();
    return await openWithMap(journey.browser, journey.url(address), viewport);
  }
  const unexpected = (errors: string[]) => errors.filter((error) => !/status of 40[01] .*\/v1\//.test(error));

  test('given her verified café, when olivia adds a health photo, then a visitor sees it in the panel, until she removes it', async () => {
    // a certificate-like picture: a white page with dark lines of "text"
    const lines = Array.from(
      { length: 9 },
      (_, i) => `<rect x="60" y="${120 + i * 50}" width="${480 - (i % 3) * 90}" height="14" fill="#333"/>`,
    ).join('');
    const papers = await sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800"><rect width="600" height="800" fill="#fffdf5"/><rect x="40" y="40" width="520" height="50" fill="#2e7d32"/>${lines}</svg>`,
      ),
    )
      .png()
      .toBuffer();

    const owner = await open(`/b/${CAFE}/Edit?successUrl=/b/${CAFE}`);
    await signIn(owner.page, 'olivia', 'Olivia Owner');
    const health = owner.page.getByRole('group', { name: /^Health photos/ });
    await health.waitFor();
    expect(await health.locator('.media-slot__label').textContent()).toBe('Health photos (0 of 20)');
    expect(
      await health
        .getByText('Your health status is verified: these photos show on the point to everyone.')
        .count(),
    ).toBe(1);
    await health
      .getByLabel('Health photos: choose files')
      .setInputFiles({ name: 'certificate.png', mimeType: 'image/png', buffer: papers });
    const added = health.getByRole('img', { name: 'Health photo 1' });
    await expect.poll(() => added.getAttribute('src')).toMatch(/^\/media\/[0-9a-f]{64}\.webp$/);
    const url = await added.getAttribute('src');
    expect(await health.locator('.media-slot__label').textContent()).toBe('Health photos (1 of 20)');
    await health.scrollIntoViewIfNeeded();
    await saveScreenshot(owner.page, 'health-photos-edit-1280');
    expect(unexpected(owner.errors)).toEqual([]);
    await owner.page.close();

    // a visitor, on a desktop and on a phone, sees the photo under the verified check
    for (const [viewport, name] of [
      [DESKTOP, 'health-photos-panel-1280'],
      [MOBILE, 'health-photos-panel-375'],
    ] as const) {
      const visitor = await open(`/b/${CAFE}`, viewport);
      await expect.poll(() => panelTitle(visitor.page)).toBe(TITLE);
      const panel = visitor.page.locator('aside.point-panel');
      const photo = panel.getByRole('img', { name: 'Health document 1' });
      await photo.waitFor();
      expect(await photo.getAttribute('src')).toBe(url);
      expect(await panel.getByText('Health status verified').count()).toBe(1);
      await photo.scrollIntoViewIfNeeded();
      // the picture itself has arrived, not only its element
      await expect
        .poll(() => photo.evaluate((img) => (img as { naturalWidth: number }).naturalWidth))
        .toBeGreaterThan(0);
      await saveScreenshot(visitor.page, name);
      expect(unexpected(visitor.errors)).toEqual([]);
      await visitor.page.close();
    }

    // on a phone, olivia removes it; the panel then shows the check without photos
    const phone = await open(`/b/${CAFE}/Edit?successUrl=/b/${CAFE}`, MOBILE);
    await signIn(phone.page, 'olivia', 'Olivia Owner');
    const slot = phone.page.getByRole('group', { name: /^Health photos/ });
    await slot.getByRole('img', { name: 'Health photo 1' }).waitFor();
    await slot.scrollIntoViewIfNeeded();
    await saveScreenshot(phone.page, 'health-photos-edit-375');
    await slot.getByRole('button', { name: 'Remove health photo 1' }).click();
    await expect.poll(() => slot.locator('.media-slot__label').textContent()).toBe('Health photos (0 of 20)');
    expect(await slot.getByRole('img').count()).toBe(0);
    await phone.page.close();

    const stored = await journey.withStore((store) =>
      store.db.selectFrom('point_health_photos').select('url').where('point_id', '=', CAFE).execute(),
    );
    expect(stored).toEqual([]);
    // the panel's call for the photos answers none, and none show
    const photosAnswer = journey.browser.context.waitForEvent('response', (response) =>
      response.url().endsWith('/v1/webonly/xpointdetails/healthphoto'),
    );
    const after = await open(`/b/${CAFE}`);
    await expect.poll(() => panelTitle(after.page)).toBe(TITLE);
    expect((await (await photosAnswer).json()).photos).toEqual({});
    const panel = after.page.locator('aside.point-panel');
    await panel.getByText('Health status verified').waitFor();
    expect(await panel.getByRole('img', { name: /^Health document/ }).count()).toBe(0);
    await after.page.close();
  });
});
