import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Where `npm run build:map` writes the basemap, glyphs and sprite. */
export const MAP_ASSETS_DIR = path.join(REPO_ROOT, 'dist/map');

/**
 * Builds the map assets (scripts/build-map-assets.ts, about 20 s) when dist/map is missing, as
 * `npm start` does, so tests that serve the style, tiles, glyphs or sprite find them.
 */
export function ensureMapAssets(): string {
  if (fs.existsSync(path.join(MAP_ASSETS_DIR, 'basemap.pmtiles'))) return MAP_ASSETS_DIR;
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-map-assets.ts'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0)
    throw new Error(`building the map assets failed (status ${String(result.status)})`);
  return MAP_ASSETS_DIR;
}

/**
 * The map routes read `map/` beside the web build; a test app's web build is a temporary stand-in,
 * so link the real assets there.
 */
export function linkMapAssets(webDir: string): void {
  const target = path.join(path.dirname(webDir), 'map');
  if (!fs.existsSync(target)) fs.symlinkSync(ensureMapAssets(), target, 'dir');
}
