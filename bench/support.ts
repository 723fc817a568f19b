import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openStore, type Store } from '../src/server/store/store';

/**
 * What the store benchmarks (bench/posts.ts, bench/social.ts) share: their flags, their log line,
 * percentiles, a seeded generator, and a temporary store on either engine.
 */

/** `--name value` of the command line, or the fallback. */
export function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? (process.argv[at + 1] as string) : fallback;
}

export const log = (message: string) =>
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);

/**
 * A full garbage collection when the bench runs with --expose-gc (else nothing): before a timed phase,
 * so the garbage an earlier phase left (a million generated rows) is not collected inside it.
 */
export const collectGarbage = () => (globalThis as { gc?: () => void }).gc?.();

/** The p-th percentile of sorted samples (NaN for none). */
export const pct = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** The p-th percentile of samples in any order. */
export const percentileOf = (values: readonly number[], p: number) =>
  pct(
    [...values].sort((a, b) => a - b),
    p,
  );

/** A small deterministic generator (mulberry32), so two runs time the same data. */
export function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A temporary store: SQLite under $TMP, or with `postgres` a schema of TEST_DATABASE_URL; `dispose`
 * closes it and removes the files or drops the schema.
 */
export async function openBenchStore(
  name: string,
  postgres: boolean,
): Promise<{ store: Store; dispose: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `xpoint-bench-${name}-`));
  if (!postgres) {
    const store = await openStore({ dataDir });
    return {
      store,
      dispose: async () => {
        await store.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const url = process.env['TEST_DATABASE_URL'];
  if (!url) throw new Error('--postgres needs TEST_DATABASE_URL');
  const schema = `bench_${name}_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const withSchema = new URL(url);
  withSchema.searchParams.set('options', `-c search_path=${schema},public`);
  const store = await openStore({ databaseUrl: withSchema.toString(), dataDir });
  return {
    store,
    dispose: async () => {
      await store.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`drop schema if exists ${schema} cascade`);
      await cleanup.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
