import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Feature, Polygon, Position } from 'geojson';
import GeoJSONVT, { type LegacyTile } from 'geojson-vt';
import type { DemoArea } from '../../src/server/seed/places';
import { BASEMAP_DETAIL_MIN_ZOOM } from '../../src/shared/map/contract';

/**
 * Street-zoom coast for the embedded basemap, cut for zooms COAST_MIN_ZOOM..COAST_MAX_ZOOM only around
 * the demo cities (the seed's SEED_CITY_COUNT largest places, each within its point radius plus a
 * margin), from the OpenStreetMap land and sea polygons at 10 m (@geo-maps/earth-lands-10m and
 * earth-seas-10m, ODbL): see buildCoastTiles for how the two, and Natural Earth where both lack a
 * cell, make one coast.
 * The whole world at these zooms would not fit the archive budget: Natural Earth keeps the world at
 * zooms 0-7 and shows through wherever no detail tile exists.
 */

const require = createRequire(import.meta.url);
export const COAST_MIN_ZOOM = BASEMAP_DETAIL_MIN_ZOOM;
/**
 * The data's absolute error is 10 m; at zoom 12 one tile unit is 2.4 m at the equator, so deeper
 * zooms would add tiles, not truth (MapLibre overzooms 12 for the street zooms).
 */
export const COAST_MAX_ZOOM = 12;
const EXTENT = 4096;
/** How far past a city's point radius the detail reaches, so a map panned a little stays true. */
const MARGIN_KM = 4;
const KM_PER_DEGREE = 111.32;

export interface LonLatBox {
  west: number;
  south: number;
  east: number;
  north: number;
}

interface GeometryCollectionFile {
  geometries: { type: 'Polygon' | 'MultiPolygon'; coordinates: Position[][] | Position[][][] }[];
}

/** Shoelace area in degrees² (positive = counter-clockwise with y up). */
function signedArea(ring: Position[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += (ring[j]![0]! - ring[i]![0]!) * (ring[j]![1]! + ring[i]![1]!);
  }
  return sum / 2;
}

/**
 * Outer rings counter-clockwise and holes clockwise (y up), which is clockwise / counter-clockwise
 * in tile space as MVT readers want; OSM's rings come either way. No antimeridian repair is needed:
 * the OSM polygons are already split at ±180°, and detail tiles sit around cities only.
 */
export function rewound(rings: Position[][]): Position[][] {
  return rings
    .filter((ring) => ring.length >= 4)
    .map((ring, index) => (signedArea(ring) > 0 === (index === 0) ? ring : ring.slice().reverse()));
}

function ringBox(ring: Position[]): LonLatBox {
  const box = { west: Infinity, south: Infinity, east: -Infinity, north: -Infinity };
  for (const [lon, lat] of ring) {
    if (lon! < box.west) box.west = lon!;
    if (lon! > box.east) box.east = lon!;
    if (lat! < box.south) box.south = lat!;
    if (lat! > box.north) box.north = lat!;
  }
  return box;
}

function intersects(a: LonLatBox, b: LonLatBox): boolean {
  return a.west <= b.east && b.west <= a.east && a.south <= b.north && b.south <= a.north;
}

const FULL = EXTENT + 2 * 64;
/** The whole buffered tile, as a tile one layer covers whole is written (identical bytes: stored once). */
const FULL_SQUARE: [number, number][] = [
  [-64, -64],
  [-64, EXTENT + 64],
  [EXTENT + 64, EXTENT + 64],
  [EXTENT + 64, -64],
  [-64, -64],
];

function tileRingArea(ring: readonly (readonly number[])[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += (ring[j]![0]! - ring[i]![0]!) * (ring[j]![1]! + ring[i]![1]!);
  }
  return sum / 2;
}

/**
 * A tile that one layer's polygons cover whole gets one canonical square instead of the clipped
 * polygon's edge points (which differ tile by tile), so the thousands of inland (or open-sea) tiles
 * share one stored tile.
 */
export function uniform(tile: LegacyTile | null): LegacyTile | null {
  if (tile === null || tile.features.length === 0) return null;
  let area = 0;
  for (const feature of tile.features) {
    if (feature.type !== 3) return tile;
    for (const ring of feature.geometry as unknown as number[][][]) area += tileRingArea(ring);
  }
  if (Math.abs(Math.abs(area) - FULL * FULL) > 1) return tile;
  // the square keeps the winding the tiler gave the land (outer rings' orientation)
  const square =
    Math.sign(tileRingArea(FULL_SQUARE)) === Math.sign(area) ? FULL_SQUARE : FULL_SQUARE.toReversed();
  return { ...tile, features: [{ ...tile.features[0]!, geometry: [square] as never, tags: {} }] };
}

