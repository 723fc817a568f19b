/**
 * Demo videos (issue 17): four short clips made locally with ffmpeg's own sources (a test card, colour
 * bars, the Game of Life, the Mandelbrot set, each with a tone), as the upload pipeline would keep them:
 * H.264/AAC MP4 with faststart and a WebP poster, content-addressed in the media store. Encoded
 * bit-exact on one thread, so the same clip is the same file (and key) on every run and machine.
 * Attached to a few dozen live posts as `ready` videos, owned by each post's author.
 *
 * The clips are made once per process (about 1 s on two cores) and copied into each store after that.
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { FFMPEG_PATH, posterOf } from '../media/video';
import type { MediaStore } from '../media/store';
import type { Sink } from './sink';

const run = promisify(execFile);

/** How many live posts get a video. */
export const DEMO_VIDEO_POSTS = 36;

interface Clip {
  source: string;
  tone: number;
  seconds: number;
}

const CLIPS: readonly Clip[] = [
  { source: 'testsrc2=size=480x270:rate=25', tone: 440, seconds: 3 },
  { source: 'smptebars=size=480x270:rate=25', tone: 1000, seconds: 3 },
  {
    source:
      'life=s=160x90:mold=10:r=25:ratio=0.1:death_color=#1f6feb:life_color=#ffd33d,scale=480:270:flags=neighbor',
    tone: 330,
    seconds: 3,
  },
  { source: 'mandelbrot=s=480x270:rate=25', tone: 523, seconds: 2 },
];

/** A demo video in the media store. */
export interface DemoVideo {
  url: string;
  poster_url: string;
  bytes: number;
  duration_ms: number;
  width: number;
  height: number;
}

interface MadeClip {
  file: string;
  poster: Buffer;
  bytes: number;
  durationMs: number;
}

let made: Promise<MadeClip[]> | undefined;

async function makeClip(dir: string, clip: Clip, index: number): Promise<MadeClip> {
  const file = path.join(dir, `clip-${index}.mp4`);
  // prettier-ignore
  await run(FFMPEG_PATH, [
    '-nostdin', '-v', 'error', '-y',
    '-f', 'lavfi', '-i', clip.source,
    '-f', 'lavfi', '-i', `sine=frequency=${clip.tone}:sample_rate=44100`,
    '-t', String(clip.seconds), '-map', '0:v', '-map', '1:a',
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '26', '-pix_fmt', 'yuv420p', '-threads', '1',
    '-c:a', 'aac', '-b:a', '64k', '-movflags', '+faststart',
    '-fflags', '+bitexact', '-flags:v', '+bitexact', '-flags:a', '+bitexact', '-map_metadata', '-1',
    file,
  ], { timeout: 30_000 });
  const durationMs = clip.seconds * 1000;
  return { file, poster: await posterOf(file, durationMs), bytes: fs.statSync(file).size, durationMs };
}

/** The clips of this process, made two at a time (one per core). */
function clips(): Promise<MadeClip[]> {
  made ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-demo-videos-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    const out: MadeClip[] = [];
    for (let i = 0; i < CLIPS.length; i += 2)
      out.push(...(await Promise.all(CLIPS.slice(i, i + 2).map((clip, k) => makeClip(dir, clip, i + k)))));
    return out;
  })().catch((error: unknown) => {
    made = undefined;
    throw error;
  });
  return made;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Makes the demo clips (once per process) and puts them and their posters in `media`. */
export async function makeDemoVideos(media: MediaStore): Promise<DemoVideo[]> {
  const videos: DemoVideo[] = [];
  for (const clip of await clips()) {
    const bytes = await fs.promises.readFile(clip.file);
    const key = `${sha256(bytes)}.mp4`;
    const posterKey = `${sha256(clip.poster)}.webp`;
    await media.put(key, bytes);
    await media.put(posterKey, clip.poster);
    videos.push({
      url: media.url(key),
      poster_url: media.url(posterKey),
      bytes: clip.bytes,
      duration_ms: clip.durationMs,
      width: 480,
      height: 270,
    });
  }
  return videos;
}

/** A string literal of our own text (keys and numbers): quoted, nothing to escape but quotes. */
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * Inside the seed's transaction: the first DEMO_VIDEO_POSTS live posts (by id, so the same ones for
 * the same seed) get a ready video each, owned by the post's author, the clips taken in turn. A
 * video's id is its post's GUID without dashes (32 hex characters, like an upload's).
 */
export async function attachDemoVideos(sink: Sink, videos: readonly DemoVideo[], now: number): Promise<void> {
  if (videos.length === 0) return;
  const pick = (field: (video: DemoVideo) => string | number) =>
    `case n % ${videos.length} ${videos
      .map((video, i) => `when ${i} then ${literal(String(field(video)))}`)
      .join(' ')} end`;
  const videoId = `lower(replace(p.id, '-', ''))`;
  await sink.exec(`insert into videos (id, user_id, state, error, bytes, duration_ms, width, height, mime,
      source_key, url, poster_url, created_at, updated_at)
    select ${videoId}, p.user_id, 'ready', null, cast(${pick((v) => v.bytes)} as bigint),
      cast(${pick((v) => v.duration_ms)} as integer), cast(${pick((v) => v.width)} as integer),
      cast(${pick((v) => v.height)} as integer), 'video/mp4', null, ${pick((v) => v.url)},
      ${pick((v) => v.poster_url)}, p.created_at, p.created_at
    from (select id, user_id, created_at, row_number() over (order by id) - 1 as n from posts
          where expires_at is null or expires_at > ${Math.floor(now)}
          order by id limit ${DEMO_VIDEO_POSTS}) p`);
  await sink.exec(`update posts set video_id = lower(replace(id, '-', '')),
      video_url = (select v.url from videos v where v.id = lower(replace(posts.id, '-', ''))),
      file_resource_bitmask = file_resource_bitmask | 2
    where lower(replace(id, '-', '')) in (select id from videos)`);
}
