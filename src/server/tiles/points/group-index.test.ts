import { describe, expect, it } from 'vitest';
import { PointColumns } from './columns';
import { CELL_LEVELS, CLUSTER_MAX_ZOOM, GroupIndex, clusterIdOf } from './group-index';
import { commonLevel, mortonCode, nodeRange, quantise, worldX, worldY } from './morton';

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function columnsWith(points: { lat: number; lon: number }[]): PointColumns {
  const columns = new PointColumns(4);
  points.forEach((p, i) =>
    columns.put('point', {
      id: `p${i}`,
      group: 'business',
      type: 'cafe',
      subtype: '',
      title: `P ${i}`,
      lat: p.lat,
      lon: p.lon,
      beamtype: 0,
      promo: 0,
    }),
  );
  return columns;
}

describe('morton codes', () => {
  it('orders quadtree nodes as contiguous code ranges', () => {
    expect(mortonCode(0, 0)).toBe(0);
    expect(mortonCode(1, 0)).toBe(1);
    expect(mortonCode(0, 1)).toBe(2);
    expect(mortonCode(2 ** 24 - 1, 2 ** 24 - 1)).toBe(2 ** 48 - 1);
    // the whole world at zoom 0, a quarter of it at zoom 1
    expect(nodeRange(0, 0, 0)).toEqual([0, 2 ** 48]);
    expect(nodeRange(1, 1, 1)).toEqual([3 * 2 ** 46, 2 ** 48]);
  });

  it('finds the deepest common node of two codes', () => {
    expect(commonLevel(5, 5)).toBe(24);
    expect(commonLevel(0, 2 ** 48 - 1)).toBe(0);
    expect(commonLevel(mortonCode(0, 0), mortonCode(1, 1))).toBe(23);
    expect(commonLevel(mortonCode(0, 0), mortonCode(2 ** 23, 0))).toBe(0);
  });

  it('projects to Web Mercator and clamps the poles', () => {
    expect(worldX(-180)).toBe(0);
    expect(worldX(0)).toBe(0.5);
    expect(worldY(0)).toBeCloseTo(0.5, 12);
    expect(worldY(90)).toBe(0);
    expect(worldY(-90)).toBeLessThan(1);
    expect(quantise(0.9999999999)).toBe(2 ** 24 - 1);
  });
});

