import { describe, expect, it } from 'vitest';
import { FREE, type PointColumns } from './columns';
import { CELL_LEVELS, CLUSTER_MAX_ZOOM, GroupIndex, clusterIdOf, codeOf, type Entry } from './group-index';
import { LiveGroup, type Removal } from './live-group';
import { nodeRange, worldX, worldY } from './morton';
import { business, columnsWith, rng } from './testing';

interface Cell {
  cell: number;
  count: number;
  x: number;
  y: number;
  expansion: number;
  slot: number;
}

function cellsOf(group: LiveGroup, level: number, from: number, to: number): Cell[] {
  const out: Cell[] = [];
  group.cells(level, from, to, (cell, count, x, y, expansion, slot) =>
    out.push({ cell, count, x, y, expansion, slot }),
  );
  return out;
}

function slotsOf(group: LiveGroup, from: number, to: number, offset = 0, limit = Infinity): number[] {
  const out: number[] = [];
  group.slots(from, to, offset, limit, (slot) => out.push(slot));
  return out;
}

const WORLD: [number, number] = [0, 2 ** 48];

describe('a live group without changes', () => {
  const random = rng(3);
  const points = Array.from({ length: 5000 }, () => ({
    lat: 40.7 + (random() - 0.5) * (random() < 0.5 ? 0.02 : 2),
    lon: -74 + (random() - 0.5) * (random() < 0.5 ? 0.02 : 2),
  }));
  const columns = columnsWith(points);
  const group = LiveGroup.of(GroupIndex.build(columns, columns.slotsOf(0)));

  it('puts exactly the points of a tile in cells that partition it, each at its points’ mean', () => {
    for (const z of [0, 4, 8, 12]) {
      const n = 2 ** z;
      const x = Math.floor(worldX(-74) * n);
      const y = Math.floor(worldY(40.7) * n);
      const [from, to] = nodeRange(z, x, y);
      const inside = points
        .map((p, i) => ({ ...p, i }))
        .filter((p) => Math.floor(worldX(p.lon) * n) === x && Math.floor(worldY(p.lat) * n) === y);
      expect(group.count(from, to), `z${z}`).toBe(inside.length);
      const cells = cellsOf(group, z + CELL_LEVELS, from, to);
      expect(cells.reduce((sum, c) => sum + c.count, 0)).toBe(inside.length);
      for (const cell of cells) {
        const cellRange = nodeRange(z + CELL_LEVELS, 0, 0)[1] - nodeRange(z + CELL_LEVELS, 0, 0)[0];
        const members = slotsOf(group, cell.cell * cellRange, (cell.cell + 1) * cellRange);
        expect(members).toHaveLength(cell.count);
        const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
        expect(cell.x).toBeCloseTo(mean(members.map((s) => columns.wx[s] as number)), 9);
        expect(cell.y).toBeCloseTo(mean(members.map((s) => columns.wy[s] as number)), 9);
        if (cell.count === 1) expect(cell.slot).toBe(members[0]);
        // the cluster id finds the same points again
        expect(group.cluster(clusterIdOf(z + CELL_LEVELS, cell.cell))?.count).toBe(cell.count);
      }
    }
  });

  it('splits a cluster exactly at its expansion zoom', () => {
    let checked = 0;
    for (const cell of cellsOf(group, 2 + CELL_LEVELS, ...WORLD)) {
      if (cell.count < 2) continue;
      const cluster = group.cluster(clusterIdOf(2 + CELL_LEVELS, cell.cell));
      if (!cluster) throw new Error('cluster not found');
      expect(group.expansionZoom(cluster.from, cluster.to)).toBe(cell.expansion);
      expect(cell.expansion).toBeGreaterThan(2);
      expect(cell.expansion).toBeLessThanOrEqual(CLUSTER_MAX_ZOOM + 1);
      const cellsAt = (zoom: number) => cellsOf(group, zoom + CELL_LEVELS, cluster.from, cluster.to).length;
      if (cell.expansion <= CLUSTER_MAX_ZOOM) {
        expect(cellsAt(cell.expansion - 1)).toBe(1);
        expect(cellsAt(cell.expansion)).toBeGreaterThan(1);
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('rejects cluster ids that name no cluster level', () => {
    expect(group.cluster(-1)).toBeNull();
    expect(group.cluster(clusterIdOf(2, 0))).toBeNull();
    expect(group.cluster(clusterIdOf(CLUSTER_MAX_ZOOM + CELL_LEVELS + 1, 0))).toBeNull();
    expect(group.cluster(clusterIdOf(3, 64))).toBeNull();
    expect(group.cluster(1.5)).toBeNull();
  });

  it('answers nothing for an empty group', () => {
    const empty = LiveGroup.of(GroupIndex.empty());
    expect(empty.count(...WORLD)).toBe(0);
    expect(cellsOf(empty, 3, ...WORLD)).toEqual([]);
    expect(slotsOf(empty, ...WORLD)).toEqual([]);
    expect(empty.cluster(clusterIdOf(3, 0))).toBeNull();
  });
});

/**
 * Random inserts, moves and deletes on one group, applied as PointTileIndex.apply does (the removal
 * names the code before the change); after every round the overlay must answer what a group re-sorted
 * from the columns answers.
 */
describe('a live group under random changes', () => {
  function run(seed: number, rounds: number, perRound: number) {
    const random = rng(seed);
    const spot = () => ({ lat: 48.85 + (random() - 0.5) * 0.2, lon: 2.35 + (random() - 0.5) * 0.2 });
    // a few shared positions, so equal codes (a building's several businesses) are exercised too
    const shared = Array.from({ length: 8 }, spot);
    const place = () =>
      random() < 0.15
        ? (shared[Math.floor(random() * shared.length)] as { lat: number; lon: number })
        : spot();
    const columns: PointColumns = columnsWith(Array.from({ length: 1500 }, place));
    let live = LiveGroup.of(GroupIndex.build(columns, columns.slotsOf(0)));
    let folds = 0;
    for (let round = 0; round < rounds; round++) {
      const removals: Removal[] = [];
      const adds: Entry[] = [];
      const seen = new Set<string>();
      for (let k = 0; k < perRound; k++) {
        const id = `p${Math.floor(random() * 2000)}`;
        if (seen.has(id)) continue;
        seen.add(id);
        const before = columns.slotOf('point', id);
        const code =
          before === undefined ? 0 : codeOf(columns.wx[before] as number, columns.wy[before] as number);
        if (before !== undefined && random() < 0.35) {
          columns.remove('point', id);
          removals.push({ slot: before, code });
          continue;
        }
        const p = place();
        const { slot, moved, oldGroup } = columns.put('point', business(id, p.lat, p.lon));
        if (!moved) continue;
        if (oldGroup !== FREE) removals.push({ slot, code });
        const x = columns.wx[slot] as number;
        const y = columns.wy[slot] as number;
        adds.push({ slot, code: codeOf(x, y), x, y });
      }
      const pending = live.pending;
      live = live.change(removals, adds);
      if (live.pending < pending) folds++;
      expectSame(live, LiveGroup.of(GroupIndex.build(columns, columns.slotsOf(0))), random);
    }
    return folds;
  }

  function expectSame(live: LiveGroup, rebuilt: LiveGroup, random: () => number) {
    expect(live.size).toBe(rebuilt.size);
    const all = slotsOf(live, ...WORLD);
    expect(all).toHaveLength(rebuilt.size);
    expect(new Set(all)).toEqual(new Set(slotsOf(rebuilt, ...WORLD)));
    // a fold keeps the order, so a page of leaves reads the same before and after it
    expect(slotsOf(live.folded(), ...WORLD)).toEqual(all);
    for (const z of [0, 6, 10, 12, 14, 16]) {
      const n = 2 ** z;
      const [from, to] = nodeRange(z, Math.floor(worldX(2.35) * n), Math.floor(worldY(48.85) * n));
      expect(live.count(from, to), `count z${z}`).toBe(rebuilt.count(from, to));
      const mine = cellsOf(live, z + CELL_LEVELS, from, to);
      const theirs = cellsOf(rebuilt, z + CELL_LEVELS, from, to);
      expect(
        mine.map((c) => [c.cell, c.count, c.expansion]),
        `cells z${z}`,
      ).toEqual(theirs.map((c) => [c.cell, c.count, c.expansion]));
      mine.forEach((c, k) => {
        const other = theirs[k] as Cell;
        expect(c.x).toBeCloseTo(other.x, 9);
        expect(c.y).toBeCloseTo(other.y, 9);
        if (c.count === 1) expect(c.slot).toBe(other.slot);
      });
      // pages of any size and offset are slices of the whole run, in code order
      const whole = slotsOf(live, from, to);
      expect(new Set(whole)).toEqual(new Set(slotsOf(rebuilt, from, to)));
      const offset = Math.floor(random() * (whole.length + 2));
      const limit = 1 + Math.floor(random() * 40);
      expect(slotsOf(live, from, to, offset, limit)).toEqual(whole.slice(offset, offset + limit));
    }
  }

  it('answers as a re-sorted group through a few changes at a time', () => {
    run(5, 40, 6);
  });

  it('answers as a re-sorted group across folds of its overlay', () => {
    // from the second fold on, each writes into the arrays of the base before it (a built base has
    // room to grow too)
    expect(run(9, 60, 120)).toBeGreaterThanOrEqual(2);
  });

  it('takes a change back when a new entry leaves before a fold', () => {
    const columns = columnsWith([
      { lat: 1, lon: 1 },
      { lat: 2, lon: 2 },
    ]);
    let live = LiveGroup.of(GroupIndex.build(columns, columns.slotsOf(0)));
    const { slot } = columns.put('point', business('n', 3, 3));
    const code = codeOf(columns.wx[slot] as number, columns.wy[slot] as number);
    live = live.change([], [{ slot, code, x: columns.wx[slot] as number, y: columns.wy[slot] as number }]);
    expect(live.size).toBe(3);
    expect(live.pending).toBe(1);
    live = live.change([{ slot, code }], []);
    expect(live.size).toBe(2);
    expect(live.pending).toBe(0);
    // a removal naming no live entry changes nothing
    expect(live.change([{ slot: 99, code: 0 }], []).size).toBe(2);
  });
});
