import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAttachableVideo } from '../../src/server/features/videos/queries';
import { VideoService } from '../../src/server/features/videos/service';
import { JobQueue } from '../../src/server/jobs/queue';
import { diskMedia, type MediaPlace } from '../../src/server/media/store';
import { FFMPEG_PATH } from '../../src/server/media/video';
import { openMedia } from '../../src/server/media/open';
import { loadConfig } from '../../src/server/config';
import { startS3rver, type S3rver } from '../support/s3rver';
import { openTestStore, TEST_DIALECTS, type TestStore } from '../support/store';

/**
 * The transcode job (issue 17) on its own queue, with short backoffs: what the author sees while it
 * runs, when it fails every run, and when a second run of a finished job comes.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-transcode-test-'));
let webm: string;
beforeAll(() => {
  webm = path.join(dir, 'clip.webm');
  execFileSync(FFMPEG_PATH, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=320x180:rate=25',
    '-t',
    '1',
    '-c:v',
    'libvpx',
    '-b:v',
    '200k',
    webm,
  ]);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function until(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const silent = { warn: () => {}, error: () => {} };

describe.each(TEST_DIALECTS)('the video.transcode job on %s', (dialect) => {
  let store: TestStore;
  let media: MediaPlace;
  let n = 0;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    media = diskMedia(path.join(dir, `media-${dialect}`));
    await store.db
      .insertInto('users')
      .values({
        id: 'u1',
        username: 'ada',
        username_lower: 'ada',
        email: 'ada@example.test',
        email_lower: 'ada@example.test',
        fullname: 'Ada',
        avatar_url: null,
        status: 'active',
        is_admin: 0,
        password_hash: null,
        created_at: 1,
        updated_at: 1,
      })
      .execute();
  });
  afterAll(() => store.dispose());

  /** A WebM upload of ada's that has just finished: queued for its transcode. */
  async function queuedUpload(service: VideoService): Promise<string> {
    n += 1;
    const id = `${dialect === 'sqlite' ? 'a' : 'b'}${String(n).padStart(31, '0')}`;
    const file = path.join(dir, `${id}.upload`);
    fs.copyFileSync(webm, file);
    await service.created('u1', id, fs.statSync(file).size);
    expect(await service.finish(id, file)).toBe('queued');
    expect(fs.existsSync(file)).toBe(false);
    return id;
  }
  const video = (id: string) =>
    store.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('fails with the reason after its retries when every run fails, and keeps no source', async () => {
    const queue = new JobQueue(store, { pollMs: 20 });
    const service = new VideoService(store, media, queue, silent, { retries: 2, backoffMs: 30 });
    const id = await queuedUpload(service);
    const source = (await video(id)).source_key ?? '';
    expect(source).toMatch(/^[0-9a-f]{64}\.webm$/);
    // the source goes missing from the store: every run fails the same way
    await media.store.delete(source);
    queue.start();
    try {
      await until(async () => (await video(id)).state === 'failed');
    } finally {
      await queue.stop();
    }
    expect(await video(id)).toMatchObject({
      state: 'failed',
      error:
        'converting it for playback failed (the uploaded file is no longer there); try another file, or export it as an H.264 MP4',
      url: null,
    });
    const job = await store.db.selectFrom('jobs').selectAll().where('key', '=', id).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ state: 'failed', attempts: 3 });
  });

  it('is done once: a second run of a finished transcode changes nothing', async () => {
    const queue = new JobQueue(store, { pollMs: 20 });
    const service = new VideoService(store, media, queue, silent, { retries: 0 });
    const id = await queuedUpload(service);
    const states: string[] = [];
    queue.start();
    try {
      await until(async () => {
        const { state } = await video(id);
        if (states[states.length - 1] !== state) states.push(state);
        return state === 'ready';
      });
      const ready = await video(id);
      expect(ready).toMatchObject({ width: 320, height: 180, mime: 'video/mp4', source_key: null });
      expect(fs.existsSync(path.join(media.store.location, ready.url?.replace('/media/', '') ?? ''))).toBe(
        true,
      );
      // enqueued again under another key, as a job whose worker died after its work would run again
      const again = await queue.enqueue('video.transcode', { id }, { key: `${id}-again` });
      await until(
        async () =>
          (
            await store.db
              .selectFrom('jobs')
              .select('state')
              .where('id', '=', again.id)
              .executeTakeFirstOrThrow()
          ).state === 'done',
      );
      expect(await video(id)).toEqual(ready);
    } finally {
      await queue.stop();
    }
    expect(states[states.length - 1]).toBe('ready');
    expect(states.every((state) => ['queued', 'processing', 'ready'].includes(state))).toBe(true);
  });

  it('sweeps the upload directory: a finished upload left by a crash, a day-old unfinished one, strays', async () => {
    const queue = new JobQueue(store, { pollMs: 20 });
    const service = new VideoService(store, media, queue, silent);
    const uploads = path.join(dir, `uploads-${dialect}`);
    fs.mkdirSync(uploads, { recursive: true });
    const later = Date.now() + 25 * 3600_000;
    // every byte arrived, then the process stopped before probing it
    const crashed = `c${dialect === 'sqlite' ? 'a' : 'b'}${'0'.repeat(30)}`;
    fs.copyFileSync(webm, path.join(uploads, crashed));
    fs.writeFileSync(path.join(uploads, `${crashed}.json`), '{}');
    await service.created('u1', crashed, fs.statSync(webm).size);
    // half of it arrived a day ago
    const unfinished = `d${dialect === 'sqlite' ? 'a' : 'b'}${'0'.repeat(30)}`;
    fs.writeFileSync(path.join(uploads, unfinished), Buffer.alloc(1000));
    await service.created('u1', unfinished, 2000);
    // a file no upload owns
    const stray = 'e'.repeat(32);
    fs.writeFileSync(path.join(uploads, stray), Buffer.alloc(10));

    await service.sweepUploads(uploads, later);
    expect((await video(crashed)).state).toBe('queued');
    expect(await video(unfinished)).toMatchObject({
      state: 'failed',
      error: 'the upload was not finished within a day; send the video again',
    });
    expect(fs.readdirSync(uploads)).toEqual([]);
    // what a post may name: its author's video, unless it failed
    expect((await findAttachableVideo(store, 'u1', crashed))?.id).toBe(crashed);
    expect(await findAttachableVideo(store, 'someone-else', crashed)).toBeUndefined();
    expect(await findAttachableVideo(store, 'u1', unfinished)).toBeUndefined();
    await queue.stop();
  });
});

