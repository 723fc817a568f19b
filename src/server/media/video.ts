import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import ffprobeInstaller from '@ffprobe-installer/ffprobe';
import sharp from 'sharp';
import type { MediaPlace } from './store';

/**
 * Videos as ffprobe and ffmpeg see them (issue 17): the binaries ship in npm packages
 * (@ffmpeg-installer, @ffprobe-installer), are run with an argument list (never a shell) and a time
 * limit, and read and write local files only. What a file is comes from probing its streams, never
 * from its name or its declared type.
 */

export const FFMPEG_PATH = ffmpegInstaller.path;
export const FFPROBE_PATH = ffprobeInstaller.path;

/** A probe reads headers and a few packets: seconds at most, even for 100 MB. */
const PROBE_TIMEOUT_MS = 20_000;
const POSTER_TIMEOUT_MS = 30_000;
/** A remux copies packets: about the time of reading the file once. */
const REMUX_TIMEOUT_MS = 120_000;
/** A transcode of 100 MB at veryfast on one or two cores: minutes, never hours. */
export const TRANSCODE_TIMEOUT_MS = 15 * 60_000;
/** The largest side of a transcoded video and of a poster (720p: what a post's media box shows). */
export const MAX_VIDEO_SIDE = 1280;

export interface VideoProbe {
  /** ffprobe's format names, `mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm` */
  format: string;
  durationMs: number | null;
  /** the first video stream's picture size as shown (a phone's rotation applied) */
  width: number;
  height: number;
  videoCodec: string;
  pixelFormat: string | null;
  /** the first audio stream's codec, or null when it has no sound */
  audioCodec: string | null;
  bytes: number;
}

/** Why a file is not a video the author can post, in words they can act on. */
export class NotAVideo extends Error {
  constructor(
    message: string,
    readonly kind: 'noVideoStream' | 'unreadable',
  ) {
    super(message);
    this.name = 'NotAVideo';
  }
}

interface Run {
  stdout: Buffer;
  stderr: string;
}

/** Runs a binary with `args` (no shell), killed after `timeoutMs` or when `signal` aborts. */
function run(
  binary: string,
  args: string[],
  options: { timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(
      binary,
      args,
      {
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 32 * 1024 * 1024,
        encoding: 'buffer',
        windowsHide: true,
        ...(options.signal ? { signal: options.signal } : {}),
      },
      (error, stdout, stderr) => {
        const text = stderr.toString('utf8');
        if (!error) return resolve({ stdout, stderr: text });
        const killed = (error as { killed?: boolean }).killed === true;
        // the server's own paths never reach the author: the files are named 'the file'
        const reason = args
          .filter((arg) => path.isAbsolute(arg))
          .reduce(
            (said, file) => said.split(file).join('the file'),
            killed
              ? `${path.basename(binary)} took longer than ${Math.round(options.timeoutMs / 1000)} s`
              : lastLine(text) || 'it stopped with an error',
          );
        reject(new Error(reason, { cause: error }));
      },
    );
  });
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines[lines.length - 1] ?? '').trim().slice(0, 300);
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  tags?: Record<string, string>;
  side_data_list?: Array<{ rotation?: number }>;
  disposition?: { attached_pic?: number };
}

/**
 * Duration, streams and size of a local file. Throws NotAVideo when ffprobe cannot read it, or when
 * it has no moving picture (a sound file, a text file, a picture; an MP3's cover art does not count).
 */
export async function probeVideo(file: string): Promise<VideoProbe> {
  let output: Run;
  try {
    output = await run(
      FFPROBE_PATH,
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
      { timeoutMs: PROBE_TIMEOUT_MS },
    );
  } catch (error) {
    throw new NotAVideo(
      `it could not be read as a video (${(error as Error).message}); export it again as MP4`,
      'unreadable',
    );
  }
  const parsed = JSON.parse(output.stdout.toString('utf8')) as {
    format?: { format_name?: string; duration?: string; size?: string };
    streams?: ProbeStream[];
  };
  const streams = parsed.streams ?? [];
  const video = streams.find(
    (stream) =>
      stream.codec_type === 'video' &&
      !stream.disposition?.attached_pic &&
      (stream.width ?? 0) > 0 &&
      (stream.height ?? 0) > 0,
  );
  if (!video) {
    const found = streams.map((stream) => stream.codec_type ?? 'data');
    throw new NotAVideo(
      found.includes('audio')
        ? 'it has sound but no picture; choose a video file'
        : 'it has no video picture in it; choose a video file',
      'noVideoStream',
    );
  }
  const audio = streams.find((stream) => stream.codec_type === 'audio');
  const rotation = Math.abs(
    Number(video.side_data_list?.find((data) => data.rotation !== undefined)?.rotation ?? 0) ||
      Number(video.tags?.['rotate'] ?? 0),
  );
  const sideways = rotation % 180 === 90;
  const seconds = Number(parsed.format?.duration);
  return {
    format: parsed.format?.format_name ?? '',
    durationMs: Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : null,
    width: (sideways ? video.height : video.width) ?? 0,
    height: (sideways ? video.width : video.height) ?? 0,
    videoCodec: video.codec_name ?? '',
    pixelFormat: video.pix_fmt ?? null,
    audioCodec: audio?.codec_name ?? null,
    bytes: Number(parsed.format?.size ?? (await fs.promises.stat(file)).size),
  };
}

