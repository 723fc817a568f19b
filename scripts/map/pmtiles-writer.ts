import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { zxyToTileId } from 'pmtiles';

/**
 * A small PMTiles v3 writer (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md):
 * header | root directory | JSON metadata | leaf directories | tile data. Tiles are written in
 * tile-id order (a "clustered" archive); identical tiles (open ocean, inland) are stored once and
 * consecutive repeats become one run-length entry. Directories and metadata are gzipped.
 */

const HEADER_BYTES = 127;
/** The header and root directory must fit in the first 16 KiB, so readers fetch them in one request. */
const ROOT_BUDGET_BYTES = 16_384 - HEADER_BYTES;
const COMPRESSION_GZIP = 2;
const TILE_TYPE_MVT = 1;

export interface ArchiveTile {
  z: number;
  x: number;
  y: number;
  /** the tile as stored: already compressed with `tileCompression`. */
  data: Uint8Array;
}

export interface ArchiveOptions {
  minZoom: number;
  maxZoom: number;
  /** [west, south, east, north] in degrees. */
  bounds: [number, number, number, number];
  center: [lon: number, lat: number, zoom: number];
  /** the TileJSON-like metadata (vector_layers, attribution, ...). */
  metadata: Record<string, unknown>;
}

interface Entry {
  tileId: number;
  offset: number;
  length: number;
  runLength: number;
}

export interface ArchiveStats {
  bytes: number;
  addressedTiles: number;
  tileEntries: number;
  tileContents: number;
  leafDirectories: number;
}

/** Builds a complete archive in memory; tiles may come in any order. */
export function writePmtiles(
  tiles: ArchiveTile[],
  options: ArchiveOptions,
): { buffer: Buffer; stats: ArchiveStats } {
  const sorted = tiles
    .map((tile) => ({ tileId: zxyToTileId(tile.z, tile.x, tile.y), data: tile.data }))
    .sort((a, b) => a.tileId - b.tileId);

  const chunks: Uint8Array[] = [];
  const offsetByHash = new Map<string, { offset: number; length: number }>();
  const entries: Entry[] = [];
  let dataLength = 0;
  for (const { tileId, data } of sorted) {
    const hash = createHash('sha1').update(data).digest('hex');
    let stored = offsetByHash.get(hash);
    if (stored === undefined) {
      stored = { offset: dataLength, length: data.byteLength };
      offsetByHash.set(hash, stored);
      chunks.push(data);
      dataLength += data.byteLength;
    }
    const last = entries.at(-1);
    if (last && last.offset === stored.offset && last.tileId + last.runLength === tileId) {
      last.runLength += 1;
    } else {
      entries.push({ tileId, offset: stored.offset, length: stored.length, runLength: 1 });
    }
  }

  const { root, leaves, leafCount } = buildDirectories(entries);
  const metadata = gzipSync(Buffer.from(JSON.stringify(options.metadata)));

  const rootOffset = HEADER_BYTES;
  const metadataOffset = rootOffset + root.byteLength;
  const leafOffset = metadataOffset + metadata.byteLength;
  const tileDataOffset = leafOffset + leaves.byteLength;

  const header = Buffer.alloc(HEADER_BYTES);
  header.write('PMTiles', 0, 'ascii');
  header.writeUInt8(3, 7);
  const u64 = (value: number, at: number) => header.writeBigUInt64LE(BigInt(value), at);
  u64(rootOffset, 8);
  u64(root.byteLength, 16);
  u64(metadataOffset, 24);
  u64(metadata.byteLength, 32);
  u64(leafOffset, 40);
  u64(leaves.byteLength, 48);
  u64(tileDataOffset, 56);
  u64(dataLength, 64);
  u64(sorted.length, 72);
  u64(entries.length, 80);
  u64(offsetByHash.size, 88);
  header.writeUInt8(1, 96); // clustered: tile data is in tile-id order
  header.writeUInt8(COMPRESSION_GZIP, 97);
  header.writeUInt8(COMPRESSION_GZIP, 98);
  header.writeUInt8(TILE_TYPE_MVT, 99);
  header.writeUInt8(options.minZoom, 100);
  header.writeUInt8(options.maxZoom, 101);
  const e7 = (degrees: number) => Math.round(degrees * 1e7);
  header.writeInt32LE(e7(options.bounds[0]), 102);
  header.writeInt32LE(e7(options.bounds[1]), 106);
  header.writeInt32LE(e7(options.bounds[2]), 110);
  header.writeInt32LE(e7(options.bounds[3]), 114);
  header.writeUInt8(options.center[2], 118);
  header.writeInt32LE(e7(options.center[0]), 119);
  header.writeInt32LE(e7(options.center[1]), 123);

  const buffer = Buffer.concat([header, root, metadata, leaves, ...chunks]);
  return {
    buffer,
    stats: {
      bytes: buffer.byteLength,
      addressedTiles: sorted.length,
      tileEntries: entries.length,
      tileContents: offsetByHash.size,
      leafDirectories: leafCount,
    },
  };
}

/** The root directory alone when it fits in the first 16 KiB, else a root of leaf pointers. */
function buildDirectories(entries: Entry[]): { root: Buffer; leaves: Buffer; leafCount: number } {
  const whole = serializeDirectory(entries);
  if (whole.byteLength <= ROOT_BUDGET_BYTES) return { root: whole, leaves: Buffer.alloc(0), leafCount: 0 };
  for (let leafSize = 4096; ; leafSize *= 2) {
    const leafBuffers: Buffer[] = [];
    const rootEntries: Entry[] = [];
    let offset = 0;
    for (let i = 0; i < entries.length; i += leafSize) {
      const slice = entries.slice(i, i + leafSize);
      const leaf = serializeDirectory(slice);
      // a run length of 0 marks a pointer to a leaf directory
      rootEntries.push({ tileId: slice[0]!.tileId, offset, length: leaf.byteLength, runLength: 0 });
      leafBuffers.push(leaf);
      offset += leaf.byteLength;
    }
    const root = serializeDirectory(rootEntries);
    if (root.byteLength <= ROOT_BUDGET_BYTES) {
      return { root, leaves: Buffer.concat(leafBuffers), leafCount: leafBuffers.length };
    }
  }
}

/** Entries as columns of varints (count, id deltas, run lengths, lengths, offsets), gzipped. */
function serializeDirectory(entries: Entry[]): Buffer {
  const bytes: number[] = [];
  const varint = (value: number) => {
    let v = value;
    while (v >= 0x80) {
      bytes.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    bytes.push(v);
  };
  varint(entries.length);
  let lastId = 0;
  for (const entry of entries) {
    varint(entry.tileId - lastId);
    lastId = entry.tileId;
  }
  for (const entry of entries) varint(entry.runLength);
  for (const entry of entries) varint(entry.length);
  entries.forEach((entry, i) => {
    const previous = entries[i - 1];
    // 0 means "right after the previous entry's bytes"; otherwise offset + 1
    if (previous && entry.offset === previous.offset + previous.length) varint(0);
    else varint(entry.offset + 1);
  });
  return gzipSync(Buffer.from(bytes));
}
