import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { LAYER_GROUPS, pointLayerIds, type LayerGroup } from '../../src/shared/map/contract';
import {
  DESKTOP,
  MOBILE,
  launchBrowser,
  saveScreenshot,
  waitForMapReady,
  type Browser,
  type OpenedPage,
  type Viewport,
} from './support/browser';
import type { PageDocument, PageWindow } from './support/globals';
import { mapIdle } from './support/map';
import { startServer, type RunningServer } from './support/server';

declare const window: PageWindow;
declare const document: PageDocument;

/**
 * Journeys of the web map (issue 4): what is drawn, where the view is kept, cluster lists, layer
 * toggles, and that nothing leaves the machine. Enough demo points for clusters at continent zoom.
 */
const SEED_POINTS = 2000;
/** North America at continent zoom: city labels and clusters around New York. */
const CONTINENT_HASH = '#3/40/-85';
const CLUSTER_LAYERS = LAYER_GROUPS.map((group) => pointLayerIds(group).clusters);

/**
 * Loaded into the server process (NODE_OPTIONS --import): writes every socket connection and DNS
 * lookup to a host other than this machine into the file named by XP_OUTBOUND_LOG, then lets it
 * proceed. The server must never reach outside at run time, so the file must stay empty.
 */
const OUTBOUND_RECORDER = `
import net from 'node:net';
import dns from 'node:dns';
import fs from 'node:fs';
const local = (host) => host === undefined || host === '' || /^(localhost|127\\.|::1$|::ffff:127\\.)/.test(String(host));
const note = (what) => { try { fs.appendFileSync(process.env.XP_OUTBOUND_LOG, what + '\\n'); } catch {} };
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  let options = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (typeof options !== 'object' || options === null) options = { port: options, host: typeof args[1] === 'string' ? args[1] : undefined };
  if (!options.path && !local(options.host)) note('connect ' + options.host + ':' + options.port);
  return connect.apply(this, args);
};
const lookup = dns.lookup;
dns.lookup = function (host, ...rest) {
  if (!local(host)) note('lookup ' + host);
  return lookup.call(this, host, ...rest);
};
`;

interface RenderedCluster {
  group: LayerGroup;
  clusterId: number;
  pointCount: number;
  /** position on the page, CSS pixels */
  x: number;
  y: number;
}

/** Rendered features of these style layers, through the page's map (window.__xpointMap). */
async function renderedCount(page: Page, layers: string[]): Promise<number> {
  return await page.evaluate((ids) => {
    const map = window.__xpointMap;
    if (!map) throw new Error('the map is not ready');
    return map.queryRenderedFeatures({ layers: ids.filter((id) => map.getLayer(id) !== undefined) }).length;
  }, layers);
}

/** The rendered clusters, largest first, with their position on the page. */
async function renderedClusters(page: Page): Promise<RenderedCluster[]> {
  return await page.evaluate((ids) => {
    const map = window.__xpointMap;
    if (!map) throw new Error('the map is not ready');
    const box = map.getCanvas().getBoundingClientRect();
    const clusters = map.queryRenderedFeatures({ layers: ids }).map((feature) => {
      const [lng, lat] = (feature.geometry as { coordinates: [number, number] }).coordinates;
      const at = map.project([lng, lat]);
      return {
        group: feature.sourceLayer as LayerGroup,
        clusterId: Number(feature.properties.cluster_id),
        pointCount: Number(feature.properties.point_count),
        x: box.left + at.x,
        y: box.top + at.y,
      };
    });
    // only clusters well inside the canvas, clear of the controls in its corners
    const inside = clusters.filter(
      (c) => c.x > 420 && c.x < box.width - 80 && c.y > 120 && c.y < box.height - 120,
    );
    return inside.sort((a, b) => b.pointCount - a.pointCount);
  }, CLUSTER_LAYERS);
}

/**
 * Opens a cluster's list as the app does, without loading the page again (the map stays the same
 * map). A click on a cluster that comes apart zooms in to it instead (issue 21, item 10), so the
 * journeys about the list open it by its address.
 */