/** A demo area's box: its point radius plus MARGIN_KM around the centre. */
export function areaBox(area: DemoArea): LonLatBox {
  const km = area.radiusKm + MARGIN_KM;
  const dLat = km / KM_PER_DEGREE;
  const dLon = km / (KM_PER_DEGREE * Math.max(0.2, Math.cos((area.lat * Math.PI) / 180)));
  return { west: area.lon - dLon, south: area.lat - dLat, east: area.lon + dLon, north: area.lat + dLat };
}

function lonToX(lon: number, z: number): number {
  return ((lon + 180) / 360) * 2 ** z;
}

function latToY(lat: number, z: number): number {
  const sin = Math.sin((lat * Math.PI) / 180);
  return (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * 2 ** z;
}

function tileBox(z: number, x: number, y: number): LonLatBox {
  const lon = (tx: number) => (tx / 2 ** z) * 360 - 180;
  const lat = (ty: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * ty) / 2 ** z))) * 180) / Math.PI;
  return { west: lon(x), east: lon(x + 1), north: lat(y), south: lat(y + 1) };
}

function tileKey(z: number, x: number, y: number): number {
  return x * 2 ** z + y;
}

/** geojson-vt's own key of a tile in its cache (its toID). */
function geojsonVtId(z: number, x: number, y: number): number {
  return ((1 << z) * y + x) * 32 + z;
}

/** Every tile of zoom z that touches one of the boxes, as "x/y" keys. */
export function tilesCovering(boxes: readonly LonLatBox[], z: number): { x: number; y: number }[] {
  const seen = new Set<number>();
  const out: { x: number; y: number }[] = [];
  const last = 2 ** z - 1;
  for (const box of boxes) {
    const x0 = Math.max(0, Math.floor(lonToX(box.west, z)));
    const x1 = Math.min(last, Math.floor(lonToX(box.east, z)));
    const y0 = Math.max(0, Math.floor(latToY(box.north, z)));
    const y1 = Math.min(last, Math.floor(latToY(box.south, z)));
    for (let x = x0; x <= x1; x++) {
      for (let y = y0; y <= y1; y++) {
        const key = tileKey(z, x, y);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ x, y });
      }
    }
  }
  return out;
}

/** Holes smaller than this (km²), or with this few corners, are dropped: see isLake. */
const MIN_LAKE_KM2 = 1;
const MIN_LAKE_CORNERS = 7;

/**
 * The land polygons' holes are inland water: lakes and reservoirs. The data's simplification leaves
 * the small ones as scattered triangles of water in the middle of towns, which read as rendering
 * faults, so only lakes of some size and shape are kept.
 */
export function isLake(ring: Position[]): boolean {
  if (ring.length < MIN_LAKE_CORNERS) return false;
  const lat = ring[0]![1]!;
  const km2 = Math.abs(signedArea(ring)) * KM_PER_DEGREE * KM_PER_DEGREE * Math.cos((lat * Math.PI) / 180);
  return km2 >= MIN_LAKE_KM2;
}

function readPolygons(file: string): Position[][][] {
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as GeometryCollectionFile;
  return parsed.geometries.flatMap(
    (geometry) =>
      (geometry.type === 'MultiPolygon' ? geometry.coordinates : [geometry.coordinates]) as Position[][][],
  );
}

function touches(ring: Position[], boxes: readonly LonLatBox[]): boolean {
  const box = ringBox(ring);
  return boxes.some((b) => intersects(box, b));
}

/**
 * The OSM polygons near the boxes, one feature per polygon: the land (its holes that are lakes kept:
 * isLake), those lakes again as polygons of their own, and the seas (their holes, the islands, kept only where they touch a box: the ocean is one
 * polygon of 1.8 million corners and 60,000 islands).
 */
export function osmPolygons(
  boxes: readonly LonLatBox[],
  files: CoastFiles = {},
): { land: Feature<Polygon>[]; seas: Feature<Polygon>[]; lakes: Feature<Polygon>[] } {
  const polygon = (coordinates: Position[][]): Feature<Polygon> => ({
    type: 'Feature',
    properties: {},
    geometry: { type: 'Polygon', coordinates: rewound(coordinates) },
  });
  const land: Feature<Polygon>[] = [];
  // the lakes are water in the seas' layer too: there the land's holes would show Natural Earth land
  const lakes: Feature<Polygon>[] = [];
  const landFile = files.lands ?? require.resolve('@geo-maps/earth-lands-10m/map.geo.json');
  for (const rings of readPolygons(landFile)) {
    const outer = rings[0];
    if (!outer || !touches(outer, boxes)) continue;
    const kept = rings.slice(1).filter(isLake);
    land.push(polygon([outer, ...kept]));
    for (const lake of kept) if (touches(lake, boxes)) lakes.push(polygon([lake]));
  }
  const seas: Feature<Polygon>[] = [];
  for (const rings of readPolygons(files.seas ?? require.resolve('@geo-maps/earth-seas-10m/map.geo.json'))) {
    const outer = rings[0];
    if (outer && touches(outer, boxes))
      seas.push(polygon([outer, ...rings.slice(1).filter((hole) => touches(hole, boxes))]));
  }
  return { land, seas, lakes };
}

