import type { MediaSlot } from '../../../shared/api/points';
import { MAX_HEALTH_PHOTOS, MAX_SCREENSHOTS } from '../../../shared/validation/points';
import { formatFileSize } from '../../../shared/format';
import { ApiError } from '../../lib/api';

/**
 * The media part of the edit form (issue 8; map-and-search §3 media fields, §9 up to 14
 * screenshots): which files each slot takes, the checks the browser can make before sending (the
 * declared type and the size: social §5's limits), and the messages for what the server refuses.
 * The server is the judge of content (a text file named .jpg is caught there, by its bytes); its
 * message is shown as it comes.
 */

/** Social §5: images up to 10 MB, videos up to 100 MB (the server's limits, src/server/features/points/media.ts). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const MAX_VIDEO_BYTES = 100 * 1024 * 1024;

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
export const VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm', 'video/ogg'] as const;

export const SLOT_LABELS: Record<MediaSlot, string> = {
  cover_image: 'Cover image',
  cover_video: 'Cover video',
  logo: 'Logo',
  screenshot: 'Screenshot',
  health: 'Health photo',
};

export { MAX_HEALTH_PHOTOS, MAX_SCREENSHOTS };

export function isVideoSlot(slot: MediaSlot): boolean {
  return slot === 'cover_video';
}

/** The file input's `accept` for a slot. */
export function acceptFor(slot: MediaSlot): string {
  return (isVideoSlot(slot) ? VIDEO_TYPES : IMAGE_TYPES).join(',');
}

/** What the browser knows of a picked file. */
export interface PickedFile {
  name: string;
  /** the type the browser guessed from the name ('' when it has none). */
  type: string;
  size: number;
}

/**
 * A problem the browser can see before uploading, or null. The wording follows the server's own
 * messages, so a file reads the same whichever side refuses it.
 */
export function checkPickedFile(file: PickedFile, slot: MediaSlot): string | null {
  const label = SLOT_LABELS[slot];
  const video = isVideoSlot(slot);
  const types: readonly string[] = video ? VIDEO_TYPES : IMAGE_TYPES;
  if (file.size === 0) return `${label}: "${file.name}" is empty.`;
  // a type the browser does not know ('') goes to the server, which reads the content
  if (file.type !== '' && !types.includes(file.type))
    return video
      ? `${label}: "${file.name}" is not a video. Choose an MP4, WebM, QuickTime or Ogg video.`
      : `${label}: "${file.name}" is not a picture. Choose a JPEG, PNG, GIF or WebP image.`;
  const limit = video ? MAX_VIDEO_BYTES : MAX_IMAGE_BYTES;
  if (file.size > limit)
    return `${label}: "${file.name}" is too large (${formatFileSize(file.size)}). Invalid ${video ? 'video file' : 'image'} size. Max allowed ${limitText(limit)}`;
  return null;
}

/** A limit as the §5 message words it ('10 MB'), as the server's refusals say it too. */
function limitText(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb} MB` : formatFileSize(bytes);
}

/** Server codes about the file itself (2008/2009 images, 7030/7031/7033 videos, 7032 the slot). */
const FILE_ERROR_CODES = new Set([2008, 2009, 7030, 7031, 7032, 7033]);

/**
 * The message for a refused upload: about the file, the server's own message under the slot's
 * name ("Cover image: \"notes.jpg\" was not accepted. image: must be a JPEG, ..."); anything
 * else (sign-in, rights, a conflict, the network) as it comes.
 */
export function uploadErrorMessage(error: unknown, slot: MediaSlot, fileName: string): string {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ApiError && FILE_ERROR_CODES.has(error.code))
    return `${SLOT_LABELS[slot]}: "${fileName}" was not accepted. ${message}`;
  return message;
}

/** The screenshots as the form shows them: positions 1..14 in order. */
export function sortedScreenshots<T extends { position: number }>(shots: readonly T[]): T[] {
  return [...shots].sort((a, b) => a.position - b.position);
}

/** How many more screenshots fit. */
export function screenshotRoom(count: number): number {
  return Math.max(0, MAX_SCREENSHOTS - count);
}

/** How many more health photos fit. */
export function healthPhotoRoom(count: number): number {
  return Math.max(0, MAX_HEALTH_PHOTOS - count);
}
