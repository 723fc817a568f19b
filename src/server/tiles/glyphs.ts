import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { PbfWriter } from 'pbf';

/**
 * SDF glyph ranges in the glyphs.proto layout MapLibre reads: one file per font stack and block of
 * 256 code points, written at build time (scripts/build-map-assets.ts). Any block that was not
 * generated answers an empty glyph set, so a label in an uncovered script shows nothing rather than
 * failing the whole tile.
 */

/** Code points per glyph range file: MapLibre always asks for 256-aligned blocks. */
export const GLYPH_RANGE_SIZE = 256;
const MAX_CODE_POINT = 65_535;

export interface Glyph {
  id: number;
  /** the SDF bitmap, (width + 2 buffer) × (height + 2 buffer) bytes; absent for blank glyphs. */
  bitmap?: Uint8Array;
  width: number;
  height: number;
  left: number;
  top: number;
  advance: number;
}

/** glyphs { stacks = 1 } / fontstack { name = 1, range = 2, glyphs = 3 } / glyph { id = 1, ... }. */
export function encodeGlyphRange(fontstack: string, start: number, glyphs: readonly Glyph[]): Uint8Array {
  const pbf = new PbfWriter();
  pbf.writeMessage(
    1,
    (_: unknown, stack: PbfWriter) => {
      stack.writeStringField(1, fontstack);
      stack.writeStringField(2, `${start}-${start + GLYPH_RANGE_SIZE - 1}`);
      for (const glyph of glyphs) {
        stack.writeMessage(
          3,
          (g: Glyph, out: PbfWriter) => {
            out.writeVarintField(1, g.id);
            if (g.bitmap && g.bitmap.byteLength > 0) out.writeBytesField(2, g.bitmap);
            out.writeVarintField(3, g.width);
            out.writeVarintField(4, g.height);
            out.writeSVarintField(5, g.left);
            out.writeSVarintField(6, g.top);
            out.writeVarintField(7, g.advance);
          },
          glyph,
        );
      }
    },
    null,
  );
  return pbf.finish();
}

export type GlyphRangeRequest =
  { ok: true; fontstacks: string[]; start: number } | { ok: false; reason: string };

/**
 * Reads `{fontstack}/{start}-{end}.pbf` path parts. The stack may list fallbacks separated by
 * commas ("Noto Sans Bold,Noto Sans Regular"); the range must be a 256-aligned block in 0..65535.
 */
export function parseGlyphRequest(fontstack: string, range: string): GlyphRangeRequest {
  const match = /^(\d{1,5})-(\d{1,5})\.pbf$/.exec(range);
  if (!match) return { ok: false, reason: 'the range must look like 0-255.pbf' };
  const start = Number(match[1]);
  const end = Number(match[2]);
  if (start % GLYPH_RANGE_SIZE !== 0 || end !== start + GLYPH_RANGE_SIZE - 1 || end > MAX_CODE_POINT) {
    return { ok: false, reason: 'the range must be a block of 256 code points within 0-65535' };
  }
  const fontstacks = fontstack
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
  if (fontstacks.length === 0 || fontstacks.some((name) => !/^[\w .-]{1,100}$/.test(name))) {
    return { ok: false, reason: 'the font stack must be font names separated by commas' };
  }
  return { ok: true, fontstacks, start };
}

/**
 * The first stack of the list that has this range on disk; else an empty set named after the
 * first stack. Files are small and read on demand (the HTTP cache headers do the caching).
 */
export async function readGlyphRange(
  glyphsDir: string,
  fontstacks: string[],
  start: number,
): Promise<Uint8Array> {
  const file = `${start}-${start + GLYPH_RANGE_SIZE - 1}.pbf`;
  for (const stack of fontstacks) {
    try {
      return await fs.readFile(path.join(glyphsDir, stack, file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return encodeGlyphRange(fontstacks[0]!, start, []);
}

export interface GlyphRangeFile {
  plain: Uint8Array;
  /** SDF bitmaps shrink to about half; @fastify/compress leaves protobuf alone, so we gzip here. */
  gzip: Buffer;
  /** the hash of the plain bytes, shared by both encodings (the route adds a suffix). */
  hash: string;
}

/** Ranges most recently served, gzipped once (a few hundred at most, ~40 KiB each). */
const GLYPH_CACHE_ENTRIES = 256;

export class GlyphStore {
  private readonly cache = new Map<string, GlyphRangeFile>();

  constructor(private readonly glyphsDir: string) {}

  async get(fontstacks: string[], start: number): Promise<GlyphRangeFile> {
    const key = `${fontstacks.join(',')}/${start}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const plain = await readGlyphRange(this.glyphsDir, fontstacks, start);
    const file = {
      plain,
      gzip: gzipSync(plain),
      hash: createHash('sha1').update(plain).digest('base64url').slice(0, 22),
    };
    if (this.cache.size >= GLYPH_CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, file);
    return file;
  }
}
