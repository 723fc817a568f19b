/**
 * The peer of the map benchmarks (issue 23): a bare MapLibre page on XPoint's own style and tiles, the
 * same start view as the app's default, served with maplibre-gl's own dist files by a small proxy
 * that forwards every other request to the XPoint server. Both pages then load through the same hop
 * with the same Host and no CORS. Used by `bench:map` (first idle) and `bench:lighthouse`.
 */
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync } from 'node:zlib';
import { freePort } from '../test/e2e/support/server';
import { DEFAULT_ZOOM, TILE_PATHS } from '../src/shared/map/contract';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAPLIBRE_DIST = path.join(REPO_ROOT, 'node_modules/maplibre-gl/dist');

/** Where the proxy serves the bare page. */
export const BARE_PAGE_PATH = '/__bench/bare';

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
map.once('idle', () => { document.body.dataset.mapReady = 'true'; document.body.dataset.mapDrawn = 'true'; });
</script>
</body>
</html>`;

const CONTENT_TYPES: Record<string, string> = {
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * maplibre's files as the peer sends them, compressed once with brotli as XPoint's build precompresses
 * its own (the server sends the .br copy): the two pages then pay the same for their bytes.
 */
const compressed = new Map<string, Buffer>();
function brotliOf(file: string): Buffer {
  let body = compressed.get(file);
  if (body === undefined) {
    body = brotliCompressSync(readFileSync(file));
    compressed.set(file, body);
  }
  return body;
}

/** Serves the bare page and maplibre's dist; forwards every other request to `upstream`. */
export async function startBareMaplibreProxy(
  upstream: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(upstream);
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://proxy');
    if (url.pathname === BARE_PAGE_PATH) {
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
      const type = CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream';
      if (/\bbr\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
        response.writeHead(200, { 'Content-Type': type, 'Content-Encoding': 'br', Vary: 'Accept-Encoding' });
        response.end(brotliOf(file));
      } else {
        response.writeHead(200, { 'Content-Type': type, Vary: 'Accept-Encoding' });
        response.end(readFileSync(file));
      }
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
