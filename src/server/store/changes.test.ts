import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPoint } from '../../../test/support/factories';
import { openTestStore, TEST_DIALECTS, type TestStore } from '../../../test/support/store';
import { ChangeFeed, type StoreChange } from './changes';
import type { NewPoint } from './schema';

const T0 = 1_717_171_717_171;

function pointRow(id: string, fields: Partial<NewPoint> = {}): NewPoint {
  return newPoint({ id, lat: 1, lon: 2, created_at: T0, updated_at: T0, ...fields });
}

for (const dialect of TEST_DIALECTS) {
  describe(`the store change feed (${dialect})`, () => {
    let store: TestStore;
    beforeAll(async () => {
      store = await openTestStore(dialect);
    });
    afterAll(async () => {
      await store?.dispose();
    });

    it('records inserts, updates, id changes and deletes of points and events, in order', async () => {
      const feed = new ChangeFeed(store);
      await feed.start(await feed.latestSeq());
      await feed.stop();
      const seen: StoreChange[] = [];
      feed.subscribe('point', (changes) => {
        seen.push(...changes);
      });
      const events: StoreChange[] = [];
      const unsubscribe = feed.subscribe('event', (changes) => {
        events.push(...changes);
      });

      await store.db
        .insertInto('points')
        .values([pointRow('a'), pointRow('b')])
        .execute();
      await store.db.updateTable('points').set({ title: 'A' }).where('id', '=', 'a').execute();
      await store.db.updateTable('points').set({ id: 'c' }).where('id', '=', 'b').execute();
      await store.db.deleteFrom('points').where('id', '=', 'a').execute();
      await store.db
        .insertInto('events')
        .values({
          id: 'e1',
          title: 'E',
          type: 'concert',
          start_date: T0,
          end_date: T0 + 1,
          lat: 0,
          lon: 0,
          admission: 'free',
          created_at: T0,
          updated_at: T0,
        })
        .execute();

      expect(await feed.poll()).toBe(7);
      expect(seen.map((c) => `${c.op} ${c.objectId}`)).toEqual([
        'upsert a',
        'upsert b',
        'upsert a',
        'delete b',
        'upsert c',
        'delete a',
      ]);
      expect(seen.every((c) => c.kind === 'point' && c.changedAt > T0)).toBe(true);
      expect(events.map((c) => `${c.op} ${c.objectId}`)).toEqual(['upsert e1']);
      expect(await feed.poll()).toBe(0);

      unsubscribe();
      await store.db.deleteFrom('events').execute();
      await feed.poll();
      expect(events).toHaveLength(1);
      expect(feed.position).toBe(await feed.latestSeq());
    });

    it('starts from a position, keeps polling while started, and prunes old rows', async () => {
      const feed = new ChangeFeed(store, { intervalMs: 20 });
      const received: string[] = [];
      feed.subscribe('point', (changes) => {
        received.push(...changes.map((c) => c.objectId));
      });
      await feed.start();
      await store.db.insertInto('points').values(pointRow('live1')).execute();
      for (let i = 0; i < 100 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      await feed.stop();
      expect(received).toEqual(['live1']);

      await feed.prune(Date.now() + 1000);
      expect(await store.db.selectFrom('point_changes').select('seq').execute()).toEqual([]);
    });

    it('keeps going when a subscriber throws', async () => {
      const errors: unknown[] = [];
      const feed = new ChangeFeed(store, { onError: (error) => errors.push(error) });
      await feed.start();
      await feed.stop();
      const after: string[] = [];
      feed.subscribe('point', () => {
        throw new Error('boom');
      });
      feed.subscribe('point', (changes) => {
        after.push(...changes.map((c) => c.objectId));
      });
      await store.db.insertInto('points').values(pointRow('x1')).execute();
      await feed.poll();
      expect(errors).toHaveLength(1);
      expect(after).toEqual(['x1']);
    });
  });
}
