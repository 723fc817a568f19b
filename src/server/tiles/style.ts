import type {
  ExpressionSpecification,
  LayerSpecification,
  SourceSpecification,
  StyleSpecification,
} from '@maplibre/maplibre-gl-style-spec';
import { layers as protomapsLayers, namedFlavor } from '@protomaps/basemaps';
import { AppError } from '../../shared/errors';
import {
  BASEMAP_ATTRIBUTION,
  BASEMAP_DETAIL_MIN_ZOOM,
  BASEMAP_DETAIL_SOURCE,
  BASEMAP_LAYERS,
  BASEMAP_SOURCE,
  BASEMAP_WORLD_MAX_ZOOM,
  FONT_STACKS,
  LAYER_GROUPS,
  MAX_ZOOM,
  OVERLAY_SPRITE_ID,
  POINTS_SOURCE,
  PROTOMAPS_ATTRIBUTION,
  SPRITE_CITY_DOT,
  STYLE_IMAGE_FORMATS,
  STYLE_METADATA_EXTERNAL_BASEMAP,
  SUPERTYPE_COLORS,
  TILE_PATHS,
  isLayerGroup,
  pointLayerIds,
  spriteDefaultIcon,
  type LayerGroup,
  type StyleImageFormat,
} from '../../shared/map/contract';

/**
 * GET /home/mapboxstyle.json (map-and-search §7): a MapLibre v8 style whose URLs are absolute,
 * built from the configured public origin (PUBLIC_URL): a client's Host or X-Forwarded-Host never
 * reaches them, so a cached style cannot point other people's maps at another host.
 */

/** Which basemap the style draws under the points. */
export type BasemapMode =
  /** the embedded Natural Earth archive, drawn with our own layers. */
  | { kind: 'embedded'; maxZoom: number }
  /** a Protomaps-schema .pmtiles file (BASEMAP=/path/x.pmtiles), drawn with @protomaps/basemaps layers. */
  | { kind: 'protomaps'; maxZoom: number }
  /** an external style URL (BASEMAP=https://...): the style is only our overlay; the web map loads
   * the external style and adds the overlay on top (see the README). */
  | { kind: 'external'; url: string };

export interface StyleQuery {
  v: string;
  imgformat: StyleImageFormat;
  groups: LayerGroup[];
}

const VERSION = /^[\w.-]{0,64}$/;

/** Validates the query: `layers` is `all` (default) or group names joined by commas. */
export function parseStyleQuery(query: Record<string, unknown>): StyleQuery {
  const text = (name: string): string | undefined => {
    const value = query[name];
    if (Array.isArray(value)) return String(value.at(-1));
    return value === undefined ? undefined : String(value);
  };
  const v = text('v') ?? '';
  if (!VERSION.test(v)) throw new AppError('badStyleVersion');
  const imgformat = text('imgformat') || 'png';
  if (!(STYLE_IMAGE_FORMATS as readonly string[]).includes(imgformat)) {
    throw new AppError('badImageFormat', { value: imgformat.slice(0, 40) });
  }
  const layers = (text('layers') ?? 'all').trim();
  let groups: LayerGroup[];
  if (layers === '' || layers === 'all') {
    groups = [...LAYER_GROUPS];
  } else {
    const names = layers.split(',').map((name) => name.trim());
    const unknown = names.find((name) => !isLayerGroup(name));
    if (unknown !== undefined) {
      throw new AppError('unknownLayerGroup', {
        group: unknown.slice(0, 40),
        groups: LAYER_GROUPS.join(', '),
      });
    }
    groups = LAYER_GROUPS.filter((group) => names.includes(group));
  }
  return { v, imgformat: imgformat as StyleImageFormat, groups };
}

/** The map's palette: light land on blue water, quiet borders and labels. */
const COLORS = {
  water: '#aad3df',
  land: '#f2efe9',
  border: '#9e8aa6',
  countryLabel: '#6b5f73',
  cityLabel: '#333333',
  halo: '#ffffff',
  pointLabel: '#202124',
};

/** Cluster circle radius in pixels by member count. */
const CLUSTER_RADIUS: ExpressionSpecification = [
  'step',
  ['get', 'point_count'],
  14,
  10,
  17,
  100,
  21,
  1000,
  26,
  10000,
  31,
];
/** Point titles appear from this zoom on. */
const POINT_TITLE_MIN_ZOOM = 13;

