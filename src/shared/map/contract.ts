import { MAPPED_SUPERTYPES } from '../domain/supertypes';
import type { BeamType } from '../domain/beams';

/**
 * What the style, the point tiles and the web map agree on. One source of truth: the server's tile
 * encoder writes these names, the style endpoint's layers read them, the web map queries them.
 */

/** Layer groups (map-and-search §9 "layer groups exist per supertype"): one vector-tile layer each. */
export const LAYER_GROUPS = MAPPED_SUPERTYPES;
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
/** The embedded basemap's street-zoom detail (same archive, zooms 8+ around the demo cities). */
export const BASEMAP_DETAIL_SOURCE = 'basemap-detail';

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
  /** the detail route: /b/abc123 for a point, /e/{id} for an event, /post/{id} for a post. */
  clickurl: string;
  /** BeamFlag bit set. */
  beamtype: number;
  /** 1 when promoted. */
  promo: number;
}

/** One member of a cluster, as the leaves call (GET /tiles/points/clusters/…/leaves) sends it. */
export interface ClusterLeaf {
  appnetid: string;
  title: string;
  businesstype: string;
  subtype: string;
  clickurl: string;
  lat: number;
  lon: number;
}

export interface ClusterLeavesPage {
  total: number;
  leaves: ClusterLeaf[];
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
  post: '#795548',
};

/** Style layer ids of one layer group, so the web map can query and toggle them. */
export function pointLayerIds(group: LayerGroup): { clusters: string; count: string; points: string } {
  return {
    clusters: `points-${group}-clusters`,
    count: `points-${group}-count`,
    points: `points-${group}-points`,
  };
}

/** Every point layer id of the given groups (all groups by default), for queryRenderedFeatures. */
export function allPointLayerIds(groups: readonly LayerGroup[] = LAYER_GROUPS): string[] {
  return groups.flatMap((group) => Object.values(pointLayerIds(group)));
}

/** Sprite image of a beam marker: a static ring per beam type (the pulse is animated by the web map). */
export function spriteBeamIcon(beamType: BeamType): string {
  return `beam-${beamType}`;
}

/**
 * Layers of the embedded basemap tiles (the build writes them, the style reads them).
 * `places` holds points with `kind` 'country' or 'city', `name`, `population`, and `minzoom`: the
 * lowest zoom at which the style shows the label (big cities first).
 */
export const BASEMAP_LAYERS = {
  water: 'water',
  land: 'land',
  boundaries: 'countries',
  places: 'places',
  /**
   * street-zoom detail around the demo cities, bottom to top: a water square, Natural Earth land (for
   * the cells both OpenStreetMap files lack), the OpenStreetMap seas, the OpenStreetMap land.
   */
  detailWater: 'detail_water',
  detailBase: 'detail_base',
  detailSea: 'detail_sea',
  detailLand: 'detail_land',
} as const;

/** The embedded basemap's Natural Earth zooms (overzoomed beyond) and its detail zooms around the demo cities. */
export const BASEMAP_WORLD_MAX_ZOOM = 7;
export const BASEMAP_DETAIL_MIN_ZOOM = 8;
/**
 * The embedded basemap's credits, honest about what it lacks: a true coast only near the demo
 * cities, and no roads, lakes or rivers anywhere (BASEMAP gives a street map).
 */
export const BASEMAP_ATTRIBUTION =
  'Natural Earth, GeoNames, © <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> (coasts near demo cities) · overview map: no streets, lakes or rivers';
/** The credit of a Protomaps-schema archive (BASEMAP=/path/x.pmtiles). */
export const PROTOMAPS_ATTRIBUTION =
  '<a href="https://protomaps.com">Protomaps</a> © <a href="https://openstreetmap.org">OpenStreetMap</a>';

/** Whether the BASEMAP setting names an external style (an http(s) URL) rather than an archive. */
export function isExternalBasemap(setting: string | undefined): setting is string {
  return setting !== undefined && /^https?:\/\//i.test(setting);
}

/**
 * The basemap's credit as the map's attribution control shows it, for the BASEMAP setting (unset: the
 * embedded archive), or null for an external style, whose credits only its own document holds. The
 * point tiles carry none, so this is the control's whole text (issue 23: the server paints it).
 */
export function basemapCredit(setting: string | undefined): string | null {
  if (setting === undefined) return BASEMAP_ATTRIBUTION;
  return isExternalBasemap(setting) ? null : PROTOMAPS_ATTRIBUTION;
}

/**
 * Glyph font stacks the server generates. Regular, Medium and Italic are also the names the
 * Protomaps basemap layers ask for when BASEMAP names a .pmtiles file.
 */
export const FONT_STACKS = {
  regular: 'Noto Sans Regular',
  medium: 'Noto Sans Medium',
  italic: 'Noto Sans Italic',
  bold: 'Noto Sans Bold',
} as const;

/** Query values of GET /home/mapboxstyle.json (map-and-search §7). */
export const STYLE_IMAGE_FORMATS = ['webp', 'png'] as const;
export type StyleImageFormat = (typeof STYLE_IMAGE_FORMATS)[number];
/** Style metadata key carrying an external basemap style URL (BASEMAP=https://...). */
export const STYLE_METADATA_EXTERNAL_BASEMAP = 'xpoint:basemap';
/** Sprite image of a city label's dot in the embedded basemap. */
export const SPRITE_CITY_DOT = 'basemap-city';
/** Sprite id of our images when the style is an overlay on an external basemap style. */
export const OVERLAY_SPRITE_ID = 'xpoint';
