import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * The sprite sheet (category badges, beam rings) written at build time: sprite.json/.png and
 * sprite@2x.json/.png. MapLibre appends `@2x` and the extension to the style's `sprite` URL.
 */

export const SPRITE_FILES = ['sprite.json', 'sprite.png', 'sprite@2x.json', 'sprite@2x.png'] as const;
export type SpriteFile = (typeof SPRITE_FILES)[number];

export interface CachedFile {
  data: Buffer;
  etag: string;
  contentType: string;
}

export function etagOf(data: Uint8Array): string {
  return `"${createHash('sha1').update(data).digest('base64url').slice(0, 22)}"`;
}

/** The four files, read once (about 400 KiB together) and kept with their ETags. */
export class SpriteFiles {
  private readonly cache = new Map<SpriteFile, Promise<CachedFile>>();

  constructor(private readonly mapDir: string) {}

  get(file: SpriteFile): Promise<CachedFile> {
    let pending = this.cache.get(file);
    if (!pending) {
      pending = fs.readFile(path.join(this.mapDir, file)).then((data) => ({
        data,
        etag: etagOf(data),
        contentType: file.endsWith('.png') ? 'image/png' : 'application/json; charset=utf-8',
      }));
      // a missing file (assets not built yet) is retried on the next request
      pending.catch(() => this.cache.delete(file));
      this.cache.set(file, pending);
    }
    return pending;
  }
}
