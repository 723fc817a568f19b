/**
 * Map first-idle benchmark: `npm run bench:map -- [--runs 7] [--seed 2000] [--page /]`.
 *
 * Starts the real server (the e2e helper: built web app, seeded demo data) and a small same-origin
 * proxy in front of it, then times, in the same run and in alternation, navigation to the map's
 * first `idle` for (A) the XPoint app page and (B) a bare MapLibre page on the same style and tiles.
 * The proxy serves the bare page and maplibre-gl's own dist files and forwards everything else to
 * the server, so both pages load through the same hop with the same Host and no CORS. Every load is
 * cold: a fresh browser context (empty HTTP cache). The time is read in the page
 * (`performance.now()` when `body[data-map-drawn]` appears, which both pages set at their map's first
 * `idle` on the screen; the app's early map, src/web/map/mapCore.ts, is on the screen from the start).
 * Prints the medians and the ratio A/B against the budget of 1.2. Not part of `npm test`.
 */
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/e2e/support/browser';
import { startServer } from '../test/e2e/support/server';
import { BARE_PAGE_PATH, startBareMaplibreProxy } from './bare-maplibre';

const BUDGET_RATIO = 1.2;
const VIEWPORT = { width: 1280, height: 800 };
const IDLE_TIMEOUT_MS = 60_000;

function parseArgs(argv: string[]): { runs: number; seed: number; page: string } {
  const pageAt = argv.indexOf('--page');
  const page = pageAt >= 0 ? (argv[pageAt + 1] ?? '') : '/';
  if (!page.startsWith('/')) throw new Error('--page must be a path of the app, such as /maps');
  const get = (name: string, fallback: number) => {
    const at = argv.indexOf(`--${name}`);
    const value = at >= 0 ? Number(argv[at + 1]) : fallback;
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
    return value;
  };
  return { runs: get('runs', 7), seed: get('seed', 2000), page };
}

const IDLE_RECORDER = `
new MutationObserver(() => {
  const body = document.body;
  if (body && body.dataset.mapDrawn === 'true' && body.dataset.benchIdleMs === undefined) {
    body.dataset.benchIdleMs = String(performance.now());
  }
}).observe(document, { attributes: true, subtree: true, childList: true });
`;

/** One cold load: a fresh context, navigation, then the page's own clock at the first idle. */
async function timeFirstIdle(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    // runs before any page script: notes the moment the page marks its map idle. Text, not a
    // function: tsx's helpers (__name) do not exist in the page.
    await context.addInitScript({ content: IDLE_RECORDER });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    const marker = page.locator('body[data-bench-idle-ms]');
    await marker.waitFor({ state: 'attached', timeout: IDLE_TIMEOUT_MS });
    return Number(await marker.getAttribute('data-bench-idle-ms'));
  } finally {
    await context.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? NaN)
    : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

async function main(): Promise<void> {
  const { runs, seed, page } = parseArgs(process.argv.slice(2));
  console.log(`[bench:map] starting the server (seed ${seed}) ...`);
  const server = await startServer({ seed });
  const proxy = await startBareMaplibreProxy(server.url);
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const pages = { app: `${proxy.url}${page}`, bare: `${proxy.url}${BARE_PAGE_PATH}` };
    // one load of each first, not counted: the server's tile cache and the OS file cache warm up
    await timeFirstIdle(browser, pages.app);
    await timeFirstIdle(browser, pages.bare);
    const times = { app: [] as number[], bare: [] as number[] };
    for (let run = 0; run < runs; run += 1) {
      // alternate which goes first so drift on a shared machine hits both
      const order = run % 2 === 0 ? (['app', 'bare'] as const) : (['bare', 'app'] as const);
      for (const which of order) times[which].push(await timeFirstIdle(browser, pages[which]));
    }
    const app = median(times.app);
    const bare = median(times.bare);
    const ratio = app / bare;
    const fmt = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');
    console.log(
      `(A) XPoint app page ${page} first idle, median of ${runs} cold loads: ${app.toFixed(0)} ms  [${fmt(times.app)}]`,
    );
    console.log(
      `(B) bare MapLibre page first idle, median of ${runs} cold loads: ${bare.toFixed(0)} ms  [${fmt(times.bare)}]`,
    );
    console.log(
      `ratio A/B: ${ratio.toFixed(2)} (budget <= ${BUDGET_RATIO}) ${ratio <= BUDGET_RATIO ? 'OK' : 'OVER BUDGET'}`,
    );
    if (ratio > BUDGET_RATIO) process.exitCode = 1;
  } finally {
    await browser.close();
    await proxy.close();
    await server.stop();
  }
}

await main();
