import { clusterCell, expansionOf, type Entry, type GroupIndex } from './group-index';
import { lowerBound, nodeSpan } from './morton';

/** A change's removal: the entry of `slot` that is live at `code`. */
export interface Removal {
  slot: number;
  code: number;
}

/** Overlay entries (cut base entries plus new ones) past which the overlay is folded into the base. */
export const FOLD_AT = 2048;

/**
 * One layer group as the tiles read it: a sorted base (GroupIndex) plus a small overlay of the changes
 * since it was built, so that a change costs what it changes. Re-sorting or merging the base costs the
 * whole group (800,000 businesses at a million points: 22 MB copied, 7-100 ms), which three processes
 * on two cores paid for every write; the overlay costs a few binary searches and a copy of itself.
 *
 * The overlay is the base positions of entries that left (`cuts`, sorted) and the entries that came
 * (`adds`, sorted by code), each with prefix sums of their positions. Every query walks the base and
 * the adds in code order, skipping the cuts: base entries come before adds of the same code, the order
 * a fold gives, so a page of leaves is the same before and after. Once the overlay holds FOLD_AT
 * entries it is folded into a new base in one linear pass, written into the arrays of the base before
 * (kept as the spare). So a change answers a new LiveGroup, and only the newest may be read: the one
 * before a fold keeps a base whose arrays the next fold overwrites.
 */
export class LiveGroup {
  readonly base: GroupIndex;
  private readonly cuts: Float64Array;
  private readonly cutSumX: Float64Array;
  private readonly cutSumY: Float64Array;
  private readonly addCodes: Float64Array;
  private readonly addSlots: Uint32Array;
  private readonly addX: Float64Array;
  private readonly addY: Float64Array;
  private readonly addSumX: Float64Array;
  private readonly addSumY: Float64Array;
  /** the base before the last fold, whose arrays the next fold writes into. */
  private readonly spare: GroupIndex | null;

  private constructor(
    base: GroupIndex,
    cuts: readonly number[],
    adds: readonly Entry[],
    spare: GroupIndex | null = null,
  ) {
    this.base = base;
    this.spare = spare;
    this.cuts = Float64Array.from(cuts);
    this.cutSumX = new Float64Array(cuts.length + 1);
    this.cutSumY = new Float64Array(cuts.length + 1);
    cuts.forEach((p, k) => {
      this.cutSumX[k + 1] = (this.cutSumX[k] as number) + base.x(p);
      this.cutSumY[k + 1] = (this.cutSumY[k] as number) + base.y(p);
    });
    const n = adds.length;
    this.addCodes = new Float64Array(n);
    this.addSlots = new Uint32Array(n);
    this.addX = new Float64Array(n);
    this.addY = new Float64Array(n);
    this.addSumX = new Float64Array(n + 1);
    this.addSumY = new Float64Array(n + 1);
    adds.forEach((entry, k) => {
      this.addCodes[k] = entry.code;
      this.addSlots[k] = entry.slot;
      this.addX[k] = entry.x;
      this.addY[k] = entry.y;
      this.addSumX[k + 1] = (this.addSumX[k] as number) + entry.x;
      this.addSumY[k + 1] = (this.addSumY[k] as number) + entry.y;
    });
  }

  static of(base: GroupIndex): LiveGroup {
    return new LiveGroup(base, [], []);
  }

  get size(): number {
    return this.base.size - this.cuts.length + this.addCodes.length;
  }

  /** Entries of the overlay: cut base entries plus new ones. */
  get pending(): number {
    return this.cuts.length + this.addCodes.length;
  }

