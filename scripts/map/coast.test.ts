import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import type { Feature, Polygon } from 'geojson';
import { afterAll, describe, expect, it } from 'vitest';
import { ArchiveLandMask } from '../../src/server/seed/land';
import { BASEMAP_LAYERS } from '../../src/shared/map/contract';
import { COAST_MAX_ZOOM, COAST_MIN_ZOOM, areaBox, buildCoastTiles, tilesCovering } from './coast';
import { writePmtiles, type ArchiveTile } from './pmtiles-writer';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-coast-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * A small made-up coast, written as the OSM files would be: the sea around an island of half a
 * degree (the island a hole in it), and the island's land polygon with a lagoon (a hole) in its
 * middle and, as the real land data has at Manhattan's Civic Center, a slot missing from it (lon
 * 0.30-0.35, lat 0.30-0.50) that the seas file lacks too; the seas file likewise lacks a cell of
 * sea off the east shore, as at Sydney Harbour. Outer rings clockwise: OSM's come either way.
 */
function writeCoast(): { seas: string; lands: string } {
  const island = [
    [0, 0],
    [0, 0.5],
    [0.5, 0.5],
    [0.5, 0],
    [0, 0],
  ];
  const slotted = [
    [0, 0],
    [0, 0.5],
    [0.3, 0.5],
    [0.3, 0.3],
    [0.35, 0.3],
    [0.35, 0.5],
    [0.5, 0.5],
    [0.5, 0],
    [0, 0],
  ];
  const sea = [
    [-1, -1],
    [-1, 1.5],
    [1.5, 1.5],
    [1.5, -1],
    [-1, -1],
  ];
  // a lake of about 5 km², kept; a pond of a few corners, dropped (isLake)
  const lagoon = [
    [0.24, 0.24],
    [0.25, 0.235],
    [0.26, 0.24],
    [0.265, 0.25],
    [0.26, 0.26],
    [0.25, 0.265],
    [0.24, 0.26],
    [0.24, 0.24],
  ];
  const pond = [
    [0.2, 0.2],
    [0.202, 0.2],
    [0.202, 0.202],
    [0.2, 0.202],
    [0.2, 0.2],
  ];
  const write = (name: string, coordinates: number[][][]) => {
    const file = path.join(dir, name);
    fs.writeFileSync(
      file,
      JSON.stringify({ type: 'GeometryCollection', geometries: [{ type: 'Polygon', coordinates }] }),
    );
    return file;
  };
  // a cell of sea lost from the seas file too: lon 0.52-0.56, lat 0.2-0.3
  const lostSea = [
    [0.52, 0.2],
    [0.56, 0.2],
    [0.56, 0.3],
    [0.52, 0.3],
    [0.52, 0.2],
  ];
  return {
    seas: write('seas.geo.json', [sea, island, lostSea]),
    lands: write('lands.geo.json', [slotted, lagoon, pond]),
  };
}

/** Natural Earth's island: coarse, a kilometre too far east, but whole. */
const baseIsland: Feature<Polygon> = {
  type: 'Feature',
  properties: {},
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [0, 0],
        [0.51, 0],
        [0.51, 0.5],
        [0, 0.5],
        [0, 0],
      ],
    ],
  },
};

describe('the street-zoom coast', () => {
  // one area in the middle of the island, one on its east shore
  const areas = [
    { lat: 0.25, lon: 0.25, radiusKm: 10 },
    { lat: 0.25, lon: 0.5, radiusKm: 2 },
  ];
  const tiles: ArchiveTile[] = [];
  const built = buildCoastTiles(
    areas,
    (z, x, y, detail) => {
      const layers: Record<string, unknown> = {};
      if (detail.water) layers[BASEMAP_LAYERS.detailWater] = detail.water;
      if (detail.base) layers[BASEMAP_LAYERS.detailBase] = detail.base;
      if (detail.sea) layers[BASEMAP_LAYERS.detailSea] = detail.sea;
      if (detail.land) layers[BASEMAP_LAYERS.detailLand] = detail.land;
      const pbf = fromGeojsonVt(layers as Parameters<typeof fromGeojsonVt>[0], { version: 2, extent: 4096 });
      tiles.push({ z, x, y, data: gzipSync(pbf) });
    },
    writeCoast(),
    [baseIsland],
  );
  const archive = writePmtiles(tiles, {
    minZoom: 0,
    maxZoom: COAST_MAX_ZOOM,
    bounds: [-180, -85, 180, 85],
    center: [0, 0, 10],
    metadata: {},
  });
  const mask = new ArchiveLandMask(archive.buffer);

  it('cuts a tile for every detail zoom around the areas, and only there', () => {
    expect([built.land, built.seas, built.lakes]).toEqual([1, 1, 1]);
    for (let z = COAST_MIN_ZOOM; z <= COAST_MAX_ZOOM; z++) {
      expect(tiles.filter((t) => t.z === z)).toHaveLength(tilesCovering(areas.map(areaBox), z).length);
    }
    expect(built.tiles).toBe(tiles.length);
  });

  it('tells land from the sea around it and from the lagoon inside it', () => {
    expect(mask.zoom).toBe(COAST_MAX_ZOOM);
    expect(mask.isLand(0.18, 0.18)).toBe(true);
    expect(mask.isLand(0.25, 0.495)).toBe(true); // 500 m inside the east shore
    expect(mask.isLand(0.25, 0.25)).toBe(false); // the lake
    expect(mask.isLand(0.201, 0.201)).toBe(true); // the pond, too small and crude to draw
    expect(mask.isLand(0.25, 0.505)).toBe(false); // 500 m out to sea
  });

  it('lets Natural Earth decide the cells both OSM files lack', () => {
    expect(mask.isLand(0.34, 0.325)).toBe(true); // in the slot the land file lacks
    expect(mask.isLand(0.34, 0.29)).toBe(true);
    expect(mask.isLand(0.25, 0.54)).toBe(false); // in the cell the seas file lacks
    expect(mask.isLand(0.25, 0.505)).toBe(false); // the OSM sea, though Natural Earth says land
  });

  it('says land where it has no detail (nothing to say otherwise)', () => {
    expect(mask.isLand(45, 90)).toBe(true);
  });

  it('stores the island’s inland tiles once (one land square, no water, no edge points)', () => {
    const inland = tiles.filter((t) => t.z === COAST_MAX_ZOOM);
    const distinct = new Set(inland.map((t) => Buffer.from(t.data).toString('base64')));
    expect(distinct.size).toBeLessThan(inland.length);
  });
});
