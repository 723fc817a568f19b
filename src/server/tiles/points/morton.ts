/**
 * Web Mercator world coordinates and Morton (Z-order) codes: the one trick behind the point index.
 *
 * A point's world position (x, y in [0, 1), y down, as tiles count) is quantised to a 2^24 grid and
 * its two 24-bit coordinates interleaved into a 48-bit Morton code, held exactly in a double. Sorted by
 * code, the points of any quadtree node — a tile at zoom z, a cluster cell at level z + 3 — are one
 * contiguous run of the array, found with two binary searches.
 */

/** Bits per axis of the finest grid: 2^24 cells around the world, about 2.4 m at the equator. */
export const MORTON_LEVEL = 24;
const GRID = 2 ** MORTON_LEVEL;
const HALF_BITS = 12;
const HALF = 2 ** HALF_BITS;
/** 2^24: the low 24-bit half of a code. */
const LOW = 2 ** 24;
/** Web Mercator stops here; points beyond are drawn at the edge. */
const MAX_LAT = 85.0511287798066;

export function worldX(lon: number): number {
  const x = (lon + 180) / 360;
  return x < 0 ? 0 : x >= 1 ? 1 - 1 / GRID / 2 : x;
}

export function worldY(lat: number): number {
  const clamped = lat > MAX_LAT ? MAX_LAT : lat < -MAX_LAT ? -MAX_LAT : lat;
  const sin = Math.sin((clamped * Math.PI) / 180);
  const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;
  return y < 0 ? 0 : y >= 1 ? 1 - 1 / GRID / 2 : y;
}

/** Spreads the low 16 bits of v over the even bits of a 32-bit integer. */
function spread(v: number): number {
  v &= 0xffff;
  v = (v | (v << 8)) & 0x00ff00ff;
  v = (v | (v << 4)) & 0x0f0f0f0f;
  v = (v | (v << 2)) & 0x33333333;
  v = (v | (v << 1)) & 0x55555555;
  return v;
}

/** The high and low 24-bit halves of the code of grid cell (qx, qy), each < 2^24. */
export function mortonHalves(qx: number, qy: number): [hi: number, lo: number] {
  return [mortonHigh(qx, qy), mortonLow(qx, qy)];
}

/** The high 24-bit half of the code of grid cell (qx, qy) (no array: for the index's hot loops). */
export function mortonHigh(qx: number, qy: number): number {
  return spread(qx >>> HALF_BITS) | (spread(qy >>> HALF_BITS) << 1);
}

/** The low 24-bit half of the code of grid cell (qx, qy). */
export function mortonLow(qx: number, qy: number): number {
  return spread(qx & (HALF - 1)) | (spread(qy & (HALF - 1)) << 1);
}

/** The 48-bit code of a grid cell, exact in a double. */
export function mortonCode(qx: number, qy: number): number {
  const [hi, lo] = mortonHalves(qx, qy);
  return hi * LOW + lo;
}

export function quantise(world: number): number {
  const q = Math.floor(world * GRID);
  return q < 0 ? 0 : q >= GRID ? GRID - 1 : q;
}

/** Codes covered by quadtree node (x, y) at `level` (0..24): [start, end). */
export function nodeRange(level: number, x: number, y: number): [start: number, end: number] {
  const shift = 2 ** (MORTON_LEVEL - level);
  const start = mortonCode(x * shift, y * shift);
  return [start, start + shift * shift];
}

/** Codes per node at `level`. */
export function nodeSpan(level: number): number {
  return 4 ** (MORTON_LEVEL - level);
}

/**
 * The deepest quadtree level whose node holds both codes (24 when they are equal): points with codes
 * a..b first fall into different cells one level below it.
 */
export function commonLevel(a: number, b: number): number {
  if (a === b) return MORTON_LEVEL;
  const ah = Math.floor(a / LOW);
  const bh = Math.floor(b / LOW);
  let bit: number;
  if (ah !== bh) bit = MORTON_LEVEL + 31 - Math.clz32(ah ^ bh);
  else bit = 31 - Math.clz32((a - ah * LOW) ^ (b - bh * LOW));
  // bits are numbered from 0 (lowest); a node at level l fixes the top 2l of the 48 bits
  return Math.floor((2 * MORTON_LEVEL - 1 - bit) / 2);
}

/** First index in sorted `codes[from, to)` whose code is >= value. */
export function lowerBound(codes: Float64Array, value: number, from: number, to: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((codes[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
