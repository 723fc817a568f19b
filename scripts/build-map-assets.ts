// `npm run build:map`: bakes what the map style needs into dist/map/ (run by `npm start` when
// missing): basemap.pmtiles, glyphs/{fontstack}/{start}-{end}.pbf, sprite[@2x].{json,png}.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASEMAP_MAX_ZOOM, buildBasemapTiles } from './map/basemap';
import { buildGlyphs } from './map/glyphs';
import { writePmtiles } from './map/pmtiles-writer';
import { buildSprite } from './map/sprite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.resolve(root, process.argv[2] ?? 'dist/map');
const MIB = 1024 * 1024;

function timed<T>(label: string, run: () => T): T {
  const started = performance.now();
  const result = run();
  process.stdout.write(`map assets: ${label} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return result;
}

// Write into a temporary directory and swap it in, so a half-built dist/map never looks complete.
const workDir = `${outDir}.building-${process.pid}`;
fs.rmSync(workDir, { recursive: true, force: true });
fs.mkdirSync(workDir, { recursive: true });
try {
  const started = performance.now();

  const glyphs = timed('glyphs', () => buildGlyphs(path.join(workDir, 'glyphs')));
  process.stdout.write(
    `  ${glyphs.stacks} stacks, ${glyphs.ranges} ranges, ${glyphs.glyphs} glyphs, ${(glyphs.bytes / MIB).toFixed(2)} MiB\n`,
  );

  const spriteStarted = performance.now();
  const sprite = await buildSprite(workDir);
  process.stdout.write(
    `map assets: sprite in ${((performance.now() - spriteStarted) / 1000).toFixed(1)} s\n` +
      `  ${sprite.images} images, ${sprite.width}x${sprite.height} px at 1x, ${(sprite.bytes / 1024).toFixed(0)} KiB\n`,
  );

  const basemap = timed('basemap tiles', () => buildBasemapTiles());
  const archive = timed('basemap archive', () =>
    writePmtiles(basemap.tiles, {
      minZoom: 0,
      maxZoom: BASEMAP_MAX_ZOOM,
      bounds: [-180, -85.0511287798066, 180, 85.0511287798066],
      center: [0, 20, 2],
      metadata: basemap.metadata,
    }),
  );
  fs.writeFileSync(path.join(workDir, 'basemap.pmtiles'), archive.buffer);
  const s = archive.stats;
  process.stdout.write(
    `  zooms 0-${BASEMAP_MAX_ZOOM}: ${s.addressedTiles} tiles, ${s.tileContents} distinct, ${s.tileEntries} entries, ` +
      `${s.leafDirectories} leaf directories, ${basemap.places} places, ${(s.bytes / MIB).toFixed(2)} MiB\n` +
      `  detail: ${basemap.detailTiles} tiles, ${basemap.landPolygons} OSM land and ${basemap.seaPolygons} sea polygons\n`,
  );

  fs.rmSync(outDir, { recursive: true, force: true });
  fs.renameSync(workDir, outDir);
  process.stdout.write(
    `map assets: done in ${((performance.now() - started) / 1000).toFixed(1)} s -> ${path.relative(root, outDir)}\n`,
  );
} catch (error) {
  fs.rmSync(workDir, { recursive: true, force: true });
  throw error;
}
