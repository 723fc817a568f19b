import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * HEIC as phones write it (HEVC inside HEIF), decoded by libheif compiled to WebAssembly (heic-decode)
 * in a worker thread. The decode is synchronous WebAssembly, about a second for a 12-megapixel photo on
 * this machine: on the main thread it would stop every other request for that long. One worker,
 * started with the first HEIC and ended after a minute without one: HEIC decodes run one at a time,
 * which also bounds their memory (the WebAssembly heap holds the whole decoded picture, and only
 * ending the worker gives that memory back).
 */

export type HeicDecoded =
  | { tooLarge: true; width: number; height: number }
  | { tooLarge: false; width: number; height: number; data: Uint8Array };

/** A decode that takes longer than this is abandoned (the worker is ended) and the file refused. */
const DECODE_TIMEOUT_MS = 30_000;
const IDLE_MS = 60_000;

/**
 * The worker's code, plain CommonJS run with `eval` (no loader needed, whichever way the server runs):
 * reads the first image's size from the container, refuses it above `maxPixels` before decoding a
 * pixel, else decodes it (libheif applies the container's rotation and mirroring) and hands the RGBA
 * pixels back without a copy.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
// libheif prints its failures; they are answered as messages instead, and the caller decides
console.log = console.warn = console.error = () => {};
const decode = require(workerData.module);
parentPort.on('message', async ({ id, bytes, maxPixels }) => {
  try {
    const images = await decode.all({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
    try {
      const first = images[0];
      if (!first) throw new Error('no image in the file');
      if (first.width * first.height > maxPixels) {
        parentPort.postMessage({ id, tooLarge: true, width: first.width, height: first.height });
        return;
      }
      const { width, height, data } = await first.decode();
      const pixels = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      parentPort.postMessage({ id, tooLarge: false, width, height, data: pixels }, [data.buffer]);
    } finally {
      images.dispose();
    }
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

const require = createRequire(import.meta.url);

interface Pending {
  resolve: (value: HeicDecoded) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

let worker: Worker | null = null;
let idleTimer: NodeJS.Timeout | null = null;
let nextId = 0;
const pending = new Map<number, Pending>();

function startWorker(): Worker {
  const started = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { module: require.resolve('heic-decode') },
  });
  started.on('message', (message: { id: number; error?: string } & HeicDecoded) => {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    clearTimeout(waiting.timer);
    if (message.error !== undefined) waiting.reject(new Error(message.error));
    else waiting.resolve(message);
    settle(started);
  });
  started.on('error', (error) => stopWorker(started, error));
  started.on('exit', (code) => stopWorker(started, new Error(`the HEIC worker ended (${code})`)));
  return started;
}

/** Ends `which` (if it is still the worker) and fails what it was doing. */
function stopWorker(which: Worker, error: Error): void {
  if (worker !== which) return;
  worker = null;
  for (const waiting of pending.values()) {
    clearTimeout(waiting.timer);
    waiting.reject(error);
  }
  pending.clear();
  void which.terminate();
}

/** Idle: the worker no longer keeps the process alive, and ends after IDLE_MS. */
function settle(which: Worker): void {
  if (pending.size > 0 || worker !== which) return;
  which.unref();
  idleTimer = setTimeout(() => stopWorker(which, new Error('idle')), IDLE_MS);
  idleTimer.unref();
}

/**
 * The first image of a HEIF file as RGBA pixels, or its size when it has more than `maxPixels`
 * (nothing decoded then). Rejects when the file is not one libheif can read.
 */
export function decodeHeic(bytes: Buffer, maxPixels: number): Promise<HeicDecoded> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  worker ??= startWorker();
  const current = worker;
  current.ref();
  const id = nextId++;
  return new Promise<HeicDecoded>((resolve, reject) => {
    const timer = setTimeout(
      () => stopWorker(current, new Error(`HEIC decode took longer than ${DECODE_TIMEOUT_MS} ms`)),
      DECODE_TIMEOUT_MS,
    );
    pending.set(id, { resolve, reject, timer });
    current.postMessage({ id, bytes, maxPixels });
  });
}
