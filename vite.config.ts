import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { visualizer } from 'rollup-plugin-visualizer';
import sharp from 'sharp';
import { defineConfig, type Plugin, type PluginOption } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/** The Fastify server started by `npm run dev` (src/server/main.ts). */
const API_ORIGIN = 'http://127.0.0.1:8080';

/** Server paths the dev server forwards; everything else is the web app. */
const proxied = ['/v1', '/healthz', '/home', '/tiles', '/media'];

/**
 * Writes .br and .gz beside every hashed script, worker and stylesheet once the build is done, so the
 * server sends them as they are (@fastify/static preCompressed) instead of compressing the 1 MB map
 * script and its 520 KB worker on every cold load. Brotli quality 10: within 2% of 11 at a third of the time.
 */
function precompress(): Plugin {
  return {
    name: 'xpoint-precompress',
    apply: 'build',
    writeBundle(options) {
      const assets = path.join(options.dir ?? '', 'assets');
      if (!fs.existsSync(assets)) return;
      for (const name of fs.readdirSync(assets)) {
        if (!/\.(m?js|css|svg|json)$/.test(name)) continue;
        const file = path.join(assets, name);
        const content = fs.readFileSync(file);
        if (content.length < 1024) continue;
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 10 } }),
        );
      }
    },
  };
}

const root = fileURLToPath(new URL('./src/web', import.meta.url));

/** The app's icons, made from one drawing (src/web/pwa/icon.svg) at every size a device asks for. */
const APP_ICONS = [
  { fileName: 'icons/icon-192.png', size: 192 },
  { fileName: 'icons/icon-512.png', size: 512 },
  { fileName: 'icons/apple-touch-icon.png', size: 180 },
] as const;

/** Renders APP_ICONS into the build with sharp: made here, from the drawing, never downloaded. */
function appIcons(): Plugin {
  return {
    name: 'xpoint-app-icons',
    apply: 'build',
    async generateBundle() {
      const drawing = fs.readFileSync(path.join(root, 'pwa/icon.svg'));
      for (const { fileName, size } of APP_ICONS) {
        const source = await sharp(drawing, { density: 72 * (size / 512) * 4 })
          .resize(size, size)
          .png({ compressionLevel: 9 })
          .toBuffer();
        this.emitFile({ type: 'asset', fileName, source });
      }
    },
  };
}

/**
 * The web app manifest and the service worker (src/web/pwa/sw.ts, issue 23). The worker is ours
 * (injectManifest): Workbox's generated one answers every page from the precache, where XPoint's
 * pages come painted from the server and only stand in from the precache offline. Its precache is
 * the app's files, the map's worker among them: not the server-rendered pages' (fullscreen.html,
 * citypage.html), not the .br and .gz copies, not the password-strength dictionaries (below).
 */
