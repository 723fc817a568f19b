import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureMapAssets } from '../../support/map-assets';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const WEB_INDEX = path.join(REPO_ROOT, 'dist/web/index.html');
const PAGE_RENDERER = path.join(REPO_ROOT, 'dist/ssr/render.js');
const WEB_SOURCES = ['src/web', 'src/shared'].map((dir) => path.join(REPO_ROOT, dir));
const HEALTH_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;
/** How much of the server's output to keep for error messages. */
const OUTPUT_TAIL_CHARS = 8_000;

export interface RunningServer {
  /** e.g. http://127.0.0.1:40123, no trailing slash */
  url: string;
  dataDir: string;
  /** The last 8,000 characters the process wrote to stdout and stderr. */
  output(): string;
  /**
   * Sends SIGTERM, waits for the process to exit (SIGKILL after 15 s), removes the data dir unless it
   * was given in the options.
   */
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** demo points to seed; default 200 */
  seed?: number;
  /** extra environment variables */
  env?: Record<string, string>;
  /** an existing data dir to run on (another server's, or a stopped one's); kept on stop. Default: a fresh one. */
  dataDir?: string;
  /** the port to listen on (a restart on the same address); default: a free one. */
  port?: number;
}

/** Newest modification time of any file under `dir`, or 0 when it does not exist. */
function newestMtime(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * Builds the web app and the server's page renderer (`npm run build`) when either is missing or older
 * than its sources, so the journeys always run against the code in the tree.
 */
export function ensureWebBuild(): void {
  const outputs = [WEB_INDEX, PAGE_RENDERER];
  if (outputs.every((file) => existsSync(file))) {
    const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
    if (WEB_SOURCES.every((dir) => newestMtime(dir) <= built)) return;
  }
  for (const extra of [[], ['--ssr', 'ssr/render.tsx']]) {
    console.log(`[e2e] building: npx vite build ${extra.join(' ')}`);
    const result = spawnSync('npx', ['vite', 'build', ...extra, '--logLevel', 'warn'], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
      // the production build, as `npm run build` makes it: vitest's NODE_ENV=test would make Vite
      // compile JSX for React's development runtime, which a production server cannot run
      env: { ...process.env, NODE_ENV: 'production' },
    });
    if (result.status !== 0) {
      throw new Error(`vite build failed (status ${String(result.status)}); see its output above`);
    }
  }
  if (!outputs.every((file) => existsSync(file)))
    throw new Error(`vite build did not write ${outputs.join(', ')}`);
}

/** A port that was free a moment ago, on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      if (address === null || typeof address === 'string') {
        probe.close();
        reject(new Error('could not read the probe port'));
        return;
      }
      const { port } = address;
      probe.close(() => resolve(port));
    });
  });
}

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Starts the real server (`node --import tsx src/server/main.ts`) on a free port with a fresh
 * DATA_DIR and a small demo dataset (or on the port and data dir given), and resolves once
 * `GET /healthz` answers 200.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  ensureWebBuild();
  ensureMapAssets();
  const port = options.port ?? (await freePort());
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'xpoint-e2e-data-')));
  const url = `http://127.0.0.1:${port}`;

  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED: String(options.seed ?? 200),
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = waitForExit(child);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(
        `the server exited (code ${String(child.exitCode)}, signal ${String(child.signalCode)}) ` +
          `before /healthz answered. Its output:\n${output}`,
      );
    }
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`/healthz did not answer 200 within ${HEALTH_TIMEOUT_MS / 1000} s. Output:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return { url, dataDir, output: () => output, stop };
}