describe('group index', () => {
  const random = rng(3);
  const points = Array.from({ length: 5000 }, () => ({
    lat: 40.7 + (random() - 0.5) * (random() < 0.5 ? 0.02 : 2),
    lon: -74 + (random() - 0.5) * (random() < 0.5 ? 0.02 : 2),
  }));
  const columns = columnsWith(points);
  const index = GroupIndex.build(columns, columns.slotsOf(0));

  it('sorts every point by code', () => {
    expect(index.size).toBe(points.length);
    for (let i = 1; i < index.size; i++) {
      expect(index.codes[i] as number).toBeGreaterThanOrEqual(index.codes[i - 1] as number);
    }
    expect(new Set(index.order).size).toBe(points.length);
  });

  it('puts exactly the points of a tile in its run, in cells that partition it', () => {
    for (const z of [0, 4, 8, 12]) {
      const n = 2 ** z;
      const x = Math.floor(worldX(-74) * n);
      const y = Math.floor(worldY(40.7) * n);
      const [start, end] = index.range(...nodeRange(z, x, y));
      const brute = points.filter(
        (p) => Math.floor(worldX(p.lon) * n) === x && Math.floor(worldY(p.lat) * n) === y,
      ).length;
      expect(end - start, `z${z}`).toBe(brute);
      let total = 0;
      index.cells(z + CELL_LEVELS, start, end, (run) => {
        total += run.end - run.start;
        // the centroid of a run is the mean of its points
        const [cx, cy] = index.centroid(run.start, run.end);
        let sx = 0;
        let sy = 0;
        for (let i = run.start; i < run.end; i++) {
          sx += columns.wx[index.order[i] as number] as number;
          sy += columns.wy[index.order[i] as number] as number;
        }
        expect(cx).toBeCloseTo(sx / (run.end - run.start), 9);
        expect(cy).toBeCloseTo(sy / (run.end - run.start), 9);
        // the cluster id finds the same run again
        const found = index.clusterRun(clusterIdOf(run.level, run.cell));
        expect(found?.slice(0, 2)).toEqual([run.start, run.end]);
      });
      expect(total).toBe(brute);
    }
  });

  it('splits a cluster exactly at its expansion zoom', () => {
    let checked = 0;
    index.cells(2 + CELL_LEVELS, 0, index.size, (run) => {
      if (run.end - run.start < 2) return;
      const expansion = index.expansionZoom(run.start, run.end);
      expect(expansion).toBeGreaterThan(2);
      expect(expansion).toBeLessThanOrEqual(CLUSTER_MAX_ZOOM + 1);
      const cellsAt = (zoom: number) => {
        let n = 0;
        index.cells(zoom + CELL_LEVELS, run.start, run.end, () => n++);
        return n;
      };
      if (expansion <= CLUSTER_MAX_ZOOM) {
        expect(cellsAt(expansion - 1)).toBe(1);
        expect(cellsAt(expansion)).toBeGreaterThan(1);
      }
      checked++;
    });
    expect(checked).toBeGreaterThan(0);
  });

  it('rejects cluster ids that name no cluster level', () => {
    expect(index.clusterRun(-1)).toBeNull();
    expect(index.clusterRun(clusterIdOf(2, 0))).toBeNull();
    expect(index.clusterRun(clusterIdOf(CLUSTER_MAX_ZOOM + CELL_LEVELS + 1, 0))).toBeNull();
    expect(index.clusterRun(clusterIdOf(3, 64))).toBeNull();
    expect(index.clusterRun(1.5)).toBeNull();
  });

  it('handles an empty group', () => {
    const empty = GroupIndex.build(columns, new Uint32Array(0));
    expect(empty.range(0, 2 ** 48)).toEqual([0, 0]);
  });
});

describe('merging changes into a group index', () => {
  it('gives the same index as a rebuild', () => {
    const random = rng(11);
    const points = Array.from({ length: 3000 }, () => ({
      lat: 51.5 + (random() - 0.5) * 0.5,
      lon: -0.1 + (random() - 0.5) * 0.5,
    }));
    const columns = columnsWith(points);
    let index = GroupIndex.build(columns, columns.slotsOf(0));
    for (let round = 0; round < 20; round++) {
      const removed: number[] = [];
      const added: number[] = [];
      for (let c = 0; c < 5; c++) {
        const id = `p${Math.floor(random() * 4000)}`;
        const slot = columns.slotOf('point', id);
        if (slot !== undefined && random() < 0.4) {
          columns.remove('point', id);
          removed.push(slot);
        } else {
          const {
            slot: at,
            moved,
            oldGroup,
          } = columns.put('point', {
            id,
            group: 'business',
            type: 'cafe',
            subtype: '',
            title: id,
            lat: 51.5 + (random() - 0.5) * 0.5,
            lon: -0.1 + (random() - 0.5) * 0.5,
            beamtype: 0,
            promo: 0,
          });
          if (moved && oldGroup === 0) removed.push(at);
          if (moved) added.push(at);
        }
      }
      index = index.merge(columns, removed, added);
      const rebuilt = GroupIndex.build(columns, columns.slotsOf(0));
      expect(index.size).toBe(rebuilt.size);
      expect(Array.from(index.codes)).toEqual(Array.from(rebuilt.codes));
      expect(new Set(index.order)).toEqual(new Set(rebuilt.order));
      expect(index.sumX[index.size]).toBeCloseTo(rebuilt.sumX[rebuilt.size] as number, 9);
    }
  });
});
