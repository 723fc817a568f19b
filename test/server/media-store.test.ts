import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { openMedia } from '../../src/server/media/open';
import { seedDemoData } from '../../src/server/seed/generate';
import { FIXTURE_CITIES } from '../../src/server/seed/test-cities';
import type { MediaStore } from '../../src/server/media/store';
import { openTestApp, type TestApp } from '../support/app';
import { bearer, registerUser, signIn } from '../support/accounts';
import { newPoint } from '../support/factories';
import { formBody } from '../support/multipart';
import { startS3rver, type S3rver } from '../support/s3rver';

/**
 * Issue 25: one media contract, run on the disk store and on an S3-protocol server that runs here
 * (s3rver, in a child process): put, get, ranges, delete, a missing key; then a whole upload through
 * the real HTTP route on an app whose MEDIA_URL names the bucket, read back through /media/<key>.
 */

const MB = 1024 * 1024;
const run = promisify(execFile);
const CLIENT = fileURLToPath(new URL('../support/upload-client.mjs', import.meta.url));
/** an MP4's first bytes: a 'ftyp' box with the isom brand */
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom'), Buffer.alloc(4000, 7)]);

function keyOf(bytes: Buffer, ext: string): string {
  return `${createHash('sha256').update(bytes).digest('hex')}.${ext}`;
}

function bytes(n: number, seed: number): Buffer {
  return Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) % 251));
}

