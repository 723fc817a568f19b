import type { StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import { describe, expect, it } from 'vitest';
import { externalBasemapUrl, mergeOverlay } from './overlay';

const base: StyleSpecification = {
  version: 8,
  glyphs: 'https://tiles.example.com/fonts/{fontstack}/{range}.pbf',
  sprite: 'https://tiles.example.com/sprite',
  sources: { osm: { type: 'vector', tiles: ['https://tiles.example.com/{z}/{x}/{y}.pbf'] } },
  layers: [
    { id: 'background', type: 'background', paint: { 'background-color': '#fff' } },
    { id: 'roads', type: 'line', source: 'osm', 'source-layer': 'roads' },
  ],
};

const overlay: StyleSpecification = {
  version: 8,
  metadata: { 'xpoint:basemap': 'https://tiles.example.com/style.json' },
  glyphs: 'https://xpoint.example/tiles/glyphs/{fontstack}/{range}.pbf',
  sprite: [{ id: 'xpoint', url: 'https://xpoint.example/tiles/sprite' }],
  sources: { xpoints: { type: 'vector', tiles: ['https://xpoint.example/tiles/points/{z}/{x}/{y}.mvt'] } },
  layers: [{ id: 'points-poi-clusters', type: 'circle', source: 'xpoints', 'source-layer': 'poi' }],
};

describe('mergeOverlay', () => {
  it('reads the external style URL from the overlay', () => {
    expect(externalBasemapUrl(overlay)).toBe('https://tiles.example.com/style.json');
    expect(externalBasemapUrl(base)).toBeUndefined();
  });

  it('puts our sources, sprite and layers on top of the base style', () => {
    const merged = mergeOverlay(base, overlay);
    expect(validateStyleMin(merged)).toEqual([]);
    expect(Object.keys(merged.sources)).toEqual(['osm', 'xpoints']);
    expect(merged.sprite).toEqual([
      { id: 'default', url: 'https://tiles.example.com/sprite' },
      { id: 'xpoint', url: 'https://xpoint.example/tiles/sprite' },
    ]);
    expect(merged.glyphs).toBe(base.glyphs);
    expect(merged.layers.map((layer) => layer.id)).toEqual(['background', 'roads', 'points-poi-clusters']);
  });
});
