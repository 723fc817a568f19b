import type { PointColumns } from './columns';
import { commonLevel, lowerBound, mortonHalves, mortonHigh, mortonLow, nodeSpan, quantise } from './morton';

/**
 * Clustering options, in the units supercluster documents.
 * A cluster is every point of one grid cell: 2^CELL_LEVELS cells across a tile, i.e. cells of
 * 512 / 8 = 64 px on a 512 px tile (supercluster's default radius is 40 of 256, ours ~60 of 512).
 * Cells nest (four cells at zoom z+1 make one at z), so the clusters form an exact hierarchy, and a
 * cluster's points are one run of the Morton-sorted array: counts, centroids (prefix sums), leaves
 * (a slice) and expansion zooms (the common prefix of the run's first and last codes) are O(1) or
 * O(log n) with no per-zoom index at all.
 */
export const CELL_LEVELS = 3;
/** Highest zoom with clusters; from CLUSTER_MAX_ZOOM + 1 every point is drawn on its own. */
export const CLUSTER_MAX_ZOOM = 16;
const LOW = 2 ** 24;
/** Cluster ids pack the cell number and its level: id = cell * LEVEL_SLOTS + level (< 2^43). */
const LEVEL_SLOTS = 32;

/** A cluster or a single point found in a tile: the run [start, end) of the group's sorted arrays. */
export interface CellRun {
  start: number;
  end: number;
  /** the cell's level (zoom + CELL_LEVELS) and number at that level. */
  level: number;
  cell: number;
}

/**
 * The points of one layer group sorted by Morton code, with prefix sums of their world positions.
 * Immutable once built: a change rebuilds the group's index from the columns and swaps it in.
 */
export class GroupIndex {
  readonly size: number;
  /** slot of each point, in code order. */
  readonly order: Uint32Array;
  readonly codes: Float64Array;
  /** sumX[i] = sum of world x of the first i points (length size + 1). */
  readonly sumX: Float64Array;
  readonly sumY: Float64Array;

  private constructor(order: Uint32Array, codes: Float64Array, sumX: Float64Array, sumY: Float64Array) {
    this.size = order.length;
    this.order = order;
    this.codes = codes;
    this.sumX = sumX;
    this.sumY = sumY;
  }

  static empty(): GroupIndex {
    return new GroupIndex(new Uint32Array(0), new Float64Array(0), new Float64Array(1), new Float64Array(1));
  }

  /**
   * Sorts `slots` by Morton code and sums positions: an LSD radix sort on four 12-bit digits that
   * carries the keys along with the slots (sequential reads in every pass), the four digit counts
   * taken in one pass up front. Stable, so points with equal codes keep their slot order.
   */
  static build(columns: PointColumns, slots: Uint32Array): GroupIndex {
    const n = slots.length;
    const wx = columns.wx;
    const wy = columns.wy;
    let hi = new Uint32Array(n);
    let lo = new Uint32Array(n);
    let order = new Uint32Array(n);
    const counts = new Uint32Array(4 * 4096);
    for (let i = 0; i < n; i++) {
      const s = slots[i] as number;
      const qx = quantise(wx[s] as number);
      const qy = quantise(wy[s] as number);
      const h = mortonHigh(qx, qy);
      const l = mortonLow(qx, qy);
      hi[i] = h;
      lo[i] = l;
      order[i] = s;
      count(counts, l & 0xfff);
      count(counts, 4096 + (l >>> 12));
      count(counts, 8192 + (h & 0xfff));
      count(counts, 12288 + (h >>> 12));
    }
    for (let pass = 0; pass < 4; pass++) {
      let total = 0;
      for (let d = pass * 4096; d < (pass + 1) * 4096; d++) {
        const c = counts[d] as number;
        counts[d] = total;
        total += c;
      }
    }
    let hiNext = new Uint32Array(n);
    let loNext = new Uint32Array(n);
    let orderNext = new Uint32Array(n);
    for (let pass = 0; pass < 4; pass++) {
      const base = pass * 4096;
      const keys = pass < 2 ? lo : hi;
      const shift = pass % 2 === 0 ? 0 : 12;
      for (let i = 0; i < n; i++) {
        const d = base + (((keys[i] as number) >>> shift) & 0xfff);
        const at = counts[d] as number;
        counts[d] = at + 1;
        hiNext[at] = hi[i] as number;
        loNext[at] = lo[i] as number;
        orderNext[at] = order[i] as number;
      }
      [hi, hiNext] = [hiNext, hi];
      [lo, loNext] = [loNext, lo];
      [order, orderNext] = [orderNext, order];
    }
    const codes = new Float64Array(n);
    const sumX = new Float64Array(n + 1);
    const sumY = new Float64Array(n + 1);
    let sx = 0;
    let sy = 0;
    for (let i = 0; i < n; i++) {
      const s = order[i] as number;
      codes[i] = (hi[i] as number) * LOW + (lo[i] as number);
      sx += wx[s] as number;
      sy += wy[s] as number;
      sumX[i + 1] = sx;
      sumY[i + 1] = sy;
    }
    return new GroupIndex(order, codes, sumX, sumY);
  }

