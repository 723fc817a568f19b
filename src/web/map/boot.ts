/**
 * The map's early start (issue 23), a page entry of its own beside the app's (vite.config.ts adds its
 * script to index.html, `async`, so it runs as soon as it arrives). On a map screen the server painted
 * (`#root[data-first-paint]`), the first screen is drawn already: it loads maplibre at once and makes
 * the map, hidden, while the app's own scripts still load and React renders; the shell's map box then
 * takes that map over (mapCore.ts). Before it, the map started only once the app's whole first screen
 * had loaded and rendered: `npm run bench:map` measured its first idle at 1.5× a bare MapLibre page's.
 * On a screen the app draws itself, the map waits for the app's script (MapView.tsx), not to take the
 * network from it.
 *
 * It imports nothing statically, not even Vite's preload helper: its first request would queue behind
 * the app's twenty. mapCore's own imports are found when it arrives, one small file later.
 */
if (document.getElementById('root')?.dataset['firstPaint'] !== undefined) {
  import('./mapCore')
    .then((module) => module.startMapEarly())
    // the shell loads the map again when it renders, and says what failed there
    .catch(() => undefined);
}
