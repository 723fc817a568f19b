import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { GlobalFonts, Path2D, createCanvas } from '@napi-rs/canvas';
import { POST_PLACEHOLDERS, type PostCategory } from '../../shared/domain/enums';
import type { MediaPlace, MediaStore } from './store';

/**
 * The placeholder covers of social §1 (general, services, financial, real-estate, announcement,
 * creative, deal, gig, legal): what a post without a photo shows. Drawn here, once per store, with
 * @napi-rs/canvas: a gradient in the type's colour, a simple glyph drawn from paths written below, and
 * the type's name in Noto Sans (the web app's own font, from @fontsource, so the label looks the same
 * on every machine whatever fonts it has installed). Nothing is taken from elsewhere.
 *
 * Keys: a media key is `<sha256>.<ext>`; for these the hash is of the DESIGN (this file's version,
 * the type, its colour, glyph and label), not of the rendered bytes. So a placeholder's URL is known
 * without drawing anything (`placeholderCoverUrl` is synchronous and can be called before
 * `ensurePlaceholderCovers` has run), and it stays the same across processes and library upgrades
 * (a URL written into a row keeps working). Changing a design changes its key; bump DESIGN_VERSION
 * when changing the drawing code itself.
 */

export type PostPlaceholder = (typeof POST_PLACEHOLDERS)[number];

/** Square like the cropped covers (social §9: crop output 512x512). */
export const PLACEHOLDER_SIZE = 512;
const DESIGN_VERSION = 1;

/** Which placeholder a post category without a photo shows. */
export const PLACEHOLDER_OF_CATEGORY: Readonly<Record<PostCategory, PostPlaceholder>> = {
  gig: 'gig',
  deal: 'deal',
  general: 'general',
  petition: 'announcement',
  recommendation: 'creative',
  classified: 'real-estate',
  promotion: 'financial',
};

interface Design {
  color: string;
  label: string;
  /** SVG path data in a 24x24 box, filled even-odd (inner shapes are holes) */
  glyph: string;
}

/** A gear (services): `teeth` teeth around a ring with a hole, as one even-odd path. */
function gearPath(teeth: number): string {
  const cx = 12;
  const cy = 12;
  const points: string[] = [];
  for (let i = 0; i < teeth * 4; i++) {
    const angle = (i / (teeth * 4)) * Math.PI * 2;
    const r = i % 4 < 2 ? 10 : 7.6;
    points.push(`${(cx + r * Math.cos(angle)).toFixed(2)} ${(cy + r * Math.sin(angle)).toFixed(2)}`);
  }
  const hole = 'M15.2 12a3.2 3.2 0 1 0 -6.4 0a3.2 3.2 0 1 0 6.4 0z';
  return `M${points.join('L')}z ${hole}`;
}

const DESIGNS: Readonly<Record<PostPlaceholder, Design>> = {
  general: {
    color: '#577590',
    label: 'General',
    // a speech bubble with three lines of text
    glyph:
      'M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2h-9l-5 4v-4H4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z' +
      'M6 7h12v1.8H6z M6 10.6h12v1.8H6z M6 14.2h7v1.8H6z',
  },
  services: { color: '#b7791f', label: 'Services', glyph: gearPath(8) },
  financial: {
    color: '#1a7f37',
    label: 'Financial',
    // a rising bar chart on its base line
    glyph: 'M2 20h20v2H2z M4 13h4v6H4z M10 9h4v10h-4z M16 4h4v15h-4z',
  },
  'real-estate': {
    color: '#0a7f86',
    label: 'Real estate',
    // a house with a door and a window
    glyph: 'M12 2l10 9h-3v11h-5v-6h-4v6H5V11H2z M15 12h2.5v2.5H15z',
  },
  announcement: {
    color: '#cf222e',
    label: 'Announcement',
    // a megaphone and its sound
    glyph: 'M2 9h5l10-6v18L7 15H2z M7 16h3l1.5 6h-3z M19 8h2v8h-2z',
  },
  creative: {
    color: '#8250df',
    label: 'Creative',
    // two sparkles
    glyph:
      'M11 3l2.3 6.7L20 12l-6.7 2.3L11 21l-2.3-6.7L2 12l6.7-2.3z' +
      'M19 1l1 2.5 2.5 1-2.5 1-1 2.5-1-2.5-2.5-1 2.5-1z',
  },
  deal: {
    color: '#e16f24',
    label: 'Deal',
    // a price tag with its hole
    glyph: 'M2 2h9l11 11-9 9L2 11z M8.6 6.5a2.1 2.1 0 1 0 -4.2 0a2.1 2.1 0 1 0 4.2 0z',
  },
  gig: {
    color: '#1f6feb',
    label: 'Gig',
    // a briefcase with its handle and band
    glyph: 'M2 7h20v14H2z M8 3h8v4h-2V5h-4v2H8z M2 12.5h20v1.6H2z M10.5 11.5h3v3.6h-3z',
  },
  legal: {
    color: '#3d4b5c',
    label: 'Legal',
    // scales: post, beam, base, two pans on their strings
    glyph:
      'M11 3h2v16h-2z M3 5h18v1.8H3z M7 19.5h10V22H7z' +
      'M1 13h8a4 4 0 0 1-8 0z M15 13h8a4 4 0 0 1-8 0z' +
      'M4.3 6.5h1.4L9 13H7.8L5 7.6 2.2 13H1z M18.3 6.5h1.4L23 13h-1.2L19 7.6 16.2 13H15z',
  },
};