function embeddedBasemapLayers(detail: boolean): LayerSpecification[] {
  const source = BASEMAP_SOURCE;
  const cityLarge: ExpressionSpecification = ['>=', ['get', 'population'], 1_000_000];
  const layers: LayerSpecification[] = [
    { id: 'background', type: 'background', paint: { 'background-color': COLORS.water } },
    {
      id: 'water',
      type: 'fill',
      source,
      'source-layer': BASEMAP_LAYERS.water,
      paint: { 'fill-color': COLORS.water },
    },
    {
      id: 'land',
      type: 'fill',
      source,
      'source-layer': BASEMAP_LAYERS.land,
      paint: { 'fill-color': COLORS.land, 'fill-antialias': true },
    },
    // street zooms near the demo cities: a water square hides the Natural Earth coast; on it Natural
    // Earth land again (it decides only the cells both OSM files lack, as at Manhattan's Civic Center
    // and in Sydney Harbour), the OSM seas, and the OSM land (scripts/map/coast.ts)
    {
      id: 'detail-water',
      type: 'fill',
      source: BASEMAP_DETAIL_SOURCE,
      'source-layer': BASEMAP_LAYERS.detailWater,
      minzoom: BASEMAP_DETAIL_MIN_ZOOM,
      paint: { 'fill-color': COLORS.water, 'fill-antialias': false },
    },
    {
      id: 'detail-base',
      type: 'fill',
      source: BASEMAP_DETAIL_SOURCE,
      'source-layer': BASEMAP_LAYERS.detailBase,
      minzoom: BASEMAP_DETAIL_MIN_ZOOM,
      paint: { 'fill-color': COLORS.land, 'fill-antialias': false },
    },
    {
      id: 'detail-sea',
      type: 'fill',
      source: BASEMAP_DETAIL_SOURCE,
      'source-layer': BASEMAP_LAYERS.detailSea,
      minzoom: BASEMAP_DETAIL_MIN_ZOOM,
      paint: { 'fill-color': COLORS.water, 'fill-antialias': false },
    },
    {
      id: 'detail-land',
      type: 'fill',
      source: BASEMAP_DETAIL_SOURCE,
      'source-layer': BASEMAP_LAYERS.detailLand,
      minzoom: BASEMAP_DETAIL_MIN_ZOOM,
      paint: { 'fill-color': COLORS.land, 'fill-antialias': false },
    },
    {
      id: 'country-borders',
      type: 'line',
      source,
      'source-layer': BASEMAP_LAYERS.boundaries,
      layout: { 'line-join': 'round', 'line-cap': 'round' },
      paint: {
        'line-color': COLORS.border,
        'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.6, 5, 1.2, 10, 2.4],
      },
    },
    {
      id: 'city-labels',
      type: 'symbol',
      source,
      'source-layer': BASEMAP_LAYERS.places,
      filter: ['all', ['==', ['get', 'kind'], 'city'], ['<=', ['get', 'minzoom'], ['zoom']]],
      layout: {
        'icon-image': SPRITE_CITY_DOT,
        'text-field': ['get', 'name'],
        'text-font': [FONT_STACKS.regular],
        'text-size': [
          'interpolate',
          ['linear'],
          ['zoom'],
          2,
          ['case', cityLarge, 11, 10],
          10,
          ['case', cityLarge, 16, 13],
        ],
        'text-variable-anchor': ['left', 'right', 'top', 'bottom'],
        'text-radial-offset': 0.5,
        'text-justify': 'auto',
        'text-max-width': 8,
        'symbol-sort-key': ['-', 0, ['get', 'population']],
      },
      paint: { 'text-color': COLORS.cityLabel, 'text-halo-color': COLORS.halo, 'text-halo-width': 1.2 },
    },
    {
      id: 'country-labels',
      type: 'symbol',
      source,
      'source-layer': BASEMAP_LAYERS.places,
      maxzoom: 9,
      filter: ['all', ['==', ['get', 'kind'], 'country'], ['<=', ['get', 'minzoom'], ['zoom']]],
      layout: {
        'text-field': ['get', 'name'],
        'text-font': [FONT_STACKS.medium],
        'text-size': ['interpolate', ['linear'], ['zoom'], 1, 10, 6, 15],
        'text-max-width': 7,
        'text-transform': 'uppercase',
        'text-letter-spacing': 0.08,
        'symbol-sort-key': ['-', 0, ['get', 'rank']],
      },
      paint: { 'text-color': COLORS.countryLabel, 'text-halo-color': COLORS.halo, 'text-halo-width': 1.2 },
    },
  ];
  // an archive built before the detail zooms has no second source to draw from
  return detail
    ? layers
    : layers.filter((layer) => !('source' in layer) || layer.source !== BASEMAP_DETAIL_SOURCE);
}

/**
 * A post usually sits at its point's very place (it takes the point's position when written), where
 * its badge would cover the point's: posts are drawn as a smaller badge up and to the right of the
 * place, like a notification on the point's icon, with their title beside it. At this size and offset
 * the post's icon box stays clear of a click on the point's centre with the map's 5 px hit box, so
 * both can be clicked.
 */
const POST_BADGE = { size: 0.7, offset: [20, -20] as [number, number] };

