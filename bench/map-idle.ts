/**
 * Map first-idle benchmark: `npm run bench:map -- [--runs 7] [--seed 2000]`.
 *
 * Starts the real server (the e2e helper: built web app, seeded demo data) and a small same-origin
 * proxy in front of it, then times, in the same run and in alternation, navigation to the map's
 * first `idle` for (A) the XPoint app page and (B) a bare MapLibre page on the same style and tiles.
 * The proxy serves the bare page and maplibre-gl's own dist files and forwards everything else to
 * the server, so both pages load through the same hop with the same Host and no CORS. Every load is
 * cold: a fresh browser context (empty HTTP cache). The time is read in the page
 * (`performance.now()` when `body[data-map-ready]` appears, which both pages set on `map.once('idle')`).
 * Prints the medians and the ratio A/B against the budget of 1.2. Not part of `npm test`.
 */
import { createReadStream, existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/e2e/support/browser';
import { freePort, startServer } from '../test/e2e/support/server';
import { DEFAULT_ZOOM, TILE_PATHS } from '../src/shared/map/contract';

const BUDGET_RATIO = 1.2;
const VIEWPORT = { width: 1280, height: 800 };
const IDLE_TIMEOUT_MS = 60_000;
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAPLIBRE_DIST = path.join(REPO_ROOT, 'node_modules/maplibre-gl/dist');

function parseArgs(argv: string[]): { runs: number; seed: number } {
  const get = (name: string, fallback: number) => {
    const at = argv.indexOf(`--${name}`);
    const value = at >= 0 ? Number(argv[at + 1]) : fallback;
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
    return value;
  };
  return { runs: get('runs', 7), seed: get('seed', 2000) };
}

/** The bare page: MapLibre alone on our style, the same start view as the app's default. */
const BARE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>bare maplibre</title>
<link rel="stylesheet" href="/__bench/maplibre/maplibre-gl.css">
<style>html,body,#map{margin:0;width:100%;height:100%}</style>
</head>
<body>
<div id="map"></div>
<script type="module">
import { Map, setWorkerUrl } from '/__bench/maplibre/maplibre-gl.mjs';
setWorkerUrl('/__bench/maplibre/maplibre-gl-worker.mjs');
const map = new Map({
  container: 'map',
  style: new URL('${TILE_PATHS.style}', location.origin).toString(),
  center: [-74.006, 40.7128],
  zoom: ${DEFAULT_ZOOM},
});
map.once('idle', () => { document.body.dataset.mapReady = 'true'; });
</script>
</body>
</html>`;

const CONTENT_TYPES: Record<string, string> = {
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** Serves the bare page and maplibre's dist; forwards every other request to `upstream`. */
async function startProxy(upstream: string): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(upstream);
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://proxy');
    if (url.pathname === '/__bench/bare') {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      response.end(BARE_PAGE);
      return;
    }
    if (url.pathname.startsWith('/__bench/maplibre/')) {
      const name = path.basename(url.pathname);
      const file = path.join(MAPLIBRE_DIST, name);
      if (!/^maplibre-gl[\w-]*\.(?:mjs|css)$/.test(name) || !existsSync(file)) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, {
        'Content-Type': CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream',
      });
      createReadStream(file).pipe(response);
      return;
    }
    const forwarded = http.request(
      {
        hostname: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (upstreamResponse) => {
        response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
        upstreamResponse.pipe(response);
      },
    );
    forwarded.on('error', () => response.writeHead(502).end());
    request.pipe(forwarded);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const IDLE_RECORDER = `
new MutationObserver(() => {
  const body = document.body;
  if (body && body.dataset.mapReady === 'true' && body.dataset.benchIdleMs === undefined) {
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
  const { runs, seed } = parseArgs(process.argv.slice(2));
  console.log(`[bench:map] starting the server (seed ${seed}) ...`);
  const server = await startServer({ seed });
  const proxy = await startProxy(server.url);
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const pages = { app: `${proxy.url}/`, bare: `${proxy.url}/__bench/bare` };
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
      `(A) XPoint app page   first idle, median of ${runs} cold loads: ${app.toFixed(0)} ms  [${fmt(times.app)}]`,
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
