import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PLACEHOLDER_OF_CATEGORY,
  PLACEHOLDER_SIZE,
  ensurePlaceholderCovers,
  placeholderCoverUrl,
  placeholderUrl,
} from '../../src/server/media/placeholders';
import { diskMedia, type MediaPlace } from '../../src/server/media/store';
import { POST_CATEGORIES, POST_PLACEHOLDERS } from '../../src/shared/domain/enums';

/** Social §1's placeholder covers: one per post type, drawn locally, stored once, at stable URLs. */

let dir: string;
let media: MediaPlace;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xp-placeholders-'));
  media = diskMedia(path.join(dir, 'media'));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const keyOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

describe('placeholder covers', () => {
  it('every post category has a cover, known before anything is drawn', () => {
    for (const category of POST_CATEGORIES) {
      const url = placeholderCoverUrl(category);
      expect(url).toMatch(/^\/media\/[0-9a-f]{64}\.webp$/);
      expect(url).toBe(placeholderUrl(PLACEHOLDER_OF_CATEGORY[category]));
    }
    // the categories' own names where the spec has a placeholder of that name
    expect(placeholderCoverUrl('gig')).toBe(placeholderUrl('gig'));
    expect(placeholderCoverUrl('deal')).toBe(placeholderUrl('deal'));
    expect(placeholderCoverUrl('general')).toBe(placeholderUrl('general'));
    // seven categories, seven different pictures
    expect(new Set(POST_CATEGORIES.map(placeholderCoverUrl)).size).toBe(POST_CATEGORIES.length);
  });

  it('the nine placeholders have nine keys', () => {
    expect(new Set(POST_PLACEHOLDERS.map(placeholderUrl)).size).toBe(POST_PLACEHOLDERS.length);
  });

  it('are stored once by ensurePlaceholderCovers, each a square WebP in its own colour, served at its URL', async () => {
    expect(await media.store.head(keyOf(placeholderUrl('deal')))).toBeNull();
    await ensurePlaceholderCovers(media);
    const colours = new Set<string>();
    for (const type of POST_PLACEHOLDERS) {
      const key = keyOf(placeholderUrl(type));
      expect(media.store.url(key)).toBe(placeholderUrl(type));
      const object = await media.store.get(key);
      expect(object, type).not.toBeNull();
      const bytes = await buffer(object!.body);
      const meta = await sharp(bytes).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: PLACEHOLDER_SIZE, height: PLACEHOLDER_SIZE });
      const { dominant } = await sharp(bytes).stats();
      colours.add(`${dominant.r >> 4},${dominant.g >> 4},${dominant.b >> 4}`);
    }
    expect(colours.size).toBeGreaterThanOrEqual(POST_PLACEHOLDERS.length - 1);
    expect(fs.readdirSync(path.join(dir, 'media')).filter((name) => name.endsWith('.webp'))).toHaveLength(9);
  });

  it('a second call, or another process on the same store, draws nothing and keeps the files', async () => {
    const file = path.join(dir, 'media', keyOf(placeholderUrl('gig')));
    const before = fs.statSync(file).mtimeMs;
    await ensurePlaceholderCovers(media);
    // a new MediaPlace on the same directory: what a second process sees
    const again = diskMedia(path.join(dir, 'media'));
    await ensurePlaceholderCovers(again);
    expect(fs.statSync(file).mtimeMs).toBe(before);
    expect(fs.readdirSync(path.join(dir, 'media')).filter((name) => name.endsWith('.webp'))).toHaveLength(9);
  });

  it('a store whose file went missing gets it back on the next start', async () => {
    const file = path.join(dir, 'media', keyOf(placeholderUrl('legal')));
    fs.rmSync(file);
    await ensurePlaceholderCovers(diskMedia(path.join(dir, 'media')));
    expect(fs.existsSync(file)).toBe(true);
  });
});
