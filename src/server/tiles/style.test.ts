import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import {
  BASEMAP_SOURCE,
  FONT_STACKS,
  LAYER_GROUPS,
  POINTS_SOURCE,
  STYLE_METADATA_EXTERNAL_BASEMAP,
  basemapCredit,
} from '../../shared/map/contract';
import { buildStyle, parseStyleQuery, pointLayers } from './style';

const ALL = parseStyleQuery({});

describe('parseStyleQuery', () => {
  it('defaults to every layer group, png and no version', () => {
    expect(ALL).toEqual({ v: '', imgformat: 'png', groups: [...LAYER_GROUPS] });
  });

  it('keeps the contract order and drops repeats', () => {
    expect(parseStyleQuery({ layers: 'event, business,event', imgformat: 'webp', v: '12' })).toEqual({
      v: '12',
      imgformat: 'webp',
      groups: ['business', 'event'],
    });
  });

  it('names the unknown group', () => {
    expect(() => parseStyleQuery({ layers: 'poi,posts' })).toThrow(
      expect.objectContaining({
        errorName: 'unknownLayerGroup',
        message: expect.stringContaining('"posts"'),
      }),
    );
    expect(() => parseStyleQuery({ imgformat: 'jpeg' })).toThrow(AppError);
  });
});

describe('buildStyle', () => {
  const origin = 'https://maps.example.org';

  it('with a Protomaps archive: their layers, our glyphs, which have every font they use', () => {
    const style = buildStyle(origin, { kind: 'protomaps', maxZoom: 15 }, ALL);
    expect(validateStyleMin(style)).toEqual([]);
    expect(style.sources[BASEMAP_SOURCE]).toMatchObject({ maxzoom: 15 });
    const fonts = new Set<string>();
    for (const layer of style.layers) {
      // text-font may be an expression: collect the font names inside it
      const font = layer.type === 'symbol' ? JSON.stringify(layer.layout?.['text-font'] ?? []) : '[]';
      for (const match of font.matchAll(/"(Noto [^"]+)"/g)) fonts.add(match[1]!);
    }
    expect(fonts.size).toBeGreaterThan(0);
    for (const font of fonts) expect(Object.values(FONT_STACKS), font).toContain(font);
  });

  it('with an external style URL: only our overlay, naming the basemap style for the web map', () => {
    const style = buildStyle(origin, { kind: 'external', url: 'https://tiles.example.com/style.json' }, ALL);
    expect(validateStyleMin(style)).toEqual([]);
    expect(Object.keys(style.sources)).toEqual([POINTS_SOURCE]);
    expect(style.layers.every((layer) => layer.id.startsWith('points-'))).toBe(true);
    expect(style.metadata).toMatchObject({
      [STYLE_METADATA_EXTERNAL_BASEMAP]: 'https://tiles.example.com/style.json',
    });
  });

  it('draws a post as a small badge beside its place, so the point it is on keeps its own icon', () => {
    const layout = (group: 'post' | 'business') =>
      pointLayers(group).find((layer) => layer.id === `points-${group}-points`)?.layout as Record<
        string,
        unknown
      >;
    expect(layout('business')['icon-offset']).toBeUndefined();
    const size = layout('post')['icon-size'] as number;
    const [dx, dy] = layout('post')['icon-offset'] as [number, number];
    // the post's icon box (a 24 px badge at `size`) is clear of the map's 5 px hit box at the place
    expect(Math.min(dx, -dy) * size - (24 * size) / 2).toBeGreaterThan(5);
    expect(size).toBeLessThan(1);
    expect(layout('post')['text-anchor']).toBe('left');
  });
});

describe('buildStyle with the embedded basemap (issue 21: a true coast at street zooms)', () => {
  const origin = 'https://xpoint.example.com';

  it('reads the archive’s detail zooms as a second source from zoom 8, over Natural Earth overzoomed from 7', () => {
    const style = buildStyle(origin, { kind: 'embedded', maxZoom: 12 }, ALL);
    expect(validateStyleMin(style)).toEqual([]);
    expect(style.sources[BASEMAP_SOURCE]).toMatchObject({ minzoom: 0, maxzoom: 7 });
    expect(style.sources['basemap-detail']).toMatchObject({ minzoom: 8, maxzoom: 12 });
    const ids = style.layers.map((layer) => layer.id);
    // a water square over Natural Earth; on it Natural Earth land (for cells both OSM files lack),
    // the OSM seas, the OSM land
    const detail = ['detail-water', 'detail-base', 'detail-sea', 'detail-land'].map((id) => ids.indexOf(id));
    expect(detail[0]).toBeGreaterThan(ids.indexOf('land'));
    expect(detail.toSorted((a, b) => a - b)).toEqual(detail);
    expect(new Set(detail).size).toBe(4);
    const attribution = (style.sources[BASEMAP_SOURCE] as { attribution?: string }).attribution;
    expect(attribution).toMatch(/OpenStreetMap/);
    expect(attribution).toMatch(/no streets, lakes or rivers/);
  });

  it('draws an archive built before the detail zooms as it always did', () => {
    const style = buildStyle(origin, { kind: 'embedded', maxZoom: 7 }, ALL);
    expect(validateStyleMin(style)).toEqual([]);
    expect(style.sources['basemap-detail']).toBeUndefined();
    expect(style.layers.map((layer) => layer.id)).not.toContain('detail-land');
  });
});

describe('basemapCredit (issue 23: the credit the server paints before the map)', () => {
  const origin = 'https://xpoint.example.com';
  const sourceCredit = (style: ReturnType<typeof buildStyle>) =>
    Object.values(style.sources)
      .map((source) => (source as { attribution?: string }).attribution)
      .filter((text) => text !== undefined);

  it('is the whole attribution the style gives its sources, for each BASEMAP setting', () => {
    expect(sourceCredit(buildStyle(origin, { kind: 'embedded', maxZoom: 12 }, ALL))).toEqual([
      basemapCredit(undefined),
    ]);
    expect(sourceCredit(buildStyle(origin, { kind: 'protomaps', maxZoom: 15 }, ALL))).toEqual([
      basemapCredit('/srv/maps/planet.pmtiles'),
    ]);
    expect(basemapCredit(undefined)).not.toBe(basemapCredit('/srv/maps/planet.pmtiles'));
  });

  it('is unknown for an external style, whose credits are in its own document', () => {
    const url = 'HTTPS://tiles.example.com/style.json';
    expect(sourceCredit(buildStyle(origin, { kind: 'external', url }, ALL))).toEqual([]);
    expect(basemapCredit(url)).toBeNull();
  });
});
