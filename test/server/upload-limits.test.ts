import { execFile } from 'node:child_process';
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../support/app';
import { bearer, registerUser, signIn } from '../support/accounts';
import { newPoint } from '../support/factories';

/**
 * Issue 16, finding 2, measured as an attacker would: on a real listening server over real sockets,
 * big uploads must be refused before they are read, the process must not grow by what they send,
 * and /healthz must keep answering meanwhile. (Read first, one 140 MB base64 body took the process
 * from 401 MB to 956 MB and stalled /healthz for 3 s; four at once to 1.6 GB and 8 s.)
 */

const MB = 1024 * 1024;
const run = promisify(execFile);
/** an MP4's first bytes: a 'ftyp' box with the isom brand */
const MP4_HEAD = '\0\0\0\x18ftypisom';
const CLIENT = fileURLToPath(new URL('../support/upload-client.mjs', import.meta.url));

interface Upload {
  path: string;
  headers?: Record<string, string>;
  fields: Record<string, string>;
  /** the file's first bytes (latin1), then filler up to fileBytes */
  head: string;
  fileBytes: number;
}

interface Sent {
  status: number | null;
  body: string;
  /** bytes the client got onto the socket before the server stopped taking them */
  written: number;
  /** ms from the start until the answer's headers */
  answeredMs: number | null;
}

/** Runs the uploads at once from another process (support/upload-client.mjs): the client's work is not the server's. */
async function sendUploads(port: number, uploads: Upload[]): Promise<Sent[]> {
  const { stdout, stderr } = await run(process.execPath, [CLIENT, JSON.stringify({ port, uploads })], {
    timeout: 45_000,
  }).catch((error: Error & { stdout?: string; stderr?: string; killed?: boolean }) => {
    throw new Error(`the upload client failed (killed: ${error.killed}): ${error.stderr ?? ''}`);
  });
  if (stderr) console.log(stderr);
  return JSON.parse(stdout) as Sent[];
}

/**
 * GET /healthz back to back until stopped, for at least `minMs`: the
 * slowest answer, and the largest RSS seen meanwhile.
 */
function watchHealth(port: number, minMs = 500) {
  // one kept-alive connection, as a load balancer's checks use
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let stopped = false;
  const since = performance.now();
  let maxLatencyMs = 0;
  let maxRss = process.memoryUsage().rss;
  // how long the server's event loop was held at most: what the server did, apart from the machine
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  let answers = 0;
  const loop = (async () => {
    while (!stopped || performance.now() - since < minMs) {
      const started = performance.now();
      const status = await new Promise<number>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: '/healthz', agent }, (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode ?? 0));
          })
          .on('error', reject);
      });
      expect(status).toBe(200);
      answers += 1;
      maxLatencyMs = Math.max(maxLatencyMs, performance.now() - started);
      maxRss = Math.max(maxRss, process.memoryUsage().rss);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      agent.destroy();
      loopDelay.disable();
      return { maxLatencyMs, maxRss, answers, loopDelayMaxMs: loopDelay.max / 1e6 };
    },
  };
}

