/**
 * Is this spot land? Read from the embedded basemap's own street-zoom detail (dist/map/basemap.pmtiles
 * around the demo cities), as the map draws it: on OpenStreetMap land; else water on an OpenStreetMap
 * sea; else (a cell both OSM files lack) as Natural Earth says. So the demo generator and the map
 * agree on where the coast is. Synchronous (the generator is), reading the archive into memory once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { Compression, bytesToHeader, findTile, zxyToTileId, type Entry, type Header } from 'pmtiles';
import { BASEMAP_DETAIL_MIN_ZOOM, BASEMAP_LAYERS } from '../../shared/map/contract';
import { deserializeDirectory } from '../tiles/basemap';

export interface LandMask {
  /** true on land, false in water; true where the archive has no detail (nothing to say otherwise). */
  isLand(lat: number, lon: number): boolean;
}

/** Where `npm run build:map` writes the archive, from the repository root. */
export const DEFAULT_BASEMAP_ARCHIVE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../dist/map/basemap.pmtiles',
);

/** Tiles kept decoded: a city's area spans a few dozen street-zoom tiles. */
const TILE_CACHE = 4096;
const MAX_DIRECTORY_DEPTH = 4;

type Rings = number[][][];
/** A detail tile's layers that decide land (scripts/map/coast.ts), in tile coordinates. */
interface Detail {
  extent: number;
  base: Rings;
  sea: Rings;
  land: Rings;
}

function decompress(bytes: Uint8Array, compression: Compression): Uint8Array {
  return compression === Compression.Gzip ? gunzipSync(bytes) : bytes;
}

/** Even-odd crossing test over every ring (holes included), in tile coordinates. */
function inside(rings: Rings, x: number, y: number): boolean {
  let result = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i] as [number, number];
      const [xj, yj] = ring[j] as [number, number];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) result = !result;
    }
  }
  return result;
}

export class ArchiveLandMask implements LandMask {
  private readonly header: Header;
  private readonly root: Entry[];
  private readonly tiles = new Map<number, Detail | null>();
  /** the zoom land is read at: the archive's deepest, where the detail is finest. */
  readonly zoom: number;

  constructor(private readonly bytes: Uint8Array) {
    this.header = bytesToHeader(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + 127) as ArrayBuffer);
    this.root = deserializeDirectory(
      decompress(
        this.slice(this.header.rootDirectoryOffset, this.header.rootDirectoryLength),
        this.header.internalCompression,
      ),
    );
    this.zoom = this.header.maxZoom;
  }

  /** True when the archive has street-zoom land (one built before it has none). */
  get hasDetail(): boolean {
    return this.zoom >= BASEMAP_DETAIL_MIN_ZOOM;
  }

  private slice(offset: number, length: number): Uint8Array {
    return this.bytes.subarray(offset, offset + length);
  }

  private tileBytes(z: number, x: number, y: number): Uint8Array | null {
    const id = zxyToTileId(z, x, y);
    let directory = this.root;
    for (let depth = 0; depth < MAX_DIRECTORY_DEPTH; depth++) {
      const entry = findTile(directory, id);
      if (!entry) return null;
      if (entry.runLength > 0) {
        return decompress(
          this.slice(this.header.tileDataOffset + entry.offset, entry.length),
          this.header.tileCompression,
        );
      }
      directory = deserializeDirectory(
        decompress(
          this.slice(this.header.leafDirectoryOffset + entry.offset, entry.length),
          this.header.internalCompression,
        ),
      );
    }
    return null;
  }

  private ringsOf(tile: VectorTile, name: string): Rings {
    const layer = tile.layers[name];
    const rings: Rings = [];
    for (let i = 0; layer && i < layer.length; i++) {
      for (const ring of layer.feature(i).loadGeometry()) rings.push(ring.map((p) => [p.x, p.y]));
    }
    return rings;
  }

  /** A detail tile's layers as rings, or null where the archive has no detail tile. */
  private detailOf(z: number, x: number, y: number): Detail | null {
    const key = zxyToTileId(z, x, y);
    if (this.tiles.has(key)) return this.tiles.get(key)!;
    const bytes = this.tileBytes(z, x, y);
    let detail: Detail | null = null;
    if (bytes) {
      const tile = new VectorTile(new PbfReader(bytes));
      const water = tile.layers[BASEMAP_LAYERS.detailWater];
      if (water)
        detail = {
          extent: water.extent,
          base: this.ringsOf(tile, BASEMAP_LAYERS.detailBase),
          sea: this.ringsOf(tile, BASEMAP_LAYERS.detailSea),
          land: this.ringsOf(tile, BASEMAP_LAYERS.detailLand),
        };
    }
    if (this.tiles.size >= TILE_CACHE) this.tiles.delete(this.tiles.keys().next().value!);
    this.tiles.set(key, detail);
    return detail;
  }

  isLand(lat: number, lon: number): boolean {
    if (!this.hasDetail) return true;
    const n = 2 ** this.zoom;
    const sin = Math.sin((Math.max(-85, Math.min(85, lat)) * Math.PI) / 180);
    const fx = ((lon + 180) / 360) * n;
    const fy = (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * n;
    const x = Math.min(n - 1, Math.max(0, Math.floor(fx)));
    const y = Math.min(n - 1, Math.max(0, Math.floor(fy)));
    const detail = this.detailOf(this.zoom, x, y);
    if (detail === null) return true;
    const [tx, ty] = [(fx - x) * detail.extent, (fy - y) * detail.extent];
    // the layers as the style draws them, top first
    if (inside(detail.land, tx, ty)) return true;
    if (inside(detail.sea, tx, ty)) return false;
    return inside(detail.base, tx, ty);
  }
}

/** The land mask of the built basemap, or null when there is none (the map was never built). */
export function openLandMask(file = DEFAULT_BASEMAP_ARCHIVE): ArchiveLandMask | null {
  if (!fs.existsSync(file)) return null;
  const mask = new ArchiveLandMask(fs.readFileSync(file));
  return mask.hasDetail ? mask : null;
}
