import type { Page, WebSocketRoute } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { pointLink } from '../../src/shared/address';
import { BeamFlag } from '../../src/shared/domain/beams';
import { newPoint } from '../support/factories';
import {
  DESKTOP,
  MOBILE,
  launchBrowser,
  saveScreenshot,
  waitForMapReady,
  type Browser,
} from './support/browser';
import { startJourney } from './support/journey';
import type { PageWindow } from './support/globals';
import { DEMO_PASSWORD, signIn } from './support/session';
import { userId } from './support/store';

/**
 * Chat with a point (issue 22), as two people: Uma opens a café of Olivia's, presses Chat (signed
 * out: the login modal first) and writes to it. Olivia, in a second browser, sees the unread badge,
 * opens the conversation from her inbox and answers; Uma sees the answer without a reload, and her
 * line shows as seen. Then Uma's sockets are cut: she writes while they are down, Olivia writes
 * meanwhile, and when the sockets are back each line is there exactly once on both sides and once in
 * the store. A map looking at the café shows its chat beam. Screenshots at 375 and 1280 px.
 */
const CAFE = 'chat_e2e_cafe';
const CAFE_TITLE = 'Gough Island Tea Room';
const AT = { lat: -40.3, lon: -9.9 };

declare const window: PageWindow;

/**
 * Whether MapLibre drew a pulsing beam for the point with the chat flag (a point beams as its most
 * urgent kind: its chat can also make it hot, drawn as hot, with the chat flag still set).
 */
async function chatBeamPulses(page: Page, id: string): Promise<boolean> {
  return page.evaluate(
    ({ pointId, chatFlag }) => {
      const map = window.__xpointMap;
      if (!map || map.getLayer('live-beams-dot') === undefined) return false;
      return map
        .queryRenderedFeatures({ layers: ['live-beams-dot'] })
        .some(
          (feature) =>
            String(feature.properties.id) === pointId &&
            (Number(feature.properties.flags) & chatFlag) !== 0 &&
            String(feature.properties.pulsing) === 'true',
        );
    },
    { pointId: id, chatFlag: BeamFlag.chat },
  );
}

