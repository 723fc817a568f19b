import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The Fastify server started by `npm run dev` (src/server/main.ts). */
const API_ORIGIN = 'http://127.0.0.1:8080';

/** Server paths the dev server forwards; everything else is the web app. */
const proxied = ['/v1', '/healthz', '/home', '/tiles', '/media'];

export default defineConfig({
  root: fileURLToPath(new URL('./src/web', import.meta.url)),
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    // maplibre-gl alone is ~1 MB minified; its size is known and budgeted (notes/offline-map.md).
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'maplibre', test: /[\\/]node_modules[\\/]maplibre-gl[\\/]/ },
            {
              name: 'react',
              test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|cookie)[\\/]/,
            },
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