function progressiveWebApp(): PluginOption {
  return VitePWA({
    strategies: 'injectManifest',
    srcDir: 'pwa',
    filename: 'sw.ts',
    // register.ts registers it, once the page is idle after its load
    injectRegister: false,
    manifest: {
      name: 'XPoint',
      short_name: 'XPoint',
      description: 'Search and browse places, events and people around you on a live map.',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      // the basemap's land, what the map's place shows before it draws
      background_color: '#f2efe9',
      theme_color: '#1f6feb',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    injectManifest: {
      globPatterns: ['index.html', 'assets/*.{js,mjs,css}', 'icons/*.png', 'manifest.webmanifest'],
      // the password-strength dictionaries are half the app (773 KB of 1.5 MB, brotli), for the
      // sign-up and password forms only: kept when first used, by the worker's route for assets
      globIgnores: ['assets/zxcvbn-*'],
      // maplibre-gl's chunk is about 1 MB
      maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
    },
    devOptions: { enabled: false },
  });
}

/**
 * The app's first screen in two files where the default splitting made twenty (a browser asks a host
 * over six connections, and the map's tiles wait behind the queue: `npm run bench:map`). Of the
 * modules index.html imports statically, transitively:
 * - `appOnly`: those no server-rendered page (the full-screen point, the city and event pages) ever
 *   reaches, statically or by a later import; the app's entry goes with them;
 * - `appShared`: the rest, less what those pages' own first screens import (their budgets hold).
 * Found once the module graph is built (buildEnd), read when the chunks are made (the groups below,
 * which take no dependencies along: another page never loads the app's entry, or starts its map).
 */
function firstScreenModules(): {
  plugin: Plugin;
  appOnly: (id: string) => boolean;
  appShared: (id: string) => boolean;
} {
  const appOnly = new Set<string>();
  const appShared = new Set<string>();
  return {
    appOnly: (id) => appOnly.has(id),
    appShared: (id) => appShared.has(id),
    plugin: {
      name: 'xpoint-first-screen-modules',
      apply: 'build',
      buildEnd() {
        const reach = (from: string[], withLater: boolean): Set<string> => {
          const ids = new Set<string>();
          const queue = [...from];
          while (queue.length > 0) {
            const id = queue.pop() as string;
            if (ids.has(id)) continue;
            ids.add(id);
            const info = this.getModuleInfo(id);
            queue.push(...(info?.importedIds ?? []));
            if (withLater) queue.push(...(info?.dynamicallyImportedIds ?? []));
          }
          return ids;
        };
        const pages = [...this.getModuleIds()].filter((id) => id.endsWith('.html'));
        const app = pages.filter((id) => path.basename(id) === 'index.html');
        const others = pages.filter((id) => !app.includes(id));
        const othersFirst = reach(others, false);
        const othersEver = reach(others, true);
        appOnly.clear();
        appShared.clear();
        for (const id of reach(app, false)) {
          if (!othersEver.has(id)) appOnly.add(id);
          else if (!othersFirst.has(id)) appShared.add(id);
        }
      },
    },
  };
}
const firstScreen = firstScreenModules();

/** The map's early start (src/web/map/boot.ts): a page entry of its own, beside the app's. */
const MAP_BOOT_ENTRY = 'mapboot';

/**
 * Puts the map's early start into the app's page as a script of its own, ahead of the app's entry.
 * Not a second `<script>` in index.html: Vite bundles an HTML page's module scripts into one entry, and
 * the early start would then wait, as now the map does, for the whole first screen's JavaScript.
 */
function mapBootScript(): Plugin {
  return {
    name: 'xpoint-map-boot-script',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        if (!context.filename.endsWith('index.html')) return [];
        const boot = Object.values(context.bundle ?? {}).find(
          (output) => output.type === 'chunk' && output.isEntry && output.name === MAP_BOOT_ENTRY,
        );
        // the dev server serves the source as it is
        const src = boot === undefined ? '/map/boot.ts' : `/${boot.fileName}`;
        if (context.bundle !== undefined && boot === undefined)
          throw new Error('vite.config.ts: the build made no map boot chunk');
        return [
          {
            tag: 'script',
            attrs: { type: 'module', async: true, crossorigin: true, src },
            injectTo: 'head-prepend',
          },
        ];
      },
    },
  };
}

/**
 * A second entry of the server's renderer build (issue 19): `--ssr ssr/render.tsx` names one entry, so
 * the city and event pages' renderer (src/web/ssr/citypages.tsx) is added here, into dist/ssr/citypages.js.
 */
function cityPagesSsrEntry(): Plugin {
  return {
    name: 'xpoint-citypages-ssr-entry',
    apply: 'build',
    options(options) {
      if (typeof options.input !== 'string') return null;
      const citypages = fileURLToPath(new URL('./src/web/ssr/citypages.tsx', import.meta.url));
      return { ...options, input: { render: options.input, citypages } };
    },
  };
}

/**
 * `vite build --ssr ssr/render.tsx`: the server's renderer of the full-screen point page
 * (src/web/ssr/render.tsx), for Node, into dist/ssr; packages stay imports of node_modules.
 */
const ssrBuild = defineConfig({
  root,
  plugins: [react(), cityPagesSsrEntry()],
  build: {
    outDir: fileURLToPath(new URL('./dist/ssr', import.meta.url)),
    emptyOutDir: true,
  },
});

