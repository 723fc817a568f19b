import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { describe, expect, it } from 'vitest';
import { PointTileIndex, clickUrl, type LoadedRecord } from './index';
import { worldX, worldY } from './morton';

function record(id: string, fields: Partial<LoadedRecord> = {}): LoadedRecord {
  return {
    id,
    group: 'business',
    type: 'cafe',
    subtype: '',
    title: id,
    lat: 40.7,
    lon: -74,
    beamtype: 0,
    promo: 0,
    hideAfter: null,
    ...fields,
  };
}

function ids(index: PointTileIndex): Record<string, string[]> {
  // the z18 tile around (40.7, -74): every point there is drawn on its own
  const n = 2 ** 18;
  const bytes = index.tile(18, Math.floor(worldX(-74) * n), Math.floor(worldY(40.70001) * n), [
    'business',
    'poi',
    'event',
  ]);
  const out: Record<string, string[]> = {};
  if (!bytes) return out;
  const tile = new VectorTile(new PbfReader(bytes));
  for (const [name, layer] of Object.entries(tile.layers)) {
    out[name] = Array.from({ length: layer.length }, (_, i) =>
      String(layer.feature(i).properties['appnetid']),
    );
  }
  return out;
}

describe('PointTileIndex', () => {
  it('applies inserts, moves between groups, hides and deletes, bumping only the touched groups', () => {
    const index = new PointTileIndex(10);
    index.add('point', record('a'));
    index.add('point', record('b', { lat: 40.70001 }));
    index.add('event', record('e', { group: 'event', hideAfter: 5_000 }));
    index.buildAll();
    expect(ids(index)).toEqual({ business: ['a', 'b'], event: ['e'] });
    const poiVersion = index.versionOf(['poi']);
    const before = index.versionOf(['business']);

    index.apply('point', ['b'], [record('b', { group: 'poi', lat: 40.70001 })], 11, 0);
    expect(ids(index)).toEqual({ business: ['a'], poi: ['b'], event: ['e'] });
    expect(index.versionOf(['business'])).not.toBe(before);
    expect(index.versionOf(['poi'])).not.toBe(poiVersion);
    const eventVersion = index.versionOf(['event']);

    index.apply('point', ['a', 'zz'], [], 12, 0);
    expect(ids(index)).toEqual({ poi: ['b'], event: ['e'] });
    expect(index.versionOf(['event'])).toBe(eventVersion);

    // an event that is already over is not shown; the sweep hides the rest when they end
    index.apply('event', ['old'], [record('old', { group: 'event', hideAfter: 1_000 })], 13, 2_000);
    expect(index.sweep(4_000)).toBe(0);
    expect(index.sweep(6_000)).toBe(1);
    expect(ids(index)).toEqual({ poi: ['b'] });
    expect(index.count).toBe(1);
  });

  it('reuses slots and keeps leaves paging within a cluster', () => {
    const index = new PointTileIndex(0);
    for (let i = 0; i < 250; i++) index.add('point', record(`p${i}`, { lat: 40.7 + i * 1e-5 }));
    index.buildAll();
    const bytes = index.tile(0, 0, 0, ['business']) as Uint8Array;
    const feature = new VectorTile(new PbfReader(bytes)).layers['business']?.feature(0);
    expect(feature?.properties['point_count']).toBe(250);
    const clusterId = Number(feature?.properties['cluster_id']);
    const first = index.leaves('business', clusterId, 0, 100);
    const last = index.leaves('business', clusterId, 200, 100);
    expect(first?.total).toBe(250);
    expect(first?.leaves).toHaveLength(100);
    expect(last?.leaves).toHaveLength(50);
    expect(last?.leaves[0]?.clickurl).toMatch(/^\/b\/p\d+$/);
    expect(index.expansionZoom('business', clusterId)).toBeGreaterThan(0);
    expect(index.leaves('poi', clusterId, 0, 10)).toBeNull();

    index.apply('point', ['p0', 'p1'], [], 1, 0);
    index.apply('point', ['n1'], [record('n1')], 2, 0);
    expect(index.count).toBe(249);
    expect(index.leaves('business', clusterId, 0, 1)?.total).toBe(249);
  });

  it('builds click urls from the id prefixes', () => {
    expect(clickUrl('business', 'x1')).toBe('/b/x1');
    expect(clickUrl('experience', 'x1')).toBe('/exp/x1');
    expect(clickUrl('event', 'x1')).toBe('/e/x1');
  });
});
