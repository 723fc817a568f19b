/**
 * Demo images, drawn locally with sharp (librsvg renders the SVG, libwebp encodes it): covers per
 * supertype and kind (a gradient in the supertype's colour with the category's maki/temaki icon in
 * white), square logos, and abstract avatars (coloured circles and shapes, never text: fonts differ
 * between machines, shapes do not). Files are content-addressed, `<sha256>.webp` in the media store
 * (DATA_DIR/media or the bucket MEDIA_URL names), served as `/media/<sha256>.webp`. Nothing is ever
 * linked from outside.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { coverKeyOf, encodePostCover } from '../media/cover';
import type { MediaStore } from '../media/store';
import { findCategory, type CategorySupertype } from '../../shared/domain/categories';

export const COVER_WIDTH = 800;
export const COVER_HEIGHT = 450;
const LOGO_SIZE = 256;
const AVATAR_SIZE = 256;

/** The colour of each supertype (also used for event covers). */
export const SUPERTYPE_COLORS: Readonly<Record<CategorySupertype, string>> = {
  business: '#1f6feb',
  poi: '#2da44e',
  virtualstore: '#8250df',
  service: '#bf8700',
  experience: '#e16f24',
  rental: '#0a8f8f',
  helprequest: '#cf222e',
  incident: '#6e7781',
  event: '#d6336c',
};

/** Which kinds get a cover of their own; the rest of a supertype share its variants. */
const COVER_KINDS: Readonly<Record<CategorySupertype, readonly string[]>> = {
  business: [
    'restaurant',
    'cafe',
    'bakery',
    'bar',
    'hotel',
    'hairdresser',
    'pharmacy',
    'gym',
    'supermarket',
    'clothes',
    'books',
    'car_repair',
    'general',
  ],
  poi: ['park', 'fountain', 'viewpoint', 'attraction'],
  virtualstore: ['application', 'online_shop', 'delivery_service'],
  service: ['dog_walking', 'handyman', 'custom'],
  experience: ['city_tour', 'kayaking', 'custom'],
  rental: ['apartment', 'bike', 'car'],
  helprequest: ['tasks', 'jobs'],
  incident: ['accident', 'dangerous_zone'],
  event: ['concert', 'food', 'art', 'sports', 'custom'],
};

const LOGO_ICONS = [
  'maki-restaurant',
  'maki-cafe',
  'maki-bakery',
  'maki-bar',
  'maki-shop',
  'maki-lodging',
  'temaki-beauty_salon',
  'maki-fitness-centre',
  'maki-music',
  'maki-star',
];
const LOGO_COLORS = [
  '#1f6feb',
  '#2da44e',
  '#8250df',
  '#bf8700',
  '#e16f24',
  '#0a8f8f',
  '#cf222e',
  '#d6336c',
  '#24292f',
  '#5a32a3',
];
const AVATAR_COLORS = [
  '#f94144',
  '#f3722c',
  '#f8961e',
  '#f9c74f',
  '#90be6d',
  '#43aa8b',
  '#4d908e',
  '#577590',
  '#277da1',
  '#9b5de5',
  '#f15bb5',
  '#00bbf9',
];

export interface MediaAssetRow {
  id: string;
  mime: string;
  bytes: number;
  width: number;
  height: number;
}

export interface ImageSet {
  /** every generated file, for media_assets. */
  assets: MediaAssetRow[];
  /** cover URLs per supertype (events included), the kind-specific ones first. */
  covers: Record<CategorySupertype, string[]>;
  /** cover URL by `${supertype}/${key}` for the kinds that have their own. */
  coverByKind: Map<string, string>;
  /** cover URL by icon name, so kinds sharing an icon share the picture. */
  coverByIcon: Map<string, string>;
  logos: string[];
  avatars: string[];
  /** every cover, for screenshots and post images. */
  allCovers: string[];
  /**
   * The post cover made from each of `allCovers` by the posts' own pipeline (media/cover.ts): what a
   * demo post with a picture stores, as a post written through the form would.
   */
  postCovers: Map<string, SeedPostCover>;
}

