import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where uploaded media ends up. Keys are content-addressed names (`<sha256>.<ext>`), so the same
 * key always means the same bytes: a put of a key that exists is a no-op, and two writers of one
 * key agree. One small interface with two implementations: the local disk (DATA_DIR/media, the
 * default) and S3-compatible object storage (`MEDIA_URL=s3://...`, s3.ts). Either way the files are
 * served by the server's own `/media/<key>` route (serve.ts), so their URLs never change.
 */
export interface MediaStore {
  /**
   * Stores `body` under `key` unless it is there already. A finished temporary file is handed over
   * as `{file}`: the disk store moves it (no copy), an object store streams it; the file is gone
   * afterwards either way. Nothing is held whole in memory but a Buffer given as such.
   */
  put(key: string, body: MediaBody): Promise<void>;
  /**
   * A stored key's bytes as a stream (all of them, or the inclusive byte `range`, which the caller
   * has checked against the size from head), or null when there is no such key.
   */
  get(key: string, range?: ByteRange): Promise<MediaObject | null>;
  /** A stored key's size and type, or null when there is no such key. */
  head(key: string): Promise<MediaInfo | null>;
  /** The public URL path of a stored key. */
  url(key: string): string;
  /** Removes a stored key; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Checks that the store can be used (the bucket answers); throws a one-line reason otherwise. */
  check(): Promise<void>;
  /** Where the media lives, for the log (`DATA_DIR/media`'s path, `s3://bucket/prefix`). */
  readonly location: string;
  close(): void;
}

/** What a store takes: bytes in memory (a resized picture), a stream, or a local file it may move. */
export type MediaBody = Buffer | Readable | { file: string };

/** Inclusive byte offsets, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface MediaInfo {
  /** the whole object's size in bytes */
  size: number;
  contentType: string;
}

export interface MediaObject extends MediaInfo {
  /** the bytes asked for (the range, or all) */
  body: Readable;
}

/** The type of a stored key, by its extension (keys are ours: the extension is the type we stored). */
const TYPES: Record<string, string> = {
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  ogv: 'video/ogg',
};

export function contentTypeOf(key: string): string {
  return TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
}

/** A media key: a sha256 in hex and an extension; never a client's text. */
const KEY = /^[0-9a-f]{64}\.[a-z0-9]{2,5}$/;

export function isMediaKey(key: string): boolean {
  return KEY.test(key);
}

export function assertMediaKey(key: string): void {
  if (!KEY.test(key)) throw new Error(`not a media key: ${key}`);
}

/** Media on the local disk under DATA_DIR/media. */
export class DiskMediaStore implements MediaStore {
  constructor(readonly dir: string) {}

  get location(): string {
    return this.dir;
  }

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

  async get(key: string, range?: ByteRange): Promise<MediaObject | null> {
    const info = await this.head(key);
    if (!info) return null;
    const body = fs.createReadStream(this.pathOf(key), range ? { start: range.start, end: range.end } : {});
    return { ...info, body };
  }

  async head(key: string): Promise<MediaInfo | null> {
    try {
      const stat = await fs.promises.stat(this.pathOf(key));
      return stat.isFile() ? { size: stat.size, contentType: contentTypeOf(key) } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  url(key: string): string {
    return `/media/${key}`;
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  async check(): Promise<void> {
    await fs.promises.mkdir(this.dir, { recursive: true });
    await fs.promises.access(this.dir, fs.constants.W_OK);
  }

  close(): void {}

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
    assertMediaKey(key);
    return path.join(this.dir, key);
  }
}

export function isFile(body: MediaBody): body is { file: string } {
  return !Buffer.isBuffer(body) && !(body instanceof Readable);
}

/** Where a feature's uploads go: the store, and the local directory their temporary files use. */
export interface MediaPlace {
  store: MediaStore;
  /** temporary files of uploads in progress (always local: a file is hashed before it has a key) */
  uploadDir: string;
  /** something the operator should know about this store, logged once at start */
  notice?: string;
}

/** Media on the disk under `mediaDir` (DATA_DIR/media), uploads in progress under its .uploads. */
export function diskMedia(mediaDir: string): MediaPlace {
  // a dot name: never a media key, so never served
  return { store: new DiskMediaStore(mediaDir), uploadDir: path.join(mediaDir, '.uploads') };
}
