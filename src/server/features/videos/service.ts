import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { VideoResponse } from '../../../shared/api/videos';
import { AppError } from '../../../shared/errors';
import type { Viewer } from '../../../shared/permissions';
import type { JobQueue, JobRun } from '../../jobs/queue';
import type { MediaPlace } from '../../media/store';
import {
  NotAVideo,
  playsAsIs,
  posterOf,
  probeVideo,
  remuxMp4,
  storeFile,
  storePoster,
  tempFile,
  transcodeMp4,
  type VideoProbe,
} from '../../media/video';
import type { Store } from '../../store/store';
import { deleteUploadingVideo, findVideo, insertVideo, updateVideo, type VideoRow } from './queries';

/** The job that turns an upload that does not play everywhere into an H.264/AAC MP4. */
export const TRANSCODE_JOB = 'video.transcode';

/**
 * Runs of a transcode: a failure that is ours (a store that did not answer, a process stopped) gets
 * two more tries; a file ffmpeg cannot convert fails the same way three times, within a minute.
 */
const TRANSCODE_RETRIES = 2;
const TRANSCODE_BACKOFF_MS = 10_000;

/** A file untouched this long is no longer being written by a request. */
const SETTLED_MS = 10 * 60_000;
/** An upload not finished within a day is given up. */
const UNFINISHED_MS = 24 * 3600_000;
const UNFINISHED_REASON = 'the upload was not finished within a day; send the video again';

/** The extension a source is kept under while it waits for its transcode (media keys need one). */
function sourceExtension(probe: VideoProbe): string {
  const formats = probe.format.split(',');
  if (formats.includes('webm')) return 'webm';
  if (formats.includes('matroska')) return 'mkv';
  if (formats.includes('mov')) return 'mov';
  if (formats.includes('ogg')) return 'ogv';
  if (formats.includes('avi')) return 'avi';
  return 'bin';
}

/**
 * What becomes of an uploaded video (issue 17): probed when its last byte arrives, given a poster,
 * and either kept as it is (an H.264/AAC MP4, remuxed for faststart) or transcoded in a background
 * job of the durable queue. Every file is removed from the upload directory once it is dealt with;
 * what waits for a transcode waits in the media store, so that any process may run the job.
 */
export class VideoService {
  constructor(
    private readonly store: Store,
    private readonly media: MediaPlace,
    private readonly queue: JobQueue,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'error'>,
    /** the transcode's retries and first backoff (tests shorten them) */
    transcode: { retries?: number; backoffMs?: number } = {},
  ) {
    queue.register<{ id: string }>(TRANSCODE_JOB, (payload, run) => this.transcode(payload.id, run), {
      retries: transcode.retries ?? TRANSCODE_RETRIES,
      backoffMs: transcode.backoffMs ?? TRANSCODE_BACKOFF_MS,
      onGiveUp: async (payload, error) => this.gaveUp(payload.id, error),
    });
  }

  /** A new upload of `userId`'s, `bytes` long (tus creation). */
  async created(userId: string, id: string, bytes: number): Promise<void> {
    await insertVideo(this.store, { id, userId, bytes, now: Date.now() });
  }

  /** The author cancelled the upload (tus termination). */
  async cancelled(id: string): Promise<void> {
    await deleteUploadingVideo(this.store, id);
  }

  /**
   * The upload's last byte has arrived in `file`: probe, poster, then ready or queued. A file that is
   * not a video the author can post fails with its reason (videoNotPlayable, which the upload's last
   * request answers). `file` is gone afterwards whatever happened.
   */
  async finish(id: string, file: string): Promise<VideoRow['state']> {
    try {
      const video = await findVideo(this.store, id);
      if (!video || video.state !== 'uploading') return video?.state ?? 'failed';
      let probe: VideoProbe;
      let posterUrl: string;
      try {
        probe = await probeVideo(file);
        posterUrl = this.media.store.url(
          await storePoster(this.media, await posterOf(file, probe.durationMs)),
        );
      } catch (error) {
        const reason =
          error instanceof NotAVideo
            ? error.message
            : `no picture could be taken from it (${(error as Error).message}); export it again as MP4`;
        await updateVideo(this.store, id, ['uploading'], { state: 'failed', error: reason });
        throw new AppError('videoNotPlayable', { reason });
      }
      const described = {
        poster_url: posterUrl,
        duration_ms: probe.durationMs,
        width: probe.width,
        height: probe.height,
      };
      if (playsAsIs(probe)) {
        const ready = await this.keepAsIs(file);
        if (ready) {
          await updateVideo(this.store, id, ['uploading'], { state: 'ready', ...described, ...ready });
          return 'ready';
        }
      }
      const sourceKey = await storeFile(this.media, file, sourceExtension(probe));
      await updateVideo(this.store, id, ['uploading'], {
        state: 'queued',
        source_key: sourceKey,
        bytes: probe.bytes,
        ...described,
      });
      await this.queue.enqueue(TRANSCODE_JOB, { id }, { key: id });
      return 'queued';
    } finally {
      await fs.promises.rm(file, { force: true });
    }
  }

