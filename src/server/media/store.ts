import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where uploaded media ends up. Keys are content-addressed names (`<sha256>.<ext>`), so the same
 * key always means the same bytes: a put of a key that exists is a no-op, and two writers of one
 * key agree. One small interface so that the object store of the next issue (issue 25: S3-compatible
 * storage behind `MEDIA_URL`) slots in beside the disk without the upload code changing.
 */
export interface MediaStore {
  /**
   * Stores `body` under `key` unless it is there already. A finished temporary file is handed over
   * as `{file}`: the disk store moves it (no copy), an object store streams it; the file is gone
   * afterwards either way.
   */
  put(key: string, body: MediaBody): Promise<void>;
  /** The public URL path of a stored key. */
  url(key: string): string;
  /** Removes a stored key; a missing key is not an error. */
  delete(key: string): Promise<void>;
}

/** What a store takes: bytes in memory (a resized picture), a stream, or a local file it may move. */
export type MediaBody = Buffer | Readable | { file: string };

/** Media on the local disk under DATA_DIR/media, served by @fastify/static at /media/ (app.ts). */
export class DiskMediaStore implements MediaStore {
  constructor(readonly dir: string) {}

  async put(key: string, body: MediaBody): Promise<void> {
    const target = this.pathOf(key);
    if (fs.existsSync(target)) {
      if (isFile(body)) await fs.promises.rm(body.file, { force: true });
      return;
    }
    await fs.promises.mkdir(this.dir, { recursive: true });
    if (isFile(body)) {
      try {
        // the upload's temporary file sits under DATA_DIR too (uploadDirOf): a rename, not a copy
        await fs.promises.rename(body.file, target);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      }
      await this.write(target, fs.createReadStream(body.file));
      await fs.promises.rm(body.file, { force: true });
      return;
    }
    await this.write(target, Buffer.isBuffer(body) ? Readable.from([body]) : body);
  }

  url(key: string): string {
    return `/media/${key}`;
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  /** write then rename: a reader never sees half a file */
  private async write(target: string, source: Readable): Promise<void> {
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await pipeline(source, fs.createWriteStream(temp));
      await fs.promises.rename(temp, target);
    } catch (error) {
      await fs.promises.rm(temp, { force: true });
      throw error;
    }
  }

  private pathOf(key: string): string {
    // keys are ours (a hash and an extension), never a client's text; refuse anything else outright
    if (!/^[0-9a-f]{64}\.[a-z0-9]{2,5}$/.test(key)) throw new Error(`not a media key: ${key}`);
    return path.join(this.dir, key);
  }
}

function isFile(body: MediaBody): body is { file: string } {
  return !Buffer.isBuffer(body) && !(body instanceof Readable);
}

/** Where a feature's uploads go: the store, and the local directory their temporary files use. */
export interface MediaPlace {
  store: MediaStore;
  /** temporary files of uploads in progress (always local: a file is hashed before it has a key) */
  uploadDir: string;
}

/** Media on the disk under `mediaDir` (DATA_DIR/media), uploads in progress under its .uploads. */
export function diskMedia(mediaDir: string): MediaPlace {
  // a dot name: @fastify/static serves DATA_DIR/media with dotfiles denied
  return { store: new DiskMediaStore(mediaDir), uploadDir: path.join(mediaDir, '.uploads') };
}
