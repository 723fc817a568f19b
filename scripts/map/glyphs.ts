import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { GlobalFonts, createCanvas } from '@napi-rs/canvas';
import TinySDF from '@mapbox/tiny-sdf';
import { FONT_STACKS } from '../../src/shared/map/contract';
import { GLYPH_RANGE_SIZE, encodeGlyphRange, type Glyph } from '../../src/server/tiles/glyphs';

/**
 * SDF glyphs from @fontsource/noto-sans, rendered with @napi-rs/canvas and tiny-sdf using the
 * parameters MapLibre's own glyphs use (notes/offline-map.md): font size 24, buffer 3, radius 8,
 * cutoff 0.25. Fontsource splits the font per script; each subset is registered under its own
 * name and draws only the code points its unicode-range declares.
 */

const require = createRequire(import.meta.url);
const FONT_SIZE = 24;
const BUFFER = 3;
/** Scripts whose letters stand alone (Devanagari needs shaping that MapLibre does not do). */
const SUBSETS = [
  'latin',
  'latin-ext',
  'cyrillic',
  'cyrillic-ext',
  'greek',
  'greek-ext',
  'vietnamese',
] as const;
const STACK_FACES: Record<string, { weight: number; style: 'normal' | 'italic' }> = {
  [FONT_STACKS.regular]: { weight: 400, style: 'normal' },
  [FONT_STACKS.medium]: { weight: 500, style: 'normal' },
  [FONT_STACKS.italic]: { weight: 400, style: 'italic' },
  [FONT_STACKS.bold]: { weight: 700, style: 'normal' },
};

interface SdfGlyph {
  data: Uint8ClampedArray;
  width: number;
  height: number;
  glyphWidth: number;
  glyphHeight: number;
  glyphTop: number;
  glyphLeft: number;
  glyphAdvance: number;
}

/** tiny-sdf draws on a DOM canvas; give it a native one. */
class NodeTinySDF extends TinySDF {
  _createCanvas(size: number) {
    return createCanvas(size, size);
  }
}

/** Code points per subset from fontsource's CSS `unicode-range` lines (below U+10000). */
function subsetCodePoints(): Map<string, number[]> {
  const cssPath = require.resolve('@fontsource/noto-sans/index.css');
  const css = fs.readFileSync(cssPath, 'utf8');
  const result = new Map<string, number[]>();
  const blocks = css.split('@font-face');
  for (const subset of SUBSETS) {
    const block = blocks.find((b) => b.includes(`noto-sans-${subset}-400-normal.woff`));
    const ranges = /unicode-range:\s*([^;]+);/.exec(block ?? '')?.[1] ?? '';
    const points: number[] = [];
    for (const part of ranges.split(',')) {
      const [from, to] = part.trim().replace(/^U\+/i, '').split('-');
      const start = parseInt(from!, 16);
      const end = to ? parseInt(to, 16) : start;
      for (let cp = start; cp <= Math.min(end, 0xffff); cp++) {
        // control characters never reach a label
        if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) continue;
        points.push(cp);
      }
    }
    result.set(subset, points);
  }
  return result;
}

export interface GlyphBuildStats {
  stacks: number;
  ranges: number;
  glyphs: number;
  bytes: number;
}

export function buildGlyphs(outDir: string): GlyphBuildStats {
  const filesDir = path.join(path.dirname(require.resolve('@fontsource/noto-sans/index.css')), 'files');
  const codePoints = subsetCodePoints();
  const stats: GlyphBuildStats = { stacks: 0, ranges: 0, glyphs: 0, bytes: 0 };

  for (const [stack, face] of Object.entries(STACK_FACES)) {
    // the first subset that declares a code point draws it (latin before latin-ext, ...)
    const byRange = new Map<number, Glyph[]>();
    const seen = new Set<number>();
    for (const subset of SUBSETS) {
      const file = path.join(filesDir, `noto-sans-${subset}-${face.weight}-${face.style}.woff`);
      if (!fs.existsSync(file)) continue;
      const family = `xp-${subset}-${face.weight}-${face.style}`;
      GlobalFonts.registerFromPath(file, family);
      const sdf = new NodeTinySDF({
        fontSize: FONT_SIZE,
        buffer: BUFFER,
        radius: 8,
        cutoff: 0.25,
        fontFamily: `"${family}"`,
        fontWeight: String(face.weight),
        fontStyle: face.style,
      });
      for (const cp of codePoints.get(subset) ?? []) {
        if (seen.has(cp)) continue;
        seen.add(cp);
        const drawn = sdf.draw(String.fromCharCode(cp)) as SdfGlyph;
        const blank = drawn.glyphWidth === 0 || drawn.glyphHeight === 0;
        const glyph: Glyph = {
          id: cp,
          bitmap: blank
            ? undefined
            : new Uint8Array(drawn.data.buffer, drawn.data.byteOffset, drawn.data.byteLength),
          width: blank ? 0 : drawn.glyphWidth,
          height: blank ? 0 : drawn.glyphHeight,
          left: blank ? 0 : drawn.glyphLeft,
          // tiny-sdf measures from the top of the ink; MapLibre wants it relative to its baseline
          top: blank ? 0 : Math.round(drawn.glyphTop - 27.5),
          advance: Math.round(drawn.glyphAdvance),
        };
        const start = Math.floor(cp / GLYPH_RANGE_SIZE) * GLYPH_RANGE_SIZE;
        let list = byRange.get(start);
        if (!list) byRange.set(start, (list = []));
        list.push(glyph);
      }
    }
    const stackDir = path.join(outDir, stack);
    fs.mkdirSync(stackDir, { recursive: true });
    for (const [start, glyphs] of byRange) {
      glyphs.sort((a, b) => a.id - b.id);
      const pbf = encodeGlyphRange(stack, start, glyphs);
      fs.writeFileSync(path.join(stackDir, `${start}-${start + GLYPH_RANGE_SIZE - 1}.pbf`), pbf);
      stats.ranges += 1;
      stats.glyphs += glyphs.length;
      stats.bytes += pbf.byteLength;
    }
    stats.stacks += 1;
  }
  return stats;
}