async function openClusterList(page: Page, cluster: { group: string; clusterId: number }): Promise<void> {
  const view = await mapView(page);
  const to = `/cluster/data=${encodeURIComponent(
    JSON.stringify({
      loc: { zoom: view.zoom, lng: view.lng, lat: view.lat },
      cluster: { group: cluster.group, id: cluster.clusterId },
    }),
  )}`;
  await page.evaluate((address) => {
    const inPage = globalThis as unknown as {
      history: { pushState(state: null, title: string, url: string): void };
      dispatchEvent(event: unknown): boolean;
      PopStateEvent: new (type: string) => unknown;
    };
    inPage.history.pushState(null, '', address);
    inPage.dispatchEvent(new inPage.PopStateEvent('popstate'));
  }, to);
}

/** The cluster a /cluster address names. */
function clusterInAddress(url: string): { group: string; id: number } {
  const data = new URL(url).pathname.split('/data=')[1] ?? '';
  const parsed = JSON.parse(decodeURIComponent(data)) as { cluster?: { group: string; id: number } };
  if (parsed.cluster === undefined) throw new Error(`no cluster in ${url}`);
  return parsed.cluster;
}

/**
 * Problems the page reported that concern the map. The account menu asks /v1/account/me, which
 * answers 401 to a visitor; Chromium logs that response, and it is not the map's concern.
 */
