import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openTestApp } from '../../../test/support/app';
import { newPoint } from '../../../test/support/factories';
import { openTestStore, TEST_DIALECTS, type TestStore } from '../../../test/support/store';
import { ChangeReader, type ChangeKind, type StoreChange } from './changes';
import { ChangeFollower, type ChangeSubscriber } from './follower';
import { listenForChanges } from './notify';

/** A subscriber that writes down `kind op id` of every change it is handed. */
function recorder(name: string): ChangeSubscriber & { seen: string[] } {
  const seen: string[] = [];
  return {
    name,
    seen,
    onChanges(kind: ChangeKind, changes: readonly StoreChange[]) {
      for (const c of changes) seen.push(`${kind} ${c.op} ${c.objectId}`);
    },
  };
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not true after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

for (const dialect of TEST_DIALECTS) {
  describe(`the change feed follower (${dialect})`, () => {
    let store: TestStore;
    const errors: Array<[unknown, string | undefined]> = [];
    let follower: ChangeFollower;
    const insert = (...ids: string[]) =>
      store.db
        .insertInto('points')
        .values(ids.map((id) => newPoint({ id, lat: 1, lon: 2 })))
        .execute();
    /** a write, then one read of the feed by hand (these followers' timers are a minute apart). */
    const insertAndRead = async (id: string) => {
      await insert(id);
      await follower.poll();
    };

    beforeEach(async () => {
      store = await openTestStore(dialect);
      errors.length = 0;
    });
    afterEach(async () => {
      await follower?.stop();
      await store?.dispose();
    });

    it('reads the feed once per interval, however many subscribe, and hands every batch to each', async () => {
      follower = new ChangeFollower(store, { intervalMs: 100 });
      const read = vi.spyOn(follower.reader, 'read');
      const started = Date.now();
      const subscribers = [recorder('search'), recorder('point tiles'), recorder('report beams')];
      for (const subscriber of subscribers) await follower.subscribe(subscriber);
      await insert('a1', 'a2');
      await until(() => subscribers.every((s) => s.seen.length === 2));
      await new Promise((resolve) => setTimeout(resolve, 500));
      await insert('a3');
      await until(() => subscribers.every((s) => s.seen.length === 3));
      const elapsed = Date.now() - started;

      for (const s of subscribers)
        expect(s.seen).toEqual(['point upsert a1', 'point upsert a2', 'point upsert a3']);
      // one read per interval (plus the one in flight), not one per subscriber
      expect(read.mock.calls.length).toBeGreaterThan(3);
      expect(read.mock.calls.length).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 1);
    });

    it('goes on when a subscriber throws: the error names it, the others and its next batches still come', async () => {
      follower = new ChangeFollower(store, {
        intervalMs: 60_000,
        onError: (e, name) => errors.push([e, name]),
      });
      const before = recorder('before');
      let calls = 0;
      await follower.subscribe(before);
      await follower.subscribe({
        name: 'flaky',
        onChanges() {
          calls++;
          throw new Error('boom');
        },
      });
      const after = recorder('after');
      await follower.subscribe(after);

      await insertAndRead('x1');
      await insertAndRead('x2');
      await follower.settled();
      expect(before.seen).toEqual(['point upsert x1', 'point upsert x2']);
      expect(after.seen).toEqual(['point upsert x1', 'point upsert x2']);
      expect(calls).toBe(2);
      expect(errors.map(([e, name]) => [(e as Error).message, name])).toEqual([
        ['boom', 'flaky'],
        ['boom', 'flaky'],
      ]);
    });

    it('tells its trace when it is woken, what each read answered and when each subscriber had applied it', async () => {
      let clock = 1000;
      const steps: string[] = [];
      follower = new ChangeFollower(store, {
        intervalMs: 60_000,
        now: () => clock,
        trace: {
          woken: (at) => steps.push(`woken ${at}`),
          read: (changes, at) => steps.push(`read ${changes.map((c) => c.objectId).join(',')} ${at}`),
          handled: (name, changes, at) =>
            steps.push(`${name} ${changes.map((c) => c.objectId).join(',')} ${at}`),
        },
      });
      await follower.subscribe(recorder('search'));
      await follower.subscribe({
        name: 'tiles',
        async onChanges() {
          await new Promise((resolve) => setTimeout(resolve, 5));
          clock = 1040;
        },
      });
      await insert('t1', 't2');
      clock = 1010;
      follower.wake();
      await until(() => steps.length === 4);
      await follower.settled();
      expect(steps).toEqual(['woken 1010', 'read t1,t2 1010', 'search t1,t2 1010', 'tiles t1,t2 1040']);
    });

    it('hands nothing more to a closed subscription, and goes on for the others', async () => {
      follower = new ChangeFollower(store, { intervalMs: 60_000 });
      const leaving = recorder('leaving');
      const staying = recorder('staying');
      const subscription = await follower.subscribe(leaving);
      await follower.subscribe(staying);
      await insertAndRead('u1');
      await follower.settled();
      await subscription.close();
      await insertAndRead('u2');
      await follower.settled();
      expect(leaving.seen).toEqual(['point upsert u1']);
      expect(staying.seen).toEqual(['point upsert u1', 'point upsert u2']);
    });

    it('gives a held subscriber exactly the changes after its position, once it starts', async () => {
      follower = new ChangeFollower(store, { intervalMs: 60_000 });
      const early = recorder('early');
      await follower.subscribe(early);
      await insert('h1');
      // the follower has not read h1 yet; the snapshot of a late subscriber includes it
      const late = recorder('late');
      const held = await follower.subscribe(late, { hold: true });
      await insertAndRead('h2');
      await follower.settled();
      expect(early.seen).toEqual(['point upsert h1', 'point upsert h2']);
      expect(late.seen).toEqual([]);

      await insertAndRead('h3');
      held.start();
      await follower.settled();
      expect(late.seen).toEqual(['point upsert h2', 'point upsert h3']);
    });

    it('follows from a snapshot: a change made during the build comes after it, none from before', async () => {
      follower = new ChangeFollower(store, { intervalMs: 60_000 });
      await follower.subscribe(recorder('first'));
      await insert('b1');
      const seen: string[] = [];
      const built = await follower.followSnapshot(
        'index',
        async () => {
          await insert('b2');
          // the follower reads on while the snapshot is being read
          await follower.poll();
          return 'snapshot';
        },
        (value, _kind, changes) => {
          seen.push(...changes.map((c) => `${value} ${c.objectId}`));
        },
      );
      await follower.settled();
      expect(built).toBe('snapshot');
      expect(seen).toEqual(['snapshot b2']);

      await expect(
        follower.followSnapshot(
          'broken',
          () => Promise.reject(new Error('no')),
          () => {},
        ),
      ).rejects.toThrow('no');
      await insertAndRead('b3');
      await follower.settled();
      expect(seen).toEqual(['snapshot b2', 'snapshot b3']);
    });

    it('does not hold the others back for a slow subscriber, nor read its rows twice', async () => {
      follower = new ChangeFollower(store, { intervalMs: 60_000 });
      const read = vi.spyOn(follower.reader, 'read');
      let release = () => {};
      const blocked = new Promise<void>((resolve) => (release = resolve));
      const slowSeen: string[] = [];
      await follower.subscribe({
        name: 'slow',
        async onChanges(_kind, changes) {
          await blocked;
          slowSeen.push(...changes.map((c) => c.objectId));
        },
      });
      const quick = recorder('quick');
      await follower.subscribe(quick);

      await insertAndRead('s1');
      await insertAndRead('s2');
      await until(() => quick.seen.length === 2);
      expect(slowSeen).toEqual([]);
      release();
      await follower.settled();
      expect(slowSeen).toEqual(['s1', 's2']);
      expect(read).toHaveBeenCalledTimes(2);
    });

    it('reads at once when woken, a burst of wakes folding into the read in flight and one after it', async () => {
      follower = new ChangeFollower(store, { intervalMs: 60_000 });
      const read = vi.spyOn(follower.reader, 'read');
      const subscriber = recorder('woken');
      follower.wake(); // before the first subscriber: nothing to read for
      await follower.subscribe(subscriber);
      expect(read).not.toHaveBeenCalled();

      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const original = ChangeReader.prototype.read.bind(follower.reader);
      read.mockImplementationOnce(async () => {
        await held;
        return original();
      });
      await insert('w1');
      follower.wake();
      await until(() => read.mock.calls.length === 1);
      await insert('w2');
      for (let i = 0; i < 10; i++) follower.wake();
      release();
      await until(() => subscriber.seen.length === 2);
      await new Promise((resolve) => setTimeout(resolve, 100));
      // the held read, then one for all ten wakes; the next is a minute away
      expect(read).toHaveBeenCalledTimes(2);
      expect(subscriber.seen).toEqual(['point upsert w1', 'point upsert w2']);
    });

    it('stops after the batches it read are handled, so the store can close, and takes no one after', async () => {
      follower = new ChangeFollower(store, { intervalMs: 60_000 });
      const handled: string[] = [];
      await follower.subscribe({
        name: 'slow',
        async onChanges(_kind, changes) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          handled.push(...changes.map((c) => c.objectId));
        },
      });
      await insertAndRead('z1');
      await follower.stop();
      expect(handled).toEqual(['z1']);
      await expect(follower.subscribe(recorder('late'))).rejects.toThrow('stopped');
    });
  });
}

