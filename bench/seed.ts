/**
 * `npm run bench:seed -- [--points N]`: how fast the demo generator fills a store, and what its bulk
 * path buys over the obvious way of writing the same rows.
 *
 * In one run, on fresh temporary stores:
 * - ours (SQLite): seedDemoData, all tables, N points (default 20,000);
 * - ours (PostgreSQL): the same, when BENCH_DATABASE_URL or a local server at 127.0.0.1:5432 answers;
 * - peer: the same `points` rows copied one INSERT per row through Kysely, each in its own transaction
 *   (what a straightforward ORM loop does), on SQLite, capped at 5,000 rows and scaled to N.
 * Prints a table with points per second and ratios. Stops by itself; nothing outside 127.0.0.1.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadCities } from '../src/server/features/cities/load';
import { seedDemoData } from '../src/server/seed/generate';
import { openStore, type Store } from '../src/server/store/store';

const { values } = parseArgs({ options: { points: { type: 'string', default: '20000' } } });
const POINTS = Number(values.points);
const PEER_ROWS = Math.min(5_000, POINTS);
const NOW = Date.UTC(2026, 10, 21, 12);
const PG_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Row {
  label: string;
  points: number;
  ms: number;
}

async function withSqlite<T>(fn: (store: Store, dataDir: string) => Promise<T>): Promise<T> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-bench-seed-'));
  const store = await openStore({ dataDir });
  try {
    return await fn(store, dataDir);
  } finally {
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function pgAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function withPostgres<T>(fn: (store: Store, dataDir: string) => Promise<T>): Promise<T> {
  const schema = `bench_seed_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${schema},public`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-bench-seed-'));
  try {
    const store = await openStore({ databaseUrl: url.toString(), dataDir });
    try {
      return await fn(store, dataDir);
    } finally {
      await store.close();
    }
  } finally {
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function timeSeed(store: Store, dataDir: string): Promise<number> {
  await loadCities(store);
  const started = performance.now();
  await seedDemoData(store, { points: POINTS, seed: 1, now: NOW, dataDir, log: () => {} });
  return performance.now() - started;
}

/** The peer: the first PEER_ROWS point rows written one INSERT (and one transaction) at a time. */
async function timeNaiveCopy(source: Store): Promise<number> {
  const users = await source.db.selectFrom('users').selectAll().execute();
  const points = await source.db.selectFrom('points').selectAll().orderBy('seq').limit(PEER_ROWS).execute();
  return withSqlite(async (target) => {
    await loadCities(target);
    await target.db.insertInto('users').values(users).execute();
    const started = performance.now();
    for (const { seq: _seq, ...row } of points) {
      await target.db.insertInto('points').values(row).execute();
    }
    return performance.now() - started;
  });
}

function printTable(rows: Row[]): void {
  const ours = rows[0];
  console.log(
    `\nSeeding ${POINTS.toLocaleString('en-US')} demo points (all tables) on ${os.cpus().length} cores`,
  );
  console.log('| run | points | time | points/s | vs ours (SQLite) |');
  console.log('|-----|-------:|-----:|---------:|-----------------:|');
  for (const row of rows) {
    const perSecond = (row.points / row.ms) * 1000;
    const ratio = ours ? (row.ms / row.points / (ours.ms / ours.points)).toFixed(2) : '-';
    console.log(
      `| ${row.label} | ${row.points.toLocaleString('en-US')} | ${(row.ms / 1000).toFixed(2)} s | ` +
        `${Math.round(perSecond).toLocaleString('en-US')} | ${ratio}x time per point |`,
    );
  }
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  let peerMs = 0;
  await withSqlite(async (store, dataDir) => {
    rows.push({ label: 'ours, SQLite', points: POINTS, ms: await timeSeed(store, dataDir) });
    peerMs = await timeNaiveCopy(store);
  });
  if (await pgAnswers()) {
    await withPostgres(async (store, dataDir) => {
      rows.push({ label: 'ours, PostgreSQL', points: POINTS, ms: await timeSeed(store, dataDir) });
    });
  } else {
    console.log(`(PostgreSQL at ${PG_URL} does not answer: its row is skipped)`);
  }
  rows.push({
    label: 'peer: one INSERT per row via Kysely, SQLite, points table only',
    points: PEER_ROWS,
    ms: peerMs,
  });
  printTable(rows);
}

await main();
