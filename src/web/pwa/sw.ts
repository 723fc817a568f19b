/**
 * XPoint's service worker (issue 23: installable, fast on the second visit, and the last area seen
 * when the network goes). Built by vite-plugin-pwa (injectManifest), which puts the build's file list
 * where `self.__WB_MANIFEST` stands.
 *
 * - **The app shell is precached**: every script, stylesheet and icon of the build, and `index.html`.
 *   A page is asked of the network first (the server paints it, and knows who is signed in); only
 *   when the network fails does the precached shell stand in, and the app draws the screen from the
 *   address.
 * - **The map**: the style, its sprite and the glyphs of Latin text are kept as soon as the worker
 *   first runs (the page sends the style's address); tiles the visitor has seen are kept (the
 *   basemap's for a week, the point tiles' last answer), those seen before the worker ran included.
 * - **API answers are never cached here**: offline they fail, and the app says it is offline.
 * - **A new deployment waits** until the page says so (`SKIP_WAITING`, from the "new version"
 *   notice) or every tab of the old one is closed: a page keeps the worker, and so the scripts, it
 *   started with, never a mix of two builds.
 */
import { clientsClaim, type RouteHandlerCallbackOptions, type WorkboxPlugin } from 'workbox-core';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { ExpirationPlugin } from 'workbox-expiration';
import * as navigationPreload from 'workbox-navigation-preload';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst, StaleWhileRevalidate, type Strategy } from 'workbox-strategies';
import type { StyleSpecification } from 'maplibre-gl';
import { TILE_PATHS } from '../../shared/map/contract';
import { SW_MESSAGES, SW_CACHES, isMapStyleRequest } from './contract';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: { url: string; revision: string | null }[];
};

/** The glyph ranges of Latin text: basic and supplement, extended A and B, and punctuation (’ – “ ”). */
const LATIN_GLYPH_RANGES = ['0-255', '256-511', '8192-8447'];

// '/' and '/maps' are the server's painted pages: never answered from the precache by a directory
// index or a clean URL, only as the offline stand-in below
precacheAndRoute(self.__WB_MANIFEST, { directoryIndex: '', cleanURLs: false });
cleanupOutdatedCaches();
navigationPreload.enable();

const okOrEmpty = new CacheableResponsePlugin({ statuses: [200, 204] });

/**
 * Keeps the style's sprite (both scales) and the Latin glyphs of every font it names, each once: what
 * a label will need offline, before any label has asked for it.
 */
async function cacheStyleExtras(style: StyleSpecification): Promise<void> {
  const cache = await caches.open(SW_CACHES.mapStyle);
  const urls = new Set<string>();
  const sprites = typeof style.sprite === 'string' ? [style.sprite] : (style.sprite ?? []).map((s) => s.url);
  for (const sprite of sprites)
    for (const suffix of ['.json', '.png', '@2x.json', '@2x.png']) urls.add(sprite + suffix);
  if (style.glyphs !== undefined)
    for (const font of fontStacks(style))
      for (const range of LATIN_GLYPH_RANGES)
        urls.add(style.glyphs.replace('{fontstack}', encodeURIComponent(font)).replace('{range}', range));
  await Promise.all(
    [...urls].map(async (url) => {
      if ((await cache.match(url)) !== undefined) return;
      // one that fails is kept when it is first asked for
      await cache.add(url).catch(() => undefined);
    }),
  );
}

/** Whenever the style is kept anew, its sprite and glyphs are kept with it. */
const withStyleExtras: WorkboxPlugin = {
  cacheDidUpdate: async ({ request, newResponse }) => {
    if (new URL(request.url).pathname !== TILE_PATHS.style) return;
    try {
      await cacheStyleExtras((await newResponse.clone().json()) as StyleSpecification);
    } catch {
      // a style that does not parse keeps nothing more
    }
  },
};

/** The font stacks the style's layers name literally (`text-font: ["Noto Sans Regular"]`). */
function fontStacks(style: StyleSpecification): Set<string> {
  const fonts = new Set<string>();
  for (const layer of style.layers) {
    const font = layer.type === 'symbol' ? layer.layout?.['text-font'] : undefined;
    if (Array.isArray(font) && font.every((name) => typeof name === 'string')) fonts.add(font.join(','));
  }
  return fonts;
}

/** What is cached at run time, and how: one list for the routes and for the page's CACHE_URLS. */
const cachedRoutes: { match(url: URL): boolean; strategy: Strategy }[] = [
  {
    // a hashed file the precache leaves out (the password-strength dictionaries): kept once used
    match: (url) => url.pathname.startsWith('/assets/'),
    strategy: new CacheFirst({
      cacheName: SW_CACHES.assets,
      plugins: [new ExpirationPlugin({ maxEntries: 20, purgeOnQuotaError: true })],
    }),
  },
  {
    // the style, the sprite and the glyphs: from the cache at once, refreshed behind
    match: (url) => isMapStyleRequest(url.pathname),
    strategy: new StaleWhileRevalidate({
      cacheName: SW_CACHES.mapStyle,
      plugins: [okOrEmpty, withStyleExtras],
    }),
  },
  {
    // the basemap changes with a deployment only: the cache first, for a week
    match: (url) => url.pathname.startsWith(prefixOf(TILE_PATHS.basemap)),
    strategy: new CacheFirst({
      cacheName: SW_CACHES.basemap,
      plugins: [okOrEmpty, new ExpirationPlugin({ maxEntries: 3000, maxAgeSeconds: 7 * 86_400 })],
    }),
  },
  {
    // the points are live: the network first, their last answer only when it fails
    match: (url) => url.pathname.startsWith(prefixOf(TILE_PATHS.points)),
    strategy: new NetworkFirst({
      cacheName: SW_CACHES.points,
      plugins: [okOrEmpty, new ExpirationPlugin({ maxEntries: 1500, maxAgeSeconds: 7 * 86_400 })],
    }),
  },
];

function prefixOf(template: string): string {
  return template.slice(0, template.indexOf('{'));
}

for (const { match, strategy } of cachedRoutes)
  registerRoute(
    ({ url, request }) => url.origin === self.location.origin && request.method === 'GET' && match(url),
    strategy,
  );

/** Pages: the network (the request navigation preload started), else the precached app shell. */
registerRoute(
  ({ request }) => request.mode === 'navigate',
  async (options: RouteHandlerCallbackOptions) => {
    try {
      const preloaded = await (options.event as FetchEvent).preloadResponse;
      if (preloaded) return preloaded as Response;
      return await fetch(options.request);
    } catch (error) {
      const shell = await matchPrecache('/index.html');
      if (shell) return shell;
      throw error;
    }
  },
);

// the first install takes the page that registered it at once, so what it shows next is kept
clientsClaim();

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const message = event.data as { type?: unknown; urls?: unknown } | null;
  if (message?.type === SW_MESSAGES.skipWaiting) {
    void self.skipWaiting();
    return;
  }
  if (message?.type === SW_MESSAGES.keep && Array.isArray(message.urls)) {
    // what the page fetched before this worker controlled it: the map it shows now (from the
    // browser's HTTP cache, so no second download), put where the routes above keep it
    const kept = message.urls.flatMap((href): Promise<unknown>[] => {
      if (typeof href !== 'string') return [];
      const url = new URL(href, self.location.origin);
      if (url.origin !== self.location.origin) return [];
      const route = cachedRoutes.find(({ match }) => match(url));
      return route ? [route.strategy.handle({ event, request: new Request(url.href) })] : [];
    });
    event.waitUntil(Promise.allSettled(kept));
  }
});