const browserBuild = defineConfig({
  root,
  resolve: {
    alias: [
      // react-router's package exports name only its development build (dev warnings on); the same
      // code with them off sits beside it
      {
        find: /^react-router$/,
        replacement: fileURLToPath(
          new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url),
        ),
      },
    ],
  },
  plugins: [
    react(),
    firstScreen.plugin,
    mapBootScript(),
    precompress(),
    appIcons(),
    progressiveWebApp(),
    // the bundle map (issue 23): which module costs what in every chunk, raw, gzip and brotli, beside
    // the build rather than in it (dist/web is served)
    visualizer({
      filename: fileURLToPath(new URL('./dist/bundle-map.html', import.meta.url)),
      template: 'treemap',
      title: 'XPoint web bundle',
      gzipSize: true,
      brotliSize: true,
    }) as PluginOption,
  ],
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    // maplibre-gl alone is ~1 MB minified; its size is known and budgeted (notes/offline-map.md).
    chunkSizeWarningLimit: 1200,
    modulePreload: {
      // the full-screen page is painted by the server: its scripts only hydrate it, so they must not
      // take the network from its stylesheet and pictures (no preload hints in fullscreen.html; nor in
      // citypage.html, the city and event pages, issue 19)
      resolveDependencies: (_file, deps, { hostId, hostType }) =>
        hostType === 'html' && (hostId.endsWith('fullscreen.html') || hostId.endsWith('citypage.html'))
          ? []
          : deps,
    },
    rolldownOptions: {
      // the app, and the full-screen point page the server renders (src/web/ssr)
      input: {
        index: fileURLToPath(new URL('./src/web/index.html', import.meta.url)),
        fullscreen: fileURLToPath(new URL('./src/web/fullscreen.html', import.meta.url)),
        // the city page /cads/{city} and the event page /e/{id}, rendered by the server (issue 19)
        citypage: fileURLToPath(new URL('./src/web/citypage.html', import.meta.url)),
        [MAP_BOOT_ENTRY]: fileURLToPath(new URL('./src/web/map/boot.ts', import.meta.url)),
      },
      output: {
        codeSplitting: {
          groups: [
            // the map's early start carries Vite's preload helper and the early map's handoff, so it
            // imports nothing: one more request would queue behind the app's twenty (a browser opens
            // six connections per host)
            {
              name: MAP_BOOT_ENTRY,
              test: /preload-helper|[\\/]src[\\/]web[\\/]map[\\/](boot|earlyMap)\.ts$/,
            },
            // its code only: its stylesheet goes with the map's box (MapView.tsx), so the early
            // start (src/web/map/boot.ts) loads maplibre without a stylesheet to wait for
            { name: 'maplibre', test: /[\\/]node_modules[\\/]maplibre-gl[\\/].*\.m?js$/ },
            {
              name: 'react',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/,
            },
            // the app's router; the server-rendered full-screen page does without it
            { name: 'router', test: /[\\/]node_modules[\\/](react-router|cookie)[\\/]/ },
            {
              name: 'mapkit',
              test: /[\\/]src[\\/](web[\\/]map[\\/](mapHandle|mapLocation|layerVisibility|resultMarkers|selectedPlace)\.ts|shared[\\/](address|map)[\\/])/,
            },
            // the rest of the app's first screen, in one file rather than twenty: a browser asks a
            // host over six connections, and the map's tiles wait behind the queue (bench:map)
            { name: 'app', test: firstScreen.appOnly, includeDependenciesRecursively: false },
            { name: 'appshared', test: firstScreen.appShared, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      ...Object.fromEntries(proxied.map((path) => [path, { target: API_ORIGIN }])),
      '/socket': { target: API_ORIGIN, ws: true },
    },
  },
  preview: {
    proxy: {
      ...Object.fromEntries(proxied.map((path) => [path, { target: API_ORIGIN }])),
      '/socket': { target: API_ORIGIN, ws: true },
    },
  },
});

export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? ssrBuild : browserBuild));
