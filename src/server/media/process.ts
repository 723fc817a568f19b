import fs from 'node:fs';
import { createHash } from 'node:crypto';
import sharp, { type OutputInfo } from 'sharp';
import { AppError } from '../../shared/errors';
import type { MediaPlace } from './store';
import type { ReceivedFile } from './upload';

/**
 * What becomes of an upload once it is on the disk (or, for a small JSON upload, in memory): images
 * are checked by their content with sharp, re-encoded as WebP and stored by the hash of the WebP;
 * videos are checked by their first bytes and stored as sent, by the hash of their bytes.
 */

/** A stored file as the media_assets rows and the answers describe it. */
export interface StoredMedia {
  id: string;
  mime: string;
  bytes: number;
  width: number | null;
  height: number | null;
  /** /media/<sha256>.<ext> */
  url: string;
}

/** The formats an image upload accepts (social §5: jpeg, jpg, png, gif), and WebP. */
const IMAGE_FORMATS = new Set(['jpeg', 'png', 'gif', 'webp']);
/**
 * Some cameras write pictures with hundreds of megapixels; sharp refuses inputs above this many pixels
 * so a small, highly compressed file cannot make it allocate gigabytes.
 */
const MAX_INPUT_PIXELS = 100_000_000;

export interface ImageShape {
  width: number;
  height: number;
  /** inside: scaled into the box, never enlarged (point media); cover: cropped to it (avatars) */
  fit: 'inside' | 'cover';
}

/**
 * Checks an image by its content (bytes in memory, or the path of a received file), scales it to
 * `shape` and stores it as WebP; throws invalidImage for anything sharp cannot read as one of the
 * accepted formats. The WebP is at most a few hundred KB, so it is encoded in memory.
 */
export async function storeImage(
  input: Buffer | string,
  shape: ImageShape,
  media: MediaPlace,
): Promise<StoredMedia> {
  const open = () => sharp(input, { limitInputPixels: MAX_INPUT_PIXELS });
  let format: string | undefined;
  try {
    format = (await open().metadata()).format;
  } catch {
    throw new AppError('invalidImage');
  }
  if (!format || !IMAGE_FORMATS.has(format)) throw new AppError('invalidImage');
  let output: { data: Buffer; info: OutputInfo };
  try {
    output = await open()
      .rotate()
      .resize(shape.width, shape.height, {
        fit: shape.fit,
        ...(shape.fit === 'inside' ? { withoutEnlargement: true } : {}),
      })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new AppError('invalidImage');
  }
  const id = createHash('sha256').update(output.data).digest('hex');
  const key = `${id}.webp`;
  await media.store.put(key, output.data);
  return {
    id,
    mime: 'image/webp',
    bytes: output.data.length,
    width: output.info.width,
    height: output.info.height,
    url: media.store.url(key),
  };
}

/** The video container by its first bytes, or null: MP4 and QuickTime (ftyp), WebM (EBML), Ogg. */
export function sniffVideo(bytes: Buffer): { mime: string; ext: string } | null {
  if (bytes.length >= 12 && bytes.toString('latin1', 4, 8) === 'ftyp') {
    const brand = bytes.toString('latin1', 8, 12);
    return brand === 'qt  ' ? { mime: 'video/quicktime', ext: 'mov' } : { mime: 'video/mp4', ext: 'mp4' };
  }
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x1a45dfa3) {
    // Matroska and WebM share the EBML header; the doctype says which
    const head = bytes.toString('latin1', 0, Math.min(bytes.length, 64));
    return head.includes('webm') ? { mime: 'video/webm', ext: 'webm' } : null;
  }
  if (bytes.length >= 4 && bytes.toString('latin1', 0, 4) === 'OggS')
    return { mime: 'video/ogg', ext: 'ogv' };
  return null;
}

/**
 * Stores a received video as sent, named by its hash, once its first bytes say it is one (the
 * temporary file is moved into place, or removed when refused).
 */
export async function storeVideoFile(
  received: ReceivedFile,
  media: MediaPlace,
  emptyLabel: string,
): Promise<StoredMedia> {
  // social §5: size 0 is invalid
  const kind = received.bytes === 0 ? null : sniffVideo(received.head);
  if (!kind) {
    await fs.promises.rm(received.file, { force: true });
    throw received.bytes === 0
      ? new AppError('videoEmpty', { size: emptyLabel })
      : new AppError('invalidVideo');
  }
  const key = `${received.sha256}.${kind.ext}`;
  await media.store.put(key, { file: received.file });
  return {
    id: received.sha256,
    mime: kind.mime,
    bytes: received.bytes,
    width: null,
    height: null,
    url: media.store.url(key),
  };
}
