import type { Bounds } from './ranking';

/**
 * Documents numbered along a Hilbert curve. A segment stores its documents in the order of their
 * Hilbert key (a 2^16 × 2^16 grid over lon × lat), so the documents of any area are a few runs of
 * consecutive numbers, and every postings list (ascending document numbers) holds an area's documents
 * in a few slices found by binary search: a word's matches in a city cost about as much as the city's
 * share of them, not the whole world's. Neighbours in space are neighbours in memory, too.
 */

const GRID_BITS = 16;
const GRID_MAX = (1 << GRID_BITS) - 1;
/** At most this many cells per axis cover a query's bounds (so at most 81 runs before merging). */
const COVER_CELLS = 8;

export function gridX(lon: number): number {
  return Math.min(GRID_MAX, Math.max(0, Math.floor(((lon + 180) / 360) * (GRID_MAX + 1))));
}

export function gridY(lat: number): number {
  return Math.min(GRID_MAX, Math.max(0, Math.floor(((lat + 90) / 180) * (GRID_MAX + 1))));
}

/** The Hilbert index of grid cell (x, y), 0 ≤ x, y < 2^16: a number below 2^32. */
export function hilbertOf(x: number, y: number): number {
  let d = 0;
  for (let s = 1 << (GRID_BITS - 1); s > 0; s >>>= 1) {
    const rx = (x & s) !== 0 ? 1 : 0;
    const ry = (y & s) !== 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    // rotate the quadrant so the curve inside it runs the standard way
    if (ry === 0) {
      if (rx === 1) {
        x = GRID_MAX - x;
        y = GRID_MAX - y;
      }
      const t = x;
      x = y;
      y = t;
    }
  }
  return d;
}

export function hilbertKey(lat: number, lon: number): number {
  return hilbertOf(gridX(lon), gridY(lat));
}

/**
 * The order of `keys` ascending, ties by position (a stable LSD radix sort in two 16-bit passes), as
 * a permutation: order[i] is the old position of the i-th smallest.
 */
export function orderByKey(keys: Uint32Array): Uint32Array {
  const n = keys.length;
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let next = new Uint32Array(n);
  for (const shift of [0, 16]) {
    const counts = new Uint32Array(65_537);
    for (let i = 0; i < n; i++) {
      const bucket = (((keys[i] as number) >>> shift) & 0xffff) + 1;
      counts[bucket] = (counts[bucket] as number) + 1;
    }
    for (let c = 0; c < 65_536; c++) counts[c + 1] = (counts[c + 1] as number) + (counts[c] as number);
    for (let i = 0; i < n; i++) {
      const from = order[i] as number;
      const bucket = ((keys[from] as number) >>> shift) & 0xffff;
      const at = counts[bucket] as number;
      counts[bucket] = at + 1;
      next[at] = from;
    }
    [order, next] = [next, order];
  }
  return order;
}

/**
 * Runs of Hilbert keys, [from, to) pairs, ascending and disjoint, whose cells cover the bounds (a little
 * more: whole cells of a grid coarse enough that at most COVER_CELLS span each axis).
 */
export function coverKeys(bounds: Bounds): number[] {
  const boxes: [number, number, number, number][] =
    bounds.west <= bounds.east
      ? [[bounds.west, bounds.south, bounds.east, bounds.north]]
      : [
          [bounds.west, bounds.south, 180, bounds.north],
          [-180, bounds.south, bounds.east, bounds.north],
        ];
  const runs: [number, number][] = [];
  for (const [west, south, east, north] of boxes) {
    const x0 = gridX(west);
    const x1 = gridX(east);
    const y0 = gridY(south);
    const y1 = gridY(north);
    const span = Math.max(x1 - x0, y1 - y0) + 1;
    // cells of 2^bits grid units, so that the span takes at most COVER_CELLS of them
    let bits = 0;
    while (bits < GRID_BITS && span > COVER_CELLS << bits) bits++;
    const cellKeys = 2 ** (2 * bits);
    for (let cx = x0 >>> bits; cx <= x1 >>> bits; cx++) {
      for (let cy = y0 >>> bits; cy <= y1 >>> bits; cy++) {
        // every point of a cell shares the top bits of its key: the cell is one run
        const key = hilbertOf(cx << bits, cy << bits);
        const from = Math.floor(key / cellKeys) * cellKeys;
        runs.push([from, from + cellKeys]);
      }
    }
  }
  runs.sort((a, b) => a[0] - b[0]);
  const merged: number[] = [];
  for (const [from, to] of runs) {
    const last = merged.length - 1;
    if (merged.length > 0 && from <= (merged[last] as number))
      merged[last] = Math.max(merged[last] as number, to);
    else merged.push(from, to);
  }
  return merged;
}

/** The first index in [from, to) of the ascending `values` holding a value >= `value`. */
export function lowerBound(values: Uint32Array, value: number, from = 0, to = values.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
