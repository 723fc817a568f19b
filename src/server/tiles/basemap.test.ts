import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { writePmtiles, type ArchiveTile } from '../../../scripts/map/pmtiles-writer';
import { TileArchive, parseTileAddress } from './basemap';

describe('parseTileAddress', () => {
  const range = { minZoom: 0, maxZoom: 14 };

  it('reads z/x/y.mvt', () => {
    expect(parseTileAddress('3', '7', '0.mvt', range)).toEqual({ ok: true, z: 3, x: 7, y: 0 });
  });

  it('tells a missing zoom from a malformed address', () => {
    expect(parseTileAddress('15', '0', '0.mvt', range)).toEqual({ ok: false, kind: 'zoom', z: 15 });
    expect(parseTileAddress('3', '8', '0.mvt', range)).toMatchObject({
      kind: 'coordinates',
      reason: expect.stringMatching(/^x must be/),
    });
    expect(parseTileAddress('3', '0', '8.mvt', range)).toMatchObject({
      kind: 'coordinates',
      reason: expect.stringMatching(/^y must be/),
    });
    for (const [z, x, y] of [
      ['03', '0', '0.mvt'],
      ['3', '1e1', '0.mvt'],
      ['3', '0', '0.pbf'],
      ['3', '0', '0.mvt.gz'],
      ['3', '0', '.mvt'],
      ['-1', '0', '0.mvt'],
    ] as const) {
      expect(parseTileAddress(z, x, y, range), `${z}/${x}/${y}`).toMatchObject({
        ok: false,
        kind: 'coordinates',
      });
    }
  });
});

describe('the PMTiles writer and reader', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-pmtiles-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('round-trips distinct, repeated and missing tiles through leaf directories', async () => {
    const tiles: ArchiveTile[] = [];
    const repeated = gzipSync(Buffer.from('the same ocean'));
    for (let z = 0; z <= 7; z++) {
      for (let x = 0; x < 2 ** z; x++) {
        for (let y = 0; y < 2 ** z; y++) {
          if (z === 7 && x === 5 && y === 5) continue; // a hole
          const data = (x + y) % 3 === 0 ? repeated : gzipSync(Buffer.from(`${z}/${x}/${y}`));
          tiles.push({ z, x, y, data });
        }
      }
    }
    const { buffer, stats } = writePmtiles(tiles, {
      minZoom: 0,
      maxZoom: 7,
      bounds: [-180, -85, 180, 85],
      center: [0, 0, 0],
      metadata: { name: 'test' },
    });
    expect(stats.leafDirectories).toBeGreaterThan(0);
    expect(stats.tileContents).toBeLessThan(stats.addressedTiles);
    const file = path.join(dir, 'test.pmtiles');
    fs.writeFileSync(file, buffer);

    const archive = await TileArchive.open(file);
    try {
      expect(archive.header).toMatchObject({ minZoom: 0, maxZoom: 7, numAddressedTiles: tiles.length });
      for (const [z, x, y] of [
        [0, 0, 0],
        [4, 3, 9],
        [7, 127, 0],
        [7, 64, 65],
        [7, 6, 6],
      ] as const) {
        const tile = await archive.getTile(z, x, y);
        const expected = tiles.find((t) => t.z === z && t.x === x && t.y === y)!.data;
        expect(Buffer.from(tile!.data).equals(Buffer.from(expected)), `${z}/${x}/${y}`).toBe(true);
      }
      expect(await archive.getTile(7, 5, 5)).toBeNull();
    } finally {
      await archive.close();
    }
  });
});
