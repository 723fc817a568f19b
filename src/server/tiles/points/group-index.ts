import type { PointColumns } from './columns';
import { commonLevel, lowerBound, mortonHigh, mortonLow, nodeSpan, quantise } from './morton';

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

/**
 * The points of one layer group sorted by Morton code, with prefix sums of their world positions.
 * Not changed once built: changes go to a LiveGroup's overlay (live-group.ts), folded into a new one.
 */
export class GroupIndex {
  readonly size: number;
  /** slot of each point, in code order. */
  readonly order: Uint32Array;
  readonly codes: Float64Array;
  /** sumX[i] = sum of world x of the first i points (length size + 1). */
  readonly sumX: Float64Array;
  readonly sumY: Float64Array;
  /** The arrays above at their full length (size plus room to grow), for a later fold to reuse. */
  private readonly room: Arrays;

  private constructor(room: Arrays, size: number) {
    this.size = size;
    this.room = room;
    this.order = room.order.subarray(0, size);
    this.codes = room.codes.subarray(0, size);
    this.sumX = room.sumX.subarray(0, size + 1);
    this.sumY = room.sumY.subarray(0, size + 1);
  }

  static empty(): GroupIndex {
    return new GroupIndex(allocate(0), 0);
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
    const room = allocate(n);
    room.order.set(order);
    const { codes, sumX, sumY } = room;
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
    return new GroupIndex(room, n);
  }

  /** World x of the entry at `p` (from the prefix sums). */
  x(p: number): number {
    return (this.sumX[p + 1] as number) - (this.sumX[p] as number);
  }

  y(p: number): number {
    return (this.sumY[p + 1] as number) - (this.sumY[p] as number);
  }

  /**
   * A new index equal to this one without the entries at positions `cuts` (sorted) and with `adds`
   * (sorted by code; each goes after this index's entries of the same code): one linear pass, the fold
   * of a LiveGroup's overlay (live-group.ts). It writes into `spare`'s arrays when they have room, which
   * ends `spare`: fresh arrays of a large group each time cost more in page faults and in the collector
   * (a full collection per fold, pressed by their external memory) than the pass itself.
   */
  fold(cuts: ArrayLike<number>, adds: readonly Entry[], spare: GroupIndex | null = null): GroupIndex {
    const size = this.size - cuts.length + adds.length;
    const room = spare && spare !== this && spare.room.order.length >= size ? spare.room : allocate(size);
    const { order, codes, sumX, sumY } = room;
    const inOrder = this.order;
    const inCodes = this.codes;
    const inX = this.sumX;
    const inY = this.sumY;
    const n = this.size;
    // copy the runs between changes; prefix sums shift by what was added and removed before them
    let i = 0;
    let o = 0;
    let dx = 0;
    let dy = 0;
    let r = 0;
    let a = 0;
    sumX[0] = 0;
    sumY[0] = 0;
    for (;;) {
      const nextCut = r < cuts.length ? (cuts[r] as number) : n;
      const add = adds[a];
      const addAt = add ? lowerBound(inCodes, add.code + 1, i, n) : n;
      const stop = Math.min(nextCut, addAt);
      if (stop > i) {
        order.set(inOrder.subarray(i, stop), o);
        codes.set(inCodes.subarray(i, stop), o);
        const shift = o - i;
        for (let t = i + 1; t <= stop; t++) {
          sumX[t + shift] = (inX[t] as number) + dx;
          sumY[t + shift] = (inY[t] as number) + dy;
        }
        o += stop - i;
        i = stop;
      }
      if (add && addAt <= nextCut) {
        order[o] = add.slot;
        codes[o] = add.code;
        sumX[o + 1] = (sumX[o] as number) + add.x;
        sumY[o + 1] = (sumY[o] as number) + add.y;
        dx += add.x;
        dy += add.y;
        o++;
        a++;
      } else if (i < n) {
        // the entry at `nextCut` leaves: later sums lose its position
        dx -= this.x(i);
        dy -= this.y(i);
        i++;
        r++;
      } else break;
    }
    return new GroupIndex(room, size);
  }

  /** The run of points inside codes [from, to). */
  range(from: number, to: number): [start: number, end: number] {
    const start = lowerBound(this.codes, from, 0, this.size);
    return [start, lowerBound(this.codes, to, start, this.size)];
  }
}

/** The Morton code of a world position. */
export function codeOf(wx: number, wy: number): number {
  const qx = quantise(wx);
  const qy = quantise(wy);
  return mortonHigh(qx, qy) * LOW + mortonLow(qx, qy);
}

/** The zoom at which points with codes from `low` to `high` first show apart (CLUSTER_MAX_ZOOM + 1 at most). */
export function expansionOf(low: number, high: number): number {
  return Math.min(CLUSTER_MAX_ZOOM + 1, commonLevel(low, high) + 1 - CELL_LEVELS);
}

/** The cell a cluster id names, as its level and code range; null for an id that names no cluster level. */
export function clusterCell(clusterId: number): { level: number; from: number; to: number } | null {
  if (!Number.isSafeInteger(clusterId) || clusterId < 0) return null;
  const level = clusterId % LEVEL_SLOTS;
  const cell = Math.floor(clusterId / LEVEL_SLOTS);
  if (level < CELL_LEVELS || level > CLUSTER_MAX_ZOOM + CELL_LEVELS || cell >= 4 ** level) return null;
  const span = nodeSpan(level);
  return { level, from: cell * span, to: (cell + 1) * span };
}

function count(counts: Uint32Array, d: number): void {
  counts[d] = (counts[d] as number) + 1;
}

export function clusterIdOf(level: number, cell: number): number {
  return cell * LEVEL_SLOTS + level;
}

/** An entry of a group: a slot at its code and world position. */
export interface Entry {
  slot: number;
  code: number;
  x: number;
  y: number;
}

/** A group's arrays with room for `size` points and some more, so that a fold can grow into them. */
function allocate(size: number): Arrays {
  const capacity = size === 0 ? 0 : size + Math.max(1024, Math.ceil(size / 16));
  return {
    order: new Uint32Array(capacity),
    codes: new Float64Array(capacity),
    sumX: new Float64Array(capacity + 1),
    sumY: new Float64Array(capacity + 1),
  };
}

interface Arrays {
  order: Uint32Array;
  codes: Float64Array;
  sumX: Float64Array;
  sumY: Float64Array;
}