  /**
   * A new index equal to this one without the entries of `removed` slots and with `added` slots (their
   * current positions in the columns): one linear merge pass, a few milliseconds for the largest group
   * at a million points where a full rebuild takes a hundred or more. A slot may be in both lists (a
   * point that moved, or a freed slot reused): its old entry goes, its new one comes in.
   */
  merge(columns: PointColumns, removed: readonly number[], added: readonly number[]): GroupIndex {
    // where the removed entries are, and where the added ones go, as positions in this index
    const removeAt: number[] = [];
    for (const slot of new Set(removed)) {
      const p = this.order.indexOf(slot);
      if (p >= 0) removeAt.push(p);
    }
    removeAt.sort((a, b) => a - b);
    const adds = added.map((slot) => {
      const [h, l] = mortonHalves(quantise(columns.wx[slot] as number), quantise(columns.wy[slot] as number));
      const code = h * LOW + l;
      return { slot, code, at: lowerBound(this.codes, code, 0, this.size) };
    });
    adds.sort((a, b) => a.code - b.code);
    const size = this.size - removeAt.length + adds.length;
    const order = new Uint32Array(size);
    const codes = new Float64Array(size);
    const sumX = new Float64Array(size + 1);
    const sumY = new Float64Array(size + 1);
    // copy the runs between changes; prefix sums shift by what was added and removed before them
    let i = 0;
    let o = 0;
    let dx = 0;
    let dy = 0;
    let r = 0;
    let a = 0;
    const copyTo = (end: number) => {
      copyRun(this, i, end, { order, codes, sumX, sumY }, o, dx, dy);
      o += end - i;
      i = end;
    };
    while (r < removeAt.length || a < adds.length) {
      const nextRemove = r < removeAt.length ? (removeAt[r] as number) : Infinity;
      const nextAdd = a < adds.length ? (adds[a] as { at: number }).at : Infinity;
      if (nextAdd <= nextRemove) {
        const add = adds[a++] as { slot: number; code: number; at: number };
        copyTo(add.at);
        const x = columns.wx[add.slot] as number;
        const y = columns.wy[add.slot] as number;
        order[o] = add.slot;
        codes[o] = add.code;
        sumX[o + 1] = (sumX[o] as number) + x;
        sumY[o + 1] = (sumY[o] as number) + y;
        dx += x;
        dy += y;
        o++;
      } else {
        copyTo(nextRemove);
        // the removed entry's position is gone from the columns (moved or freed): the sums know it
        dx -= (this.sumX[i + 1] as number) - (this.sumX[i] as number);
        dy -= (this.sumY[i + 1] as number) - (this.sumY[i] as number);
        i++;
        r++;
      }
    }
    copyTo(this.size);
    return new GroupIndex(order, codes, sumX, sumY);
  }

  /** The run of points inside codes [from, to). */
  range(from: number, to: number): [start: number, end: number] {
    const start = lowerBound(this.codes, from, 0, this.size);
    return [start, lowerBound(this.codes, to, start, this.size)];
  }

  /** Calls `visit` for each non-empty cell at `level` inside the run [start, end), in code order. */
  cells(level: number, start: number, end: number, visit: (run: CellRun) => void): void {
    const span = nodeSpan(level);
    let i = start;
    while (i < end) {
      const cell = Math.floor((this.codes[i] as number) / span);
      const j = lowerBound(this.codes, (cell + 1) * span, i + 1, end);
      visit({ start: i, end: j, level, cell });
      i = j;
    }
  }

  /** The zoom at which the run first shows as more than one feature (CLUSTER_MAX_ZOOM + 1 at most). */
  expansionZoom(start: number, end: number): number {
    const common = commonLevel(this.codes[start] as number, this.codes[end - 1] as number);
    return Math.min(CLUSTER_MAX_ZOOM + 1, common + 1 - CELL_LEVELS);
  }

  centroid(start: number, end: number): [x: number, y: number] {
    const n = end - start;
    return [
      ((this.sumX[end] as number) - (this.sumX[start] as number)) / n,
      ((this.sumY[end] as number) - (this.sumY[start] as number)) / n,
    ];
  }

  /** The run of a cluster id, or null for an id that names no cluster level. */
  clusterRun(clusterId: number): [start: number, end: number, level: number] | null {
    if (!Number.isSafeInteger(clusterId) || clusterId < 0) return null;
    const level = clusterId % LEVEL_SLOTS;
    const cell = Math.floor(clusterId / LEVEL_SLOTS);
    if (level < CELL_LEVELS || level > CLUSTER_MAX_ZOOM + CELL_LEVELS || cell >= 4 ** level) return null;
    const span = nodeSpan(level);
    const [start, end] = this.range(cell * span, (cell + 1) * span);
    return [start, end, level];
  }
}

function count(counts: Uint32Array, d: number): void {
  counts[d] = (counts[d] as number) + 1;
}

export function clusterIdOf(level: number, cell: number): number {
  return cell * LEVEL_SLOTS + level;
}

/** Copies entries [from, end) of `src` to `dst` at `to`, shifting their prefix sums by (dx, dy). */
function copyRun(
  src: GroupIndex,
  from: number,
  end: number,
  dst: { order: Uint32Array; codes: Float64Array; sumX: Float64Array; sumY: Float64Array },
  to: number,
  dx: number,
  dy: number,
): void {
  if (end <= from) return;
  dst.order.set(src.order.subarray(from, end), to);
  dst.codes.set(src.codes.subarray(from, end), to);
  const inX = src.sumX;
  const inY = src.sumY;
  const outX = dst.sumX;
  const outY = dst.sumY;
  const shift = to - from;
  for (let t = from + 1; t <= end; t++) {
    outX[t + shift] = (inX[t] as number) + dx;
    outY[t + shift] = (inY[t] as number) + dy;
  }
}
