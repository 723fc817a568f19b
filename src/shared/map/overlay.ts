import type { SourceSpecification, StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import { STYLE_METADATA_EXTERNAL_BASEMAP } from './contract';

/**
 * With BASEMAP set to an external style URL, /home/mapboxstyle.json answers only our overlay (point
 * sources and layers, our sprite under its own id) and names the external style in its metadata.
 * The web map loads that style and lays the overlay on top with this function.
 */

/** The external basemap style URL the overlay names, if any. */
export function externalBasemapUrl(style: StyleSpecification): string | undefined {
  const metadata = style.metadata as Record<string, unknown> | undefined;
  const url = metadata?.[STYLE_METADATA_EXTERNAL_BASEMAP];
  return typeof url === 'string' ? url : undefined;
}

type SpriteList = { id: string; url: string }[];

function spriteList(sprite: StyleSpecification['sprite']): SpriteList {
  if (sprite === undefined) return [];
  return typeof sprite === 'string' ? [{ id: 'default', url: sprite }] : [...sprite];
}

/** The base style with the overlay's sources, sprites and layers added on top. */
export function mergeOverlay(base: StyleSpecification, overlay: StyleSpecification): StyleSpecification {
  const sources: Record<string, SourceSpecification> = { ...base.sources, ...overlay.sources };
  const baseSprites = spriteList(base.sprite);
  const sprites = [
    ...baseSprites,
    ...spriteList(overlay.sprite).filter((s) => !baseSprites.some((b) => b.id === s.id)),
  ];
  const overlayIds = new Set(overlay.layers.map((layer) => layer.id));
  return {
    ...base,
    sources,
    // the base style's glyphs draw its labels; ours only when it has none
    glyphs: base.glyphs ?? overlay.glyphs,
    ...(sprites.length > 0 ? { sprite: sprites } : {}),
    layers: [...base.layers.filter((layer) => !overlayIds.has(layer.id)), ...overlay.layers],
  };
}
