import { beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { Socket } from 'phoenix';
import WebSocket from 'ws';
import { allPointLayerIds } from '../../src/shared/map/contract';
import { newPoint } from '../support/factories';
import { DESKTOP, saveScreenshot, waitForMapReady } from './support/browser';
import type { PageWindow } from './support/globals';
import { startJourney } from './support/journey';
import { drawnBeams, waitJoined, watchArrivals } from './support/live';
import { panelTitle } from './support/page';
import { apiToken } from './support/session';
import { userId } from './support/store';

declare const window: PageWindow;

/**
 * Live activity in the browser (issue 9): the device joins its channel, a beam an owner posts shows
 * on the map within a second and is gone after its 4 s, beams of several kinds are drawn in their
 * colours, a chat line beams its point, and with the WebSocket blocked the beams still arrive over
 * long-poll. The journey's places sit on an empty stretch of the South Atlantic.
 */
const SPOT = { lat: -40.32, lon: -9.93 };
const at = (dLat: number, dLon: number) => ({ lat: SPOT.lat + dLat, lon: SPOT.lon + dLon });

const PLACES = {
  hot: { id: 'live_hot', title: 'Gough Bakery', ...at(0, 0) },
  soon: { id: 'live_soon', title: 'Gough Hall', ...at(0.004, -0.008) },
  open: { id: 'live_open', title: 'Gough Club', ...at(-0.004, -0.008) },
  chat: { id: 'live_chat', title: 'Gough Cafe', ...at(0.004, 0.008) },
  incident: { id: 'live_incident', title: 'Rock fall', ...at(-0.004, 0.008) },
  help: { id: 'live_help', title: 'Need a hand', ...at(0.007, 0) },
  urgent: { id: 'live_urgent', title: 'Boat stuck', ...at(-0.007, 0) },
};

describe('live activity', () => {
  const journey = startJourney({
    seed: 50,
    prepare: async (store) => {
      const olivia = await userId(store, 'olivia');
      await store.db
        .insertInto('points')
        .values([
          newPoint({ ...PLACES.hot, type: 'bakery', owner_userid: olivia }),
          newPoint({ ...PLACES.soon, type: 'restaurant', owner_userid: olivia }),
          newPoint({ ...PLACES.open, type: 'bar', owner_userid: olivia }),
          // nobody's: olivia, the chatter below, writes to it as a visitor (an owner answers from the inbox)
          newPoint({ ...PLACES.chat, type: 'cafe' }),
          newPoint({ ...PLACES.incident, supertype: 'incident', type: 'accident' }),
          newPoint({ ...PLACES.help, supertype: 'helprequest', type: 'tasks' }),
          newPoint({ ...PLACES.urgent, supertype: 'helprequest', type: 'jobs', beamtype: 32 }),
        ])
        .execute();
    },
  });
  /** olivia's API session, for posting beams; fetched once the journey's server is up. */
  let token = '';
  // registered after startJourney's hooks, so it runs after them (vitest runs before-hooks in order)
  beforeAll(async () => {
    token = await apiToken(journey.server.url, 'olivia');
  });

  async function beam(id: string, kind: 'hot' | 'soon' | 'open'): Promise<void> {
    const response = await fetch(journey.url('/api/user/x_point/beam'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ identifier: id, kind }),
    });
    expect(await response.json()).toEqual({ status: 'ok' });
  }

  async function openMap(prepare?: (page: Page) => Promise<void>) {
    const page = await journey.browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.setViewportSize(DESKTOP);
    await prepare?.(page);
    await page.goto(journey.url(`/maps#14/${SPOT.lat}/${SPOT.lon}`), { waitUntil: 'load' });
    await waitForMapReady(page);
    await waitJoined(page);
    return { page, errors };
  }

  test('given the map over a point, when its owner beams it, then the beam shows within a second and is gone after 4 s', async () => {
    let arrived = new Map<string, number>();
    const { page, errors } = await openMap(async (page) => {
      arrived = watchArrivals(page, [PLACES.hot.id]);
    });
    // the help requests and the incident beam from the dynamic points (first call after 100 ms)
    await expect
      .poll(async () => (await drawnBeams(page)).get(PLACES.incident.id), { timeout: 5_000 })
      .toBe('incident');
    expect((await drawnBeams(page)).has(PLACES.hot.id)).toBe(false);

    const posted = Date.now();
    await beam(PLACES.hot.id, 'hot');
    let seenAfter = -1;
    while (Date.now() - posted < 3_000) {
      if ((await drawnBeams(page)).get(PLACES.hot.id) === 'hot') {
        seenAfter = Date.now() - posted;
        break;
      }
      await page.waitForTimeout(50);
    }
    // the README's budget: the beam's frame reaches the page within a second of the post
    expect((arrived.get(PLACES.hot.id) ?? Infinity) - posted).toBeLessThan(1_000);
    expect(seenAfter).toBeGreaterThanOrEqual(0);
    // drawing it follows: a few hundred ms on a quiet machine (bench:live); software WebGL on a loaded
    // CI machine draws later, so the drawn bound is looser than the delivery budget above
    expect(seenAfter).toBeLessThan(2_000);

    // still shown half-way through its time, gone once 4 s have passed
    await page.waitForTimeout(Math.max(0, 2_000 - (Date.now() - posted)));
    expect((await drawnBeams(page)).get(PLACES.hot.id)).toBe('hot');
    await expect
      .poll(async () => (await drawnBeams(page)).has(PLACES.hot.id), { timeout: 4_000, interval: 100 })
      .toBe(false);
    expect(Date.now() - posted).toBeGreaterThanOrEqual(3_500);
    // the dynamic beams stay
    expect((await drawnBeams(page)).get(PLACES.urgent.id)).toBe('urgent');

    // with the point layers switched off, the beam alone is there: clicking it opens its point
    await page.evaluate((ids) => {
      const map = window.__xpointMap;
      for (const id of ids)
        if (map?.getLayer(id) !== undefined) map?.setLayoutProperty(id, 'visibility', 'none');
    }, allPointLayerIds());
    const where = await page.evaluate((place) => {
      const map = window.__xpointMap;
      return map ? map.project([place.lon, place.lat]) : null;
    }, PLACES.help);
    if (where === null) throw new Error('no map');
    const box = await page.locator('.maplibregl-canvas').first().boundingBox();
    if (box === null) throw new Error('no canvas');
    await page.mouse.click(box.x + where.x, box.y + where.y);
    await expect.poll(() => panelTitle(page), { timeout: 10_000 }).toBe(PLACES.help.title);
    expect(new URL(page.url()).pathname).toMatch(new RegExp(`/${PLACES.help.id}$`));
    expect(errors).toEqual([]);
    await page.close();
  });

  test('given beams of several kinds and a chat line, when they arrive, then each is drawn in its kind', async () => {
    const { page, errors } = await openMap();
    await expect
      .poll(async () => (await drawnBeams(page)).size, { timeout: 5_000 })
      .toBeGreaterThanOrEqual(3);

    // a chat line about a point: a member of its chat writes, devices seeing it get map_activity
    const chatter = new Socket(`${journey.server.url.replace(/^http/, 'ws')}/socket`, {
      transport: WebSocket as unknown as typeof globalThis.WebSocket,
      params: { deviceId: 'e2e_chatter' },
    });
    chatter.connect();
    try {
      const chat = chatter.channel(`chat:${PLACES.chat.id}`, { token });
      await new Promise<void>((resolve, reject) => {
        chat
          .join()
          .receive('ok', () => resolve())
          .receive('error', (reason: unknown) =>
            reject(new Error(`chat join refused: ${JSON.stringify(reason)}`)),
          )
          .receive('timeout', () => reject(new Error('chat join timed out')));
      });
      chat.push('msg', { text: 'Fresh bread at noon' });
      await beam(PLACES.hot.id, 'hot');
      await beam(PLACES.soon.id, 'soon');
      await beam(PLACES.open.id, 'open');

      // chat activity is flushed every 3 s
      await expect
        .poll(async () => (await drawnBeams(page)).get(PLACES.chat.id), { timeout: 5_000, interval: 100 })
        .toBe('chat');
    } finally {
      chatter.disconnect();
    }
    const kinds = await drawnBeams(page);
    expect(kinds.get(PLACES.incident.id)).toBe('incident');
    expect(kinds.get(PLACES.help.id)).toBe('helprequest');
    expect(kinds.get(PLACES.urgent.id)).toBe('urgent');
    expect(kinds.get(PLACES.chat.id)).toBe('chat');
    // the global beams (4 s) may have started to fade: at least two of three still show
    const globals = [
      kinds.get(PLACES.hot.id) === 'hot',
      kinds.get(PLACES.soon.id) === 'upcoming',
      kinds.get(PLACES.open.id) === 'current',
    ].filter(Boolean);
    expect(globals.length).toBeGreaterThanOrEqual(2);
    await saveScreenshot(page, 'live-beams-1280');
    expect(errors).toEqual([]);
    await page.close();
  });

  test('given the WebSocket blocked, when a beam is posted, then it still arrives over long-poll', async () => {
    let longPolls = 0;
    const { page } = await openMap(async (p) => {
      p.on('request', (request) => {
        if (request.url().includes('/socket/longpoll')) longPolls++;
      });
      await p.routeWebSocket(/\/socket\/websocket/, (ws) => {
        void ws.close();
      });
    });
    expect(longPolls).toBeGreaterThan(0);
    await beam(PLACES.open.id, 'open');
    await expect
      .poll(async () => (await drawnBeams(page)).get(PLACES.open.id), { timeout: 5_000, interval: 100 })
      .toBe('current');
    await page.close();
  });
});
