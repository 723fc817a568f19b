import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { visualizer } from 'rollup-plugin-visualizer';
import { defineConfig, type Plugin, type PluginOption } from 'vite';

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
    precompress(),
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
      },
      output: {
        codeSplitting: {
          groups: [
            { name: 'maplibre', test: /[\\/]node_modules[\\/]maplibre-gl[\\/]/ },
            {
              name: 'react',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/,
            },
            // the app's router; the server-rendered full-screen page does without it
            { name: 'router', test: /[\\/]node_modules[\\/](react-router|cookie)[\\/]/ },
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