function mapErrors(errors: string[]): string[] {
  return errors.filter((error) => !/status of 401 .*\/v1\/account\//.test(error));
}

async function mapView(page: Page): Promise<{ zoom: number; lng: number; lat: number }> {
  return await page.evaluate(() => {
    const map = window.__xpointMap;
    if (!map) throw new Error('the map is not ready');
    const center = map.getCenter();
    return { zoom: map.getZoom(), lng: center.lng, lat: center.lat };
  });
}

describe('the web map', () => {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let outboundDir: string | undefined;
  let outboundLog = '';

  beforeAll(async () => {
    outboundDir = await mkdtemp(path.join(tmpdir(), 'xpoint-e2e-outbound-'));
    outboundLog = path.join(outboundDir, 'outbound.log');
    const recorder = `--import=data:text/javascript,${encodeURIComponent(OUTBOUND_RECORDER)}`;
    server = await startServer({
      seed: SEED_POINTS,
      env: {
        NODE_OPTIONS: [process.env.NODE_OPTIONS, recorder].filter(Boolean).join(' '),
        XP_OUTBOUND_LOG: outboundLog,
      },
    });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (outboundDir !== undefined) await rm(outboundDir, { recursive: true, force: true });
  });

  function urlOf(path: string): string {
    if (server === undefined) throw new Error('the server did not start');
    return `${server.url}${path}`;
  }

  async function openMap(path: string, viewport: Viewport = DESKTOP): Promise<OpenedPage> {
    if (browser === undefined) throw new Error('the browser did not start');
    const opened = await browser.open(urlOf(path), viewport);
    await waitForMapReady(opened.page);
    await mapIdle(opened.page);
    return opened;
  }

  test('given continent zoom, when the map is idle, then city labels and point clusters are drawn', async () => {
    const { page, errors } = await openMap(`/maps${CONTINENT_HASH}`);

    expect(await renderedCount(page, ['city-labels'])).toBeGreaterThan(5);
    expect(await renderedCount(page, CLUSTER_LAYERS)).toBeGreaterThan(0);
    const view = await mapView(page);
    expect(view.zoom).toBe(3);
    expect(mapErrors(errors)).toEqual([]);
    await page.close();
  });

  test('given no hash, data or cookie, when the map opens, then it shows New York at zoom 14', async () => {
    const { page } = await openMap('/');

    const view = await mapView(page);
    expect(view.zoom).toBe(14);
    expect(view.lng).toBeCloseTo(-74.006, 5);
    expect(view.lat).toBeCloseTo(40.7128, 5);
    await page.close();
  });

  test('given the map, when it moves, then the hash and the cookie keep the view rounded, and a reload restores it', async () => {
    const { page, errors } = await openMap('/maps');
    const historyLength = await page.evaluate(() => window.history.length);

    await page.evaluate(() =>
      window.__xpointMap?.jumpTo({ center: [2.352212345678, 48.856612345678], zoom: 5.123456 }),
    );
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe('#5.12/48.856612/2.352212');
    const cookie = (await page.context().cookies(urlOf('/'))).find((c) => c.name === 'mapbox_loc_json');
    expect(JSON.parse(decodeURIComponent(cookie?.value ?? '{}'))).toEqual({
      zoom: 5.12,
      lng: 2.352212,
      lat: 48.856612,
    });
    expect(cookie?.path).toBe('/');
    expect(cookie?.sameSite).toBe('Lax');
    expect(cookie?.expires ?? 0).toBeGreaterThan(Date.now() / 1000 + 300 * 24 * 3600);
    // a map move replaces the address, never adds a history entry
    expect(await page.evaluate(() => window.history.length)).toBe(historyLength);

    // a drag by the visitor
    const canvas = page.locator('canvas.maplibregl-canvas');
    const box = await canvas.boundingBox();
    if (box === null) throw new Error('no canvas');
    await page.mouse.move(box.x + 700, box.y + 400);
    await page.mouse.down();
    await page.mouse.move(box.x + 600, box.y + 350, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => page.evaluate(() => window.location.hash)).not.toBe('#5.12/48.856612/2.352212');
    const dragged = await page.evaluate(() => window.location.hash);
    expect(dragged).toMatch(/^#5\.12\/-?\d+(\.\d{1,6})?\/-?\d+(\.\d{1,6})?$/);

    await page.reload();
    await waitForMapReady(page);
    expect(await page.evaluate(() => window.location.hash)).toBe(dragged);
    const [zoom, lat, lng] = dragged.slice(1).split('/').map(Number);
    const restored = await mapView(page);
    expect(restored.zoom).toBeCloseTo(zoom ?? NaN, 5);
    expect(restored.lat).toBeCloseTo(lat ?? NaN, 5);
    expect(restored.lng).toBeCloseTo(lng ?? NaN, 5);

    // the hash edited from outside moves the map
    await page.evaluate(() => {
      window.location.hash = '#6/51.5/-0.12';
    });
    await expect.poll(async () => (await mapView(page)).zoom).toBe(6);
    expect((await mapView(page)).lat).toBeCloseTo(51.5, 5);
    expect(mapErrors(errors)).toEqual([]);
    await page.close();

    // with no hash, the cookie brings the last view back
    const again = await openMap('/maps');
    const fromCookie = await mapView(again.page);
    expect(fromCookie.zoom).toBe(6);
    expect(fromCookie.lng).toBeCloseTo(-0.12, 5);
    await again.page.close();
  }, 120_000);

  test('given a deep link with a data= loc, when it opens, then the map starts there', async () => {
    const data = encodeURIComponent(JSON.stringify({ loc: { zoom: 7.5, lng: 13.405, lat: 52.52 } }));
    const { page } = await openMap(`/cluster/data=${data}`);

    const view = await mapView(page);
    expect(view.zoom).toBe(7.5);
    expect(view.lng).toBeCloseTo(13.405, 5);
    await page.close();
  });

  test('given clusters, when one is clicked, then the map zooms in to it, and its list is reachable by keyboard and opens their point', async () => {
    const { page, errors } = await openMap(`/maps${CONTINENT_HASH}`);
    const clusters = await renderedClusters(page);
    if (clusters[0] === undefined) throw new Error('no cluster is drawn inside the map');

    // the map is created once: navigating between screens keeps the same canvas
    await page
      .locator('canvas.maplibregl-canvas')
      .evaluate((canvas) => canvas.setAttribute('data-journey', 'kept'));
    // a cluster that comes apart within the map's zooms is zoomed in to first, as Google does (issue
    // 21, item 10); the list is for clusters that never part, or for the cluster's own address
    await page.mouse.click(clusters[0].x, clusters[0].y);
    await expect.poll(() => mapView(page).then((view) => view.zoom)).toBeGreaterThan(3.5);
    expect(await page.locator('aside.cluster-list').count()).toBe(0);
    const cluster = clusters[0];
    await page.evaluate(() => window.__xpointMap?.jumpTo({ center: [-85, 40], zoom: 3 }));
    await mapIdle(page);
    await openClusterList(page, cluster);
    const panel = page.locator('aside.cluster-list');
    await panel.waitFor();
    expect(clusterInAddress(page.url())).toEqual({ group: cluster.group, id: cluster.clusterId });
    const places = cluster.pointCount === 1 ? 'place' : 'places';
    await expect
      .poll(() => panel.locator('.cluster-list__count').textContent())
      .toBe(`${cluster.pointCount.toLocaleString('en-US')} ${places}`);
    const items = panel.locator('a.cluster-list__item');
    expect(await items.count()).toBe(Math.min(cluster.pointCount, 50));
    // focus moved into the panel: its heading, then the hide and close buttons, then the first place
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H2');
    const focusedLabel = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    await page.keyboard.press('Tab');
    expect(await focusedLabel()).toBe('Hide the panel');
    await page.keyboard.press('Tab');
    expect(await focusedLabel()).toMatch(/^Close/);
    await page.keyboard.press('Tab');
    const first = await page.evaluate(() => {
      const active = document.activeElement;
      return active?.tagName === 'A' ? active.getAttribute('href') : null;
    });
    expect(first).toMatch(/^\/[a-z]+\/[A-Za-z0-9_-]+(#.*)?$/);
    await saveScreenshot(page, 'map-cluster-list-desktop-1280x800');

    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).pathname).toBe(first?.split('#')[0]);
    await expect.poll(() => panel.count()).toBe(0);
    await expect(page.locator('canvas[data-journey="kept"]').count()).resolves.toBe(1);

    // back to the list; Escape closes it and hands focus to the map
    await page.goBack();
    await panel.waitFor();
    await panel.locator('h2').focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/maps');
    expect(await page.evaluate(() => document.activeElement?.classList.contains('maplibregl-canvas'))).toBe(
      true,
    );
    expect(mapErrors(errors)).toEqual([]);
    await page.close();
  });

  test('given a cluster of more than a page, when "Show more" is used, then the next page joins the list', async () => {
    // zoomed out far enough that New York's points make one big cluster, businesses only (on /maps:
    // the home page's cards cover part of the map)
    const { page } = await openMap('/maps#2/40/-40');
    await page.evaluate(
      (hidden) => window.localStorage.setItem('xpoint.map.hiddenGroups', JSON.stringify(hidden)),
      LAYER_GROUPS.filter((group) => group !== 'business'),
    );
    await page.reload();
    await waitForMapReady(page);
    await mapIdle(page);
    const big = (await renderedClusters(page)).find((c) => c.pointCount > 50);
    if (big === undefined) throw new Error('no cluster of more than 50 points is drawn');

    await openClusterList(page, big);
    const panel = page.locator('aside.cluster-list');
    await panel.locator('a.cluster-list__item').nth(49).waitFor();
    expect(clusterInAddress(page.url())).toEqual({ group: big.group, id: big.clusterId });
    await panel.locator('button.cluster-list__more').click();
    await panel.locator(`a.cluster-list__item >> nth=${Math.min(big.pointCount, 100) - 1}`).waitFor();
    expect(await panel.locator('a.cluster-list__item').count()).toBe(Math.min(big.pointCount, 100));
    // focus moved to the first new place
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
      await panel.locator('a.cluster-list__item').nth(50).textContent(),
    );
    await page.evaluate(() => window.localStorage.removeItem('xpoint.map.hiddenGroups'));
    await page.close();
  });

  test('given the layer toggles, when a group is switched off, then its points disappear and stay hidden after a reload', async () => {
    const { page, errors } = await openMap(`/maps${CONTINENT_HASH}`);
    const [cluster] = await renderedClusters(page);
    if (cluster === undefined) throw new Error('no cluster is drawn');
    const groupLayers = Object.values(pointLayerIds(cluster.group));
    expect(await renderedCount(page, groupLayers)).toBeGreaterThan(0);

    await page.getByRole('button', { name: /^Layers/ }).click();
    const toggle = page.locator(`input[name="layer-group"][value="${cluster.group}"]`);
    expect(await toggle.isChecked()).toBe(true);
    await saveScreenshot(page, 'map-layers-desktop-1280x800');
    await toggle.uncheck();
    await expect.poll(() => renderedCount(page, groupLayers)).toBe(0);
    expect(await page.getByRole('button', { name: /^Layers/ }).getAttribute('aria-expanded')).toBe('true');

    await page.reload();
    await waitForMapReady(page);
    await mapIdle(page);
    expect(await renderedCount(page, groupLayers)).toBe(0);
    await page.getByRole('button', { name: /^Layers/ }).click();
    await page.locator(`input[name="layer-group"][value="${cluster.group}"]`).check();
    await expect.poll(() => renderedCount(page, groupLayers)).toBeGreaterThan(0);
    expect(mapErrors(errors)).toEqual([]);
    await page.close();
  });

  test('given a phone, when the layers and a cluster list are open, then they fit the screen', async () => {
    const { page, errors } = await openMap(`/maps${CONTINENT_HASH}`, MOBILE);
    await page.getByRole('button', { name: /^Layers/ }).click();
    const layers = await page.locator('.map-layers__panel').boundingBox();
    expect(layers).not.toBeNull();
    expect((layers?.x ?? -1) >= 0 && (layers?.x ?? 0) + (layers?.width ?? Infinity) <= MOBILE.width).toBe(
      true,
    );
    expect(layers?.y ?? -1).toBeGreaterThan(60);
    await saveScreenshot(page, 'map-layers-mobile-375x740');
    await page.getByRole('button', { name: /^Layers/ }).click();

    const clusters = await page.evaluate((ids) => {
      const map = window.__xpointMap;
      if (!map) throw new Error('the map is not ready');
      return map.queryRenderedFeatures({ layers: ids }).map((feature) => {
        const [lng, lat] = (feature.geometry as { coordinates: [number, number] }).coordinates;
        const at = map.project([lng, lat]);
        return {
          x: at.x,
          y: at.y,
          group: String(feature.sourceLayer),
          clusterId: Number(feature.properties.cluster_id),
        };
      });
    }, CLUSTER_LAYERS);
    const target = clusters.find(
      (c) => c.x > 40 && c.x < MOBILE.width - 60 && c.y > 120 && c.y < MOBILE.height - 140,
    );
    if (target === undefined) throw new Error('no cluster is drawn on the phone');
    await openClusterList(page, target);
    const panel = page.locator('aside.cluster-list');
    await panel.locator('a.cluster-list__item').first().waitFor();
    // the sheet slides up as it opens: measure where it comes to rest
    await panel.evaluate((element) =>
      Promise.all(
        (element as unknown as { getAnimations(): { finished: Promise<unknown> }[] })
          .getAnimations()
          .map((animation) => animation.finished),
      ),
    );
    const box = await panel.boundingBox();
    expect(box?.x).toBe(0);
    expect(box?.width).toBe(MOBILE.width);
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(MOBILE.height + 0.5);
    await saveScreenshot(page, 'map-cluster-list-mobile-375x740');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    expect(mapErrors(errors)).toEqual([]);
    await page.close();
  });

  test('given no network beyond the server, when the map opens, then every request is same-origin and it still renders', async () => {
    if (browser === undefined || server === undefined) throw new Error('not started');
    const origin = new URL(server.url).origin;
    const page = await browser.context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.route('**/*', async (route) => {
      const url = new URL(route.request().url());
      if (url.origin === origin || url.protocol === 'data:' || url.protocol === 'blob:')
        await route.continue();
      else await route.abort('internetdisconnected');
    });
    await page.setViewportSize(DESKTOP);
    await page.goto(urlOf(`/${CONTINENT_HASH}`));
    await waitForMapReady(page);
    await mapIdle(page);

    expect(await renderedCount(page, ['city-labels'])).toBeGreaterThan(5);
    expect(await renderedCount(page, CLUSTER_LAYERS)).toBeGreaterThan(0);
    const foreign = requested.filter((url) => {
      const parsed = new URL(url);
      return parsed.origin !== origin && parsed.protocol !== 'data:' && parsed.protocol !== 'blob:';
    });
    expect(foreign).toEqual([]);
    expect(requested.some((url) => url.includes('/tiles/points/'))).toBe(true);
    // and the server itself, from its start (seed, map assets) to now, reached nothing outside
    expect(existsSync(outboundLog) ? readFileSync(outboundLog, 'utf8') : '').toBe('');
    await page.close();
  });
});