describe('videos with media in an S3 bucket (s3rver)', () => {
  let s3: S3rver;
  let store: TestStore;
  let media: MediaPlace;

  beforeAll(async () => {
    s3 = await startS3rver();
    store = await openTestStore('sqlite');
    media = await openMedia(loadConfig({ MEDIA_URL: s3.mediaUrl('videos') }, path.join(dir, 's3-data')));
    await store.db
      .insertInto('users')
      .values({
        id: 'u1',
        username: 'ada',
        username_lower: 'ada',
        email: 'ada@example.test',
        email_lower: 'ada@example.test',
        fullname: 'Ada',
        avatar_url: null,
        status: 'active',
        is_admin: 0,
        password_hash: null,
        created_at: 1,
        updated_at: 1,
      })
      .execute();
  });
  afterAll(async () => {
    media.store.close();
    await store.dispose();
    await s3.stop();
  });

  it('keeps the source in the bucket while it waits, transcodes from there, and removes it after', async () => {
    const queue = new JobQueue(store, { pollMs: 20 });
    const service = new VideoService(store, media, queue, silent);
    const id = 'f'.repeat(32);
    const file = path.join(dir, 's3.upload');
    fs.copyFileSync(webm, file);
    await service.created('u1', id, fs.statSync(file).size);
    expect(await service.finish(id, file)).toBe('queued');
    const row = () =>
      store.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const source = (await row()).source_key ?? '';
    expect(await media.store.head(source)).not.toBeNull();
    queue.start();
    try {
      await until(async () => (await row()).state === 'ready');
    } finally {
      await queue.stop();
    }
    const ready = await row();
    const key = ready.url?.replace('/media/', '') ?? '';
    expect(await media.store.head(key)).toMatchObject({ contentType: 'video/mp4' });
    expect(await media.store.head(ready.poster_url?.replace('/media/', '') ?? '')).toMatchObject({
      contentType: 'image/webp',
    });
    expect(await media.store.head(source)).toBeNull();
    // nothing is left in the local upload directory
    expect(fs.readdirSync(media.uploadDir)).toEqual([]);
  });
});
