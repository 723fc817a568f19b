import { beforeAll, describe, expect, it } from 'vitest';
import { MOBILE } from './support/browser';
import { builtScripts, firstScriptClosure, gzipTotal } from './support/firstScripts';
import { startJourney } from './support/journey';
import { ensureWebBuild } from './support/server';

/**
 * The app's first screen (issue 23): the JavaScript `/`, `/maps`, `/b/{id}` and a search page fetch
 * and run before anything is drawn, counted from dist/web/index.html as a browser reads it. The map
 * and maplibre are a chunk loaded once the first screen has rendered (src/web/map/MapView.tsx), so
 * they are not in it.
 *
 * Measured when the budget was set (28 November 2026): 22 files, 587 KB, 187.5 KB gzip (React and
 * react-dom 66, zod and the shared pieces 31, the router 29, the entry 27, TanStack Query 8); before,
 * 24 files, 1,742 KB, 499.9 KB gzip: maplibre 284, the category names 13 (now with the cluster list
 * and the results) and the phoenix client 10 (now loaded by the first live subscriber). The issue's
 * target is 150 KB: this budget holds what was won (5% for growth) until the rest is cut.
 *
 * 28 November, later: 11 files, 185.7 KB gzip. The app's own first-screen modules are two files
 * (vite.config.ts, `firstScreenModules`) where the default splitting made twenty, so the map's
 * early start is not queued behind them; maplibre's stylesheet went with the map's box.
 *
 * 28 November, last: 141.0 KB gzip, within the 150, which is now the budget. The routes in
 * react-router's declarative mode (its data router was 15.7 KB of it); the first screen reads its
 * answers with schemas loaded at its first call (lib/schemas.ts), and the data= segment is checked
 * without zod, so zod (24 KB with its classic API, 14 with its mini one) is not in it.
 */
const FIRST_SCREEN_BUDGET_GZIP_KB = 150;

describe("the app's first-screen JavaScript", () => {
  let files: Map<string, Buffer>;

  beforeAll(() => {
    ensureWebBuild();
    files = firstScriptClosure('index.html');
  });

  it('given the built app, when its static imports are followed, then they reach React and the entry', () => {
    const names = [...files.keys()];
    expect(names.some((name) => name.startsWith('index-'))).toBe(true);
    expect(names.some((name) => name.startsWith('react-'))).toBe(true);
  });

  it('given the built app, then neither maplibre, the phoenix client, zod nor the category names are in the first screen', () => {
    expect([...files.keys()].filter((name) => name.startsWith('maplibre-'))).toEqual([]);
    for (const [name, code] of files) {
      const text = code.toString('utf8');
      // each library's own text, whichever chunk it were bundled into: maplibre's canvas class, the
      // phoenix protocol's join event, a category's name from the generated list
      expect(text, name).not.toContain('maplibregl-canvas');
      expect(text, name).not.toContain('phx_join');
      // zod's base class, by the name it registers (lib/schemas.ts loads the answers' schemas later)
      expect(text, name).not.toContain('$ZodType');
      expect(text, name).not.toContain('Bedding / Mattress Store');
    }
  });

  it(`given the built app, then its first-screen JavaScript is at most ${FIRST_SCREEN_BUDGET_GZIP_KB} KB gzipped`, () => {
    const { totalKb, listing } = gzipTotal(files);
    expect(totalKb, `first-screen JavaScript ${totalKb.toFixed(1)} KB gzip: ${listing}`).toBeLessThanOrEqual(
      FIRST_SCREEN_BUDGET_GZIP_KB,
    );
  });
});

/**
 * All the JavaScript a visitor's `/maps` loads (issue 23: at most 420 KB gzip with maplibre's 284): the
 * first screen, the map, and what the page asks for on its own until the map is drawn and the network
 * has gone quiet (the answers' schemas, the live client, the levels it preloads). Measured 28 November:
 * 515.7 KB in 42 files. The budget holds that figure (5% for growth) until it is cut to the issue's.
 */
const MAPS_PAGE_BUDGET_GZIP_KB = 540;

describe("the map page's whole JavaScript", () => {
  const journey = startJourney();

  it(`given a visitor on /maps, when the map is drawn and the page has gone quiet, then it loaded at most ${MAPS_PAGE_BUDGET_GZIP_KB} KB of JavaScript gzipped, maplibre included`, async () => {
    const page = await journey.browser.context.newPage();
    await page.setViewportSize(MOBILE);
    const loaded = new Set<string>();
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      const name = /^\/assets\/([^/]+\.js)$/.exec(pathname)?.[1];
      if (name !== undefined) loaded.add(name);
    });
    try {
      await page.goto(journey.url('/maps'));
      await page.locator('body[data-map-drawn="true"][data-map-ready="true"]').waitFor({ state: 'attached' });
      await page.waitForLoadState('networkidle');
      const { totalKb, listing } = gzipTotal(builtScripts(loaded));
      expect([...loaded].some((name) => name.startsWith('maplibre-'))).toBe(true);
      console.log(`[budget] /maps loaded ${loaded.size} scripts, ${totalKb.toFixed(1)} KB gzip: ${listing}`);
      expect(totalKb, listing).toBeLessThanOrEqual(MAPS_PAGE_BUDGET_GZIP_KB);
    } finally {
      await page.close();
    }
  });
});
