import { lonRanges } from '../store/geo';

/**
 * Which devices see a point. Devices are filed in grids over the world by the cells their visible
 * bounds overlap: a fine grid (0.1 degree cells) for city viewports, a coarse one (2 degree cells)
 * for regions, and a short list for the few zoomed out further, scanned in full. Within a cell, a
 * device whose bounds cover the whole cell needs no check at all; only the devices whose edges cross
 * the cell are tested. A lookup reads one cell per grid, so it costs O(devices near the point) with
 * a few nanoseconds per candidate (rectangles are plain numbers on the entry, no lookups).
 */

/** Visible bounds as the client sends them: sw.lon > ne.lon crosses the antimeridian. */
export interface VisibleBounds {
  sw: { lat: number; lon: number };
  ne: { lat: number; lon: number };
}

/** Cell sizes in degrees, fine to coarse; a device goes to the first grid where it spans at most MAX_CELLS cells. */
const GRID_DEGREES = [0.1, 2] as const;
const MAX_CELLS = 64;
/** Cells must be wholly inside the bounds, by this much, to skip the check (floating-point edges). */
const EPSILON = 1e-9;

/** One device's bounds: up to two longitude ranges (two when crossing the antimeridian). */
interface Entry<T> {
  key: T;
  south: number;
  north: number;
  west: number;
  east: number;
  /** the second range; NaN when there is none (every comparison with NaN is false). */
  west2: number;
  east2: number;
  /** the grid it is filed in, or -1 for the wide list. */
  grid: number;
  /** where it is filed: lists[i] holds it at position slots[i]. */
  lists: Array<CellList<T>>;
  slots: number[];
}

/**
 * The entries of one cell, in arrays: the keys, and for cells that need checks the rectangles as plain
 * numbers, six per entry (south, north, west, east, west2, east2), so a lookup reads contiguous memory
 * instead of following a pointer per candidate. Removal swaps the last one into the hole and tells it
 * its new position.
 */
class CellList<T> {
  readonly items: Array<Entry<T>> = [];
  readonly keys: T[] = [];
  /** six numbers per item, when `checked`. */
  readonly rects: number[] = [];
  /** for each item, which of its placements this is (an index into its lists and slots). */
  readonly placements: number[] = [];

  constructor(readonly checked: boolean) {}

  add(entry: Entry<T>): void {
    entry.lists.push(this);
    entry.slots.push(this.items.length);
    this.placements.push(entry.lists.length - 1);
    this.items.push(entry);
    this.keys.push(entry.key);
    if (this.checked) {
      this.rects.push(entry.south, entry.north, entry.west, entry.east, entry.west2, entry.east2);
    }
  }

  removeAt(position: number): void {
    const last = this.items.length - 1;
    const moved = this.items[last] as Entry<T>;
    const movedPlacement = this.placements[last] as number;
    this.items[position] = moved;
    this.keys[position] = moved.key;
    this.placements[position] = movedPlacement;
    moved.slots[movedPlacement] = position;
    this.items.pop();
    this.keys.pop();
    this.placements.pop();
    if (this.checked) {
      for (let k = 0; k < 6; k++) this.rects[position * 6 + k] = this.rects[last * 6 + k] as number;
      this.rects.length = last * 6;
    }
  }
}

interface Cell<T> {
  /** bounds covering the whole cell: every point of the cell is inside. */
  full: CellList<T>;
  /** bounds crossing the cell: check each. */
  partial: CellList<T>;
}

function inside<T>(entry: Entry<T>, lat: number, lon: number): boolean {
  return (
    lat >= entry.south &&
    lat <= entry.north &&
    ((lon >= entry.west && lon <= entry.east) || (lon >= entry.west2 && lon <= entry.east2))
  );
}

class Grid<T> {
  private readonly columns: number;
  private readonly rows: number;
  private readonly cells = new Map<number, Cell<T>>();

  constructor(private readonly degrees: number) {
    this.columns = Math.round(360 / degrees);
    this.rows = Math.round(180 / degrees);
  }

  column(lon: number): number {
    return Math.min(this.columns - 1, Math.max(0, Math.floor((lon + 180) / this.degrees)));
  }
  row(lat: number): number {
    return Math.min(this.rows - 1, Math.max(0, Math.floor((lat + 90) / this.degrees)));
  }

  /** How many cells the ranges span. */
  span(south: number, north: number, ranges: Array<{ west: number; east: number }>): number {
    let count = 0;
    for (const r of ranges) {
      count += (this.column(r.east) - this.column(r.west) + 1) * (this.row(north) - this.row(south) + 1);
    }
    return count;
  }

