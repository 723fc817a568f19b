import { AppError } from '../../../shared/errors';
import {
  LAYER_GROUPS,
  MAX_ZOOM,
  MIN_ZOOM,
  isLayerGroup,
  type LayerGroup,
} from '../../../shared/map/contract';

/**
 * Parsing of point tile addresses, pure so it is tested on its own. The edge cases follow PMTiles'
 * handlers: a zoom the map never asks for is a 404 (nothing is there), an address that cannot be a
 * tile is a 400 naming why.
 */

export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

const INTEGER = /^-?\d{1,10}$/;

/** `z`, `x` and `y.mvt` as they come from the path. */
export function parseTileAddress(zText: string, xText: string, yText: string): TileAddress {
  if (!INTEGER.test(zText)) {
    throw new AppError('pointTileBadAddress', { reason: `zoom "${zText}" is not an integer.` });
  }
  const z = Number(zText);
  if (z < MIN_ZOOM || z > MAX_ZOOM) {
    throw new AppError('pointTileZoomOutOfRange', { zoom: z, min: MIN_ZOOM, max: MAX_ZOOM });
  }
  const match = /^(.*)\.mvt$/.exec(yText);
  if (!match) throw new AppError('pointTileBadAddress', { reason: 'point tiles end in .mvt.' });
  const yValue = match[1] as string;
  const size = 2 ** z;
  const coordinate = (name: string, text: string): number => {
    if (!INTEGER.test(text)) {
      throw new AppError('pointTileBadAddress', { reason: `${name} "${text}" is not an integer.` });
    }
    const value = Number(text);
    if (value < 0 || value >= size) {
      throw new AppError('pointTileBadAddress', {
        reason: `${name} ${value} is outside 0..${size - 1} at zoom ${z}.`,
      });
    }
    return value;
  };
  return { z, x: coordinate('x', xText), y: coordinate('y', yValue) };
}

/** `?layers=business,poi`: the groups to include, in contract order; all of them when absent. */
export function parseLayers(value: string | undefined): LayerGroup[] {
  if (value === undefined || value.trim() === '') return [...LAYER_GROUPS];
  const wanted = new Set<LayerGroup>();
  for (const part of value.split(',')) {
    const name = part.trim();
    if (name === '') continue;
    if (!isLayerGroup(name)) {
      throw new AppError('pointLayerGroupUnknown', {
        name: JSON.stringify(name),
        groups: LAYER_GROUPS.join(', '),
      });
    }
    wanted.add(name);
  }
  return LAYER_GROUPS.filter((g) => wanted.has(g));
}