/** The OSM files (tests pass small ones). */
export interface CoastFiles {
  lands?: string;
  seas?: string;
}

/** The layers of one detail tile, bottom to top. */
export interface CoastTile {
  /** the whole tile: water, under everything. */
  water: LegacyTile | null;
  /** Natural Earth land: decides only the cells both OSM files lack. */
  base: LegacyTile | null;
  /** the OSM seas, and the lakes of the OSM land. */
  sea: LegacyTile | null;
  /** the OSM land, its lakes as holes. */
  land: LegacyTile | null;
}

export type CoastTileSink = (z: number, x: number, y: number, tile: CoastTile) => void;

/** The whole projected world, as one polygon. */
const WORLD: Feature<Polygon> = {
  type: 'Feature',
  properties: {},
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [-180, -85.06],
        [180, -85.06],
        [180, 85.06],
        [-180, 85.06],
        [-180, -85.06],
      ],
    ],
  },
};

/**
 * Cuts the detail tiles: for every covered tile a full-tile water square, so a detail tile hides the
 * Natural Earth coast beneath it entirely (no half-old, half-new tile); on it `base` (Natural Earth
 * land), the OSM seas and the OSM land. The two OSM files are each other's complement except for
 * grid cells lost from both (a notch of water at Manhattan's Civic Center where the land file lacks
 * a cell, Sydney Harbour drawn as land where the seas file lacks cells): there Natural Earth decides,
 * right about a cell of a few hundred metres where its coast is not kilometres off.
 */
export function buildCoastTiles(
  areas: readonly DemoArea[],
  emit: CoastTileSink,
  files: CoastFiles = {},
  base: readonly Feature[] = [],
): { land: number; seas: number; lakes: number; tiles: number } {
  const boxes = areas.map(areaBox);
  // the polygons touching any covered low-zoom tile (those tiles reach beyond the areas themselves)
  const coverBoxes = tilesCovering(boxes, COAST_MIN_ZOOM).map(({ x, y }) => tileBox(COAST_MIN_ZOOM, x, y));
  const osm = osmPolygons(coverBoxes, files);
  // Natural Earth's polygons far from every city would only be cut to be thrown away
  const near = base.filter(
    (feature) =>
      feature.geometry.type !== 'Polygon' ||
      touches((feature.geometry as Polygon).coordinates[0] ?? [], coverBoxes),
  );
  const options = {
    maxZoom: COAST_MAX_ZOOM,
    indexMaxZoom: 0,
    extent: EXTENT,
    buffer: 64,
    tolerance: 1,
  };
  const cut = (features: readonly Feature[]) =>
    new GeoJSONVT({ type: 'FeatureCollection', features: [...features] }, options);
  const layers = {
    water: cut([WORLD]),
    base: cut(near),
    sea: cut([...osm.seas, ...osm.lakes]),
    land: cut(osm.land),
  };
  // Depth-first, one detail-zoom parent at a time, forgetting its tiles after: geojson-vt keeps every
  // tile it cut (with the geometry to cut further), and a world's worth of them made the build spend
  // half its time collecting garbage.
  let tiles = 0;
  const caches = Object.values(layers).map(
    (index) => (index as unknown as { tiles: Record<number, unknown> }).tiles,
  );
  const wanted = new Map<number, Set<number>>();
  for (let z = COAST_MIN_ZOOM; z <= COAST_MAX_ZOOM; z++) {
    wanted.set(z, new Set(tilesCovering(boxes, z).map(({ x, y }) => tileKey(z, x, y))));
  }
  for (const parent of tilesCovering(boxes, COAST_MIN_ZOOM)) {
    const done: number[] = [];
    for (let z = COAST_MIN_ZOOM; z <= COAST_MAX_ZOOM; z++) {
      const scale = 2 ** (z - COAST_MIN_ZOOM);
      for (let x = parent.x * scale; x < (parent.x + 1) * scale; x++) {
        for (let y = parent.y * scale; y < (parent.y + 1) * scale; y++) {
          if (wanted.get(z)!.has(tileKey(z, x, y))) {
            emit(z, x, y, {
              water: layers.water.getTile(z, x, y),
              base: uniform(layers.base.getTile(z, x, y)),
              sea: uniform(layers.sea.getTile(z, x, y)),
              land: uniform(layers.land.getTile(z, x, y)),
            });
            tiles++;
          }
          done.push(geojsonVtId(z, x, y));
        }
      }
    }
    // only now: a deeper tile is cut from its parent's kept geometry
    for (const cache of caches) for (const id of done) delete cache[id];
  }
  return { land: osm.land.length, seas: osm.seas.length, lakes: osm.lakes.length, tiles };
}