  add(entry: Entry<T>, ranges: Array<{ west: number; east: number }>): void {
    for (const r of ranges) {
      for (let y = this.row(entry.south); y <= this.row(entry.north); y++) {
        const cellSouth = -90 + y * this.degrees;
        const coversLat =
          entry.south <= cellSouth - EPSILON && entry.north >= cellSouth + this.degrees + EPSILON;
        for (let x = this.column(r.west); x <= this.column(r.east); x++) {
          const cellWest = -180 + x * this.degrees;
          const full =
            coversLat && r.west <= cellWest - EPSILON && r.east >= cellWest + this.degrees + EPSILON;
          const id = y * this.columns + x;
          let cell = this.cells.get(id);
          if (!cell) this.cells.set(id, (cell = { full: new CellList(false), partial: new CellList(true) }));
          (full ? cell.full : cell.partial).add(entry);
        }
      }
    }
  }

  /** Takes the entry out of every cell list it is in; empty cells are forgotten. */
  remove(entry: Entry<T>): void {
    for (let i = 0; i < entry.lists.length; i++)
      (entry.lists[i] as CellList<T>).removeAt(entry.slots[i] as number);
    entry.lists.length = 0;
    entry.slots.length = 0;
  }

  /** Drops cells left empty (called after removals). */
  prune(south: number, north: number, ranges: Array<{ west: number; east: number }>): void {
    for (const r of ranges) {
      for (let y = this.row(south); y <= this.row(north); y++) {
        for (let x = this.column(r.west); x <= this.column(r.east); x++) {
          const id = y * this.columns + x;
          const cell = this.cells.get(id);
          if (cell && cell.full.items.length === 0 && cell.partial.items.length === 0) this.cells.delete(id);
        }
      }
    }
  }

  visit(lat: number, lon: number, visit: (key: T) => void): void {
    const cell = this.cells.get(this.row(lat) * this.columns + this.column(lon));
    if (!cell) return;
    const full = cell.full.keys;
    for (let i = 0; i < full.length; i++) visit(full[i] as T);
    const keys = cell.partial.keys;
    const r = cell.partial.rects;
    for (let i = 0, o = 0; i < keys.length; i++, o += 6) {
      if (lat < (r[o] as number) || lat > (r[o + 1] as number)) continue;
      if (
        (lon >= (r[o + 2] as number) && lon <= (r[o + 3] as number)) ||
        (lon >= (r[o + 4] as number) && lon <= (r[o + 5] as number))
      ) {
        visit(keys[i] as T);
      }
    }
  }
}

function rangesOf<T>(entry: Entry<T>): Array<{ west: number; east: number }> {
  const ranges = [{ west: entry.west, east: entry.east }];
  if (!Number.isNaN(entry.west2)) ranges.push({ west: entry.west2, east: entry.east2 });
  return ranges;
}

export class BoundsIndex<T> {
  private readonly entries = new Map<T, Entry<T>>();
  private readonly grids = GRID_DEGREES.map((degrees) => new Grid<T>(degrees));
  private readonly wide = new Set<Entry<T>>();

  get size(): number {
    return this.entries.size;
  }

  /** Sets (or replaces) the bounds of `key`. */
  set(key: T, bounds: VisibleBounds): void {
    this.delete(key);
    const ranges = lonRanges(bounds.sw.lon, bounds.ne.lon);
    const entry: Entry<T> = {
      key,
      south: bounds.sw.lat,
      north: bounds.ne.lat,
      west: ranges[0]?.west ?? NaN,
      east: ranges[0]?.east ?? NaN,
      west2: ranges[1]?.west ?? NaN,
      east2: ranges[1]?.east ?? NaN,
      grid: -1,
      lists: [],
      slots: [],
    };
    entry.grid = this.grids.findIndex((grid) => grid.span(entry.south, entry.north, ranges) <= MAX_CELLS);
    if (entry.grid >= 0) this.grids[entry.grid]?.add(entry, ranges);
    else this.wide.add(entry);
    this.entries.set(key, entry);
  }

  delete(key: T): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    const grid = entry.grid >= 0 ? this.grids[entry.grid] : undefined;
    if (grid) {
      grid.remove(entry);
      grid.prune(entry.south, entry.north, rangesOf(entry));
    } else this.wide.delete(entry);
  }

  /** Calls `visit` once for every key whose bounds contain the point (edges included). */
  forEachAt(lat: number, lon: number, visit: (key: T) => void): void {
    if (!Number.isFinite(lat) || !Number.isFinite(lon)) return;
    for (const grid of this.grids) grid.visit(lat, lon, visit);
    for (const entry of this.wide) if (inside(entry, lat, lon)) visit(entry.key);
  }

  /** The keys whose bounds contain the point. */
  at(lat: number, lon: number): T[] {
    const out: T[] = [];
    this.forEachAt(lat, lon, (key) => out.push(key));
    return out;
  }
}