/** A post's cover columns: `image_url` (the detail variant) and `image_variants` (JSON). */
export interface SeedPostCover {
  image_url: string;
  image_variants: string;
}

const require = createRequire(import.meta.url);
const iconDirs: Record<string, string> = {};

function iconDir(pkg: '@mapbox/maki' | '@rapideditor/temaki'): string {
  const cached = iconDirs[pkg];
  if (cached) return cached;
  const dir = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), 'icons');
  iconDirs[pkg] = dir;
  return dir;
}

interface IconShape {
  viewBox: string;
  body: string;
}

const iconCache = new Map<string, IconShape>();

/** The inner SVG of a maki-… or temaki-… icon, with its viewBox; a star if the icon is unknown. */
export function loadIcon(name: string): IconShape {
  const cached = iconCache.get(name);
  if (cached) return cached;
  const dash = name.indexOf('-');
  const family = name.slice(0, dash);
  const file = name.slice(dash + 1);
  let shape: IconShape | null = null;
  if ((family === 'maki' || family === 'temaki') && /^[a-z0-9_-]+$/.test(file)) {
    const dir = iconDir(family === 'maki' ? '@mapbox/maki' : '@rapideditor/temaki');
    const full = path.join(dir, `${file}.svg`);
    if (fs.existsSync(full)) shape = parseIcon(fs.readFileSync(full, 'utf8'));
  }
  shape ??= name === 'maki-star' ? starShape() : loadIcon('maki-star');
  iconCache.set(name, shape);
  return shape;
}

function parseIcon(svg: string): IconShape | null {
  const open = svg.match(/<svg\b[^>]*>/);
  const close = svg.lastIndexOf('</svg>');
  if (!open || open.index === undefined || close < 0) return null;
  const viewBox = open[0].match(/viewBox="([^"]+)"/)?.[1] ?? '0 0 15 15';
  const body = svg.slice(open.index + open[0].length, close).replace(/\s(id|class)="[^"]*"/g, '');
  return { viewBox, body };
}

function starShape(): IconShape {
  return {
    viewBox: '0 0 15 15',
    body: '<path d="M7.5 0l2.2 4.8 5.3.6-3.9 3.6 1.1 5.2-4.7-2.7-4.7 2.7 1.1-5.2L0 5.4l5.3-.6z"/>',
  };
}

function shade(hex: string, amount: number): string {
  const n = parseInt(hex.slice(1), 16);
  const channel = (shift: number) => {
    const c = (n >> shift) & 0xff;
    const v = amount < 0 ? c * (1 + amount) : c + (255 - c) * amount;
    return Math.round(Math.min(255, Math.max(0, v)))
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(16)}${channel(8)}${channel(0)}`;
}

function nestedIcon(icon: IconShape, x: number, y: number, size: number, fill: string, opacity = 1): string {
  return `<svg x="${x}" y="${y}" width="${size}" height="${size}" viewBox="${icon.viewBox}" fill="${fill}" fill-opacity="${opacity}">${icon.body}</svg>`;
}

/** A cover: diagonal gradient, a few soft circles for depth, the icon large and white in the middle. */
function coverSvg(color: string, iconName: string, variant: number): string {
  const icon = loadIcon(iconName);
  const angle = [0, 1, 2, 3][variant % 4] ?? 0;
  const [x1, y1, x2, y2] = [
    [0, 0, 1, 1],
    [1, 0, 0, 1],
    [0, 1, 1, 0],
    [0, 0, 0, 1],
  ][angle] as [number, number, number, number];
  const light = shade(color, 0.25 + (variant % 3) * 0.08);
  const dark = shade(color, -0.35 - (variant % 2) * 0.1);
  const circles = [0, 1, 2]
    .map((i) => {
      const cx = ((variant * 173 + i * 331) % COVER_WIDTH) + 40;
      const cy = ((variant * 97 + i * 211) % COVER_HEIGHT) + 20;
      const r = 90 + ((variant * 37 + i * 53) % 160);
      return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#ffffff" fill-opacity="${0.05 + i * 0.03}"/>`;
    })
    .join('');
  const size = 210;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${COVER_WIDTH}" height="${COVER_HEIGHT}">
