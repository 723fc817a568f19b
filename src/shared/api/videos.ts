import { z } from 'zod';
import { POST_VIDEO_MAX_BYTES, videoStateSchema } from './posts';

/**
 * Contracts of the video API (issue 17): a post's video is uploaded resumably (tus 1.0.0, with
 * tus-js-client in the browser) before the post is saved, then probed, given a poster, and kept as
 * it is (an H.264/AAC MP4) or transcoded in a background job. The post names it by `video_id`.
 *
 *   POST   /v1/uploads/video          tus creation: Upload-Length (1 byte to 100 MB) -> 201, Location
 *   HEAD   /v1/uploads/video/{id}     tus: the offset the server has (to resume)
 *   PATCH  /v1/uploads/video/{id}     tus: bytes from Upload-Offset; the last one probes the video
 *   DELETE /v1/uploads/video/{id}     tus termination: the upload is cancelled and forgotten
 *   GET    /v1/videos/{id}            the state, for its author at every step and for others once ready
 *
 * States: uploading -> (queued -> processing ->) ready, or failed with the reason. A failed video
 * is never retried by itself: the author uploads another.
 */

export const VIDEO_UPLOAD_PATH = '/v1/uploads/video';
export const VIDEO_MAX_BYTES = POST_VIDEO_MAX_BYTES;
export const VIDEO_MAX_LABEL = '100 MB';
/** Social-style upload limit (Mastodon's): at most this many uploads per user per window. */
export const VIDEO_UPLOAD_LIMIT = { max: 30, timeWindow: 30 * 60_000 };

/** A video's id: the tus upload id (32 hex characters). */
export const videoIdSchema = z
  .string()
  .regex(/^[0-9a-f]{32}$/, 'must be a video id (32 hex characters).')
  .meta({ description: 'the id of the upload that made the video' });

export const videoParamsSchema = z.object({ id: videoIdSchema });

export const videoResponseSchema = z.object({
  id: z.string(),
  state: videoStateSchema,
  /** why it failed, in words its author can act on; null otherwise (and always for others) */
  error: z.string().nullable(),
  /** /media/<sha256>.mp4 once ready */
  url: z.string().nullable(),
  /** /media/<sha256>.webp once probed */
  poster_url: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** the uploaded size until ready, then the stored MP4's */
  bytes: z.number().int(),
});
export type VideoResponse = z.infer<typeof videoResponseSchema>;
