import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEED_WIDTH, MAP_SIZE } from '../../src/server/media/cover';
import { DiskMediaStore } from '../../src/server/media/store';
import { COVER_HEIGHT, COVER_WIDTH, generateImages, type ImageSet } from '../../src/server/seed/images';

/**
 * The demo posts' covers (issue 17, "Demo data"): every generated cover once through the posts' own
 * pipeline, its variants stored and listed as media assets, so a seeded post looks like one written
 * through the form.
 */

let dir: string;
let images: ImageSet;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xp-seed-covers-'));
  images = await generateImages(new DiskMediaStore(dir));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const fileOf = (url: string) => path.join(dir, url.slice(url.lastIndexOf('/') + 1));

describe('seed post covers', () => {
  it('one post cover per generated cover, each variant a stored file of its size', async () => {
    expect(images.postCovers.size).toBe(new Set(images.allCovers).size);
    const assets = new Map(images.assets.map((a) => [a.id, a]));
    for (const url of images.allCovers) {
      const cover = images.postCovers.get(url);
      expect(cover, url).toBeDefined();
      const variants = JSON.parse(cover?.image_variants ?? '{}') as Record<string, string | number>;
      expect(cover?.image_url).toBe(variants['detail']);
      expect(variants).toMatchObject({ width: COVER_WIDTH, height: COVER_HEIGHT });
      expect(String(variants['placeholder'])).toMatch(/^data:image\/webp;base64,/);
      const expected: Record<string, [string, number, number]> = {
        map: ['webp', MAP_SIZE, MAP_SIZE],
        feed: ['webp', FEED_WIDTH, Math.round((FEED_WIDTH * COVER_HEIGHT) / COVER_WIDTH)],
        detail: ['webp', COVER_WIDTH, COVER_HEIGHT],
        fallback: ['jpeg', COVER_WIDTH, COVER_HEIGHT],
      };
      for (const [name, [format, width, height]] of Object.entries(expected)) {
        const file = fileOf(String(variants[name]));
        const meta = await sharp(file).metadata();
        expect([meta.format, meta.width, meta.height], `${url} ${name}`).toEqual([format, width, height]);
        const id = path.basename(file).split('.')[0] ?? '';
        expect(assets.get(id)).toMatchObject({
          mime: format === 'jpeg' ? 'image/jpeg' : 'image/webp',
          bytes: fs.statSync(file).size,
          width,
          height,
        });
      }
    }
  });
});
