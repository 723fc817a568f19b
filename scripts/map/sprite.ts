import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { BEAM_TYPES, type BeamType } from '../../src/shared/domain/beams';
import {
  LAYER_GROUPS,
  SPRITE_CITY_DOT,
  SUPERTYPE_COLORS,
  spriteBeamIcon,
  spriteDefaultIcon,
  spriteIconName,
} from '../../src/shared/map/contract';
import { layerCategories } from '../../src/shared/map/categories';

/**
 * The sprite sheet: a round badge per category in its supertype's colour with the category's
 * maki/temaki glyph in white, a default badge per supertype, and a static ring per beam type. All
 * images are laid out in one SVG by a shelf packer and rendered by sharp (librsvg) at 1x and 2x.
 */

const require = createRequire(import.meta.url);
const BADGE_PX = 24;
const ICON_PX = 14;
const BEAM_PX = 32;
const SHEET_WIDTH_PX = 1024;
const PADDING_PX = 1;
const DEFAULT_ICON = 'maki-marker';
const BEAM_COLORS: Record<BeamType, string> = {
  hot: '#ff5722',
  current: '#34a853',
  upcoming: '#4285f4',
  helprequest: '#f9ab00',
  helprequest_urgent: '#d93025',
  incident: '#b71c1c',
};

interface SpriteImage {
  name: string;
  width: number;
  height: number;
  /** SVG content drawn in a width × height box at the origin. */
  svg: string;
}

export interface SpriteEntry {
  x: number;
  y: number;
  width: number;
  height: number;
  pixelRatio: number;
}

const iconCache = new Map<string, { viewBox: string; body: string }>();

/** An icon's drawing as white shapes: maki-x from @mapbox/maki, temaki-x from @rapideditor/temaki. */
function iconSvg(icon: string): { viewBox: string; body: string } {
  const cached = iconCache.get(icon);
  if (cached) return cached;
  const [set, ...rest] = icon.split('-');
  const name = rest.join('-');
  const pkg = set === 'maki' ? '@mapbox/maki' : '@rapideditor/temaki';
  const file = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), 'icons', `${name}.svg`);
  const source = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
  if (source === null) {
    if (icon === DEFAULT_ICON) throw new Error(`the default icon ${icon} is missing`);
    return iconSvg(DEFAULT_ICON);
  }
  const viewBox = /viewBox="([^"]+)"/.exec(source)?.[1] ?? '0 0 15 15';
  const body = source
    .replace(/^[\s\S]*?<svg[^>]*>/, '')
    .replace(/<\/svg>\s*$/, '')
    .replace(/\s(fill|stroke)="(?!none)[^"]*"/g, ' $1="#fff"');
  const result = { viewBox, body };
  iconCache.set(icon, result);
  return result;
}

function badge(name: string, color: string, icon: string): SpriteImage {
  const { viewBox, body } = iconSvg(icon);
  const r = BADGE_PX / 2;
  const inset = (BADGE_PX - ICON_PX) / 2;
  return {
    name,
    width: BADGE_PX,
    height: BADGE_PX,
    svg:
      `<circle cx="${r}" cy="${r}" r="${r - 1}" fill="${color}" stroke="#fff" stroke-width="1.5"/>` +
      `<svg x="${inset}" y="${inset}" width="${ICON_PX}" height="${ICON_PX}" viewBox="${viewBox}" fill="#fff">${body}</svg>`,
  };
}

function beam(type: BeamType): SpriteImage {
  const c = BEAM_PX / 2;
  const color = BEAM_COLORS[type];
  return {
    name: spriteBeamIcon(type),
    width: BEAM_PX,
    height: BEAM_PX,
    svg:
      `<circle cx="${c}" cy="${c}" r="${c - 1.5}" fill="${color}" fill-opacity="0.18" stroke="${color}" stroke-width="2"/>` +
      `<circle cx="${c}" cy="${c}" r="${c / 2.6}" fill="${color}" stroke="#fff" stroke-width="1.5"/>`,
  };
}

export function spriteImages(): SpriteImage[] {
  const images: SpriteImage[] = [];
  for (const group of LAYER_GROUPS) {
    const color = SUPERTYPE_COLORS[group];
    images.push(badge(spriteDefaultIcon(group), color, DEFAULT_ICON));
    for (const category of layerCategories(group)) {
      images.push(badge(spriteIconName(group, category.key), color, category.icon));
    }
  }
  for (const type of BEAM_TYPES) images.push(beam(type));
  images.push({
    name: SPRITE_CITY_DOT,
    width: 8,
    height: 8,
    svg: '<circle cx="4" cy="4" r="3" fill="#5f6368" stroke="#fff" stroke-width="1.2"/>',
  });
  return images;
}

/** Shelf packing: tallest first, left to right, a new shelf when the row is full. */
function pack(images: SpriteImage[]): {
  layout: Map<string, { x: number; y: number }>;
  width: number;
  height: number;
} {
  const layout = new Map<string, { x: number; y: number }>();
  const sorted = [...images].sort((a, b) => b.height - a.height || a.name.localeCompare(b.name));
  let x = 0;
  let y = 0;
  let shelfHeight = 0;
  let width = 0;
  for (const image of sorted) {
    if (x + image.width > SHEET_WIDTH_PX) {
      x = 0;
      y += shelfHeight + PADDING_PX;
      shelfHeight = 0;
    }
    layout.set(image.name, { x, y });
    width = Math.max(width, x + image.width);
    x += image.width + PADDING_PX;
    shelfHeight = Math.max(shelfHeight, image.height);
  }
  return { layout, width, height: y + shelfHeight };
}

export interface SpriteBuildStats {
  images: number;
  bytes: number;
  width: number;
  height: number;
}

export async function buildSprite(outDir: string): Promise<SpriteBuildStats> {
  const images = spriteImages();
  const { layout, width, height } = pack(images);
  const parts = images.map((image) => {
    const at = layout.get(image.name)!;
    return `<g transform="translate(${at.x} ${at.y})">${image.svg}</g>`;
  });
  const sheet = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join('')}</svg>`;
  fs.mkdirSync(outDir, { recursive: true });
  let bytes = 0;
  for (const ratio of [1, 2]) {
    const suffix = ratio === 1 ? '' : `@${ratio}x`;
    const index: Record<string, SpriteEntry> = {};
    for (const image of images) {
      const at = layout.get(image.name)!;
      index[image.name] = {
        x: at.x * ratio,
        y: at.y * ratio,
        width: image.width * ratio,
        height: image.height * ratio,
        pixelRatio: ratio,
      };
    }
    const png = await sharp(Buffer.from(sheet), { density: 72 * ratio })
      .resize(width * ratio, height * ratio, { fit: 'fill' })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const json = JSON.stringify(index);
    fs.writeFileSync(path.join(outDir, `sprite${suffix}.png`), png);
    fs.writeFileSync(path.join(outDir, `sprite${suffix}.json`), json);
    bytes += png.byteLength + json.length;
  }
  return { images: images.length, bytes, width, height };
}