  /** An H.264/AAC MP4 remuxed with its index first; null when the remux fails (it is transcoded then). */
  private async keepAsIs(file: string): Promise<{ url: string; mime: string; bytes: number } | null> {
    const output = await tempFile(this.media, 'mp4');
    try {
      await remuxMp4(file, output);
      const bytes = (await fs.promises.stat(output)).size;
      const key = await storeFile(this.media, output, 'mp4');
      return { url: this.media.store.url(key), mime: 'video/mp4', bytes };
    } catch (error) {
      this.log.warn({ err: error }, 'video: remuxing an H.264 MP4 failed; it will be transcoded');
      return null;
    } finally {
      await fs.promises.rm(output, { force: true });
    }
  }

  /** The transcode job: the source from the media store, through ffmpeg, back as an MP4. */
  private async transcode(id: string, run: JobRun): Promise<void> {
    const video = await findVideo(this.store, id);
    // done already (a job run twice), or cancelled: nothing to do
    if (!video || (video.state !== 'queued' && video.state !== 'processing') || !video.source_key) return;
    await updateVideo(this.store, id, ['queued', 'processing'], { state: 'processing' });
    const input = await tempFile(this.media, 'src');
    const output = await tempFile(this.media, 'mp4');
    try {
      const source = await this.media.store.get(video.source_key);
      if (!source) throw new Error('the uploaded file is no longer there');
      await pipeline(source.body, fs.createWriteStream(input));
      await transcodeMp4(input, output, { signal: run.signal });
      const probe = await probeVideo(output);
      const key = await storeFile(this.media, output, 'mp4');
      const done = await updateVideo(this.store, id, ['processing'], {
        state: 'ready',
        url: this.media.store.url(key),
        mime: 'video/mp4',
        bytes: probe.bytes,
        width: probe.width,
        height: probe.height,
        duration_ms: probe.durationMs ?? video.duration_ms,
        source_key: null,
        error: null,
      });
      if (done) await this.media.store.delete(video.source_key);
    } catch (error) {
      // the author sees it wait again while it is retried
      if (run.attempt < run.maxAttempts)
        await updateVideo(this.store, id, ['processing'], { state: 'queued' }).catch(() => false);
      throw error;
    } finally {
      await fs.promises.rm(input, { force: true });
      await fs.promises.rm(output, { force: true });
    }
  }

  private async gaveUp(id: string, error: Error): Promise<void> {
    const video = await findVideo(this.store, id);
    const reason = `converting it for playback failed (${error.message.replace(/\.$/, '')}); try another file, or export it as an H.264 MP4`;
    await updateVideo(this.store, id, ['queued', 'processing'], { state: 'failed', error: reason });
    if (video?.source_key) await this.media.store.delete(video.source_key);
  }

  /**
   * The upload directory's leftovers (every 10 minutes, and at start): an upload whose last byte
   * arrived in a process that stopped before dealing with it is dealt with now; one not finished
   * within a day fails (the author sends it again) and its bytes go; files no upload owns go.
   * Each process sweeps its own directory (tus files are local); a row left `uploading` for two days,
   * whose file is on a machine that is gone, fails on any process.
   */
  async sweepUploads(directory: string, now = Date.now()): Promise<void> {
    let names: string[] = [];
    try {
      names = await fs.promises.readdir(directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    for (const name of names) {
      if (!/^[0-9a-f]{32}$/.test(name)) continue;
      const file = path.join(directory, name);
      const stat = await fs.promises.stat(file).catch(() => null);
      if (!stat) continue;
      const forget = () =>
        Promise.all([file, `${file}.json`].map((gone) => fs.promises.rm(gone, { force: true })));
      const video = await findVideo(this.store, name);
      const quiet = now - stat.mtimeMs > SETTLED_MS;
      if (!video || video.state !== 'uploading') {
        if (quiet) await forget();
      } else if (quiet && stat.size === Number(video.bytes) && stat.size > 0) {
        await this.finish(name, file).catch((error: unknown) => {
          if (!(error instanceof AppError))
            this.log.error({ err: error }, 'video: finishing a left upload failed');
        });
        await forget();
      } else if (now - video.created_at > UNFINISHED_MS) {
        await updateVideo(this.store, name, ['uploading'], { state: 'failed', error: UNFINISHED_REASON });
        await forget();
      }
    }
    await this.store.db
      .updateTable('videos')
      .set({ state: 'failed', error: UNFINISHED_REASON, updated_at: now })
      .where('state', '=', 'uploading')
      .where('created_at', '<', now - 2 * UNFINISHED_MS)
      .execute();
  }

  /** GET /v1/videos/{id}: its author sees every state and why it failed; others only a ready video. */
  async state(viewer: Viewer, id: string): Promise<VideoResponse> {
    const video = await findVideo(this.store, id);
    const isAuthor = video !== undefined && viewer !== null && viewer.id === video.user_id;
    if (!video || (!isAuthor && video.state !== 'ready')) throw new AppError('videoNotFound', { id });
    return {
      id: video.id,
      state: video.state,
      error: isAuthor ? video.error : null,
      url: video.url,
      poster_url: video.poster_url,
      duration_ms: video.duration_ms,
      width: video.width,
      height: video.height,
      bytes: Number(video.bytes),
    };
  }

  /** Whether `viewer` may go on with the upload `id` (HEAD, PATCH, DELETE): only its author. */
  async ownsUpload(viewer: NonNullable<Viewer>, id: string): Promise<boolean> {
    const video = await findVideo(this.store, id);
    return video !== undefined && video.user_id === viewer.id;
  }
}
