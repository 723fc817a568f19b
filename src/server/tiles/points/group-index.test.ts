import { describe, expect, it } from 'vitest';
import { GroupIndex, codeOf } from './group-index';
import { commonLevel, mortonCode, nodeRange, quantise, worldX, worldY } from './morton';
import { business, columnsWith, rng } from './testing';

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

  it('handles an empty group', () => {
    const empty = GroupIndex.build(columns, new Uint32Array(0));
    expect(empty.range(0, 2 ** 48)).toEqual([0, 0]);
  });
});

describe('folding changes into a group index', () => {
  it('gives the same index as a rebuild', () => {
    const random = rng(11);
    const points = Array.from({ length: 3000 }, () => ({
      lat: 51.5 + (random() - 0.5) * 0.5,
      lon: -0.1 + (random() - 0.5) * 0.5,
    }));
    const columns = columnsWith(points);
    let index = GroupIndex.build(columns, columns.slotsOf(0));
    for (let round = 0; round < 20; round++) {
      // cut a few entries and move their points elsewhere
      const cuts = new Set<number>();
      while (cuts.size < 5) cuts.add(Math.floor(random() * index.size));
      const adds = [...cuts].map((p) => {
        const slot = index.order[p] as number;
        const lat = 51.5 + (random() - 0.5) * 0.5;
        columns.put('point', business(columns.ids.get(slot), lat, -0.1 + (random() - 0.5) * 0.5));
        const x = columns.wx[slot] as number;
        const y = columns.wy[slot] as number;
        return { slot, code: codeOf(x, y), x, y };
      });
      adds.sort((a, b) => a.code - b.code);
      index = index.fold(
        [...cuts].sort((a, b) => a - b),
        adds,
      );
      const rebuilt = GroupIndex.build(columns, columns.slotsOf(0));
      expect(index.size).toBe(rebuilt.size);
      expect(Array.from(index.codes)).toEqual(Array.from(rebuilt.codes));
      expect(new Set(index.order)).toEqual(new Set(rebuilt.order));
      expect(index.sumX[index.size]).toBeCloseTo(rebuilt.sumX[rebuilt.size] as number, 9);
    }
  });

  it('writes into the arrays of a spare with room, and never into its own', () => {
    const columns = columnsWith(Array.from({ length: 100 }, (_, i) => ({ lat: 10 + i / 100, lon: 20 })));
    const base = GroupIndex.build(columns, columns.slotsOf(0));
    const spare = GroupIndex.build(columns, columns.slotsOf(0));
    const folded = base.fold([0, 1], [], spare);
    expect(folded.codes.buffer).toBe(spare.codes.buffer);
    expect(folded.size).toBe(98);
    expect(Array.from(folded.codes)).toEqual(Array.from(base.codes.subarray(2)));
    expect(base.fold([0], [], base).codes.buffer).not.toBe(base.codes.buffer);
    // a spare too small for the result is left alone
    const small = GroupIndex.empty();
    const grown = base.fold([], [], small);
    expect(grown.codes.buffer).not.toBe(small.codes.buffer);
    expect(grown.size).toBe(100);
  });
});