describe('chat with a point', () => {
  let olivia: Browser | undefined;
  const journey = startJourney({
    seed: 60,
    prepare: async (store) => {
      const owner = await userId(store, 'olivia');
      await store.db
        .insertInto('points')
        .values(
          newPoint({
            id: CAFE,
            title: CAFE_TITLE,
            supertype: 'business',
            type: 'cafe',
            description: 'Tea and scones by the weather station.',
            lat: AT.lat,
            lon: AT.lon,
            owner_userid: owner,
          }),
        )
        .execute();
    },
  });
  afterAll(async () => {
    await olivia?.close();
  });

  /** where the journey is, in the output of a run that fails */
  const step = (n: number) => console.info(`chat journey: step ${n}`);
  const lines = (page: Page, text: string) => page.locator('.chat__line', { hasText: text });
  const shoot = async (page: Page, name: string) => {
    for (const viewport of [MOBILE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await page.locator('.chat-panel, .chat-inbox-panel').first().waitFor();
      await saveScreenshot(page, `${name}-${viewport.width}`);
    }
  };

  test('two people talk, live, and a line written while the socket is cut arrives exactly once', async () => {
    step(1);
    // Uma's sockets go through a switch the test can open: while it is open they are closed at once
    let cut = false;
    const routes = new Set<WebSocketRoute>();
    await journey.browser.context.routeWebSocket(/\/socket\/websocket/, (ws) => {
      if (cut) {
        void ws.close({ code: 1006, reason: 'cut by the test' }).catch(() => {});
        return;
      }
      const server = ws.connectToServer();
      routes.add(ws);
      ws.onClose(() => {
        routes.delete(ws);
        void server.close().catch(() => {});
      });
      server.onClose(() => void ws.close().catch(() => {}));
    });

    step(2);
    // Uma opens the café and presses Chat: signed out, she is asked to sign in first
    const uma = await journey.browser.context.newPage();
    await uma.setViewportSize(DESKTOP);
    await uma.goto(journey.url(pointLink(CAFE, 'business')), { waitUntil: 'load' });
    await waitForMapReady(uma);
    await uma.getByRole('button', { name: 'Chat', exact: true }).click();
    const modal = uma.locator('#ppreg');
    await expect.poll(() => modal.textContent()).toContain('You need to login to chat.');
    await modal.getByLabel('Username or email').fill('uma');
    await modal.getByLabel('Password').fill(DEMO_PASSWORD);
    await modal.getByRole('button', { name: 'Sign in', exact: true }).click();
    await uma.waitForURL(`**/chat/${CAFE}`);
    await uma.getByText(`Your conversation with ${CAFE_TITLE}`).waitFor();
    await uma
      .getByRole('textbox', { name: 'Message' })
      .fill('Do you have a table for two tonight? Menu: https://example.com/menu');
    await uma.getByRole('button', { name: 'Send' }).click();
    await lines(uma, 'table for two').getByText('Sent').waitFor();
    step(3);
    // the link in it is a safe link
    const link = lines(uma, 'table for two').getByRole('link', { name: 'https://example.com/menu' });
    expect(await link.getAttribute('rel')).toBe('nofollow ugc noopener');

    step(4);
    // Olivia, in her own browser, sees the unread badge and answers from her inbox
    olivia = await launchBrowser();
    const owner = await olivia.context.newPage();
    await owner.setViewportSize(DESKTOP);
    await owner.goto(journey.url(`/maps#13/${AT.lat}/${AT.lon}`), { waitUntil: 'load' });
    await waitForMapReady(owner);
    await signIn(owner, 'olivia', 'Olivia Owner');
    await expect.poll(() => owner.getByTestId('chat-unread').textContent(), { timeout: 10_000 }).toBe('1');
    await owner.getByRole('link', { name: /^Inbox, 1 unread/ }).click();
    await owner.waitForURL('**/inbox');
    const row = owner.getByRole('link', { name: /Uma/ }).filter({ hasText: CAFE_TITLE });
    await row.waitFor();
    await shoot(owner, 'chat-inbox');
    await owner.setViewportSize(DESKTOP);
    await row.click();
    await lines(owner, 'table for two').waitFor();
    step(5);
    // reading it took the badge down, and Uma sees her line was seen
    await owner.getByTestId('chat-unread').waitFor({ state: 'detached' });
    await lines(uma, 'table for two').getByText('Seen').waitFor();
    await owner.getByRole('textbox', { name: 'Message' }).fill('Yes, at eight. Terrace or inside?');
    await owner.getByRole('button', { name: 'Send' }).click();
    step(6);
    // Uma sees the answer live, without a reload
    await lines(uma, 'Terrace or inside?').waitFor();

    step(7);
    // Uma's sockets are cut; she writes while they are down, Olivia writes meanwhile
    cut = true;
    for (const route of [...routes]) await route.close({ code: 1006, reason: 'cut by the test' });
    await uma.getByText('reconnecting…').waitFor();
    await uma.getByRole('textbox', { name: 'Message' }).fill('Terrace please, we are four now.');
    await uma.getByRole('button', { name: 'Send' }).click();
    await lines(uma, 'we are four now').getByText('Sending…').waitFor();
    await owner.getByRole('textbox', { name: 'Message' }).fill('Four is fine, see you tonight!');
    await owner.getByRole('button', { name: 'Send' }).click();
    await lines(owner, 'see you tonight').getByText('Sent').waitFor();
    expect(await lines(uma, 'see you tonight').count()).toBe(0);

    step(8);
    // the sockets come back: Uma's line goes once, Olivia's missed line arrives once
    cut = false;
    await lines(uma, 'we are four now')
      .getByText(/Sent|Seen/)
      .waitFor({ timeout: 20_000 });
    await lines(uma, 'see you tonight').waitFor({ timeout: 20_000 });
    await lines(owner, 'we are four now').waitFor({ timeout: 20_000 });
    expect(await lines(uma, 'we are four now').count()).toBe(1);
    expect(await lines(uma, 'see you tonight').count()).toBe(1);
    expect(await lines(owner, 'we are four now').count()).toBe(1);
    expect(await lines(owner, 'see you tonight').count()).toBe(1);
    const stored = await journey.withStore((store) =>
      store.db.selectFrom('chat_messages').select(['text']).orderBy('id').execute(),
    );
    expect(stored.map((line) => line.text)).toEqual([
      'Do you have a table for two tonight? Menu: https://example.com/menu',
      'Yes, at eight. Terrace or inside?',
      'Four is fine, see you tonight!',
      'Terrace please, we are four now.',
    ]);
    await shoot(uma, 'chat-conversation');

    step(9);
    // the café's chat beam pulses on a map that shows it (activity is flushed every 3 s)
    const watcher = await olivia.context.newPage();
    await watcher.setViewportSize(DESKTOP);
    await watcher.goto(journey.url(`/maps#14/${AT.lat}/${AT.lon}`), { waitUntil: 'load' });
    await waitForMapReady(watcher);
    await watcher.locator('body[data-live-joined="true"]').waitFor({ state: 'attached', timeout: 20_000 });
    await owner.getByRole('textbox', { name: 'Message' }).fill('The terrace is yours.');
    await owner.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => chatBeamPulses(watcher, CAFE), { timeout: 15_000, interval: 100 }).toBe(true);
  }, 240_000);
});