let s3: S3rver;
const dirs: string[] = [];
beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(async () => {
  await s3?.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-media-'));
  dirs.push(dir);
  return dir;
}

const STORES: [string, () => Promise<{ store: MediaStore; uploadDir: string }>][] = [
  ['the disk', () => openMedia(loadConfig({}, tempDir()))],
  ['an S3 bucket (s3rver)', () => openMedia(loadConfig({ MEDIA_URL: s3.mediaUrl('contract') }, tempDir()))],
];

describe.each(STORES)('the media store on %s', (_name, open) => {
  let store: MediaStore;
  let uploadDir: string;
  beforeAll(async () => {
    ({ store, uploadDir } = await open());
    await store.check();
  });
  afterAll(() => store?.close());

  it('stores bytes, a stream and a file, and gives each back whole with its size and type', async () => {
    const picture = bytes(3000, 1);
    await store.put(keyOf(picture, 'webp'), picture);
    const clip = bytes(70_000, 2);
    await store.put(keyOf(clip, 'mp4'), Readable.from([clip.subarray(0, 1000), clip.subarray(1000)]));
    const file = path.join(uploadDir, 'upload.part');
    const sent = bytes(5000, 3);
    fs.mkdirSync(uploadDir, { recursive: true });
    fs.writeFileSync(file, sent);
    await store.put(keyOf(sent, 'webm'), { file });
    expect(fs.existsSync(file), 'the temporary file is gone').toBe(false);

    for (const [data, ext, type] of [
      [picture, 'webp', 'image/webp'],
      [clip, 'mp4', 'video/mp4'],
      [sent, 'webm', 'video/webm'],
    ] as const) {
      const key = keyOf(data, ext);
      expect(await store.head(key)).toEqual({ size: data.length, contentType: type });
      const got = await store.get(key);
      expect(got).toMatchObject({ size: data.length, contentType: type });
      expect((await buffer(got!.body)).equals(data)).toBe(true);
      expect(store.url(key)).toBe(`/media/${key}`);
    }
  });

  it('streams a stream of unknown length bigger than a part (12 MB) and gives it back whole', async () => {
    const big = Buffer.concat(Array.from({ length: 12 }, (_, i) => Buffer.alloc(MB, i + 1)));
    const key = keyOf(big, 'mp4');
    await store.put(
      key,
      Readable.from(Array.from({ length: 48 }, (_, i) => big.subarray(i * 256 * 1024, (i + 1) * 256 * 1024))),
    );
    expect((await store.head(key))?.size).toBe(big.length);
    expect((await buffer((await store.get(key))!.body)).equals(big)).toBe(true);
  });

  it('gives back a byte range, with the size of the whole file', async () => {
    const clip = bytes(10_000, 4);
    const key = keyOf(clip, 'mp4');
    await store.put(key, clip);
    const range = await store.get(key, { start: 100, end: 1099 });
    expect(range?.size).toBe(10_000);
    expect((await buffer(range!.body)).equals(clip.subarray(100, 1100))).toBe(true);
    const tail = await store.get(key, { start: 9_990, end: 9_999 });
    expect((await buffer(tail!.body)).equals(clip.subarray(9_990))).toBe(true);
  });

  it('keeps the first copy of a key, removes the temporary file of a second, and deletes', async () => {
    const data = bytes(2000, 5);
    const key = keyOf(data, 'webp');
    await store.put(key, data);
    const file = path.join(uploadDir, 'again.part');
    fs.writeFileSync(file, data);
    await store.put(key, { file });
    expect(fs.existsSync(file)).toBe(false);
    expect((await store.head(key))?.size).toBe(2000);
    await store.delete(key);
    expect(await store.head(key)).toBeNull();
    expect(await store.get(key)).toBeNull();
    // deleting what is not there is not an error
    await store.delete(key);
  });

  it('answers null for a missing key and refuses a name that is not a media key', async () => {
    const missing = `${'0'.repeat(64)}.webp`;
    expect(await store.head(missing)).toBeNull();
    expect(await store.get(missing)).toBeNull();
    expect(await store.get(missing, { start: 0, end: 9 })).toBeNull();
    for (const bad of ['../etc/passwd', 'a.webp', `${'0'.repeat(64)}.webp/../x`])
      await expect(store.head(bad), bad).rejects.toThrow(/not a media key/);
  });
});

describe('a bucket that cannot be used', () => {
  it('fails the check within the time limit, naming the bucket and what failed', async () => {
    const missing = await openMedia(
      loadConfig({ MEDIA_URL: s3.mediaUrl().replace(s3.bucket, 'no-such-bucket') }, tempDir()),
    );
    await expect(missing.store.check()).rejects.toThrow(/^the bucket no-such-bucket does not exist at http/);
    missing.store.close();
    // a port nobody listens on
    const closed = await openMedia(
      loadConfig({ MEDIA_URL: 's3://xpoint-media?endpoint=http://127.0.0.1:9&region=us-east-1' }, tempDir()),
    );
    const started = Date.now();
    await expect(closed.store.check()).rejects.toThrow(
      /^the bucket xpoint-media at http:\/\/127\.0\.0\.1:9 /,
    );
    expect(Date.now() - started).toBeLessThan(6_000);
    closed.store.close();
  });
});

describe.each([
  ['the disk', () => undefined],
  ['an S3 bucket (s3rver)', () => s3.mediaUrl('app')],
])('uploads and /media/<key> with media on %s', (_name, mediaUrl) => {
  let t: TestApp;
  let owner: Record<string, string>;
  const pointId = 'media_point';
  beforeAll(async () => {
    const url = mediaUrl();
    t = await openTestApp(url ? { mediaUrl: url } : {});
    expect((await registerUser(t, 'mediaowner', 'media-owner-password-1')).statusCode).toBe(201);
    const session = await signIn(t, 'mediaowner', 'media-owner-password-1');
    owner = bearer(session.token);
    await t.store.db
      .insertInto('points')
      .values(newPoint({ id: pointId, owner_userid: session.id }))
      .execute();
  });
  afterAll(async () => t?.close());

  it('stores a video sent as multipart/form-data and serves it back whole, by range and by ETag', async () => {
    const form = await formBody(
      { id: pointId, version: 1, slot: 'cover_video' },
      { name: 'clip.mp4', type: 'video/mp4', data: MP4 },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/xpoint/media',
      headers: { ...owner, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    const url = res.json().url as string;
    expect(url).toBe(`/media/${keyOf(MP4, 'mp4')}`);
    if (mediaUrl())
      expect(fs.existsSync(path.join(t.config.dataDir, 'media', path.basename(url)))).toBe(false);

    const whole = await t.app.inject({ method: 'GET', url });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(MP4)).toBe(true);
    expect(whole.headers).toMatchObject({
      'content-type': 'video/mp4',
      'content-length': String(MP4.length),
      'cache-control': 'public, max-age=31536000, immutable',
      'accept-ranges': 'bytes',
      etag: `"${keyOf(MP4, 'mp4').slice(0, 64)}"`,
    });

    const part = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=4-11' } });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('ftypisom');
    expect(part.headers['content-range']).toBe(`bytes 4-11/${MP4.length}`);
    const tail = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=-10' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(MP4.subarray(-10))).toBe(true);
    const past = await t.app.inject({ method: 'GET', url, headers: { range: `bytes=${MP4.length}-` } });
    expect(past.statusCode).toBe(416);
    expect(past.json()).toMatchObject({ errorcode: 1007 });
    expect(past.headers['content-range']).toBe(`bytes */${MP4.length}`);

    const head = await t.app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(MP4.length));
    const again = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'if-none-match': whole.headers.etag! },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers a missing or malformed media name with the catalogue 404', async () => {
    for (const url of [
      `/media/${'a'.repeat(64)}.mp4`,
      '/media/nothing.webp',
      '/media/.uploads',
      '/media/a/b',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.json(), url).toMatchObject({ errorcode: expect.any(Number), error: expect.any(String) });
      expect(res.headers['cache-control'] ?? '', url).not.toMatch(/immutable/);
    }
  });
});

