import fs from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import {
  Compression,
  bytesToHeader,
  findTile,
  readVarint,
  zxyToTileId,
  type Entry,
  type Header,
  type RangeResponse,
  type Source,
} from 'pmtiles';

/**
 * Vector tiles out of a PMTiles v3 archive on disk: the embedded basemap (dist/map/basemap.pmtiles)
 * or a Protomaps extract named by BASEMAP. Tiles are returned as stored (usually gzipped) so the
 * route can pass them through to clients that accept gzip without recompressing.
 */

/** pmtiles' own FileSource is for browser File objects; this one reads a Node file handle. */
export class NodeFileSource implements Source {
  private constructor(
    private readonly handle: fs.FileHandle,
    private readonly key: string,
  ) {}

  static async open(filePath: string): Promise<NodeFileSource> {
    return new NodeFileSource(await fs.open(filePath, 'r'), filePath);
  }

  getKey(): string {
    return this.key;
  }

  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await this.handle.read(buffer, 0, length, offset);
    const data = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + bytesRead) as ArrayBuffer;
    return { data };
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

/** The header and root directory always sit within the first 16 KiB. */
const HEADER_READ_BYTES = 16_384;
/** Leaf directories kept decoded; an extract of a country has a few dozen. */
const LEAF_CACHE_SIZE = 64;
/** Root → leaf → leaf at most, per the spec. */
const MAX_DIRECTORY_DEPTH = 4;

export interface StoredTile {
  data: Uint8Array;
  compression: Compression;
}

export class TileArchive {
  private readonly leaves = new Map<number, Entry[]>();

  private constructor(
    private readonly source: NodeFileSource,
    readonly header: Header,
    private readonly root: Entry[],
  ) {}

  static async open(filePath: string): Promise<TileArchive> {
    const source = await NodeFileSource.open(filePath);
    try {
      const start = await source.getBytes(0, HEADER_READ_BYTES);
      const header = bytesToHeader(start.data);
      if (header.specVersion !== 3)
        throw new Error(`${filePath}: PMTiles version ${header.specVersion} is not 3`);
      const rootBytes = await source.getBytes(header.rootDirectoryOffset, header.rootDirectoryLength);
      const root = deserializeDirectory(
        decompress(new Uint8Array(rootBytes.data), header.internalCompression),
      );
      return new TileArchive(source, header, root);
    } catch (error) {
      await source.close();
      throw error;
    }
  }

  /** The tile as stored, or null when the archive has no tile there. */
  async getTile(z: number, x: number, y: number): Promise<StoredTile | null> {
    const tileId = zxyToTileId(z, x, y);
    let entries = this.root;
    for (let depth = 0; depth < MAX_DIRECTORY_DEPTH; depth++) {
      const entry = findTile(entries, tileId);
      if (entry === null) return null;
      if (entry.runLength > 0) {
        const bytes = await this.source.getBytes(this.header.tileDataOffset + entry.offset, entry.length);
        return { data: new Uint8Array(bytes.data), compression: this.header.tileCompression };
      }
      entries = await this.leaf(entry);
    }
    return null;
  }

  private async leaf(entry: Entry): Promise<Entry[]> {
    const offset = this.header.leafDirectoryOffset + entry.offset;
    const cached = this.leaves.get(offset);
    if (cached) return cached;
    const bytes = await this.source.getBytes(offset, entry.length);
    const entries = deserializeDirectory(
      decompress(new Uint8Array(bytes.data), this.header.internalCompression),
    );
    if (this.leaves.size >= LEAF_CACHE_SIZE) this.leaves.delete(this.leaves.keys().next().value!);
    this.leaves.set(offset, entries);
    return entries;
  }

  close(): Promise<void> {
    return this.source.close();
  }
}

function decompress(bytes: Uint8Array, compression: Compression): Uint8Array {
  if (compression === Compression.None || compression === Compression.Unknown) return bytes;
  if (compression === Compression.Gzip) return gunzipSync(bytes);
  throw new Error(`PMTiles compression ${compression} is not supported (use gzip or none)`);
}

/** A directory: count, then columns of tile-id deltas, run lengths, lengths and offsets (varints). */
export function deserializeDirectory(bytes: Uint8Array): Entry[] {
  const p = { buf: bytes, pos: 0 };
  const count = readVarint(p);
  const entries: Entry[] = [];
  let lastId = 0;
  for (let i = 0; i < count; i++) {
    lastId += readVarint(p);
    entries.push({ tileId: lastId, offset: 0, length: 0, runLength: 1 });
  }
  for (const entry of entries) entry.runLength = readVarint(p);
  for (const entry of entries) entry.length = readVarint(p);
  entries.forEach((entry, i) => {
    const value = readVarint(p);
    const previous = entries[i - 1];
    entry.offset = value === 0 && previous ? previous.offset + previous.length : value - 1;
  });
  return entries;
}

export type TileAddress =
  | { ok: true; z: number; x: number; y: number }
  | { ok: false; kind: 'zoom'; z: number }
  | { ok: false; kind: 'coordinates'; reason: string };

const INTEGER = /^(0|[1-9]\d{0,9})$/;

/**
 * Reads the `{z}/{x}/{y}.mvt` parts of a tile URL. A zoom outside minZoom..maxZoom is "no such
 * tile" (404); anything else malformed is a bad request (400) with the reason.
 */
export function parseTileAddress(
  zText: string,
  xText: string,
  yFile: string,
  range: { minZoom: number; maxZoom: number },
): TileAddress {
  const [yText, extension, ...rest] = yFile.split('.');
  if (extension !== 'mvt' || rest.length > 0) {
    return { ok: false, kind: 'coordinates', reason: 'tiles end in .mvt' };
  }
  if (!INTEGER.test(zText)) return { ok: false, kind: 'coordinates', reason: 'z must be a whole number' };
  const z = Number(zText);
  if (z < range.minZoom || z > range.maxZoom) return { ok: false, kind: 'zoom', z };
  if (!INTEGER.test(xText ?? '') || !INTEGER.test(yText ?? '')) {
    return { ok: false, kind: 'coordinates', reason: 'x and y must be whole numbers' };
  }
  const x = Number(xText);
  const y = Number(yText);
  const size = 2 ** z;
  if (x >= size)
    return { ok: false, kind: 'coordinates', reason: `x must be between 0 and ${size - 1} at zoom ${z}` };
  if (y >= size)
    return { ok: false, kind: 'coordinates', reason: `y must be between 0 and ${size - 1} at zoom ${z}` };
  return { ok: true, z, x, y };
}
