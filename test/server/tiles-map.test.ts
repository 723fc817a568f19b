import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import type { StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import { PbfReader } from 'pbf';
import { PMTiles, TileType, type RangeResponse, type Source } from 'pmtiles';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layerCategories } from '../../src/shared/map/categories';
import { BEAM_TYPES } from '../../src/shared/domain/beams';
import {
  BASEMAP_LAYERS,
  FONT_STACKS,
  LAYER_GROUPS,
  POINTS_SOURCE,
  allPointLayerIds,
  pointLayerIds,
  spriteBeamIcon,
  spriteDefaultIcon,
  spriteIconName,
} from '../../src/shared/map/contract';
import { layers as protomapsLayers, namedFlavor } from '@protomaps/basemaps';
import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openTestApp, type TestApp } from '../support/app';
import { ensureMapAssets, linkMapAssets } from '../support/map-assets';
import { openTestStore } from '../support/store';

/** Tile { layers = 3 } / Layer { name = 1, features = 2 }: layer names and feature counts. */
function tileLayers(bytes: Uint8Array): Record<string, number> {
  const layers: Record<string, number> = {};
  new PbfReader(bytes).readFields((tag, _: null, pbf) => {
    if (tag !== 3) return;
    const layer = pbf.readMessage(
      (field, acc: { name: string; features: number }, p) => {
        if (field === 1) acc.name = p.readString();
        else if (field === 2) acc.features += 1; // readFields skips the feature's bytes
      },
      { name: '', features: 0 },
    );
    layers[layer.name] = layer.features;
  }, null);
  return layers;
}

interface GlyphSet {
  name: string;
  range: string;
  ids: number[];
  bitmaps: number;
}

/** glyphs { stacks = 1 } / fontstack { name = 1, range = 2, glyphs = 3 } / glyph { id = 1, bitmap = 2 }. */
function glyphSet(bytes: Uint8Array): GlyphSet {
  const result: GlyphSet = { name: '', range: '', ids: [], bitmaps: 0 };
  new PbfReader(bytes).readFields((tag, acc: GlyphSet, pbf) => {
    if (tag !== 1) return;
    pbf.readMessage((field, a: GlyphSet, p) => {
      if (field === 1) a.name = p.readString();
      else if (field === 2) a.range = p.readString();
      else if (field === 3) {
        const glyph = p.readMessage(
          (g, acc2: { id: number; bitmap: boolean }, q) => {
            if (g === 1) acc2.id = q.readVarint();
            else if (g === 2) acc2.bitmap = q.readBytes().byteLength > 0;
          },
          { id: -1, bitmap: false },
        );
        a.ids.push(glyph.id);
        if (glyph.bitmap) a.bitmaps += 1;
      }
    }, acc);
  }, result);
  return result;
}

class FileBytes implements Source {
  constructor(private readonly bytes: Buffer) {}
  getKey(): string {
    return 'basemap.pmtiles';
  }
  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    const slice = this.bytes.subarray(offset, offset + length);
    return { data: slice.buffer.slice(slice.byteOffset, slice.byteOffset + slice.byteLength) as ArrayBuffer };
  }
}