describe('uploads over real sockets (issue 16, finding 2)', () => {
  let t: TestApp;
  let port: number;
  let owner: Record<string, string>;
  let pointId: string;

  beforeAll(async () => {
    t = await openTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
    // the first answers of a fresh process compile their code paths: not what is measured
    await watchHealth(port, 200).stop();
    expect((await registerUser(t, 'uploader', 'uploader-password-1')).statusCode).toBe(201);
    const session = await signIn(t, 'uploader', 'uploader-password-1');
    owner = bearer(session.token);
    pointId = 'ul_point';
    await t.store.db
      .insertInto('points')
      .values(newPoint({ id: pointId, owner_userid: session.id }))
      .execute();
  });
  afterAll(async () => t?.close());

  // what is read and kept is exact; a latency is the machine's too: on a shared machine running
  // other suites a stall of the whole process (the event loop delay shows it held while this one
  // was idle) can pass 100 ms, so a run gets three tries before the latency counts as ours
  it(
    'refuses four concurrent 130 MB visitor uploads before reading them, without growing or stalling',
    { timeout: 60_000, retry: 2 },
    async () => {
      const baseline = process.memoryUsage().rss;
      const health = watchHealth(port);
      const started = performance.now();
      const sent = await sendUploads(
        port,
        ['/v1/xpoint/media', '/v1/xpoint/media', '/v1/event/media', '/v1/account/avatar'].map((path) => ({
          path,
          fields: { id: pointId, version: '1', slot: 'cover_video' },
          head: MP4_HEAD,
          fileBytes: 130 * MB,
        })),
      );
      const elapsedMs = performance.now() - started;
      const { maxLatencyMs, maxRss, answers, loopDelayMaxMs } = await health.stop();
      const figures = {
        written: sent.map((s) => `${(s.written / MB).toFixed(1)} MB`),
        answeredMs: sent.map((s) => Math.round(s.answeredMs ?? -1)),
        rssGrowthMb: Number(((maxRss - baseline) / MB).toFixed(1)),
        healthzMaxMs: Number(maxLatencyMs.toFixed(1)),
        healthzAnswers: answers,
        eventLoopDelayMaxMs: Number(loopDelayMaxMs.toFixed(1)),
        elapsedMs: Math.round(elapsedMs),
      };
      console.log('four 130 MB visitor uploads:', JSON.stringify(figures));
      for (const s of sent) {
        expect(s.status, s.body).toBe(401);
        expect(JSON.parse(s.body)).toMatchObject({ errorcode: 1010 });
        // the server stopped taking the body: what got onto the socket is what the kernel's buffers hold
        expect(s.written).toBeLessThan(16 * MB);
      }
      expect(maxRss - baseline).toBeLessThan(50 * MB);
      expect(maxLatencyMs).toBeLessThan(100);
    },
  );

  it("refuses a signed-in owner's 101 MB video with the spec's message, without holding it", async () => {
    const baseline = process.memoryUsage().rss;
    const health = watchHealth(port);
    // and one of 130 MB beside it, to see the reading stop at the limit
    const [sent, longer] = await sendUploads(
      port,
      [101, 130].map((mb) => ({
        path: '/v1/xpoint/media',
        headers: owner,
        fields: { id: pointId, version: '1', slot: 'cover_video' },
        head: MP4_HEAD,
        fileBytes: mb * MB,
      })),
    );
    if (!sent || !longer) throw new Error('the client sent nothing');
    const { maxLatencyMs, maxRss, loopDelayMaxMs } = await health.stop();
    console.log(
      'a 101 MB video:',
      JSON.stringify({
        written: [sent, longer].map((s) => `${(s.written / MB).toFixed(1)} MB`),
        rssGrowthMb: Number(((maxRss - baseline) / MB).toFixed(1)),
        healthzMaxMs: Number(maxLatencyMs.toFixed(1)),
        eventLoopDelayMaxMs: Number(loopDelayMaxMs.toFixed(1)),
      }),
    );
    expect(sent.status, sent.body).toBe(413);
    for (const s of [sent, longer]) {
      expect(s.status, s.body).toBe(413);
      expect(JSON.parse(s.body)).toEqual({
        errorcode: 7031,
        error: 'Invalid video file size. Max allowed 100 MB',
      });
    }
    // the 130 MB one was read up to the limit, and no further than the kernel's buffers past it
    expect(longer.written).toBeLessThan(116 * MB);
    // network buffers already read are garbage that V8 collects once tens of MB of them pile up; a
    // file held whole would add at least its 101 MB
    expect(maxRss - baseline).toBeLessThan(64 * MB);
    // nothing was stored and no temporary file is left
    const point = await t.store.db
      .selectFrom('points')
      .select(['version', 'url_cover_video'])
      .where('id', '=', pointId)
      .executeTakeFirstOrThrow();
    expect(point).toMatchObject({ version: 1, url_cover_video: null });
  }, 60_000);
});
