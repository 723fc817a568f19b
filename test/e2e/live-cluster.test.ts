import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page, WebSocket as PageWebSocket } from 'playwright-core';
import { newPoint } from '../support/factories';
import { DESKTOP, launchBrowser, waitForMapReady, type Browser } from './support/browser';
import type { PageWindow } from './support/globals';
import { drawnBeams, waitJoined, watchArrivals } from './support/live';
import { startServer, type RunningServer } from './support/server';
import { apiToken } from './support/session';
import { userId, withStore } from './support/store';

declare const window: PageWindow & { __beforeRestart?: string };

/**
 * Live activity across server processes (issue 9), in the browser: two processes on one store and
 * the machine's Redis deliver a beam posted to one to a map open on the other, and a process
 * restarted on its address gets the page's phoenix client back by itself (reconnect, rejoin, bounds
 * sent again, beams arriving) without a reload. The journey's places sit in the empty South Pacific;
 * their ids are unique to the run, so runs sharing the Redis channel never see each other's beams.
 */
const REDIS_URL = 'redis://127.0.0.1:6379';
const SPOT = { lat: -47.61, lon: -128.37 };
/** The live layer's budget: a beam's frame reaches the page within a second of the post. */
const BEAM_BUDGET_MS = 1_000;
/**
 * Drawing it takes SwiftShader's software WebGL a few hundred ms more on a loaded 2-core machine (1.4 s
 * was seen in CI), and this runner polls the page from outside; `bench:live` measures the budget
 * itself on a quiet machine. Here the drawn beam must follow well within this bound.
 */
const DRAWN_BOUND_MS = 3_000;
const RUN = randomUUID().slice(0, 8);
const PLACES = {
  across: { id: `cluster_${RUN}_a`, title: 'Pacific Forge', lat: SPOT.lat, lon: SPOT.lon },
  restart: { id: `cluster_${RUN}_r`, title: 'Pacific Mill', lat: SPOT.lat + 0.004, lon: SPOT.lon + 0.006 },
};
const SERVER_ENV = { REDIS_URL, LOG_LEVEL: 'info' };
const USES_REDIS = /live activity goes through Redis/;