<defs><linearGradient id="g" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}"><stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${dark}"/></linearGradient></defs>
<rect width="${COVER_WIDTH}" height="${COVER_HEIGHT}" fill="url(#g)"/>${circles}
${nestedIcon(icon, (COVER_WIDTH - size) / 2, (COVER_HEIGHT - size) / 2, size, '#ffffff', 0.95)}
</svg>`;
}

function logoSvg(color: string, iconName: string): string {
  const icon = loadIcon(iconName);
  const size = 150;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${LOGO_SIZE}" height="${LOGO_SIZE}">
<rect width="${LOGO_SIZE}" height="${LOGO_SIZE}" rx="48" fill="${color}"/>
<circle cx="${LOGO_SIZE / 2}" cy="${LOGO_SIZE / 2}" r="104" fill="none" stroke="#ffffff" stroke-opacity="0.35" stroke-width="6"/>
${nestedIcon(icon, (LOGO_SIZE - size) / 2, (LOGO_SIZE - size) / 2, size, '#ffffff')}
</svg>`;
}

/** Abstract avatars: a coloured disc with a simple shape, different for each index. */
function avatarSvg(index: number): string {
  const color = AVATAR_COLORS[index % AVATAR_COLORS.length] ?? '#577590';
  const accent = shade(color, 0.55);
  const deep = shade(color, -0.3);
  const c = AVATAR_SIZE / 2;
  const shapes = [
    `<circle cx="${c}" cy="${c - 20}" r="46" fill="${accent}"/><ellipse cx="${c}" cy="${c + 88}" rx="86" ry="62" fill="${accent}"/>`,
    `<circle cx="${c}" cy="${c}" r="80" fill="none" stroke="${accent}" stroke-width="18"/><circle cx="${c}" cy="${c}" r="34" fill="${accent}"/>`,
    `<polygon points="${c},40 ${c + 90},${c + 70} ${c - 90},${c + 70}" fill="${accent}"/>`,
    `<rect x="58" y="58" width="140" height="140" rx="24" fill="${accent}" transform="rotate(45 ${c} ${c})"/>`,
    `<path d="M0 ${c + 30} Q ${c / 2} ${c - 40} ${c} ${c + 30} T ${AVATAR_SIZE} ${c + 30} V ${AVATAR_SIZE} H 0 Z" fill="${accent}"/>`,
    `<circle cx="${c - 40}" cy="${c - 30}" r="34" fill="${accent}"/><circle cx="${c + 44}" cy="${c + 10}" r="48" fill="${deep}"/><circle cx="${c - 10}" cy="${c + 60}" r="24" fill="${accent}"/>`,
  ];
  const shape = shapes[index % shapes.length] ?? '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${AVATAR_SIZE}" height="${AVATAR_SIZE}">
<defs><clipPath id="c"><circle cx="${c}" cy="${c}" r="${c}"/></clipPath></defs>
<g clip-path="url(#c)"><rect width="${AVATAR_SIZE}" height="${AVATAR_SIZE}" fill="${color}"/>${shape}</g>
</svg>`;
}

async function render(svg: string): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(Buffer.from(svg))
    .webp({ quality: 82, effort: 2 })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Stores a file under its content hash (the store skips it when it is already there). */
async function store(media: MediaStore, data: Buffer, ext = 'webp'): Promise<{ id: string; url: string }> {
  const id = createHash('sha256').update(data).digest('hex');
  const key = `${id}.${ext}`;
  await media.put(key, data);
  return { id, url: media.url(key) };
}

/**
 * Each distinct cover once through the post cover pipeline (about forty 800x450 pictures: a few
 * hundred milliseconds, shared by every post that picks one), its files stored and listed as assets.
 */
async function makePostCovers(
  media: MediaStore,
  covers: Map<string, Buffer>,
  addAsset: (row: MediaAssetRow) => void,
): Promise<Map<string, SeedPostCover>> {
  const entries = [...covers];
  const encoded = await Promise.all(entries.map(([, data]) => encodePostCover(data)));
  const result = new Map<string, SeedPostCover>();
  for (const [i, cover] of encoded.entries()) {
    const urls: Record<string, string> = {};
    for (const [name, file] of Object.entries(cover.files)) {
      const key = coverKeyOf(file);
      await media.put(key, file.data);
      urls[name] = media.url(key);
      addAsset({
        id: key.slice(0, key.indexOf('.')),
        mime: file.mime,
        bytes: file.data.length,
        width: file.width,
        height: file.height,
      });
    }
    const { map = '', feed = '', detail = '', fallback = '' } = urls;
    result.set(entries[i]?.[0] ?? '', {
      image_url: detail,
      image_variants: JSON.stringify({
        map,
        feed,
        detail,
        fallback,
        placeholder: cover.placeholder,
        width: cover.width,
        height: cover.height,
      }),
    });
  }
  return result;
}

/** Draws the whole set (about sixty files) and stores it in `media`. */
export async function generateImages(media: MediaStore): Promise<ImageSet> {
  interface Job {
    svg: string;
    done: (url: string) => void;
    /** a cover, which posts use too */
    cover?: boolean;
  }
  const jobs: Job[] = [];
  const covers = Object.fromEntries(Object.keys(COVER_KINDS).map((s) => [s, [] as string[]])) as Record<
    CategorySupertype,
    string[]
  >;
  const coverByKind = new Map<string, string>();
  const coverByIcon = new Map<string, string>();
  const allCovers: string[] = [];
  let variant = 0;
  for (const [supertype, kinds] of Object.entries(COVER_KINDS) as [CategorySupertype, readonly string[]][]) {
    for (const key of kinds) {
      const icon = findCategory(supertype, key)?.icon ?? 'maki-star';
      const v = variant++;
      jobs.push({
        cover: true,
        svg: coverSvg(SUPERTYPE_COLORS[supertype], icon, v),
        done: (url) => {
          covers[supertype].push(url);
          coverByKind.set(`${supertype}/${key}`, url);
          if (!coverByIcon.has(icon)) coverByIcon.set(icon, url);
          allCovers.push(url);
        },
      });
    }
  }
  const logos: string[] = [];
  LOGO_ICONS.forEach((icon, i) => {
    jobs.push({
      svg: logoSvg(LOGO_COLORS[i % LOGO_COLORS.length] ?? '#1f6feb', icon),
      done: (url) => logos.push(url),
    });
  });
  const avatars: string[] = [];
  for (let i = 0; i < AVATAR_COLORS.length; i++)
    jobs.push({ svg: avatarSvg(i), done: (url) => avatars.push(url) });

  // Render in parallel (libvips has its own thread pool), then record results in job order so the
  // lists are the same on every run.
  const rendered = await Promise.all(jobs.map((job) => render(job.svg)));
  const assets: MediaAssetRow[] = [];
  const seen = new Set<string>();
  const addAsset = (row: MediaAssetRow) => {
    if (seen.has(row.id)) return;
    seen.add(row.id);
    assets.push(row);
  };
  const coverData = new Map<string, Buffer>();
  for (const [i, image] of rendered.entries()) {
    const { id, url } = await store(media, image.data);
    addAsset({ id, mime: 'image/webp', bytes: image.data.length, width: image.width, height: image.height });
    if (jobs[i]?.cover) coverData.set(url, image.data);
    jobs[i]?.done(url);
  }
  const postCovers = await makePostCovers(media, coverData, addAsset);
  return { assets, covers, coverByKind, coverByIcon, logos, avatars, allCovers, postCovers };
}
