import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyError, FastifyRequest } from 'fastify';
import sharp, { type OutputInfo } from 'sharp';
import type { MediaSlot } from '../../../shared/api/points';
import { AppError } from '../../../shared/errors';
import { requireViewer } from '../../auth/hook';

/**
 * Point media uploads (issue 8; map-and-search §3 media fields; social §5 size limits): one file per
 * call as a base64 data URL, checked by its content (never its name or declared type), images resized
 * and re-encoded as WebP with sharp, videos kept as sent; stored content-addressed under
 * DATA_DIR/media as <sha256>.<ext>, so the same bytes are stored once and served immutable.
 */

/** Social §5: a cover image at most 10485760 bytes, estimated as base64 length / 1.3333. */
export const MAX_IMAGE_BYTES = 10_485_760;
/** Social §5: a video at most 104857600 bytes; size 0 is invalid. */
export const MAX_VIDEO_BYTES = 104_857_600;
const MAX_IMAGE_LABEL = '10 MB';
export const MAX_VIDEO_LABEL = '100 MB';
/** Social §5 estimates the decoded size as base64 length divided by 1.3333. */
const BASE64_RATIO = 1.3333;
/** A 100 MB video is ~133 MB of base64; the media route accepts a JSON body this large. */
export const MEDIA_BODY_LIMIT_BYTES = 140 * 1024 * 1024;

/** Route options of every media upload (point media, event cover). */
export const MEDIA_ROUTE = {
  bodyLimit: MEDIA_BODY_LIMIT_BYTES,
  // only a signed-in owner, consultant or admin uploads: a visitor is told so before a byte of a body
  // that may be 140 MB is read (read first, four such bodies took the process past 1.6 GB)
  onRequest: async (request: FastifyRequest) => {
    requireViewer(request.viewer);
  },
  // a body past the route's limit is past the largest file the spec allows (a 100 MB video)
  errorHandler: (error: FastifyError) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      throw new AppError('invalidVideoSize', { size: MAX_VIDEO_LABEL });
    throw error;
  },
};

/** The largest box each image slot is scaled into (never enlarged). */
const IMAGE_BOX: Record<Exclude<MediaSlot, 'cover_video'>, { width: number; height: number }> = {
  cover_image: { width: 1920, height: 1920 },
  logo: { width: 512, height: 512 },
  screenshot: { width: 1600, height: 1600 },
};
/** The formats an image choice accepts (social §5: jpeg, jpg, png, gif), and WebP as the avatar does. */
const IMAGE_FORMATS = new Set(['jpeg', 'png', 'gif', 'webp']);
/**
 * Some cameras write pictures with hundreds of megapixels; sharp refuses inputs above this many pixels
 * so a small, highly compressed file cannot make it allocate gigabytes.
 */
const MAX_INPUT_PIXELS = 100_000_000;

export interface StoredMedia {
  id: string;
  mime: string;
  bytes: number;
  width: number | null;
  height: number | null;
  /** /media/<sha256>.<ext> */
  url: string;
}

/** The media_assets row of a stored file, or null when the upload removed one. */
export function assetOf(stored: StoredMedia | null) {
  if (!stored) return null;
  return {
    id: stored.id,
    mime: stored.mime,
    bytes: stored.bytes,
    width: stored.width,
    height: stored.height,
  };
}

/** Base64 content of a data URL (or bare base64), with whitespace removed. */
export function base64Of(data: string): string {
  const match = /^data:[\w.+/-]*(?:;[\w=.+-]+)*;base64,/i.exec(data);
  return (match ? data.slice(match[0].length) : data).replace(/\s+/g, '');
}

/** Social §5's size estimate, in bytes. */
export function estimatedBytes(base64: string): number {
  return base64.length / BASE64_RATIO;
}

/** The video container by its first bytes, or null: MP4 and QuickTime (ftyp), WebM/Matroska (EBML), Ogg. */
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

async function writeContentAddressed(mediaDir: string, bytes: Buffer, ext: string): Promise<string> {
  const id = createHash('sha256').update(bytes).digest('hex');
  const file = path.join(mediaDir, `${id}.${ext}`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(mediaDir, { recursive: true });
    // write then rename: a reader never sees half a file, and two writers of the same bytes agree
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await fs.promises.writeFile(temp, bytes);
    await fs.promises.rename(temp, file);
  }
  return id;
}

/** Checks, resizes and stores an image for `slot`; throws invalidImage or invalidImageSize. */
export async function storeImage(
  data: string,
  slot: Exclude<MediaSlot, 'cover_video'>,
  mediaDir: string,
): Promise<StoredMedia> {
  const base64 = base64Of(data);
  if (estimatedBytes(base64) > MAX_IMAGE_BYTES)
    throw new AppError('invalidImageSize', { size: MAX_IMAGE_LABEL });
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) throw new AppError('invalidImage');
  const input = Buffer.from(base64, 'base64');
  if (input.length === 0) throw new AppError('invalidImage');
  if (input.length > MAX_IMAGE_BYTES) throw new AppError('invalidImageSize', { size: MAX_IMAGE_LABEL });

  let format: string | undefined;
  try {
    format = (await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()).format;
  } catch {
    throw new AppError('invalidImage');
  }
  if (!format || !IMAGE_FORMATS.has(format)) throw new AppError('invalidImage');

  const box = IMAGE_BOX[slot];
  let output: { data: Buffer; info: OutputInfo };
  try {
    output = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize(box.width, box.height, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new AppError('invalidImage');
  }
  const id = await writeContentAddressed(mediaDir, output.data, 'webp');
  return {
    id,
    mime: 'image/webp',
    bytes: output.data.length,
    width: output.info.width,
    height: output.info.height,
    url: `/media/${id}.webp`,
  };
}

/** Checks and stores a cover video as sent; throws invalidVideo or invalidVideoSize. */
export async function storeVideo(data: string, mediaDir: string): Promise<StoredMedia> {
  const base64 = base64Of(data);
  if (estimatedBytes(base64) > MAX_VIDEO_BYTES)
    throw new AppError('invalidVideoSize', { size: MAX_VIDEO_LABEL });
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) throw new AppError('invalidVideo');
  const input = Buffer.from(base64, 'base64');
  // social §5: size 0 is invalid
  if (input.length === 0) throw new AppError('videoEmpty', { size: MAX_VIDEO_LABEL });
  if (input.length > MAX_VIDEO_BYTES) throw new AppError('invalidVideoSize', { size: MAX_VIDEO_LABEL });
  const kind = sniffVideo(input);
  if (!kind) throw new AppError('invalidVideo');
  const id = await writeContentAddressed(mediaDir, input, kind.ext);
  return {
    id,
    mime: kind.mime,
    bytes: input.length,
    width: null,
    height: null,
    url: `/media/${id}.${kind.ext}`,
  };
}
