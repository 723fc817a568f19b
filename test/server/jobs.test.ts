import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { JobQueue, type QueueOptions } from '../../src/server/jobs/queue';
import { openTestStore, TEST_DIALECTS, type TestStore } from '../support/store';

/**
 * The durable job queue (issue 25) on the store's `jobs` table, on SQLite and PostgreSQL: retries with
 * backoff, one job per key, each job done once by two workers on one store, and a killed worker's
 * job finished by the other once its lease has passed.
 */

/** Waits for `check` to hold, reading the store; fails after `ms`. */
async function until(check: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(TEST_DIALECTS)('job queue on %s', (dialect) => {
  let store: TestStore;
  let second: TestStore | undefined;
  const queues: JobQueue[] = [];

  const queue = (options: QueueOptions = {}, on: TestStore = store) => {
    const made = new JobQueue(on, { pollMs: 50, ...options });
    queues.push(made);
    return made;
  };
  const job = async (id: string) =>
    store.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    store = await openTestStore(dialect);
    // a second process on the same database (PostgreSQL); SQLite has one process per file
    second = dialect === 'postgres' ? await store.openAnother() : undefined;
  });
  afterEach(async () => {
    for (const made of queues.splice(0)) await made.stop();
    await store.db.deleteFrom('jobs').execute();
  });
  afterAll(async () => {
    await second?.dispose();
    await store.dispose();
  });

  it('retries a failing job with a growing backoff, then gives up once and says why', async () => {
    const runs: number[] = [];
    const givenUp: string[] = [];
    const worker = queue();
    worker.register(
      'always.fails',
      async () => {
        runs.push(Date.now());
        throw new Error(`broken ${runs.length}`);
      },
      {
        retries: 2,
        backoffMs: 100,
        onGiveUp: async (_payload, error) => {
          givenUp.push(error.message);
        },
      },
    );
    worker.start();
    const { id } = await worker.enqueue('always.fails', { n: 1 });
    await until(async () => (await job(id)).state === 'failed');
    expect(runs).toHaveLength(3);
    // 100 ms before the second run, 200 ms before the third
    expect(runs[1]! - runs[0]!).toBeGreaterThanOrEqual(100);
    expect(runs[2]! - runs[1]!).toBeGreaterThanOrEqual(200);
    const row = await job(id);
    expect(row).toMatchObject({ state: 'failed', attempts: 3, last_error: 'broken 3', locked_by: null });
    await until(() => givenUp.length === 1);
    expect(givenUp).toEqual(['broken 3']);
  });

  it('a job that fails once and then works ends done, with no give-up', async () => {
    let runs = 0;
    const worker = queue();
    worker.register(
      'flaky',
      async () => {
        runs += 1;
        if (runs === 1) throw new Error('not yet');
      },
      { retries: 3, backoffMs: 20 },
    );
    worker.start();
    const { id } = await worker.enqueue('flaky', {});
    await until(async () => (await job(id)).state === 'done');
    expect(runs).toBe(2);
  });

  it('enqueueing one key twice makes one job, run once', async () => {
    const seen: unknown[] = [];
    const worker = queue();
    worker.register('once.by.key', async (payload) => {
      seen.push(payload);
    });
    const first = await worker.enqueue('once.by.key', { v: 1 }, { key: 'video-1' });
    const again = await worker.enqueue('once.by.key', { v: 2 }, { key: 'video-1' });
    const other = await worker.enqueue('once.by.key', { v: 3 }, { key: 'video-2' });
    expect(first.created).toBe(true);
    expect(again).toEqual({ id: first.id, created: false });
    expect(other.id).not.toBe(first.id);
    worker.start();
    await until(async () => (await job(other.id)).state === 'done' && (await job(first.id)).state === 'done');
    expect(seen).toEqual(expect.arrayContaining([{ v: 1 }, { v: 3 }]));
    expect(seen).toHaveLength(2);
    // still one job after it is done
    expect((await worker.enqueue('once.by.key', { v: 4 }, { key: 'video-1' })).created).toBe(false);
  });

  it('two workers on one store do each of 40 jobs exactly once', async () => {
    const doneBy = new Map<number, string[]>();
    const make = (name: string, on: TestStore) => {
      const worker = queue({ workerId: name, concurrency: 3 }, on);
      worker.register('count', async (payload: { n: number }) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        doneBy.set(payload.n, [...(doneBy.get(payload.n) ?? []), name]);
      });
      return worker;
    };
    const a = make('a', store);
    const b = make('b', second ?? store);
    for (let n = 0; n < 40; n++) await a.enqueue('count', { n });
    a.start();
    b.start();
    await until(() => doneBy.size === 40);
    await until(async () => {
      const left = await store.db.selectFrom('jobs').select('id').where('state', '!=', 'done').execute();
      return left.length === 0;
    });
    for (const workers of doneBy.values()) expect(workers).toHaveLength(1);
    const byA = [...doneBy.values()].filter(([name]) => name === 'a').length;
    expect(byA).toBeGreaterThan(0);
    expect(40 - byA).toBeGreaterThan(0);
  });

  it("a killed worker's job is done by the other once its lease has passed, exactly once", async () => {
    const finished: string[] = [];
    const started: string[] = [];
    const make = (name: string, on: TestStore) => {
      const worker = queue({ workerId: name, leaseMs: 300 }, on);
      worker.register('slow', async (_payload, run) => {
        started.push(name);
        if (name === 'a') {
          // the first worker never gets to the end: it is killed while it works
          await new Promise((resolve) => run.signal.addEventListener('abort', resolve));
          return;
        }
        finished.push(name);
      });
      return worker;
    };
    const a = make('a', store);
    const { id } = await a.enqueue('slow', {});
    a.start();
    await until(() => started.length === 1);
    expect((await job(id)).locked_by).toBe('a');
    a.abandon();
    const killedAt = Date.now();
    const b = make('b', second ?? store);
    b.start();
    await until(async () => (await job(id)).state === 'done');
    // not before the lease (300 ms from its last renewal) had passed
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(200);
    expect(started).toEqual(['a', 'b']);
    expect(finished).toEqual(['b']);
    expect(await job(id)).toMatchObject({ state: 'done', attempts: 2, locked_by: null });
  });

  it('stop() waits for a running job, then releases one that does not end, without counting it', async () => {
    let release: () => void = () => {};
    const a = queue({ workerId: 'a', graceMs: 100 });
    a.register('stuck', async (_payload, run) => {
      await new Promise<void>((resolve) => {
        release = resolve;
        run.signal.addEventListener('abort', () => resolve());
      });
    });
    const { id } = await a.enqueue('stuck', {});
    a.start();
    await until(async () => (await job(id)).state === 'running');
    await a.stop();
    expect(await job(id)).toMatchObject({ state: 'queued', attempts: 0, locked_by: null });
    release();
    const b = queue({ workerId: 'b' }, second ?? store);
    let ran = 0;
    b.register('stuck', async () => {
      ran += 1;
    });
    b.start();
    await until(async () => (await job(id)).state === 'done');
    expect(ran).toBe(1);
    expect((await job(id)).attempts).toBe(1);
  });

  it.runIf(dialect === 'postgres')(
    'on PostgreSQL a job enqueued by another process starts at once, not at the next poll',
    async () => {
      const worker = queue({ workerId: 'b', pollMs: 60_000 }, second ?? store);
      const ranAt: number[] = [];
      worker.register('wake.me', async () => {
        ranAt.push(Date.now());
      });
      worker.start();
      await until(() => worker.listening);
      const sender = queue({ workerId: 'a' });
      await sender.enqueue('wake.me', {});
      await until(() => ranAt.length === 1);
      // the worker's look after that run has found nothing; its next poll is a minute away
      await new Promise((resolve) => setTimeout(resolve, 300));
      const sentAt = Date.now();
      await sender.enqueue('wake.me', {});
      await until(() => ranAt.length === 2);
      expect(ranAt[1]! - sentAt).toBeLessThan(1000);
    },
  );
});