/**
 * Whether every browser plays it as it is: an MP4 of H.264 in 4:2:0 with AAC sound or none. Such a
 * file is only remuxed (faststart), not transcoded.
 */
export function playsAsIs(probe: VideoProbe): boolean {
  return (
    probe.format.split(',').includes('mp4') &&
    probe.videoCodec === 'h264' &&
    (probe.pixelFormat === null || probe.pixelFormat === 'yuv420p' || probe.pixelFormat === 'yuvj420p') &&
    (probe.audioCodec === null || probe.audioCodec === 'aac')
  );
}

/** Scales into MAX_VIDEO_SIDE on the longer side, never up, to even sizes (H.264 wants them). */
const FIT_FILTER =
  `scale=w='if(gte(iw,ih),min(${MAX_VIDEO_SIDE},iw),-2)':` +
  `h='if(gte(iw,ih),-2,min(${MAX_VIDEO_SIDE},ih))'`;

/**
 * A poster frame as WebP (sharp re-encodes ffmpeg's JPEG): at 1 s, or a tenth of the way into a
 * shorter clip, scaled into MAX_VIDEO_SIDE.
 */
export async function posterOf(file: string, durationMs: number | null): Promise<Buffer> {
  const at = Math.min(1000, (durationMs ?? 0) / 10) / 1000;
  const frame = async (seconds: number) =>
    (
      await run(
        FFMPEG_PATH,
        [
          '-nostdin',
          '-v',
          'error',
          '-ss',
          seconds.toFixed(3),
          '-i',
          file,
          '-frames:v',
          '1',
          '-vf',
          FIT_FILTER,
          '-f',
          'image2',
          '-c:v',
          'mjpeg',
          '-q:v',
          '3',
          'pipe:1',
        ],
        { timeoutMs: POSTER_TIMEOUT_MS },
      )
    ).stdout;
  let jpeg = await frame(at);
  // some files cannot be entered past their first key frame: their first picture then
  if (jpeg.length === 0 && at > 0) jpeg = await frame(0);
  if (jpeg.length === 0) throw new Error('no picture could be taken from it');
  return sharp(jpeg).rotate().webp({ quality: 80 }).toBuffer();
}

/** ffmpeg's start for a whole-file output: quiet, overwrite, `input`'s first picture and (if any) sound. */
function firstStreams(input: string): string[] {
  return ['-nostdin', '-v', 'error', '-y', '-i', input, '-map', '0:v:0', '-map', '0:a:0?'];
}

/** An H.264/AAC MP4 as it is, its index moved to the front so that playback starts before the end arrives. */
export async function remuxMp4(input: string, output: string): Promise<void> {
  await run(
    FFMPEG_PATH,
    [...firstStreams(input), '-c', 'copy', '-movflags', '+faststart', '-f', 'mp4', output],
    { timeoutMs: REMUX_TIMEOUT_MS },
  );
}

/**
 * Anything else ffmpeg reads, as an MP4 every browser plays: H.264 (CRF 23, preset veryfast, 4:2:0)
 * at most MAX_VIDEO_SIDE on its longer side, AAC sound when it has sound, faststart.
 */
export async function transcodeMp4(
  input: string,
  output: string,
  options: { signal?: AbortSignal; threads?: number } = {},
): Promise<void> {
  await run(
    FFMPEG_PATH,
    [
      ...firstStreams(input),
      '-vf',
      FIT_FILTER,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '23',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-ac',
      '2',
      '-threads',
      String(options.threads ?? 2),
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      output,
    ],
    { timeoutMs: TRANSCODE_TIMEOUT_MS, signal: options.signal },
  );
}

/** The sha256 of a file, read as a stream. */
export async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

/** A fresh path for a temporary file under the upload directory. */
export async function tempFile(media: MediaPlace, ext: string): Promise<string> {
  await fs.promises.mkdir(media.uploadDir, { recursive: true });
  return path.join(media.uploadDir, `${Date.now()}-${randomBytes(8).toString('hex')}.${ext}`);
}

/** Stores a finished local file by its hash (moved into the store: it is gone afterwards); its key. */
export async function storeFile(media: MediaPlace, file: string, ext: string): Promise<string> {
  const key = `${await hashFile(file)}.${ext}`;
  await media.store.put(key, { file });
  return key;
}

/** Stores a poster's WebP by its hash; its key. */
export async function storePoster(media: MediaPlace, webp: Buffer): Promise<string> {
  const key = `${createHash('sha256').update(webp).digest('hex')}.webp`;
  await media.store.put(key, webp);
  return key;
}
