import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { describe, expect, it } from 'vitest';
import { ByteLru } from './lru';
import { abbreviate } from './index';
import { EXTENT, PointLayer, encodeTile } from './mvt';

describe('the MVT writer', () => {
  it('writes point layers a vector tile reader understands', () => {
    const a = new PointLayer('business');
    a.add(10.4, 20.6, ['title', 'count', 'ratio', 'neg', 'flag'], ['Café', 3, 0.5, -2, true], 7);
    a.add(4096, 0, ['title', 'count'], ['Other', 3]);
    const b = new PointLayer('poi');
    const empty = new PointLayer('event');
    const bytes = encodeTile([a, b, empty]);
    expect(bytes).not.toBeNull();
    b.add(1, 1, [], []);
    const tile = new VectorTile(new PbfReader(encodeTile([a, b, empty]) as Uint8Array));
    expect(Object.keys(tile.layers).sort()).toEqual(['business', 'poi']);
    const layer = tile.layers['business'];
    expect(layer?.extent).toBe(EXTENT);
    expect(layer?.length).toBe(2);
    const first = layer?.feature(0);
    expect(first?.id).toBe(7);
    expect(first?.type).toBe(1);
    expect(first?.properties).toEqual({ title: 'Café', count: 3, ratio: 0.5, neg: -2, flag: true });
    expect(first?.loadGeometry()).toEqual([[{ x: 10, y: 21 }]]);
    expect(layer?.feature(1).loadGeometry()).toEqual([[{ x: 4096, y: 0 }]]);
  });

  it('answers null for a tile with no features', () => {
    expect(encodeTile([new PointLayer('business')])).toBeNull();
  });

  it('abbreviates counts like supercluster', () => {
    expect(abbreviate(950)).toBe('950');
    expect(abbreviate(3449)).toBe('3.4k');
    expect(abbreviate(12_400)).toBe('12k');
  });
});

describe('ByteLru', () => {
  it('evicts the least recently used entries past its byte budget', () => {
    const lru = new ByteLru<string>(3 * (100 + 1 + 64), (v) => v.length);
    const value = 'x'.repeat(100);
    lru.set('a', value);
    lru.set('b', value);
    lru.set('c', value);
    expect(lru.get('a')).toBe(value);
    lru.set('d', value);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(value);
    expect(lru.size).toBe(3);
    lru.set('huge', 'y'.repeat(10_000));
    expect(lru.get('huge')).toBeUndefined();
  });
});