describe('the map assets and their routes', () => {
  let t: TestApp;
  let mapDir: string;
  beforeAll(async () => {
    mapDir = ensureMapAssets();
    t = await openTestApp();
    linkMapAssets(t.config.webDir);
  }, 120_000);
  afterAll(() => t.close());

  describe('GET /home/mapboxstyle.json', () => {
    async function style(query: string, headers: Record<string, string> = {}) {
      return t.app.inject({ method: 'GET', url: `/home/mapboxstyle.json${query}`, headers });
    }

    it('answers a valid MapLibre style with every layer group by default', async () => {
      const res = await style('?v=3&imgformat=webp&layers=all', { host: 'maps.example.org:8443' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=300');
      const body = res.json<StyleSpecification>();
      expect(validateStyleMin(body)).toEqual([]);
      const ids = body.layers.map((layer) => layer.id);
      expect(ids.slice(0, 3)).toEqual(['background', 'water', 'land']);
      expect(ids).toEqual(expect.arrayContaining(['country-borders', 'country-labels', 'city-labels']));
      for (const id of allPointLayerIds()) expect(ids).toContain(id);
      expect(body.metadata).toMatchObject({ 'xpoint:v': '3', 'xpoint:imgformat': 'webp' });
    });

    it('builds absolute URLs from PUBLIC_URL, whatever Host and X-Forwarded-Host say', async () => {
      const res = await style('', {
        host: 'evil.example',
        'x-forwarded-host': 'attacker.example:8443',
        'x-forwarded-proto': 'https',
      });
      const body = res.json<StyleSpecification>();
      // the test app's PUBLIC_URL is its default, the address it would listen on
      expect(t.config.publicUrl).toBe('http://127.0.0.1:8080');
      expect(body.glyphs).toBe('http://127.0.0.1:8080/tiles/glyphs/{fontstack}/{range}.pbf');
      expect(body.sprite).toBe('http://127.0.0.1:8080/tiles/sprite');
      expect(body.sources[POINTS_SOURCE]).toMatchObject({
        type: 'vector',
        tiles: ['http://127.0.0.1:8080/tiles/points/{z}/{x}/{y}.mvt'],
        maxzoom: 20,
      });
      expect(body.sources['basemap']).toMatchObject({
        type: 'vector',
        tiles: ['http://127.0.0.1:8080/tiles/basemap/{z}/{x}/{y}.mvt'],
        minzoom: 0,
        maxzoom: 7,
      });
      expect(res.body).not.toMatch(/evil|attacker/);
    });

    it('is the same style whatever the Host header, even one that could inject into URLs', async () => {
      const res = await style('', { host: 'evil.example/"><script>' });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('evil');
    });

    it('draws only the requested layer groups, each with clusters, counts and points', async () => {
      const res = await style('?layers=business,event');
      const body = res.json<StyleSpecification>();
      expect(validateStyleMin(body)).toEqual([]);
      const pointIds = body.layers.filter((layer) => layer.id.startsWith('points-')).map((layer) => layer.id);
      expect(pointIds).toEqual([
        ...Object.values(pointLayerIds('business')),
        ...Object.values(pointLayerIds('event')),
      ]);
      const points = body.layers.find((layer) => layer.id === 'points-business-points');
      expect(points).toMatchObject({ source: POINTS_SOURCE, 'source-layer': 'business' });
      expect(JSON.stringify(points)).toContain(spriteDefaultIcon('business'));
    });

    it('answers 400 with the error body for an unknown layer group or image format', async () => {
      const unknown = await style('?layers=business,spaceships');
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toEqual({
        field: 'layers',
        errorcode: 3004,
        error: `layers: "spaceships" is not a layer group (use all, or some of ${LAYER_GROUPS.join(', ')}).`,
      });
      const format = await style('?imgformat=gif');
      expect(format.statusCode).toBe(400);
      expect(format.json()).toEqual({
        field: 'imgformat',
        errorcode: 3005,
        error: 'imgformat: must be webp or png (got "gif").',
      });
      const version = await style('?v=%3Cscript%3E');
      expect(version.statusCode).toBe(400);
    });

    it('answers 304 to a matching If-None-Match, and a new ETag for a new v', async () => {
      const first = await style('?v=1');
      const etag = first.headers['etag'] as string;
      expect(etag).toMatch(/^".+"$/);
      const again = await style('?v=1', { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      const other = await style('?v=2', { 'if-none-match': etag });
      expect(other.statusCode).toBe(200);
    });
  });

  describe('basemap tiles', () => {
    it('serves tiles gzipped as stored, with the land, water, borders and places layers', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/tiles/basemap/0/0/0.mvt',
        headers: { 'accept-encoding': 'gzip, br' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/vnd.mapbox-vector-tile');
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
      expect(res.headers['vary']).toMatch(/Accept-Encoding/);
      const layers = tileLayers(gunzipSync(res.rawPayload));
      // no labels at zoom 0: countries from zoom 1, the biggest cities from zoom 2
      expect(Object.keys(layers).sort()).toEqual(
        [BASEMAP_LAYERS.boundaries, BASEMAP_LAYERS.land, BASEMAP_LAYERS.water].sort(),
      );
      expect(layers[BASEMAP_LAYERS.land]).toBeGreaterThan(50);
      const americas = await t.app.inject({
        method: 'GET',
        url: '/tiles/basemap/2/1/1.mvt',
        headers: { 'accept-encoding': 'gzip' },
      });
      const places = tileLayers(gunzipSync(americas.rawPayload))[BASEMAP_LAYERS.places] ?? 0;
      expect(places).toBeGreaterThan(5);
      expect(places).toBeLessThan(200);
    });

    it('decompresses for a client that does not accept gzip', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/tiles/basemap/3/2/3.mvt',
        headers: { 'accept-encoding': 'identity' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(tileLayers(res.rawPayload)[BASEMAP_LAYERS.land]).toBeGreaterThan(0);
    });

    it('has every city at the last zoom (MapLibre overzooms it)', async () => {
      // New York at zoom 7
      const res = await t.app.inject({
        method: 'GET',
        url: '/tiles/basemap/7/37/48.mvt',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(tileLayers(gunzipSync(res.rawPayload))[BASEMAP_LAYERS.places]).toBeGreaterThan(100);
    });

    it('answers 304 to a matching If-None-Match', async () => {
      const first = await t.app.inject({
        method: 'GET',
        url: '/tiles/basemap/1/1/0.mvt',
        headers: { 'accept-encoding': 'gzip' },
      });
      const etag = first.headers['etag'] as string;
      const again = await t.app.inject({
        method: 'GET',
        url: '/tiles/basemap/1/1/0.mvt',
        headers: { 'accept-encoding': 'gzip', 'if-none-match': etag },
      });
      expect(again.statusCode).toBe(304);
      expect(again.headers['etag']).toBe(etag);
    });

    it('answers 404 for a zoom the archive does not have, 400 naming the reason for a bad address', async () => {
      const deep = await t.app.inject({ method: 'GET', url: '/tiles/basemap/25/1/1.mvt' });
      expect(deep.statusCode).toBe(404);
      expect(deep.json()).toEqual({
        errorcode: 3002,
        // Natural Earth to 7, then the street-zoom coast around the demo cities to 12 (scripts/map/coast.ts)
        error: 'There are no basemap tiles at zoom 25 (zooms 0 to 12).',
      });

      const cases: [string, string][] = [
        ['/tiles/basemap/2/4/0.mvt', 'Bad tile address: x must be between 0 and 3 at zoom 2'],
        ['/tiles/basemap/2/0/9.mvt', 'Bad tile address: y must be between 0 and 3 at zoom 2'],
        ['/tiles/basemap/2/-1/0.mvt', 'Bad tile address: x and y must be whole numbers'],
        ['/tiles/basemap/2/1.5/0.mvt', 'Bad tile address: x and y must be whole numbers'],
        ['/tiles/basemap/2/1/1.png', 'Bad tile address: tiles end in .mvt'],
        ['/tiles/basemap/two/1/1.mvt', 'Bad tile address: z must be a whole number'],
      ];
      for (const [url, error] of cases) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(400);
        expect(res.json(), url).toEqual({ errorcode: 3003, error });
      }
    });

    it('is a PMTiles v3 archive the pmtiles package reads', async () => {
      const archive = new PMTiles(new FileBytes(fs.readFileSync(path.join(mapDir, 'basemap.pmtiles'))));
      const header = await archive.getHeader();
      expect(header).toMatchObject({
        specVersion: 3,
        tileType: TileType.Mvt,
        minZoom: 0,
        maxZoom: 12,
        clustered: true,
      });
      const metadata = (await archive.getMetadata()) as { vector_layers: { id: string }[] };
      expect(metadata.vector_layers.map((layer) => layer.id)).toContain(BASEMAP_LAYERS.land);
      for (const [z, x, y] of [
        [0, 0, 0],
        [5, 9, 12],
        [7, 127, 127],
      ] as const) {
        const tile = await archive.getZxy(z, x, y);
        expect(tile, `${z}/${x}/${y}`).toBeDefined();
        expect(Object.keys(tileLayers(new Uint8Array(tile!.data)))).toContain(BASEMAP_LAYERS.water);
      }
    });
  });

  describe('glyphs', () => {
    it('serves 0-255 with rendered Latin glyphs', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/tiles/glyphs/${encodeURIComponent(FONT_STACKS.regular)}/0-255.pbf`,
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/x-protobuf');
      const set = glyphSet(res.rawPayload);
      expect(set).toMatchObject({ name: FONT_STACKS.regular, range: '0-255' });
      expect(set.ids).toContain('A'.charCodeAt(0));
      expect(set.ids).toContain('é'.charCodeAt(0));
      expect(set.bitmaps).toBeGreaterThan(150);
    });

    it('has the stacks the Protomaps layers ask for, and falls back along a stack list', async () => {
      for (const stack of [FONT_STACKS.regular, FONT_STACKS.medium, FONT_STACKS.italic, FONT_STACKS.bold]) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/tiles/glyphs/${encodeURIComponent(stack)}/1024-1279.pbf`,
        });
        expect(glyphSet(res.rawPayload).ids, stack).toContain('Ж'.charCodeAt(0));
      }
      const list = encodeURIComponent(`Unknown Font,${FONT_STACKS.bold}`);
      const res = await t.app.inject({ method: 'GET', url: `/tiles/glyphs/${list}/0-255.pbf` });
      expect(glyphSet(res.rawPayload).name).toBe(FONT_STACKS.bold);
    });

    it('gzips a range for clients that accept it', async () => {
      const url = `/tiles/glyphs/${encodeURIComponent(FONT_STACKS.regular)}/0-255.pbf`;
      const plain = await t.app.inject({ method: 'GET', url });
      const zipped = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.rawPayload.byteLength).toBeLessThan(plain.rawPayload.byteLength * 0.8);
      expect(gunzipSync(zipped.rawPayload).equals(plain.rawPayload)).toBe(true);
      expect(zipped.headers['etag']).not.toBe(plain.headers['etag']);
      const again = await t.app.inject({
        method: 'GET',
        url,
        headers: { 'accept-encoding': 'gzip', 'if-none-match': zipped.headers['etag'] as string },
      });
      expect(again.statusCode).toBe(304);
    });

    it('answers a valid empty set for a range that was not generated', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/tiles/glyphs/${encodeURIComponent(FONT_STACKS.regular)}/60000-60255.pbf`,
      });
      expect(res.statusCode).toBe(400); // not 256-aligned
      const empty = await t.app.inject({
        method: 'GET',
        url: `/tiles/glyphs/${encodeURIComponent(FONT_STACKS.regular)}/59904-60159.pbf`,
      });
      expect(empty.statusCode).toBe(200);
      expect(glyphSet(empty.rawPayload)).toMatchObject({
        name: FONT_STACKS.regular,
        range: '59904-60159',
        ids: [],
      });
      const last = await t.app.inject({
        method: 'GET',
        url: `/tiles/glyphs/${encodeURIComponent(FONT_STACKS.regular)}/65280-65535.pbf`,
      });
      expect(last.statusCode).toBe(200);
    });

    it('rejects malformed ranges and font names', async () => {
      for (const url of [
        '/tiles/glyphs/Noto%20Sans%20Regular/0-300.pbf',
        '/tiles/glyphs/Noto%20Sans%20Regular/65536-65791.pbf',
        '/tiles/glyphs/%3Cx%3E/0-255.pbf',
      ]) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(400);
        expect(res.json<{ errorcode: number }>().errorcode, url).toBe(3006);
      }
    });
  });

  describe('sprite', () => {
    it('has an icon for every category of every layer group, a default per group and beam rings', async () => {
      for (const suffix of ['', '@2x']) {
        const json = await t.app.inject({ method: 'GET', url: `/tiles/sprite${suffix}.json` });
        expect(json.statusCode).toBe(200);
        const index =
          json.json<
            Record<string, { x: number; y: number; width: number; height: number; pixelRatio: number }>
          >();
        const expected = [
          ...LAYER_GROUPS.flatMap((group) => [
            spriteDefaultIcon(group),
            ...layerCategories(group).map((category) => spriteIconName(group, category.key)),
          ]),
          ...BEAM_TYPES.map(spriteBeamIcon),
        ];
        for (const name of expected) expect(index[name], name).toBeDefined();

        const png = await t.app.inject({ method: 'GET', url: `/tiles/sprite${suffix}.png` });
        expect(png.statusCode).toBe(200);
        expect(png.headers['content-type']).toBe('image/png');
        const { width, height } = await sharp(png.rawPayload).metadata();
        const ratio = suffix === '' ? 1 : 2;
        for (const entry of Object.values(index)) {
          expect(entry.pixelRatio).toBe(ratio);
          expect(entry.x + entry.width).toBeLessThanOrEqual(width!);
          expect(entry.y + entry.height).toBeLessThanOrEqual(height!);
        }
        expect(index[spriteIconName('business', 'bakery')]).toMatchObject({
          width: 24 * ratio,
          height: 24 * ratio,
        });
        expect(Math.max(...Object.values(index).map((e) => e.x + e.width))).toBe(width);
        expect(Math.max(...Object.values(index).map((e) => e.y + e.height))).toBe(height);
      }
    });

    it('answers 304 to a matching If-None-Match', async () => {
      const first = await t.app.inject({ method: 'GET', url: '/tiles/sprite.png' });
      const again = await t.app.inject({
        method: 'GET',
        url: '/tiles/sprite.png',
        headers: { 'if-none-match': first.headers['etag'] as string },
      });
      expect(again.statusCode).toBe(304);
    });
  });
});

describe('the map routes before the assets are built', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp();
  });
  afterAll(() => t.close());

  it('answer 503 saying how to build them', async () => {
    for (const url of [
      '/home/mapboxstyle.json',
      '/tiles/basemap/0/0/0.mvt',
      '/tiles/sprite.json',
      '/tiles/glyphs/Noto%20Sans%20Regular/0-255.pbf',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(503);
      expect(res.json(), url).toMatchObject({ errorcode: 3001 });
    }
  });
});

/** The real app with BASEMAP set, the built assets linked beside a stand-in web build. */
async function appWithBasemap(basemap: string): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const store = await openTestStore('sqlite');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-basemap-'));
  const webDir = path.join(root, 'web');
  linkMapAssets(webDir);
  const config = {
    ...loadConfig({ SEED: 'none', LOG_LEVEL: 'silent', BASEMAP: basemap, PUBLIC_URL: 'http://x.test' }, root),
    webDir,
  };
  const app = await buildApp({ config, store });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await store.dispose();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

describe('BASEMAP', () => {
  it('naming a .pmtiles file: serves that archive, drawn with the Protomaps layers and our glyphs', async () => {
    const archive = path.join(ensureMapAssets(), 'basemap.pmtiles');
    const { app, close } = await appWithBasemap(archive);
    try {
      const res = await app.inject({
        method: 'GET',
        url: '/home/mapboxstyle.json',
        headers: { host: 'x.test' },
      });
      const style = res.json<StyleSpecification>();
      expect(validateStyleMin(style)).toEqual([]);
      const expected = protomapsLayers('basemap', namedFlavor('light'), { lang: 'en' }).map(
        (layer) => layer.id,
      );
      expect(style.layers.map((layer) => layer.id).slice(0, expected.length)).toEqual(expected);
      expect(style.sources['basemap']).toMatchObject({
        tiles: ['http://x.test/tiles/basemap/{z}/{x}/{y}.mvt'],
      });
      const tile = await app.inject({ method: 'GET', url: '/tiles/basemap/0/0/0.mvt' });
      expect(tile.statusCode).toBe(200);
    } finally {
      await close();
    }
  });

  it('naming an external style: the style is our overlay naming it, and there are no basemap tiles', async () => {
    const { app, close } = await appWithBasemap('https://tiles.example.com/styles/streets.json');
    try {
      const res = await app.inject({ method: 'GET', url: '/home/mapboxstyle.json?layers=poi' });
      const style = res.json<StyleSpecification>();
      expect(validateStyleMin(style)).toEqual([]);
      expect(style.metadata).toMatchObject({
        'xpoint:basemap': 'https://tiles.example.com/styles/streets.json',
      });
      expect(Object.keys(style.sources)).toEqual([POINTS_SOURCE]);
      expect(style.layers.map((layer) => layer.id)).toEqual(Object.values(pointLayerIds('poi')));
      expect(JSON.stringify(style.layers)).toContain('"xpoint:poi-default"');
      const tile = await app.inject({ method: 'GET', url: '/tiles/basemap/0/0/0.mvt' });
      expect(tile.statusCode).toBe(404);
    } finally {
      await close();
    }
  });
});