describe.skipIf(!TEST_DIALECTS.includes('postgres'))('the change listener (postgres)', () => {
  let store: TestStore;
  let other: TestStore | undefined;
  let follower: ChangeFollower | undefined;
  afterEach(async () => {
    await follower?.stop();
    await other?.dispose();
    await store?.dispose();
  });

  it('wakes the follower of another store on commit, and after a lost connection once it is back', async () => {
    store = await openTestStore('postgres');
    other = await store.openAnother();
    follower = new ChangeFollower(other, { intervalMs: 60_000 });
    const subscriber = recorder('other process');
    await follower.subscribe(subscriber);
    const logged: string[] = [];
    const woken = follower;
    const listener = listenForChanges(other, () => woken.wake(), {
      backoffMs: 20,
      log: { warn: (m) => logged.push(`warn ${m}`), info: (m) => logged.push(`info ${m}`) },
    });
    try {
      await listener.ready;
      const write = (id: string) =>
        store.db
          .insertInto('points')
          .values(newPoint({ id, lat: 1, lon: 2 }))
          .execute();
      // the poll is a minute away: only the notification can bring these within a second
      await write('n1');
      await until(() => subscriber.seen.length === 1, 1000);

      const pid = listener.backendPid();
      expect(pid).toBeTypeOf('number');
      await sql`select pg_terminate_backend(${pid})`.execute(store.db);
      await until(() => listener.backendPid() !== undefined && listener.backendPid() !== pid);
      await write('n2');
      await until(() => subscriber.seen.length === 2, 1000);
      expect(subscriber.seen).toEqual(['point upsert n1', 'point upsert n2']);
      expect(logged.filter((m) => m.startsWith('warn'))).toHaveLength(1);
      expect(logged.filter((m) => m.startsWith('info'))).toHaveLength(1);
    } finally {
      await listener.close();
    }
  });
});

describe('the app', () => {
  it('reads the change feed once per interval for search, point tiles and report beams together', async () => {
    const read = vi.spyOn(ChangeReader.prototype, 'read');
    const t = await openTestApp({ changeFeedPollMs: 100 });
    try {
      // search builds in the background: wait until it follows the feed too, then count for a while
      await t.app.inject({ method: 'POST', url: '/v1/app/searchsuggestions', payload: { q: 'x' } });
      await t.store.db
        .insertInto('points')
        .values(newPoint({ id: 'app1', title: 'Followed Place', lat: 1, lon: 2 }))
        .execute();
      read.mockClear();
      const started = Date.now();
      await until(() => t.app.pointTiles.index.count === 1);
      await new Promise((resolve) => setTimeout(resolve, 600));
      const elapsed = Date.now() - started;
      // three followers would read about three times as often
      expect(read.mock.calls.length).toBeGreaterThanOrEqual(3);
      expect(read.mock.calls.length).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 1);
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/app/searchsuggestions',
        payload: { q: 'followed' },
      });
      expect(JSON.stringify(res.json())).toContain('Followed Place');
    } finally {
      read.mockRestore();
      await t.close();
    }
  });
});
