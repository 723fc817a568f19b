import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Store } from '../../src/server/store/store';
import { newPoint } from '../support/factories';
import { DESKTOP, MOBILE, type OpenedPage, type Viewport } from './support/browser';
import type { PageDocument } from './support/globals';
import { openWithMap, startJourney } from './support/journey';
import { panelTitle, pathOf } from './support/page';
import { signIn } from './support/session';
import { userId } from './support/store';

/**
 * Journeys of issue 16: whoever asks to run or help run a place waits for someone to decide. A
 * stranger asks to consult an owned point, its owner accepts from the point's panel, and the
 * consultant can then edit it but never delete it. A user claims an unowned point, it shows
 * verification pending, an admin approves the claim from the queue at /admin/claims, and the
 * claimant owns it. The journey's places sit in the empty South Atlantic, away from the demo points.
 */
const SPOT = { lat: -46.5, lon: -22.3 };
const HERE = `#15/${SPOT.lat}/${SPOT.lon}`;
const CAFE = { id: 'claims_cafe', title: 'Harbourside Café' };
const DUNE = { id: 'claims_dune', title: 'Sandy Dune Lookout' };
/** Screenshots to look at: .tmp/ (gitignored), or SHOTS_DIR. */
const SHOTS_DIR = process.env.SHOTS_DIR ?? path.resolve('.tmp');
/** Pages load over a full navigation on 2 shared cores: a generous wait for what a user waits for. */
const SETTLE = { timeout: 15_000 };
const LONG = { timeout: 180_000 };
const VERIFICATION_PENDING = 'Verification pending: our team checks your claim.';
const REQUEST_SENT = 'Request sent — waiting for the owner.';

declare const document: PageDocument;

/** A call to our API from the page, as the page makes it (session cookie, anti-forgery token). */
function callApi(page: Page, method: 'GET' | 'POST', url: string, body?: unknown) {
  return page.evaluate(
    async ({ method, url, body }) => {
      const token = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';
      const response = await fetch(url, {
        method,
        headers: { 'Content-Type': 'application/json', RequestVerificationToken: token },
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'same-origin',
      });
      return { status: response.status, json: (await response.json()) as unknown };
    },
    { method, url, body },
  );
}

async function addJourneyPlaces(store: Store): Promise<void> {
  const olivia = await userId(store, 'olivia');
  await store.db
    .insertInto('points')
    .values([
      newPoint({ ...CAFE, type: 'cafe', owner_userid: olivia, allow_consulting: 1, ...SPOT }),
      newPoint({ ...DUNE, supertype: 'poi', type: 'viewpoint', lat: SPOT.lat, lon: SPOT.lon + 0.008 }),
    ])
    .execute();
}

/** A screenshot of the page as it is, at 1280 and 375 px wide (then back to `back`). */
async function shots(page: Page, name: string, ready: () => Promise<void>, back: Viewport = DESKTOP) {
  await mkdir(SHOTS_DIR, { recursive: true });
  for (const viewport of [DESKTOP, MOBILE]) {
    await page.setViewportSize(viewport);
    await ready();
    await page.screenshot({
      path: path.join(SHOTS_DIR, `${name}-${viewport.width}.png`),
      animations: 'disabled',
    });
  }
  await page.setViewportSize(back);
}