async function waitForLog(server: RunningServer, pattern: RegExp, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(server.output())) {
    if (Date.now() > deadline)
      throw new Error(`the server never logged ${String(pattern)}. Its output:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const portOf = (url: string) => new URL(url).port;

/**
 * The page's WebSockets, which of them sent the device's visible bounds, and when a frame naming
 * each of the journey's places first arrived (to tell delivery time from drawing time).
 */
function watchSockets(page: Page) {
  const sockets: PageWebSocket[] = [];
  const sentBounds = new Set<PageWebSocket>();
  const arrived = watchArrivals(
    page,
    Object.values(PLACES).map((place) => place.id),
  );
  page.on('websocket', (ws) => {
    sockets.push(ws);
    ws.on('framesent', (frame) => {
      if (typeof frame.payload === 'string' && frame.payload.includes('"visible_bounds"')) sentBounds.add(ws);
    });
  });
  return { sockets, sentBounds, arrived };
}

describe('live activity across processes', () => {
  let a: RunningServer | undefined;
  let b: RunningServer | undefined;
  let browser: Browser | undefined;
  let token = '';

  beforeAll(async () => {
    a = await startServer({ seed: 50, env: SERVER_ENV });
    await withStore(a.dataDir, async (store) => {
      const olivia = await userId(store, 'olivia');
      await store.db
        .insertInto('points')
        .values([
          newPoint({ ...PLACES.across, type: 'bakery', owner_userid: olivia }),
          newPoint({ ...PLACES.restart, type: 'bar', owner_userid: olivia }),
        ])
        .execute();
    });
    // the second process on the first one's store: same points, users and session secret
    b = await startServer({ seed: 50, env: SERVER_ENV, dataDir: a.dataDir });
    token = await apiToken(b.url, 'olivia');
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await b?.stop();
    // the data dir is a's: removed last
    await a?.stop();
  });

  /** Posts a beam through `server`'s API; resolves with the time it was sent. */
  async function beam(server: RunningServer, id: string): Promise<number> {
    const sent = Date.now();
    const response = await fetch(`${server.url}/api/user/x_point/beam`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ identifier: id, kind: 'hot' }),
    });
    expect(await response.json()).toEqual({ status: 'ok' });
    return sent;
  }

  /** Milliseconds from `sent` until the page draws the hot beam of `id`; -1 if not within 3 s. */
  async function beamSeenAfter(page: Page, id: string, sent: number): Promise<number> {
    while (Date.now() - sent < DRAWN_BOUND_MS + 2_000) {
      if ((await drawnBeams(page)).get(id) === 'hot') return Date.now() - sent;
      await page.waitForTimeout(25);
    }
    return -1;
  }

  async function openMap(server: RunningServer) {
    if (browser === undefined) throw new Error('the journey did not start');
    const page = await browser.context.newPage();
    const watched = watchSockets(page);
    await page.setViewportSize(DESKTOP);
    await page.goto(`${server.url}/maps#14/${SPOT.lat}/${SPOT.lon}`, { waitUntil: 'load' });
    await waitForMapReady(page);
    await waitJoined(page);
    return { page, ...watched };
  }

  test('given two processes on one Redis, when a beam is posted to one, then the map open on the other shows it within a second', async () => {
    if (a === undefined || b === undefined) throw new Error('the journey did not start');
    // both say they run on Redis
    await waitForLog(a, USES_REDIS);
    await waitForLog(b, USES_REDIS);
    expect(a.url).not.toBe(b.url);

    const { page, sockets, sentBounds, arrived } = await openMap(a);
    // the page's live socket is a's, and it told a its bounds
    expect(sockets.map((ws) => portOf(ws.url()))).toEqual([portOf(a.url)]);
    await expect.poll(() => sentBounds.size, { timeout: 5_000 }).toBe(1);
    expect((await drawnBeams(page)).has(PLACES.across.id)).toBe(false);

    const sent = await beam(b, PLACES.across.id);
    const seenAfter = await beamSeenAfter(page, PLACES.across.id, sent);
    console.log(
      `[live-cluster] beam posted to B: frame at A's page after ${String((arrived.get(PLACES.across.id) ?? NaN) - sent)} ms, drawn after ${seenAfter} ms`,
    );
    expect((arrived.get(PLACES.across.id) ?? Infinity) - sent).toBeLessThan(BEAM_BUDGET_MS);
    expect(seenAfter).toBeGreaterThanOrEqual(0);
    expect(seenAfter).toBeLessThan(DRAWN_BOUND_MS);
    await page.close();
  });

  test('given the map on a process, when the process restarts on its address, then the page reconnects, rejoins, sends its bounds and shows a beam, with no reload', async () => {
    if (b === undefined) throw new Error('the journey did not start');
    const { page, sockets, sentBounds, arrived } = await openMap(b);
    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations++;
    });
    await page.evaluate((marker) => {
      window.__beforeRestart = marker;
    }, RUN);
    await expect.poll(() => sentBounds.size, { timeout: 5_000 }).toBe(1);

    const { url, dataDir } = b;
    const port = Number(portOf(url));
    await b.stop();
    b = undefined;
    // the page notices: its device channel is no longer joined
    await page.locator('body[data-live-joined="true"]').waitFor({ state: 'detached', timeout: 10_000 });

    const restarted = Date.now();
    b = await startServer({ seed: 50, env: SERVER_ENV, dataDir, port });
    expect(b.url).toBe(url);
    const up = Date.now();
    await waitJoined(page, 30_000);
    console.log(
      `[live-cluster] restart took ${up - restarted} ms; the page rejoined ${Date.now() - up} ms after /healthz`,
    );

    // the same page, a new WebSocket to the same address, and the bounds sent on it again
    expect(await page.evaluate(() => window.__beforeRestart)).toBe(RUN);
    expect(navigations).toBe(0);
    expect(sockets.length).toBeGreaterThanOrEqual(2);
    const last = sockets.at(-1);
    if (last === undefined) throw new Error('no WebSocket');
    expect(portOf(last.url())).toBe(String(port));
    expect(last.isClosed()).toBe(false);
    await expect.poll(() => sentBounds.has(last), { timeout: 5_000 }).toBe(true);

    // the restarted process knows the device's bounds only from that send: a beam reaches the map
    expect((await drawnBeams(page)).has(PLACES.restart.id)).toBe(false);
    const sent = await beam(b, PLACES.restart.id);
    const seenAfter = await beamSeenAfter(page, PLACES.restart.id, sent);
    console.log(
      `[live-cluster] beam after the restart: frame at the page after ${String((arrived.get(PLACES.restart.id) ?? NaN) - sent)} ms, drawn after ${seenAfter} ms`,
    );
    expect((arrived.get(PLACES.restart.id) ?? Infinity) - sent).toBeLessThan(BEAM_BUDGET_MS);
    expect(seenAfter).toBeGreaterThanOrEqual(0);
    expect(seenAfter).toBeLessThan(DRAWN_BOUND_MS);
    await page.close();
  });
});
