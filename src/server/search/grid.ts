import type { Bounds } from './ranking';

/**
 * A coarse grid of document counts over the globe: the planner's estimate of how many documents a
 * bounds holds, without visiting them.
 */

/** Cells of the document-count grid that estimates how many documents a bounds holds: 0.25 degrees. */
const GRID_CELLS_PER_DEGREE = 4;
export const GRID_WIDTH = 360 * GRID_CELLS_PER_DEGREE;
export const GRID_HEIGHT = 180 * GRID_CELLS_PER_DEGREE;

/** About how many documents lie in the bounds (whole grid cells: an overestimate for small bounds). */
export function gridEstimate(grid: Uint32Array, size: number, bounds: Bounds | null): number {
  if (!bounds) return size;
  const row0 = gridRow(bounds.south);
  const row1 = gridRow(bounds.north);
  const col0 = gridColumn(bounds.west);
  const col1 = gridColumn(bounds.east);
  const columns = col0 <= col1 ? col1 - col0 + 1 : GRID_WIDTH - col0 + col1 + 1;
  let total = 0;
  for (let row = row0; row <= row1; row++) {
    for (let k = 0; k < columns; k++) total += grid[row * GRID_WIDTH + ((col0 + k) % GRID_WIDTH)] as number;
  }
  return total;
}

function gridRow(lat: number): number {
  return Math.min(GRID_HEIGHT - 1, Math.max(0, Math.floor((lat + 90) * GRID_CELLS_PER_DEGREE)));
}
function gridColumn(lon: number): number {
  return Math.min(GRID_WIDTH - 1, Math.max(0, Math.floor((lon + 180) * GRID_CELLS_PER_DEGREE)));
}
export function gridCell(lat: number, lon: number): number {
  return gridRow(lat) * GRID_WIDTH + gridColumn(lon);
}
