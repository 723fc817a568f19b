import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPoint } from '../../../test/support/factories';
import { openTestStore, TEST_DIALECTS, type TestStore } from '../../../test/support/store';
import { ChangeReader } from './changes';
import type { NewPoint } from './schema';

const T0 = 1_717_171_717_171;

function pointRow(id: string, fields: Partial<NewPoint> = {}): NewPoint {
  return newPoint({ id, lat: 1, lon: 2, created_at: T0, updated_at: T0, ...fields });
}

for (const dialect of TEST_DIALECTS) {
  describe(`the store change feed reader (${dialect})`, () => {
    let store: TestStore;
    beforeAll(async () => {
      store = await openTestStore(dialect);
    });
    afterAll(async () => {
      await store?.dispose();
    });

    it('reads inserts, updates, id changes and deletes of points and events, in order, once', async () => {
      const reader = new ChangeReader(store);
      reader.seek(await reader.latestSeq());

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

      const { changes, rows } = await reader.read();
      expect(rows).toBe(7);
      expect(changes.map((c) => `${c.kind} ${c.op} ${c.objectId}`)).toEqual([
        'point upsert a',
        'point upsert b',
        'point upsert a',
        'point delete b',
        'point upsert c',
        'point delete a',
        'event upsert e1',
      ]);
      expect(changes.every((c) => c.changedAt > T0)).toBe(true);
      expect(await reader.read()).toEqual({ changes: [], rows: 0 });
      expect(reader.position).toBe(await reader.latestSeq());
    });

    it('reads a large backlog a batch at a time, and prunes old rows', async () => {
      const reader = new ChangeReader(store, { batchSize: 2 });
      reader.seek(await reader.latestSeq());
      await store.db
        .insertInto('points')
        .values([pointRow('p1'), pointRow('p2'), pointRow('p3')])
        .execute();
      const first = await reader.read();
      const second = await reader.read();
      expect([first.rows, second.rows]).toEqual([2, 1]);
      expect([...first.changes, ...second.changes].map((c) => c.objectId)).toEqual(['p1', 'p2', 'p3']);

      await reader.prune(Date.now() + 1000);
      expect(await store.db.selectFrom('point_changes').select('seq').execute()).toEqual([]);
    });
  });
}