describe('claims and requests to consult wait for someone to decide (issue 16)', () => {
  const journey = startJourney({ seed: 200, prepare: addJourneyPlaces });
  const { withStore } = journey;

  /** Opens `address` with nobody signed in (the cookies of the journey before are cleared). */
  async function open(address: string, viewport: Viewport = DESKTOP): Promise<OpenedPage> {
    await journey.browser.context.clearCookies();
    return await openWithMap(journey.browser, journey.url(address), viewport);
  }
  /** Opens a page that is not the map (the admin's queue), with nobody signed in. */
  async function openPage(address: string): Promise<OpenedPage> {
    await journey.browser.context.clearCookies();
    return await journey.browser.open(journey.url(address), DESKTOP);
  }
  /** Errors the page logged, without the refusals a journey causes on purpose. */
  const unexpected = (errors: string[]) =>
    errors.filter((error) => !/status of 40[01349] .*\/v1\//.test(error) && !/net::ERR_ABORTED/.test(error));
  const pointPanel = (page: Page) => page.locator('aside.point-panel');
  const manage = (panel: Locator) => panel.getByRole('navigation', { name: 'Manage this XPoint' });
  const people = () =>
    withStore((store) =>
      store.db
        .selectFrom('points')
        .select(['owner_userid', 'consultant_userid', 'health_status'])
        .where('id', 'in', [CAFE.id, DUNE.id])
        .orderBy('id')
        .execute(),
    );

  test(
    'given an owned point, when a stranger asks to consult and its owner accepts, then the consultant edits it but sees no Delete',
    LONG,
    async () => {
      // Uma asks: the offer on an owned point is a request
      const asker = await open(`/b/${CAFE.id}${HERE}`);
      let page = asker.page;
      await expect.poll(() => panelTitle(page), SETTLE).toBe(CAFE.title);
      await signIn(page, 'uma', 'Uma User');
      let panel = pointPanel(page);
      const offer = panel.getByRole('link', { name: 'Request to consult' });
      await offer.waitFor();
      expect(await panel.getByRole('link', { name: 'Become a consultant' }).count()).toBe(0);
      await shots(page, 'panel-request-to-consult', () => offer.scrollIntoViewIfNeeded());
      await offer.click();
      const ask = page.getByRole('form', { name: 'Request to consult' });
      await ask.waitFor();
      expect(await ask.locator('.owner-confirm__question').textContent()).toBe(
        `Ask the owner of “${CAFE.title}” to let you consult?`,
      );
      await ask.getByRole('button', { name: 'Send request' }).click();

      // the point says what the request waits for, and gives her nothing to manage yet
      await expect.poll(() => pathOf(page), SETTLE).toBe(`/b/${CAFE.id}`);
      const sent = panel.getByText(REQUEST_SENT);
      await sent.waitFor();
      expect(await manage(panel).count()).toBe(0);
      expect(await panel.getByRole('link', { name: 'Request to consult' }).count()).toBe(0);
      await shots(page, 'panel-request-sent', () => sent.scrollIntoViewIfNeeded());
      const olivia = await withStore((store) => userId(store, 'olivia'));
      const uma = await withStore((store) => userId(store, 'uma'));
      expect((await people())[0]).toMatchObject({ owner_userid: olivia, consultant_userid: null });
      expect(unexpected(asker.errors)).toEqual([]);
      await page.close();

      // Olivia sees the request on her point's panel and accepts it
      const owner = await open(`/b/${CAFE.id}${HERE}`);
      page = owner.page;
      await expect.poll(() => panelTitle(page), SETTLE).toBe(CAFE.title);
      await signIn(page, 'olivia', 'Olivia Owner');
      panel = pointPanel(page);
      const requests = panel.getByRole('region', { name: 'Requests to consult' });
      const umaAsks = requests.getByRole('listitem').filter({ hasText: '@uma' });
      await umaAsks.waitFor();
      expect(await umaAsks.textContent()).toMatch(/^Uma User @uma\s*asked (just now|\d+ minutes? ago)/);
      await shots(page, 'panel-owner-requests', () => requests.scrollIntoViewIfNeeded());
      await umaAsks.getByRole('button', { name: 'Accept' }).click();
      // the list empties and the panel names her consultant
      await requests.waitFor({ state: 'detached', ...SETTLE });
      await expect
        .poll(() => panel.locator('.person').filter({ hasText: 'Consultant' }).textContent(), SETTLE)
        .toContain('Uma User');
      expect(await manage(panel).getByRole('link', { name: 'Remove consultant' }).count()).toBe(1);
      expect(unexpected(owner.errors)).toEqual([]);
      await page.close();

      // Uma now manages it: Edit, no Delete; her edit is saved
      const consultant = await open(`/b/${CAFE.id}${HERE}`);
      page = consultant.page;
      await expect.poll(() => panelTitle(page), SETTLE).toBe(CAFE.title);
      await signIn(page, 'uma', 'Uma User');
      panel = pointPanel(page);
      await manage(panel).waitFor();
      expect(await manage(panel).getByRole('link', { name: 'Edit' }).count()).toBe(1);
      expect(await manage(panel).getByRole('link', { name: 'Delete' }).count()).toBe(0);
      expect(await panel.getByText(REQUEST_SENT).count()).toBe(0);
      await manage(panel).getByRole('link', { name: 'Edit' }).click();
      await expect.poll(() => pathOf(page), SETTLE).toBe(`/b/${CAFE.id}/Edit`);
      const form = page.getByRole('form', { name: 'Edit the XPoint' });
      await form.getByLabel('Tagline').fill('Chowder and coffee by the ferry');
      await form.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(() => pathOf(page), SETTLE).toBe(`/b/${CAFE.id}`);
      await expect
        .poll(() =>
          withStore((store) =>
            store.db.selectFrom('points').select('tagline').where('id', '=', CAFE.id).executeTakeFirst(),
          ),
        )
        .toEqual({ tagline: 'Chowder and coffee by the ferry' });
      expect((await people())[0]).toMatchObject({ owner_userid: olivia, consultant_userid: uma });
      expect(unexpected(consultant.errors)).toEqual([]);
      await page.close();
    },
  );

  test(
    'given an unowned point, when a user claims it and an admin approves it from the queue, then the claimant owns it',
    LONG,
    async () => {
      // Carlos claims the lookout: it shows verification pending, he controls nothing yet
      const claimant = await open(`/p/${DUNE.id}${HERE}`);
      let page = claimant.page;
      await expect.poll(() => panelTitle(page), SETTLE).toBe(DUNE.title);
      await signIn(page, 'carlos', 'Carlos Consultant');
      let panel = pointPanel(page);
      await panel.locator('.point-controls').getByRole('link', { name: 'Claim this XPoint' }).click();
      const claim = page.getByRole('form', { name: 'Claim this XPoint' });
      await claim.getByRole('button', { name: 'Send my claim' }).click();
      await expect.poll(() => pathOf(page), SETTLE).toBe(`/p/${DUNE.id}`);
      const pending = panel.getByText(VERIFICATION_PENDING);
      await pending.waitFor();
      expect(await manage(panel).count()).toBe(0);
      expect(await panel.getByRole('link', { name: 'Claim this XPoint' }).count()).toBe(0);
      await shots(page, 'panel-verification-pending', () => pending.scrollIntoViewIfNeeded());
      expect((await people())[1]).toEqual({ owner_userid: null, consultant_userid: null, health_status: 1 });
      expect(unexpected(claimant.errors)).toEqual([]);
      await page.close();

      // a user who is not an admin has no menu item and is refused at the address
      const stranger = await openPage('/admin/claims');
      page = stranger.page;
      await signIn(page, 'uma', 'Uma User');
      await expect
        .poll(() => page.getByRole('alert').first().textContent(), SETTLE)
        .toBe('Only admins can verify claims.');
      await page.getByRole('button', { name: 'Account menu for Uma User' }).click();
      await page.getByRole('menuitem', { name: 'Profile' }).waitFor();
      expect(await page.getByRole('menuitem', { name: 'Claims to verify' }).count()).toBe(0);
      await page.keyboard.press('Escape');
      await shots(page, 'admin-claims-refused', () => page.getByRole('alert').first().waitFor());
      await page.close();

      // the admin opens the queue from the user menu: the claim is listed with who and when
      const admin = await open(`/maps${HERE}`);
      page = admin.page;
      await signIn(page, 'admin', 'Ada Admin');
      await page.getByRole('button', { name: 'Account menu for Ada Admin' }).click();
      await page.getByRole('menuitem', { name: 'Claims to verify' }).click();
      await expect.poll(() => pathOf(page), SETTLE).toBe('/admin/claims');
      const queue = page.getByRole('list', { name: 'Pending claims' });
      const item = queue.getByRole('listitem').filter({ hasText: DUNE.title });
      await item.waitFor(SETTLE);
      expect(await item.getByRole('link', { name: DUNE.title }).getAttribute('href')).toBe(`/p/${DUNE.id}`);
      expect(await item.textContent()).toContain('Carlos Consultant');
      expect(await item.locator('time').textContent()).toMatch(/^(just now|\d+ minutes? ago)$/);
      // the demo data's claims wait too, oldest first
      expect(await queue.getByRole('listitem').count()).toBeGreaterThan(1);
      await shots(page, 'admin-claims-queue', () => queue.waitFor());

      await item
        .getByRole('button', { name: `Approve the claim of Carlos Consultant on ${DUNE.title}` })
        .click();
      await page
        .getByRole('status')
        .filter({ hasText: `Approved: Carlos Consultant now owns “${DUNE.title}”.` })
        .waitFor();
      await item.waitFor({ state: 'detached', ...SETTLE });
      // the button went with its claim: focus is on what the decision did, not lost to the page
      await expect
        .poll(() =>
          page.evaluate(() => document.activeElement?.classList.contains('admin-claims__messages') ?? false),
        )
        .toBe(true);
      const carlos = await withStore((store) => userId(store, 'carlos'));
      expect((await people())[1]).toEqual({
        owner_userid: carlos,
        consultant_userid: null,
        health_status: 2,
      });

      // another admin decided a claim meanwhile: approving it is refused in the catalogue's words, and
      // the list drops it
      const listed = (await callApi(page, 'GET', '/v1/admin/claims')).json as {
        items: { id: number; point_title: string; fullname: string }[];
      };
      const taken = listed.items[0];
      if (taken === undefined) throw new Error('the demo data has no pending claim');
      expect((await callApi(page, 'POST', '/v1/admin/claims/decline', { id: taken.id })).status).toBe(200);
      const stale = queue.getByRole('listitem').filter({ hasText: taken.point_title });
      await stale.getByRole('button', { name: /^Approve/ }).click();
      await expect
        .poll(() => page.getByRole('alert').textContent(), SETTLE)
        .toBe(
          `Could not approve the claim of ${taken.fullname} on “${taken.point_title}”: There is no pending claim with id ${taken.id}.`,
        );
      await stale.waitFor({ state: 'detached', ...SETTLE });
      await shots(page, 'admin-claims-decided-elsewhere', () => page.getByRole('alert').waitFor());

      // declining the rest empties the queue
      for (let left = await queue.getByRole('listitem').count(); left > 0; left--) {
        await queue
          .getByRole('listitem')
          .first()
          .getByRole('button', { name: /^Decline/ })
          .click();
        await expect.poll(() => queue.getByRole('listitem').count(), SETTLE).toBe(left - 1);
      }
      const empty = page.getByText('No claims are waiting for verification.');
      await empty.waitFor();
      await shots(page, 'admin-claims-empty', () => empty.waitFor());
      expect(unexpected(admin.errors)).toEqual([]);
      await page.close();

      // Carlos owns the lookout: the owner's controls appear, Delete included
      const newOwner = await open(`/p/${DUNE.id}${HERE}`);
      page = newOwner.page;
      await expect.poll(() => panelTitle(page), SETTLE).toBe(DUNE.title);
      await signIn(page, 'carlos', 'Carlos Consultant');
      panel = pointPanel(page);
      await manage(panel).waitFor();
      expect(await manage(panel).getByRole('link', { name: 'Delete' }).count()).toBe(1);
      expect(await panel.getByText(VERIFICATION_PENDING).count()).toBe(0);
      expect(await panel.locator('.person').filter({ hasText: 'Owner' }).textContent()).toContain(
        'Carlos Consultant',
      );
      expect(unexpected(newOwner.errors)).toEqual([]);
      await page.close();
    },
  );
});