  /**
   * This group with `removals` taken out, then `adds` put in. A removal names the slot's live entry by
   * its code before the change (a slot has at most one live entry); one that is not there is ignored.
   * Folds the overlay into the base once it holds FOLD_AT entries.
   */
  change(removals: readonly Removal[], adds: readonly Entry[]): LiveGroup {
    const cancelled = new Set<number>();
    const cuts = new Set<number>();
    for (const { slot, code } of removals) {
      const k = this.findAdd(slot, code);
      if (k >= 0) cancelled.add(k);
      else {
        const p = this.findBase(slot, code);
        if (p >= 0) cuts.add(p);
      }
    }
    const keptAdds: Entry[] = [];
    for (let k = 0; k < this.addCodes.length; k++) {
      if (!cancelled.has(k)) keptAdds.push(this.addAt(k));
    }
    // stable by code: adds of equal codes stay in the order they came
    const nextAdds = mergeByCode(
      keptAdds,
      [...adds].sort((a, b) => a.code - b.code),
    );
    const nextCuts = cuts.size === 0 ? Array.from(this.cuts) : [...this.cuts, ...cuts].sort((a, b) => a - b);
    const next = new LiveGroup(this.base, nextCuts, nextAdds, this.spare);
    return next.pending >= FOLD_AT ? next.folded() : next;
  }

  /** The same entries in a new base with an empty overlay. */
  folded(): LiveGroup {
    if (this.pending === 0) return this;
    const adds = Array.from({ length: this.addCodes.length }, (_, k) => this.addAt(k));
    return new LiveGroup(this.base.fold(this.cuts, adds, this.spare), [], [], this.base);
  }

  /** How many live entries have codes in [from, to). */
  count(from: number, to: number): number {
    const [s, e] = this.base.range(from, to);
    const r0 = lowerBound(this.cuts, s, 0, this.cuts.length);
    const r1 = lowerBound(this.cuts, e, r0, this.cuts.length);
    const a0 = lowerBound(this.addCodes, from, 0, this.addCodes.length);
    const a1 = lowerBound(this.addCodes, to, a0, this.addCodes.length);
    return e - s - (r1 - r0) + (a1 - a0);
  }

  /**
   * Calls `visit` for each non-empty cell at `level` within codes [from, to), in code order, with its
   * number of points, their mean world position, its expansion zoom (when it holds more than one) and
   * its slot (when it holds one).
   */
  cells(
    level: number,
    from: number,
    to: number,
    visit: (cell: number, count: number, x: number, y: number, expansion: number, slot: number) => void,
  ): void {
    const base = this.base;
    const codes = base.codes;
    const cuts = this.cuts;
    const addCodes = this.addCodes;
    const span = nodeSpan(level);
    const [start, e] = base.range(from, to);
    let i = start;
    let r = lowerBound(cuts, i, 0, cuts.length);
    let j = lowerBound(addCodes, from, 0, addCodes.length);
    const je = lowerBound(addCodes, to, j, addCodes.length);
    while (i < e || j < je) {
      const code = Math.min(
        i < e ? (codes[i] as number) : Infinity,
        j < je ? (addCodes[j] as number) : Infinity,
      );
      const cell = Math.floor(code / span);
      const limit = (cell + 1) * span;
      const i2 = lowerBound(codes, limit, i, e);
      const j2 = lowerBound(addCodes, limit, j, je);
      const r2 = lowerBound(cuts, i2, r, cuts.length);
      const count = i2 - i - (r2 - r) + (j2 - j);
      if (count > 0) {
        const sx =
          (base.sumX[i2] as number) -
          (base.sumX[i] as number) -
          ((this.cutSumX[r2] as number) - (this.cutSumX[r] as number)) +
          ((this.addSumX[j2] as number) - (this.addSumX[j] as number));
        const sy =
          (base.sumY[i2] as number) -
          (base.sumY[i] as number) -
          ((this.cutSumY[r2] as number) - (this.cutSumY[r] as number)) +
          ((this.addSumY[j2] as number) - (this.addSumY[j] as number));
        // the first and last live base entries of the cell: past the cuts at either end
        let first = i;
        for (let k = r; k < r2 && cuts[k] === first; k++) first++;
        let last = i2 - 1;
        for (let k = r2 - 1; k >= r && cuts[k] === last; k--) last--;
        const low = Math.min(
          first <= last ? (codes[first] as number) : Infinity,
          j < j2 ? (addCodes[j] as number) : Infinity,
        );
        const high = Math.max(
          first <= last ? (codes[last] as number) : -Infinity,
          j < j2 ? (addCodes[j2 - 1] as number) : -Infinity,
        );
        const slot = count > 1 ? -1 : j < j2 ? (this.addSlots[j] as number) : (base.order[first] as number);
        visit(cell, count, sx / count, sy / count, count > 1 ? expansionOf(low, high) : 0, slot);
      }
      i = i2;
      j = j2;
      r = r2;
    }
  }