/** The key of a placeholder: the hash of its design, so it is known before it is drawn. */
function keyOf(type: PostPlaceholder): string {
  const { color, label, glyph } = DESIGNS[type];
  const design = JSON.stringify([DESIGN_VERSION, PLACEHOLDER_SIZE, type, color, label, glyph]);
  return `${createHash('sha256').update(design).digest('hex')}.webp`;
}

const KEYS = Object.fromEntries(POST_PLACEHOLDERS.map((type) => [type, keyOf(type)])) as Readonly<
  Record<PostPlaceholder, string>
>;

/**
 * The URL of a placeholder cover. Every media store serves its keys at `/media/<key>` (serve.ts: the
 * same route whatever the store), which `ensurePlaceholderCovers` checks against the store it fills.
 */
export function placeholderUrl(type: PostPlaceholder): string {
  return `/media/${KEYS[type]}`;
}

/** The placeholder cover a post of `category` shows when it has no photo of its own. */
export function placeholderCoverUrl(category: PostCategory): string {
  return placeholderUrl(PLACEHOLDER_OF_CATEGORY[category]);
}

export function isPostPlaceholder(value: string): value is PostPlaceholder {
  return (POST_PLACEHOLDERS as readonly string[]).includes(value);
}

const require = createRequire(import.meta.url);
const FONT_FAMILY = 'xp-placeholder-label';
let fontLoaded = false;

function loadFont(): void {
  if (fontLoaded) return;
  fontLoaded = true;
  const dir = path.join(path.dirname(require.resolve('@fontsource/noto-sans/index.css')), 'files');
  const file = path.join(dir, 'noto-sans-latin-700-normal.woff');
  // without it the label falls back to the machine's sans-serif, which is still readable
  if (fs.existsSync(file)) GlobalFonts.registerFromPath(file, FONT_FAMILY);
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

/** Draws one placeholder as WebP. */
export async function renderPlaceholder(type: PostPlaceholder): Promise<Buffer> {
  loadFont();
  const { color, label, glyph } = DESIGNS[type];
  const size = PLACEHOLDER_SIZE;
  const canvas = createCanvas(size, size);
  const ctx = canvas.getContext('2d');

  const gradient = ctx.createLinearGradient(0, 0, size, size);
  gradient.addColorStop(0, shade(color, 0.28));
  gradient.addColorStop(1, shade(color, -0.3));
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, size, size);
  // two soft discs for depth, as the demo covers have
  ctx.fillStyle = 'rgba(255,255,255,0.08)';
  ctx.beginPath();
  ctx.arc(size * 0.82, size * 0.18, size * 0.3, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = 'rgba(255,255,255,0.05)';
  ctx.beginPath();
  ctx.arc(size * 0.12, size * 0.9, size * 0.36, 0, Math.PI * 2);
  ctx.fill();

  // the glyph in a white disc's ring, above the middle
  const cx = size / 2;
  const cy = size * 0.42;
  ctx.fillStyle = 'rgba(255,255,255,0.16)';
  ctx.beginPath();
  ctx.arc(cx, cy, size * 0.25, 0, Math.PI * 2);
  ctx.fill();
  const glyphSize = size * 0.3;
  ctx.save();
  ctx.translate(cx - glyphSize / 2, cy - glyphSize / 2);
  ctx.scale(glyphSize / 24, glyphSize / 24);
  ctx.fillStyle = '#ffffff';
  ctx.fill(new Path2D(glyph), 'evenodd');
  ctx.restore();

  ctx.fillStyle = '#ffffff';
  ctx.font = `700 ${Math.round(size * 0.085)}px "${FONT_FAMILY}", sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(label, cx, size * 0.8, size * 0.86);

  return canvas.encode('webp', 82);
}

/** Each placeholder drawn once per process (~5 KB each), whichever stores it goes to. */
const drawn = new Map<PostPlaceholder, Promise<Buffer>>();

function drawOnce(type: PostPlaceholder): Promise<Buffer> {
  let picture = drawn.get(type);
  if (!picture) {
    picture = renderPlaceholder(type);
    drawn.set(type, picture);
    picture.catch(() => drawn.delete(type));
  }
  return picture;
}

/** Per store, the one filling in progress or done: a second call costs nothing. */
const ensured = new WeakMap<MediaStore, Promise<void>>();

/**
 * Draws and stores every placeholder cover that `media` does not hold yet (a HEAD per type when they
 * are all there). Call once at start, before the server answers; idempotent and safe to call again.
 * The first call of a process draws (~200 ms for the nine); later stores only get the bytes.
 */
export function ensurePlaceholderCovers(media: MediaPlace): Promise<void> {
  const store = media.store;
  let done = ensured.get(store);
  if (!done) {
    done = fill(store);
    ensured.set(store, done);
    // a failure (a bucket that did not answer) is not remembered: the next call tries again
    done.catch(() => ensured.delete(store));
  }
  return done;
}

async function fill(store: MediaStore): Promise<void> {
  await Promise.all(
    POST_PLACEHOLDERS.map(async (type) => {
      const key = KEYS[type];
      if (store.url(key) !== placeholderUrl(type))
        throw new Error(`the media store serves ${key} at ${store.url(key)}, not ${placeholderUrl(type)}`);
      if (await store.head(key)) return;
      await store.put(key, await drawOnce(type));
    }),
  );
}
