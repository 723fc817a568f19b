import { POST_IMAGE_MAX_BYTES, POST_VIDEO_MAX_BYTES } from '../../../shared/api/posts';
import { formatDate, formatFileSize } from '../../../shared/format';

/**
 * The posts' small rules of display and choice (social §5, §9), apart from the components so they
 * are tested as plain functions.
 */

/** Social §9: 'DD MMM YYYY HH:mm (A)', in the reader's time zone: `27 Nov 2026 14:05 (PM)`. */
export function formatPostDate(epochMs: number): string {
  return formatDate(epochMs);
}

/** Social §9's file size (Kb below 1 MB, else Mb with one decimal), from src/shared/format. */
export { formatFileSize };

const MB = 1024 * 1024;

/** A limit as the §5 messages write it: 10485760 → '10 MB'. */
export function formatLimit(bytes: number): string {
  return bytes % MB === 0 ? `${bytes / MB} MB` : formatFileSize(bytes);
}

/** The image types the cover accepts: §5's four, and WebP and HEIC because phones send them. */
export const COVER_EXTENSIONS = ['jpeg', 'jpg', 'png', 'gif', 'webp', 'heic', 'heif'] as const;
export const COVER_ACCEPT =
  '.jpeg,.jpg,.png,.gif,.webp,.heic,.heif,image/jpeg,image/png,image/gif,image/webp,image/heic,image/heif';
/** Social §5's warning for any other file; the file is ignored. */
export const COVER_EXTENSION_WARNING = 'Please upload file having extensions .jpeg/.jpg/.png/.gif only.';

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

export function isAcceptedCover(name: string): boolean {
  return (COVER_EXTENSIONS as readonly string[]).includes(extensionOf(name));
}

/** HEIC cannot be drawn by most browsers: it goes to the server as chosen, which decodes and crops it. */
export function isHeic(name: string): boolean {
  const extension = extensionOf(name);
  return extension === 'heic' || extension === 'heif';
}

/** Social §5: 'Invalid image size. Max allowed {size}' above the limit, else null. */
export function coverSizeProblem(bytes: number, limit = POST_IMAGE_MAX_BYTES): string | null {
  return bytes > limit ? `Invalid image size. Max allowed ${formatLimit(limit)}` : null;
}

/** Social §5: 0 bytes or above the limit: 'Invalid video file size. Max allowed {size}', else null. */
export function videoSizeProblem(bytes: number, limit = POST_VIDEO_MAX_BYTES): string | null {
  return bytes <= 0 || bytes > limit ? `Invalid video file size. Max allowed ${formatLimit(limit)}` : null;
}

/** Social §4 expiry select: a date at or before now is expired. */
export function isExpiredDate(value: string, now = Date.now()): boolean {
  const time = Date.parse(value);
  return Number.isFinite(time) && time <= now;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** `yyyy-mm-ddThh:mm` of an epoch in the reader's zone, as a datetime-local input holds it. */
export function toLocalInput(epochMs: number): string {
  const date = new Date(epochMs);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The size of a square crop's side in the image's pixels never goes under this (social §9). */
export const CROP_MIN_SIZE = 50;
export const CROP_MIN_ZOOM = 0.1;
export const CROP_MAX_ZOOM = 6;

/** The largest zoom that keeps the crop at least CROP_MIN_SIZE pixels of an image of `shortSide`. */
export function maxZoomFor(shortSide: number): number {
  return Math.max(1, Math.min(CROP_MAX_ZOOM, shortSide / CROP_MIN_SIZE));
}