/** Clusters (a circle and a count) and single points (category badge and title) of one group. */
export function pointLayers(group: LayerGroup, spritePrefix = ''): LayerSpecification[] {
  const ids = pointLayerIds(group);
  const post = group === 'post';
  const isCluster: ExpressionSpecification = ['has', 'point_count'];
  return [
    {
      id: ids.clusters,
      type: 'circle',
      source: POINTS_SOURCE,
      'source-layer': group,
      filter: isCluster,
      paint: {
        'circle-color': SUPERTYPE_COLORS[group],
        'circle-opacity': 0.88,
        'circle-radius': CLUSTER_RADIUS,
        'circle-stroke-color': '#ffffff',
        'circle-stroke-width': 2,
      },
    },
    {
      id: ids.count,
      type: 'symbol',
      source: POINTS_SOURCE,
      'source-layer': group,
      filter: isCluster,
      layout: {
        'text-field': ['to-string', ['get', 'point_count_abbreviated']],
        'text-font': [FONT_STACKS.bold],
        'text-size': 12,
        'text-allow-overlap': true,
        'text-ignore-placement': true,
      },
      paint: { 'text-color': '#ffffff' },
    },
    {
      id: ids.points,
      type: 'symbol',
      source: POINTS_SOURCE,
      'source-layer': group,
      filter: ['!', isCluster],
      layout: {
        'icon-image': [
          'coalesce',
          ['image', ['concat', `${spritePrefix}${group}-`, ['get', 'businesstype']]],
          ['image', spritePrefix + spriteDefaultIcon(group)],
        ],
        'icon-allow-overlap': true,
        'icon-padding': 0,
        ...(post ? { 'icon-size': POST_BADGE.size, 'icon-offset': POST_BADGE.offset } : {}),
        // promoted points are drawn last, on top
        'symbol-sort-key': ['coalesce', ['get', 'promo'], 0],
        'text-field': [
          'step',
          ['zoom'],
          '',
          POINT_TITLE_MIN_ZOOM,
          ['coalesce', ['get', 'title'], ['get', 'name'], ''],
        ],
        'text-font': [FONT_STACKS.regular],
        'text-size': 12,
        // a post's title beside its badge, so the point's title below its own badge keeps its place
        ...(post
          ? { 'text-anchor': 'left' as const, 'text-offset': [2.1, -1.2] as [number, number] }
          : { 'text-anchor': 'top' as const, 'text-offset': [0, 1.1] as [number, number] }),
        'text-max-width': 9,
        'text-optional': true,
      },
      paint: { 'text-color': COLORS.pointLabel, 'text-halo-color': COLORS.halo, 'text-halo-width': 1.5 },
    },
  ];
}

export function buildStyle(origin: string, basemap: BasemapMode, query: StyleQuery): StyleSpecification {
  const sources: Record<string, SourceSpecification> = {
    [POINTS_SOURCE]: {
      type: 'vector',
      tiles: [origin + TILE_PATHS.points],
      minzoom: 0,
      maxzoom: MAX_ZOOM,
    },
  };
  let baseLayers: LayerSpecification[] = [];
  if (basemap.kind !== 'external') {
    // the embedded archive's world zooms stop at 7 (overzoomed); its detail zooms are a second source
    const embeddedDetail = basemap.kind === 'embedded' && basemap.maxZoom > BASEMAP_WORLD_MAX_ZOOM;
    sources[BASEMAP_SOURCE] = {
      type: 'vector',
      tiles: [origin + TILE_PATHS.basemap],
      minzoom: 0,
      maxzoom: embeddedDetail ? BASEMAP_WORLD_MAX_ZOOM : basemap.maxZoom,
      attribution: basemap.kind === 'embedded' ? BASEMAP_ATTRIBUTION : PROTOMAPS_ATTRIBUTION,
    };
    if (embeddedDetail) {
      sources[BASEMAP_DETAIL_SOURCE] = {
        type: 'vector',
        tiles: [origin + TILE_PATHS.basemap],
        minzoom: BASEMAP_DETAIL_MIN_ZOOM,
        maxzoom: basemap.maxZoom,
      };
    }
    baseLayers =
      basemap.kind === 'embedded'
        ? embeddedBasemapLayers(embeddedDetail)
        : protomapsLayers(BASEMAP_SOURCE, namedFlavor('light'), { lang: 'en' });
  }
  const metadata: Record<string, unknown> = { 'xpoint:v': query.v, 'xpoint:imgformat': query.imgformat };
  if (basemap.kind === 'external') metadata[STYLE_METADATA_EXTERNAL_BASEMAP] = basemap.url;
  // Over an external style our sprite sits beside theirs, so our image names carry its id.
  const spriteUrl = origin + TILE_PATHS.sprite;
  const external = basemap.kind === 'external';
  return {
    version: 8,
    name: 'XPoint',
    metadata,
    glyphs: origin + TILE_PATHS.glyphs,
    sprite: external ? [{ id: OVERLAY_SPRITE_ID, url: spriteUrl }] : spriteUrl,
    sources,
    layers: [
      ...baseLayers,
      ...query.groups.flatMap((group) => pointLayers(group, external ? `${OVERLAY_SPRITE_ID}:` : '')),
    ],
  };
}
