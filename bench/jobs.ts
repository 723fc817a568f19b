/**
 * Which engine carries the durable job queue (issue 25): the store's own `jobs` table
 * (src/server/jobs/queue.ts) against pg-boss 10 on PostgreSQL and BullMQ on Redis, in one run.
 * For each: enqueue -> start latency of a lone job (p50, p99 over 30), and the throughput of 500
 * empty jobs with 4 at a time. Bounded: every wait gives up after 60 s.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/jobs.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { JobQueue } from '../src/server/jobs/queue';
import { openStore, type Store } from '../src/server/store/store';

const DATABASE_URL = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const LONE = 30;
const MANY = 500;

interface Engine {
  name: string;
  /** starts a worker that calls `seen` with each job's payload */
  work(seen: (payload: { n: number; at: number }) => void): Promise<void>;
  send(payload: { n: number; at: number }): Promise<void>;
  close(): Promise<void>;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** Waits for `check` up to `ms`; false when it did not hold by then. */
async function waitFor(check: () => boolean, ms = 30_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return true;
}

async function measure(engine: Engine): Promise<string> {
  const latencies: number[] = [];
  let count = 0;
  await engine.work((payload) => {
    count += 1;
    if (payload.n < 0) latencies.push(performance.now() - payload.at);
  });
  for (let i = 0; i < LONE; i++) {
    const before = count;
    await engine.send({ n: -1 - i, at: performance.now() });
    await waitFor(() => count > before);
  }
  const start = performance.now();
  const base = count;
  for (let n = 0; n < MANY; n++) await engine.send({ n, at: 0 });
  // an engine that has not done them all in 30 s is measured by what it did in that time
  await waitFor(() => count - base >= MANY);
  const seconds = (performance.now() - start) / 1000;
  const done = count - base;
  await engine.close();
  latencies.sort((a, b) => a - b);
  return `| ${engine.name} | ${quantile(latencies, 0.5).toFixed(1)} | ${quantile(latencies, 0.99).toFixed(1)} | ${Math.round(done / seconds)} |`;
}

async function storeEngine(name: string, store: Store, pollMs: number): Promise<Engine> {
  const queue = new JobQueue(store, { pollMs, concurrency: 4 });
  return {
    name,
    async work(seen) {
      queue.register('bench', async (payload: { n: number; at: number }) => seen(payload));
      queue.start();
    },
    send: async (payload) => void (await queue.enqueue('bench', payload)),
    async close() {
      await queue.stop();
      await store.close();
    },
  };
}

async function pgBossEngine(schema: string): Promise<Engine> {
  const { default: PgBoss } = await import('pg-boss');
  const boss = new PgBoss({ connectionString: DATABASE_URL, schema });
  boss.on('error', () => {});
  await boss.start();
  await boss.createQueue('bench');
  return {
    name: 'pg-boss 10 (PostgreSQL, polling 0.5 s: its minimum)',
    async work(seen) {
      await boss.work<{ n: number; at: number }>(
        'bench',
        { pollingIntervalSeconds: 0.5, batchSize: 4 },
        async (jobs) => {
          for (const job of jobs) seen(job.data);
        },
      );
    },
    send: async (payload) => void (await boss.send('bench', payload)),
    async close() {
      await boss.stop({ graceful: false, wait: true });
    },
  };
}

async function bullEngine(prefix: string): Promise<Engine> {
  const { Queue, Worker } = await import('bullmq');
  const connection = { url: REDIS_URL, maxRetriesPerRequest: null };
  const queue = new Queue('bench', { connection, prefix });
  let worker: InstanceType<typeof Worker> | undefined;
  return {
    name: 'BullMQ (Redis: nothing kept on disk here)',
    async work(seen) {
      worker = new Worker('bench', async (job) => seen(job.data as { n: number; at: number }), {
        connection,
        prefix,
        concurrency: 4,
      });
      await worker.waitUntilReady();
    },
    send: async (payload) => void (await queue.add('bench', payload, { removeOnComplete: true })),
    async close() {
      await worker?.close();
      await queue.obliterate({ force: true });
      await queue.close();
    },
  };
}

async function main(): Promise<void> {
  const rows: string[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-jobs-bench-'));
  const schema = `bench_jobs_${process.pid}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  try {
    rows.push(await measure(await storeEngine('jobs table, SQLite', await openStore({ dataDir }), 1000)));
    const url = new URL(DATABASE_URL);
    url.searchParams.set('options', `-c search_path=${schema},public`);
    const pgStore = await openStore({ databaseUrl: url.toString(), dataDir });
    rows.push(await measure(await storeEngine('jobs table, PostgreSQL', pgStore, 1000)));
    // a job enqueued by another process: its NOTIFY wakes this one
    const other = await openStore({ databaseUrl: url.toString(), dataDir });
    const poller = new JobQueue(other, { pollMs: 1000, concurrency: 4 });
    const sender = await openStore({ databaseUrl: url.toString(), dataDir });
    const senderQueue = new JobQueue(sender);
    rows.push(
      await measure({
        name: 'jobs table, PostgreSQL, enqueued by another process (LISTEN/NOTIFY, poll 1 s)',
        async work(seen) {
          poller.register('bench', async (payload: { n: number; at: number }) => seen(payload));
          poller.start();
        },
        send: async (payload) => void (await senderQueue.enqueue('bench', payload)),
        async close() {
          await poller.stop();
          await other.close();
          await sender.close();
        },
      }),
    );
    rows.push(await measure(await pgBossEngine(`${schema}_boss`)));
    rows.push(await measure(await bullEngine(`xpbench${process.pid}`)));
  } finally {
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.query(`drop schema if exists ${schema}_boss cascade`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`| engine | enqueue->start p50 ms | p99 ms | jobs/s (${MANY}, 4 at a time) |`);
  console.log('|---|---|---|---|');
  for (const row of rows) console.log(row);
  process.exit(0);
}

void main();
