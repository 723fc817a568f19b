import fs from 'node:fs';
import type { FastifyError, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { bodyContract, multipartContract } from '../../../shared/api/contract';
import type { MediaSlot } from '../../../shared/api/points';
import { AppError } from '../../../shared/errors';
import { requireViewer } from '../../auth/hook';
import { storeImage as storeWebp, storeVideoFile, type StoredMedia } from '../../media/process';
import type { MediaPlace } from '../../media/store';
import { receiveFile, refuseUnreadBody, type FilePart } from '../../media/upload';

/**
 * Point and event media uploads (issue 8; map-and-search §3 media fields; social §5 size limits): one
 * file per call, checked by its content (never its name or declared type), images resized and
 * re-encoded as WebP with sharp, videos kept as sent; stored content-addressed (media/store.ts) as
 * <sha256>.<ext>, so the same bytes are stored once and served immutable.
 *
 * A file comes as multipart/form-data (streamed to a temporary file, never whole in memory: issue
 * 16, finding 2) or, for images only, as a base64 data URL in JSON, which existing clients send.
 */

export type { StoredMedia };

/** Social §5: a cover image at most 10485760 bytes. */
export const MAX_IMAGE_BYTES = 10_485_760;
/** Social §5: a video at most 104857600 bytes; size 0 is invalid. */
export const MAX_VIDEO_BYTES = 104_857_600;
export const MAX_IMAGE_LABEL = '10 MB';
export const MAX_VIDEO_LABEL = '100 MB';
/** Social §5 estimates a base64 upload's decoded size as its length divided by 1.3333. */
const BASE64_RATIO = 1.3333;
/**
 * A JSON media body carries at most a 10 MB image: ~13.3 MB of base64, plus a margin for the other
 * fields and a data-URL prefix. Videos, and anything larger, come as multipart (not limited by this:
 * its file is streamed and counted against its slot's limit instead).
 */
export const MEDIA_JSON_BODY_LIMIT_BYTES = Math.ceil(14.5 * 1024 * 1024);

/** Route options of every media upload (point media, event cover). */
export const MEDIA_ROUTE = {
  bodyLimit: MEDIA_JSON_BODY_LIMIT_BYTES,
  // only a signed-in owner, consultant or admin uploads: a visitor is told so before a byte of the
  // body is read (read first, four 140 MB bodies took the process past 1.6 GB)
  onRequest: async (request: FastifyRequest) => {
    requireViewer(request.viewer);
  },
  // and the rest of a body answered before its end is never read (measured over real sockets in
  // test/server/upload-limits.test.ts)
  onSend: refuseUnreadBody,
  // a JSON body past the route's limit is past the largest image JSON may carry
  errorHandler: (error: FastifyError) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      throw new AppError('invalidImageSize', { size: MAX_IMAGE_LABEL });
    throw error;
  },
};

/** What every upload route's document says about its two forms. */
export const MEDIA_DESCRIPTION =
  'Send the file as multipart/form-data: the text fields first, then the file in a part named `file` ' +
  '(streamed; refused the moment it passes its limit: images 10 MB, videos 100 MB). An image may ' +
  'instead come as JSON, a base64 data URL in `data` (a body of at most 14.5 MB); a video in JSON is ' +
  'refused with 7034. A visitor is answered 401 before any of the body is read.';

/** An upload route's body: JSON checked by its contract, or multipart read by the handler. */
export function mediaBody(json: z.ZodType, form: z.ZodType) {
  return {
    content: {
      'application/json': { schema: bodyContract(json) },
      'multipart/form-data': { schema: multipartContract(form) },
    },
  };
}

/** The largest box each image slot is scaled into (never enlarged). */
const IMAGE_BOX: Record<Exclude<MediaSlot, 'cover_video'>, { width: number; height: number }> = {
  cover_image: { width: 1920, height: 1920 },
  logo: { width: 512, height: 512 },
  screenshot: { width: 1600, height: 1600 },
  // a health certificate is read, not glanced at: kept large enough for its small print
  health: { width: 2000, height: 2000 },
};

/** A file to store: the base64 data URL of a JSON body, or a multipart file part not yet read. */
export type MediaSource = string | FilePart;

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

/** The bytes of a base64 image (at most 10 MB by the body limit): invalidImage or invalidImageSize. */
export function decodeImage(data: string): Buffer {
  const base64 = base64Of(data);
  if (estimatedBytes(base64) > MAX_IMAGE_BYTES)
    throw new AppError('invalidImageSize', { size: MAX_IMAGE_LABEL });
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) throw new AppError('invalidImage');
  const input = Buffer.from(base64, 'base64');
  if (input.length === 0) throw new AppError('invalidImage');
  if (input.length > MAX_IMAGE_BYTES) throw new AppError('invalidImageSize', { size: MAX_IMAGE_LABEL });
  return input;
}

/**
 * Runs `work` on an uploaded image: the decoded bytes of a data URL, or the path of the temporary
 * file a multipart part was streamed into (refused past 10 MB, removed afterwards).
 */
export async function withImage<T>(
  source: MediaSource,
  media: MediaPlace,
  work: (input: Buffer | string) => Promise<T>,
): Promise<T> {
  if (typeof source === 'string') return work(decodeImage(source));
  const received = await receiveFile(source.stream, {
    dir: media.uploadDir,
    maxBytes: MAX_IMAGE_BYTES,
    tooLarge: () => new AppError('invalidImageSize', { size: MAX_IMAGE_LABEL }),
  });
  try {
    if (received.bytes === 0) throw new AppError('invalidImage');
    return await work(received.file);
  } finally {
    await fs.promises.rm(received.file, { force: true });
  }
}

/** Checks, resizes and stores an image for `slot`; throws invalidImage or invalidImageSize. */
export function storeImage(
  source: MediaSource,
  slot: Exclude<MediaSlot, 'cover_video'>,
  media: MediaPlace,
): Promise<StoredMedia> {
  return withImage(source, media, (input) => storeWebp(input, { ...IMAGE_BOX[slot], fit: 'inside' }, media));
}

/**
 * Checks and stores a cover video as sent; throws invalidVideo, videoEmpty or invalidVideoSize (the
 * moment the stream passes 100 MB). Only multipart carries a video: 100 MB of base64 in a JSON body
 * is what issue 16 found taking the process past 1.6 GB.
 */
export async function storeVideo(source: MediaSource, media: MediaPlace): Promise<StoredMedia> {
  if (typeof source === 'string') throw new AppError('videoNeedsMultipart');
  const received = await receiveFile(source.stream, {
    dir: media.uploadDir,
    maxBytes: MAX_VIDEO_BYTES,
    tooLarge: () => new AppError('invalidVideoSize', { size: MAX_VIDEO_LABEL }),
  });
  return storeVideoFile(received, media, MAX_VIDEO_LABEL);
}
