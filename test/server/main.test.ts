import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/server/store/store';

/** The server as `npm start` runs it, as a real process: what an operator sees on the terminal. */
const ROOT = path.resolve(import.meta.dirname, '../..');
const children: ChildProcess[] = [];
const dirs: string[] = [];

interface Run {
  child: ChildProcess;
  output: () => { stdout: string; stderr: string };
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startServer(env: Record<string, string>): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => ({ stdout, stderr }), exited };
}

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-main-'));
  dirs.push(dir);
  return dir;
}

async function waitForOutput(run: Run, pattern: RegExp, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!pattern.test(run.output().stdout + run.output().stderr)) {
    if (run.child.exitCode !== null) throw new Error(`server exited early:\n${run.output().stderr}`);
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${pattern}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('starting the server', () => {
  it('exits 1 with one line naming PORT when PORT is not a number', async () => {
    const run = startServer({ PORT: 'abc', DATA_DIR: tempDir() });
    const { code } = await run.exited;
    expect(code).toBe(1);
    const lines = run.output().stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      'xpoint: configuration error: PORT must be an integer port between 0 and 65535 (got "abc")',
    );
  });

  it('exits 1 with one line when DATABASE_URL cannot be reached', async () => {
    const run = startServer({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere', DATA_DIR: tempDir() });
    const { code } = await run.exited;
    expect(code).toBe(1);
    const lines = run.output().stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^xpoint: cannot open the store: cannot reach the PostgreSQL database at postgres:\/\/postgres@127\.0\.0\.1:1\/nowhere: .*ECONNREFUSED/,
    );
  });

  it('exits 1 with one line naming MEDIA_URL when its bucket cannot be reached, or is refused', async () => {
    const unreachable = startServer({
      MEDIA_URL: 's3://xpoint-media?endpoint=http://127.0.0.1:1&region=us-east-1',
      AWS_ACCESS_KEY_ID: 'key',
      AWS_SECRET_ACCESS_KEY: 'secret',
      DATA_DIR: tempDir(),
    });
    const started = Date.now();
    expect((await unreachable.exited).code).toBe(1);
    expect(Date.now() - started).toBeLessThan(15_000);
    const lines = unreachable.output().stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^xpoint: MEDIA_URL: the bucket xpoint-media at http:\/\/127\.0\.0\.1:1 cannot be reached: .*ECONNREFUSED/,
    );

    const invalid = startServer({ MEDIA_URL: 'https://bucket.example/media', DATA_DIR: tempDir() });
    expect((await invalid.exited).code).toBe(1);
    expect(invalid.output().stderr.trim()).toBe(
      'xpoint: configuration error: MEDIA_URL must be an s3://bucket[/prefix] URL, with optional ?endpoint=http(s)://host:port&region=name&forcePathStyle=true|false (got "https://bucket.example/media")',
    );
  });

  it('seeds an empty store, serves /healthz, stops cleanly on SIGTERM, and does not seed again', async () => {
    const dataDir = tempDir();
    const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/;
    const env = { PORT: '0', DATA_DIR: dataDir, SEED: '300', LOG_LEVEL: 'info' };
    const first = startServer(env);
    await waitForOutput(first, listening);
    expect(first.output().stdout).toContain('demo data ready');
    const url = listening.exec(first.output().stdout)?.[1];
    const res = await fetch(`${url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });

    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);
    expect(first.output().stdout).toContain('stopped cleanly');

    const second = startServer(env);
    await waitForOutput(second, listening);
    expect(second.output().stdout).toContain('the store already holds points; not seeding');
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  });

  it.each(['SIGTERM', 'SIGKILL'] as const)(
    'leaves a store that opens cleanly when killed with %s during the seed',
    async (signal) => {
      const dataDir = tempDir();
      const run = startServer({ PORT: '0', DATA_DIR: dataDir, SEED: '20000', LOG_LEVEL: 'info' });
      await waitForOutput(run, /seeding demo data/);
      await new Promise((resolve) => setTimeout(resolve, 300));
      run.child.kill(signal);
      await run.exited;

      const file = path.join(dataDir, 'xpoint.db');
      const raw = new SQLite(file);
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
      raw.close();
      const store = await openStore({ dataDir });
      expect(await store.ping()).toBe(true);
      // the seed is one transaction: a kill leaves all of it or none, never half
      const { n } = await store.db
        .selectFrom('points')
        .select(store.db.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect([0, 20_000]).toContain(Number(n));
      await store.close();
    },
  );
});
