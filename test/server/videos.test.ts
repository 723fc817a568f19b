import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tus from 'tus-js-client';
import { FFMPEG_PATH, probeVideo } from '../../src/server/media/video';
import type { VideoResponse } from '../../src/shared/api/videos';
import { openTestApp, type TestApp } from '../support/app';
import { bearer, registerUser, signIn, type SignedIn } from '../support/accounts';
import { TEST_DIALECTS } from '../support/store';

/**
 * Video uploads (issue 17) over real HTTP with tus-js-client, as the browser does: resumable uploads,
 * probing, posters, an H.264 MP4 kept as it is, anything else transcoded through the job queue, the
 * state call, and every refusal in the catalogue's shape.
 */

const execFileAsync = promisify(execFile);
/** A full collection before measuring, when the process runs with --expose-gc. */
const collectGarbage = () => (globalThis as { gc?: () => void }).gc?.();

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-videos-test-'));
const clip = (name: string, args: string[]): string => {
  const file = path.join(dir, name);
  execFileSync(FFMPEG_PATH, ['-v', 'error', '-y', ...args, file]);
  return file;
};

let mp4: string;
let longMp4: string;
let webm: string;
let audioOnly: string;
let textFile: string;

beforeAll(() => {
  const picture = (seconds: number) => [
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=480x270:rate=25',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440',
    '-t',
    String(seconds),
    '-shortest',
  ];
  mp4 = clip('clip.mp4', [
    ...picture(2),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
  ]);
  // noise compresses badly: a few hundred KB in a few seconds, to cut off halfway
  longMp4 = clip('long.mp4', [
    '-f',
    'lavfi',
    '-i',
    'nullsrc=size=320x180:rate=25,geq=random(1)*255:128:128',
    '-t',
    '3',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
  ]);
  webm = clip('clip.webm', [...picture(2), '-c:v', 'libvpx', '-b:v', '300k', '-c:a', 'libopus']);
  audioOnly = clip('sound.m4a', ['-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '2', '-c:a', 'aac']);
  textFile = path.join(dir, 'notes.mp4');
  fs.writeFileSync(textFile, 'these are notes, not a video\n'.repeat(20));
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Waits for `check` to hold (reading the server); fails after `ms`. */
async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(TEST_DIALECTS)('video uploads on %s', (dialect) => {
  let t: TestApp;
  let origin: string;
  let alice: SignedIn;
  let bob: SignedIn;

  beforeAll(async () => {
    t = await openTestApp({ dialect });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    origin = `http://127.0.0.1:${address.port}`;
    for (const name of ['alice', 'bob']) expect((await registerUser(t, name)).statusCode).toBe(201);
    alice = await signIn(t, 'alice', 'correct-horse-1');
    bob = await signIn(t, 'bob', 'correct-horse-1');
  });
  afterAll(() => t.close());

  interface Sent {
    url: string;
    id: string;
  }

  /** Uploads `file` with tus-js-client; resolves with its URL, or rejects with the tus error. */
  function upload(
    file: string | Buffer,
    who: SignedIn,
    options: Partial<tus.UploadOptions> & { uploadUrl?: string } = {},
  ): { done: Promise<Sent>; upload: tus.Upload } {
    let resolve: (sent: Sent) => void = () => {};
    let reject: (error: Error) => void = () => {};
    const done = new Promise<Sent>((ok, fail) => {
      resolve = ok;
      reject = fail;
    });
    const bytes = typeof file === 'string' ? fs.readFileSync(file) : file;
    const sending = new tus.Upload(bytes, {
      endpoint: `${origin}/v1/uploads/video`,
      headers: bearer(who.token),
      retryDelays: [],
      metadata: { filetype: 'video/mp4' },
      ...options,
      onError: (error) => reject(error),
      onSuccess: () => {
        const url = sending.url ?? '';
        resolve({ url, id: url.slice(url.lastIndexOf('/') + 1) });
      },
    });
    sending.start();
    return { done, upload: sending };
  }

  const state = async (id: string, who?: SignedIn) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/videos/${id}`,
      headers: who ? bearer(who.token) : {},
    });
    return { status: res.statusCode, body: res.json<VideoResponse & { errorcode?: number }>() };
  };

  it('keeps an H.264/AAC MP4 as it is: ready at once, with a poster, served in ranges', async () => {
    const sent = await upload(mp4, alice).done;
    expect(sent.url).toMatch(/\/v1\/uploads\/video\/[0-9a-f]{32}$/);
    const { status, body } = await state(sent.id, alice);
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: sent.id, state: 'ready', error: null, width: 480, height: 270 });
    expect(body.duration_ms).toBeGreaterThan(1800);
    expect(body.duration_ms).toBeLessThan(2300);
    expect(body.url).toMatch(/^\/media\/[0-9a-f]{64}\.mp4$/);
    expect(body.poster_url).toMatch(/^\/media\/[0-9a-f]{64}\.webp$/);

    const range = await fetch(`${origin}${body.url}`, { headers: { range: 'bytes=0-1023' } });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-type')).toBe('video/mp4');
    expect(range.headers.get('content-range')).toBe(`bytes 0-1023/${body.bytes}`);
    const head = Buffer.from(await range.arrayBuffer());
    expect(head).toHaveLength(1024);
    // faststart: the index (moov) comes before the pictures (mdat)
    const text = head.toString('latin1');
    expect(text.indexOf('moov')).toBeGreaterThan(0);
    expect(text.indexOf('mdat') === -1 || text.indexOf('moov') < text.indexOf('mdat')).toBe(true);

    const poster = await fetch(`${origin}${body.poster_url}`);
    expect(poster.status).toBe(200);
    expect(poster.headers.get('content-type')).toBe('image/webp');

    // anyone may see a ready video
    expect((await state(sent.id, bob)).body.state).toBe('ready');
    expect((await state(sent.id)).status).toBe(200);
    // the upload's files are gone from the upload directory
    expect(fs.readdirSync(path.join(t.config.dataDir, 'media', '.uploads', 'videos'))).toEqual([]);
  });

  it('transcodes a WebM through the job queue: queued, then ready as an H.264 MP4', async () => {
    const sent = await upload(webm, alice).done;
    const first = await state(sent.id, alice);
    expect(['queued', 'processing', 'ready']).toContain(first.body.state);
    expect(first.body.poster_url).toMatch(/\.webp$/);
    // others do not see it until it is ready (it may be by now)
    const seen = await state(sent.id, bob);
    expect(seen.status === 404 || seen.body.state === 'ready').toBe(true);
    const ready = await until(
      () => state(sent.id, alice),
      (read) => read.body.state === 'ready' || read.body.state === 'failed',
    );
    expect(ready.body).toMatchObject({ state: 'ready', error: null, width: 480, height: 270 });
    expect(ready.body.url).toMatch(/\.mp4$/);
    const served = await fetch(`${origin}${ready.body.url}`);
    expect(served.status).toBe(200);
    const file = path.join(dir, `served-${dialect}.mp4`);
    fs.writeFileSync(file, Buffer.from(await served.arrayBuffer()));
    const probe = await probeVideo(file);
    expect(probe).toMatchObject({ videoCodec: 'h264', audioCodec: 'aac', width: 480, height: 270 });
    const job = await t.store.db
      .selectFrom('jobs')
      .selectAll()
      .where('key', '=', sent.id)
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ name: 'video.transcode', state: 'done', attempts: 1 });
    const row = await t.store.db
      .selectFrom('videos')
      .selectAll()
      .where('id', '=', sent.id)
      .executeTakeFirstOrThrow();
    // the source waited in the media store, and is gone now
    expect(row.source_key).toBeNull();
  });

  it('an upload cut off halfway resumes from where it stopped', async () => {
    const whole = fs.readFileSync(longMp4);
    expect(whole.length).toBeGreaterThan(300_000);
    const chunkSize = 64 * 1024;
    // the first attempt stops after two chunks, as a dropped connection would
    let accepted = 0;
    const first = upload(whole, alice, {
      chunkSize,
      onChunkComplete: (_size, bytesAccepted) => {
        accepted = bytesAccepted;
        if (bytesAccepted >= 2 * chunkSize) void first.upload.abort();
      },
    });
    await until(
      async () => accepted,
      (bytes) => bytes >= 2 * chunkSize,
    );
    const url = first.upload.url ?? '';
    expect(url).toMatch(/[0-9a-f]{32}$/);
    const id = url.slice(url.lastIndexOf('/') + 1);
    expect((await state(id, alice)).body.state).toBe('uploading');

    // what the server has
    const head = await fetch(url, {
      method: 'HEAD',
      headers: { ...bearer(alice.token), 'tus-resumable': '1.0.0' },
    });
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(whole.length);

    // the same upload URL again: only the rest is sent
    let sentAgain = 0;
    const second = upload(whole, alice, {
      uploadUrl: url,
      chunkSize,
      onChunkComplete: (size) => {
        sentAgain += size;
      },
    });
    const done = await second.done;
    expect(done.id).toBe(id);
    expect(sentAgain).toBe(whole.length - offset);
    expect(sentAgain).toBeLessThan(whole.length);
    const ready = await until(
      () => state(id, alice),
      (read) => read.body.state === 'ready' || read.body.state === 'failed',
    );
    expect(ready.body).toMatchObject({ state: 'ready', width: 320, height: 180 });
    // the stored video is the file sent, byte for byte in its pictures: it probes the same
    const served = await fetch(`${origin}${ready.body.url}`);
    const copy = path.join(dir, `resumed-${dialect}.mp4`);
    fs.writeFileSync(copy, Buffer.from(await served.arrayBuffer()));
    expect((await probeVideo(copy)).durationMs).toBe((await probeVideo(longMp4)).durationMs);
  });

  it('resumes after the connection drops in the middle of a request', async () => {
    const whole = fs.readFileSync(longMp4);
    const created = await fetch(`${origin}/v1/uploads/video`, {
      method: 'POST',
      headers: { ...bearer(alice.token), 'tus-resumable': '1.0.0', 'upload-length': String(whole.length) },
    });
    expect(created.status).toBe(201);
    const url = `${origin}${created.headers.get('location') ?? ''}`;
    const id = url.slice(url.lastIndexOf('/') + 1);
    const onServer = path.join(t.config.dataDir, 'media', '.uploads', 'videos', id);
    // half the file in one request that promises all of it, then the connection is gone
    const request = http.request(url, {
      method: 'PATCH',
      headers: {
        ...bearer(alice.token),
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
        'content-length': String(whole.length),
      },
    });
    request.on('error', () => {});
    request.write(whole.subarray(0, Math.floor(whole.length / 2)));
    await until(
      async () => (fs.existsSync(onServer) ? fs.statSync(onServer).size : 0),
      (bytes) => bytes > whole.length / 4,
    );
    request.destroy();
    const droppedAt = performance.now();

    const head = await until(
      () => fetch(url, { method: 'HEAD', headers: { ...bearer(alice.token), 'tus-resumable': '1.0.0' } }),
      (res) => res.status === 200,
    );
    // the dropped request lets go of the upload at once: the resume does not wait for tus's 3 s lock drain
    expect(performance.now() - droppedAt).toBeLessThan(2000);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(whole.length);
    let sentAgain = 0;
    const resumed = upload(whole, alice, {
      uploadUrl: url,
      onChunkComplete: (size) => {
        sentAgain += size;
      },
    });
    expect((await resumed.done).id).toBe(id);
    expect(sentAgain).toBe(whole.length - offset);
    const ready = await until(
      () => state(id, alice),
      (read) => read.body.state !== 'uploading',
    );
    expect(ready.body).toMatchObject({ state: 'ready', width: 320, height: 180 });
  });

  it.runIf(dialect === 'sqlite')(
    "streams a 100 MB upload to the disk: the server's RSS stays within 50 MB of before",
    async () => {
      const big = path.join(dir, 'big.bin');
      const chunk = randomBytes(1024 * 1024);
      const out = fs.openSync(big, 'w');
      for (let i = 0; i < 100; i++) fs.writeSync(out, chunk);
      fs.closeSync(out);
      const created = await create(String(100 * 1024 * 1024));
      expect(created.statusCode).toBe(201);
      const url = `${origin}${String(created.headers['location'])}`;
      collectGarbage();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
      try {
        // curl, in its own process, streams the file (-T reads it as it sends)
        const { stdout } = await execFileAsync('curl', [
          '-s',
          '-X',
          'PATCH',
          '-T',
          big,
          '-H',
          `authorization: appnettoken ${alice.token}`,
          '-H',
          'tus-resumable: 1.0.0',
          '-H',
          'upload-offset: 0',
          '-H',
          'content-type: application/offset+octet-stream',
          '-w',
          '\\n%{http_code}',
          url,
        ]);
        // all of it arrived; then the probe refused it (it is noise, not a video)
        expect(stdout.trim().split('\n').pop()).toBe('422');
      } finally {
        clearInterval(sampler);
        fs.rmSync(big, { force: true });
      }
      const grew = (peak - before) / 1024 / 1024;
      console.log(`100 MB tus upload: RSS +${grew.toFixed(1)} MB at its peak`);
      expect(grew).toBeLessThan(50);
    },
  );

  it('a file with no picture fails with its reason, which the upload answers and the author reads', async () => {
    for (const [file, reason] of [
      [audioOnly, 'video: it has sound but no picture; choose a video file.'],
      [textFile, /^video: it could not be read as a video \(the file: Invalid data found/],
    ] as const) {
      const sending = upload(file, alice);
      const error = await sending.done.then(
        () => null,
        (failure: Error) => failure,
      );
      expect(error, String(file)).not.toBeNull();
      const detail = (error as tus.DetailedError).originalResponse;
      expect(detail?.getStatus()).toBe(422);
      const body = JSON.parse(detail?.getBody() ?? '{}') as { errorcode: number; error: string };
      expect(body.errorcode).toBe(7050);
      expect(body.error).toMatch(reason);
      const url = sending.upload.url ?? '';
      const { body: video } = await state(url.slice(url.lastIndexOf('/') + 1), alice);
      expect(video.state).toBe('failed');
      expect(`video: ${video.error}.`).toMatch(reason);
      // never a path of the server's
      expect(video.error).not.toContain(t.config.dataDir);
    }
  });

  const create = (length: string | undefined, headers: Record<string, string> = bearer(alice.token)) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/uploads/video',
      headers: {
        'tus-resumable': '1.0.0',
        ...(length === undefined ? {} : { 'upload-length': length }),
        ...headers,
      },
    });
  const videoCount = async () =>
    Number(
      (
        await t.store.db
          .selectFrom('videos')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses a 0-byte video, one past 100 MB and one of unknown size, storing nothing', async () => {
    const before = await videoCount();
    const empty = await create('0');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({
      errorcode: 7033,
      error: 'video: the file is empty. Invalid video file size. Max allowed 100 MB',
      field: 'video',
    });
    const large = await create(String(104_857_601));
    expect(large.statusCode).toBe(413);
    expect(large.json()).toEqual({ errorcode: 7031, error: 'Invalid video file size. Max allowed 100 MB' });
    const unknown = await create(undefined, { ...bearer(alice.token), 'upload-defer-length': '1' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ errorcode: number }>().errorcode).toBe(7051);
    expect(await videoCount()).toBe(before);
    // exactly 100 MB may start
    expect((await create(String(104_857_600))).statusCode).toBe(201);
  });

  it('refuses a visitor with 401 before reading the body, and a cookie session without the anti-forgery token', async () => {
    const visitor = await create('1000', {});
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json<{ errorcode: number }>().errorcode).toBe(1010);
    const patch = await fetch(`${origin}/v1/uploads/video/${'a'.repeat(32)}`, {
      method: 'PATCH',
      headers: {
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: Buffer.alloc(4 * 1024 * 1024),
    });
    expect(patch.status).toBe(401);
    const cookie = await create('1000', { cookie: alice.cookie });
    expect(cookie.statusCode).toBe(403);
    expect(cookie.json<{ errorcode: number }>().errorcode).toBe(2003);
    const withToken = await create('1000', {
      cookie: alice.cookie,
      requestverificationtoken: alice.antiforgery,
    });
    expect(withToken.statusCode).toBe(201);
  });

  it("refuses another user's upload (404) and lets its author cancel it", async () => {
    const created = await create('5000');
    expect(created.statusCode).toBe(201);
    const location = String(created.headers['location']);
    expect(location).toMatch(/^\/v1\/uploads\/video\/[0-9a-f]{32}$/);
    const id = location.slice(location.lastIndexOf('/') + 1);
    const tusHeaders = { 'tus-resumable': '1.0.0' };
    for (const method of ['HEAD', 'DELETE'] as const) {
      const res = await t.app.inject({
        method,
        url: location,
        headers: { ...tusHeaders, ...bearer(bob.token) },
      });
      expect(res.statusCode, method).toBe(404);
    }
    const patch = await t.app.inject({
      method: 'PATCH',
      url: location,
      headers: {
        ...tusHeaders,
        ...bearer(bob.token),
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      payload: Buffer.alloc(100),
    });
    expect(patch.statusCode).toBe(404);
    expect(patch.json()).toEqual({ errorcode: 4, error: `There is no video ${id}.` });
    // nor its state while it is not ready
    expect((await state(id, bob)).status).toBe(404);
    const own = await t.app.inject({
      method: 'HEAD',
      url: location,
      headers: { ...tusHeaders, ...bearer(alice.token) },
    });
    expect(own.statusCode).toBe(200);
    expect(own.headers['upload-offset']).toBe('0');
    const cancel = await t.app.inject({
      method: 'DELETE',
      url: location,
      headers: { ...tusHeaders, ...bearer(alice.token) },
    });
    expect(cancel.statusCode).toBe(204);
    await until(
      async () => (await state(id, alice)).status,
      (status) => status === 404,
    );
  });

  it("answers the protocol's mistakes in the catalogue's shape: version, type, offset", async () => {
    const noVersion = await t.app.inject({
      method: 'POST',
      url: '/v1/uploads/video',
      headers: { ...bearer(alice.token), 'upload-length': '100' },
    });
    expect(noVersion.statusCode).toBe(412);
    expect(noVersion.json<{ errorcode: number }>().errorcode).toBe(7052);
    const created = await create('100');
    const location = String(created.headers['location']);
    const patch = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'PATCH',
        url: location,
        headers: { 'tus-resumable': '1.0.0', ...bearer(alice.token), ...headers },
        payload: Buffer.alloc(10),
      });
    const wrongType = await patch({ 'upload-offset': '0', 'content-type': 'application/octet-stream' });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json<{ errorcode: number }>().errorcode).toBe(1005);
    const wrongOffset = await patch({
      'upload-offset': '50',
      'content-type': 'application/offset+octet-stream',
    });
    expect(wrongOffset.statusCode).toBe(409);
    expect(wrongOffset.json()).toEqual({
      errorcode: 7053,
      error: 'Upload-Offset: the upload does not stand there; ask with HEAD and resume from its offset.',
    });
    const tooMuch = await t.app.inject({
      method: 'PATCH',
      url: location,
      headers: {
        'tus-resumable': '1.0.0',
        ...bearer(alice.token),
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      payload: Buffer.alloc(200),
    });
    expect(tooMuch.statusCode).toBe(413);
    expect(tooMuch.json<{ errorcode: number }>().errorcode).toBe(7031);
  });

  it('answers the state call of a malformed or unknown id in the catalogue', async () => {
    const malformed = await t.app.inject({ method: 'GET', url: '/v1/videos/not-an-id' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json<{ errorcode: number }>().errorcode).toBe(1003);
    const unknown = await state('0'.repeat(32), alice);
    expect(unknown.status).toBe(404);
    expect(unknown.body.errorcode).toBe(4);
  });

  it('allows 30 uploads per person in 30 minutes', async () => {
    const carol = await (async () => {
      expect((await registerUser(t, 'carol')).statusCode).toBe(201);
      return signIn(t, 'carol', 'correct-horse-1');
    })();
    for (let n = 0; n < 30; n++) expect((await create('10', bearer(carol.token))).statusCode).toBe(201);
    const refused = await create('10', bearer(carol.token));
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ errorcode: number }>().errorcode).toBe(1020);
    // another person is not counted with carol
    expect((await create('10', bearer(bob.token))).statusCode).toBe(201);
  });
});
