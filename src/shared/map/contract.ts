import type { PointSupertype } from '../domain/supertypes';

/**
 * What the style, the point tiles and the web map agree on. One source of truth: the server's tile
 * encoder writes these names, the style endpoint's layers read them, the web map queries them.
 */

/** Layer groups (map-and-search §9 "layer groups exist per supertype"): one vector-tile layer each. */
export const LAYER_GROUPS = [
  'business',
  'poi',
  'virtualstore',
  'service',
  'experience',
  'rental',
  'helprequest',
  'incident',
  'event',
] as const satisfies readonly (PointSupertype | 'event')[];
export type LayerGroup = (typeof LAYER_GROUPS)[number];

export function isLayerGroup(value: string): value is LayerGroup {
  return (LAYER_GROUPS as readonly string[]).includes(value);
}

/** Map zoom range (§9). */
export const MIN_ZOOM = 0;
export const MAX_ZOOM = 20;
/** Default view (§9): zoom 14 at a New York coordinate. */
export const DEFAULT_CENTER = { lng: -74.006, lat: 40.7128 } as const;
export const DEFAULT_ZOOM = 14;
/** Click hit box around the pointer, in CSS pixels (§9). */
export const CLICK_HIT_BOX_PX = 5;

/** Source ids in the style. */
export const POINTS_SOURCE = 'xpoints';
export const BASEMAP_SOURCE = 'basemap';

/** URL paths the server serves (absolute URLs in the style are built from the request). */
export const TILE_PATHS = {
  points: '/tiles/points/{z}/{x}/{y}.mvt',
  basemap: '/tiles/basemap/{z}/{x}/{y}.mvt',
  glyphs: '/tiles/glyphs/{fontstack}/{range}.pbf',
  sprite: '/tiles/sprite',
  style: '/home/mapboxstyle.json',
} as const;

/**
 * Properties of a single point feature in the point tiles (§3 "Map point fields read" plus what the
 * style needs to pick an icon and colour). Geometry is the point itself.
 */
export interface PointFeatureProperties {
  appnetid: string;
  lat: number;
  lon: number;
  /** the supertype, i.e. the layer group. */
  supertype: LayerGroup;
  /** the category key (points.type / events.type). */
  businesstype: string;
  subtype: string;
  name: string;
  title: string;
  /** the point's detail route, e.g. /b/abc123 (or /maps/data={"event":{"id":..}} for events). */
  clickurl: string;
  /** BeamFlag bit set. */
  beamtype: number;
  /** 1 when promoted. */
  promo: number;
}

/** Properties of a cluster feature (supercluster's conventions, so client code reads familiar names). */
export interface ClusterFeatureProperties {
  cluster: true;
  cluster_id: number;
  point_count: number;
  /** e.g. "12k". */
  point_count_abbreviated: string;
  /** the zoom at which the cluster splits. */
  expansion_zoom: number;
  supertype: LayerGroup;
}

/** Sprite image names: one per category, coloured per supertype; a default per supertype. */
export function spriteIconName(supertype: LayerGroup, categoryKey: string): string {
  return `${supertype}-${categoryKey}`;
}
export function spriteDefaultIcon(supertype: LayerGroup): string {
  return `${supertype}-default`;
}

/** Colour per supertype, for icons, clusters and list badges. */
export const SUPERTYPE_COLORS: Readonly<Record<LayerGroup, string>> = {
  business: '#1a73e8',
  poi: '#188038',
  virtualstore: '#8e24aa',
  service: '#e37400',
  experience: '#d81b60',
  rental: '#00897b',
  helprequest: '#f9ab00',
  incident: '#d93025',
  event: '#5e35b1',
};