describe('the demo seed with media in the bucket', () => {
  it('stores its pictures in the bucket, where /media/<key> finds them', { timeout: 60_000 }, async () => {
    const t = await openTestApp({ mediaUrl: s3.mediaUrl('seed') });
    const media = await openMedia(t.config);
    try {
      await t.store.db.insertInto('cities').values(FIXTURE_CITIES).execute();
      const summary = await seedDemoData(t.store, {
        points: 20,
        seed: 1,
        dataDir: t.config.dataDir,
        media: media.store,
      });
      expect(summary.mediaAssets).toBeGreaterThan(10);
      expect(fs.existsSync(path.join(t.config.dataDir, 'media'))).toBe(false);
      const point = await t.store.db
        .selectFrom('points')
        .select('url_cover_image')
        .where('url_cover_image', 'is not', null)
        .executeTakeFirstOrThrow();
      const res = await t.app.inject({ method: 'GET', url: point.url_cover_image! });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
    } finally {
      media.store.close();
      await t.close();
    }
  });
});

describe('a 100 MB upload to the bucket', () => {
  let t: TestApp;
  let port: number;
  let owner: Record<string, string>;
  const pointId = 'big_point';
  beforeAll(async () => {
    t = await openTestApp({ mediaUrl: s3.mediaUrl('big') });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
    expect((await registerUser(t, 'bigowner', 'big-owner-password-1')).statusCode).toBe(201);
    const session = await signIn(t, 'bigowner', 'big-owner-password-1');
    owner = bearer(session.token);
    await t.store.db
      .insertInto('points')
      .values(newPoint({ id: pointId, owner_userid: session.id }))
      .execute();
  });
  afterAll(async () => t?.close());

  it('streams into the bucket: RSS stays within 50 MB of before', { timeout: 120_000 }, async () => {
    const fileBytes = 100 * MB;
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const started = performance.now();
    const { stdout } = await run(
      process.execPath,
      [
        CLIENT,
        JSON.stringify({
          port,
          uploads: [
            {
              path: '/v1/xpoint/media',
              headers: owner,
              fields: { id: pointId, version: '1', slot: 'cover_video' },
              head: '\0\0\0\x18ftypisom',
              fileBytes,
            },
          ],
        }),
      ],
      { timeout: 100_000 },
    );
    const elapsedMs = performance.now() - started;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const [sent] = JSON.parse(stdout) as { status: number; body: string }[];
    expect(sent?.status, sent?.body).toBe(200);
    const url = (JSON.parse(sent!.body) as { url: string }).url;
    console.log(
      `media: a 100 MB video uploaded to the bucket in ${Math.round(elapsedMs)} ms; RSS ${Math.round(before / MB)} MB before, ${Math.round(peak / MB)} MB at most (+${Math.round((peak - before) / MB)} MB)`,
    );
    expect(peak - before).toBeLessThan(50 * MB);

    const head = await t.app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(fileBytes));
    const part = await t.app.inject({ method: 'GET', url, headers: { range: `bytes=${fileBytes - 4}-` } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.length).toBe(4);
  });
});