  /** Calls `visit` with the slots of codes [from, to) in code order, skipping `offset`, at most `limit`. */
  slots(from: number, to: number, offset: number, limit: number, visit: (slot: number) => void): void {
    const base = this.base;
    const codes = base.codes;
    const cuts = this.cuts;
    const addCodes = this.addCodes;
    const [start, e] = base.range(from, to);
    let i = start;
    let r = lowerBound(cuts, i, 0, cuts.length);
    let j = lowerBound(addCodes, from, 0, addCodes.length);
    const je = lowerBound(addCodes, to, j, addCodes.length);
    let skip = offset;
    let taken = 0;
    while (taken < limit) {
      // base entries up to the next add's place (base first among equal codes), past the cuts
      const addAt = j < je ? lowerBound(codes, (addCodes[j] as number) + 1, i, e) : e;
      while (i < addAt && taken < limit) {
        const nextCut = r < cuts.length ? (cuts[r] as number) : Infinity;
        if (nextCut === i) {
          i++;
          r++;
          continue;
        }
        const stop = Math.min(addAt, nextCut);
        if (skip >= stop - i) {
          skip -= stop - i;
          i = stop;
          continue;
        }
        i += skip;
        skip = 0;
        while (i < stop && taken < limit) {
          visit(base.order[i++] as number);
          taken++;
        }
      }
      if (taken >= limit || j >= je) return;
      if (skip > 0) skip--;
      else {
        visit(this.addSlots[j] as number);
        taken++;
      }
      j++;
    }
  }

  /** The cell of cluster `clusterId` and its point count; null when it names no cluster or is empty. */
  cluster(clusterId: number): { level: number; from: number; to: number; count: number } | null {
    const cell = clusterCell(clusterId);
    if (!cell) return null;
    const count = this.count(cell.from, cell.to);
    return count === 0 ? null : { ...cell, count };
  }

  /** The zoom at which the points of codes [from, to) first show as more than one feature. */
  expansionZoom(from: number, to: number): number {
    // one point shows on its own from the highest zoom a single code can reach
    let zoom = expansionOf(0, 0);
    // level 0 is a single cell, so this visits the whole range once
    this.cells(0, from, to, (_cell, count, _x, _y, expansion) => {
      if (count > 1) zoom = expansion;
    });
    return zoom;
  }

  private addAt(k: number): Entry {
    return {
      slot: this.addSlots[k] as number,
      code: this.addCodes[k] as number,
      x: this.addX[k] as number,
      y: this.addY[k] as number,
    };
  }

  /** Index in the adds of the entry of `slot` at `code`, or -1. */
  private findAdd(slot: number, code: number): number {
    const n = this.addCodes.length;
    for (let k = lowerBound(this.addCodes, code, 0, n); k < n && this.addCodes[k] === code; k++) {
      if (this.addSlots[k] === slot) return k;
    }
    return -1;
  }

  /** Base position of the live entry of `slot` at `code`, or -1. */
  private findBase(slot: number, code: number): number {
    const { codes, order, size } = this.base;
    for (let p = lowerBound(codes, code, 0, size); p < size && codes[p] === code; p++) {
      if (order[p] === slot && !this.isCut(p)) return p;
    }
    return -1;
  }

  private isCut(p: number): boolean {
    const k = lowerBound(this.cuts, p, 0, this.cuts.length);
    return this.cuts[k] === p;
  }
}

/** Two code-sorted lists as one, `a` first among equal codes. */
function mergeByCode(a: readonly Entry[], b: readonly Entry[]): Entry[] {
  const out: Entry[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && (a[i] as Entry).code <= (b[j] as Entry).code))
      out.push(a[i++] as Entry);
    else out.push(b[j++] as Entry);
  }
  return out;
}
