import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POINT_SUPERTYPES } from '../../../shared/domain/supertypes';
import { LAYER_GROUPS } from '../../../shared/map/contract';
import { newPoint } from '../../../../test/support/factories';
import { TEST_DIALECTS, openTestStore, type TestStore } from '../../../../test/support/store';
import type { NewEvent, NewPoint, NewPost } from '../../store/schema';
import { ChangeFollower } from '../../store/follower';
import { PointTileIndex, type LoadedRecord } from './index';
import { worldX, worldY } from './morton';
import { EVENT_GRACE_MS, readByIds, readSnapshot } from './queries';
import type { RecordChunk } from './scan';
import { PointTiles } from './service';

const NOW = Date.now();
const HOUR = 3_600_000;
const POINT_GROUPS = POINT_SUPERTYPES;
/** Doubles that a 15-digit text round trip would change. */
const AWKWARD = [0.1 + 0.2, 40.70820100000001, -73.98765432109876, 1e-7, 179.99999999999997];

function pointRows(): NewPoint[] {
  const rows: NewPoint[] = [];
  for (let n = 0; n < 600; n++) {
    rows.push(
      newPoint({
        id: n % 97 === 0 ? `pé${n}` : `sp${n}`,
        supertype: POINT_GROUPS[n % POINT_GROUPS.length] as string,
        type: ['cafe', 'bakery', 'Bäckerei'][n % 3] as string,
        subtype: n % 5 === 0 ? 'vegan' : n % 7 === 0 ? '' : null,
        title: n % 11 === 0 ? `Café 🍕 ${n}` : `Scan point ${n}`,
        // distinct positions, a few of them beyond Web Mercator's edge
        lat: n % 50 === 0 ? 86 + n / 1000 : -60 + (n % 120) + (AWKWARD[n % AWKWARD.length] as number) / 10,
        lon: -170 + Math.floor(n / 120) * 60 + (n % 7) * 1e-3 + (AWKWARD[n % AWKWARD.length] as number) / 100,
        beamtype: (n % 4) - 1,
        is_promo: n % 6 === 0 ? 1 : n % 13 === 0 ? 5 : 0,
      }),
    );
  }
  // a point whose supertype has no layer is not shown
  rows.push(newPoint({ id: 'unshown', supertype: 'event', lat: 1, lon: 1 }));
  return rows;
}

function eventRow(n: number, end: number): NewEvent {
  return {
    id: `se${n}`,
    title: `Scan event ${n} ✨`,
    type: 'concert',
    subtype: n % 2 === 0 ? 'jazz' : null,
    start_date: end - HOUR,
    end_date: end,
    lat: 10 + n * 0.5,
    lon: 20 - n * 0.5,
    admission: 'free',
    created_at: NOW,
    updated_at: NOW,
  };
}

function postRow(n: number, fields: Partial<NewPost> = {}): NewPost {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    user_id: 'scan-user',
    title: `Scan post ${n} 📣`,
    description: 'A post.',
    type: ['deal', 'gig', 'petition'][n % 3] as string,
    lat: -20 + n * 0.25,
    lon: 30 + n * 0.25,
    file_resource_bitmask: 0,
    listed_at: NOW - n,
    created_at: NOW - n,
    updated_at: NOW - n,
    ...fields,
  };
}

/** Posts: 1-3 shown (3 expires tomorrow), 4 hidden, 5 without a place, 6 expired. */
const POSTS = [
  postRow(1),
  postRow(2),
  postRow(3, { expires_at: NOW + 24 * HOUR }),
  postRow(4, { hidden_at: NOW - HOUR }),
  postRow(5, { lat: null, lon: null }),
  postRow(6, { expires_at: NOW - HOUR }),
];

/** What the index held before the bulk scan: every record through add(), from Kysely's rows. */
async function referenceIndex(store: TestStore): Promise<PointTileIndex> {
  const index = new PointTileIndex(0);
  const points = await store.db.selectFrom('points').select('id').orderBy('seq').execute();
  for (const record of await readByIds(
    store,
    'point',
    points.map((p) => p.id),
  ))
    index.add('point', record);
  const events = await store.db.selectFrom('events').select('id').execute();
  for (const record of await readByIds(
    store,
    'event',
    events.map((e) => e.id),
  ))
    if ((record.hideAfter as number) > NOW) index.add('event', record);
  const posts = await store.db.selectFrom('posts').select('id').orderBy('listed_at').execute();
  for (const record of await readByIds(
    store,
    'post',
    posts.map((p) => p.id),
  ))
    if (record.hideAfter === null || record.hideAfter > NOW) index.add('post', record);
  index.buildAll();
  return index;
}

/** The tiles around every record at every zoom, and the leaves of every cluster at zoom 0. */
function contents(index: PointTileIndex, places: { lat: number; lon: number }[]): string[] {
  const out: string[] = [];
  for (let z = 0; z <= 20; z++) {
    const seen = new Set<string>();
    for (const { lat, lon } of places) {
      const n = 2 ** z;
      const x = Math.min(n - 1, Math.floor(worldX(lon) * n));
      const y = Math.min(n - 1, Math.floor(worldY(lat) * n));
      if (seen.has(`${x}/${y}`)) continue;
      seen.add(`${x}/${y}`);
      const bytes = index.tile(z, x, y, [...LAYER_GROUPS]);
      out.push(`${z}/${x}/${y} ${bytes ? Buffer.from(bytes).toString('base64') : '-'}`);
    }
  }
  for (const group of LAYER_GROUPS) {
    for (let cell = 0; cell < 64; cell++) {
      const id = cell * 32 + 3; // clusterIdOf(level 3, cell)
      out.push(`${group} ${id} ${JSON.stringify(index.leaves(group, id, 0, 100))}`);
    }
  }
  return out;
}

function decodeIds(chunk: RecordChunk): string[] {
  const text = Buffer.from(chunk.ids.bytes.buffer, chunk.ids.bytes.byteOffset, chunk.ids.bytes.length);
  let start = 0;
  return Array.from(chunk.ids.ends, (end) => {
    const id = text.toString('utf8', start, end);
    start = end;
    return id;
  });
}

for (const dialect of TEST_DIALECTS) {
  describe(`the point index's bulk scan (${dialect})`, () => {
    let store: TestStore;
    let places: { lat: number; lon: number }[];

    beforeAll(async () => {
      store = await openTestStore(dialect);
      const rows = pointRows();
      for (let i = 0; i < rows.length; i += 100)
        await store.db
          .insertInto('points')
          .values(rows.slice(i, i + 100))
          .execute();
      // shown: ends tomorrow, ended an hour ago (within the grace day); hidden: ended a month ago
      await store.db
        .insertInto('events')
        .values([eventRow(1, NOW + 24 * HOUR), eventRow(2, NOW - HOUR), eventRow(3, NOW - 30 * 24 * HOUR)])
        .execute();
      await store.db
        .insertInto('users')
        .values({
          id: 'scan-user',
          username: 'scanner',
          username_lower: 'scanner',
          email: 'scanner@example.org',
          email_lower: 'scanner@example.org',
          fullname: 'Scanner',
          avatar_url: null,
          status: 'active',
          is_admin: 0,
          password_hash: null,
          created_at: NOW,
          updated_at: NOW,
        })
        .execute();
      await store.db.insertInto('posts').values(POSTS).execute();
      places = [
        ...rows,
        eventRow(1, 0),
        eventRow(2, 0),
        ...POSTS.filter((p) => p.lat != null).map((p) => ({ lat: p.lat as number, lon: p.lon as number })),
      ];
    });
    afterAll(async () => {
      await store?.dispose();
    });

    it('reads every shown record with its exact coordinates, in threads or not', async () => {
      const failures: string[] = [];
      for (const threads of [1, 3]) {
        const chunks = await readSnapshot(store, NOW, {
          threads,
          minRowsPerThread: 1,
          log: (message) => {
            if (message.includes('failed')) failures.push(message);
          },
        });
        const exact = new Map<string, [number, number, number | null]>();
        for (const chunk of chunks) {
          decodeIds(chunk).forEach((id, i) =>
            exact.set(`${chunk.kind}:${id}`, [
              chunk.lat[i] as number,
              chunk.lon[i] as number,
              chunk.hideAfter ? (chunk.hideAfter[i] as number) : null,
            ]),
          );
        }
        const rows = await store.db.selectFrom('points').select(['id', 'lat', 'lon', 'supertype']).execute();
        const expected = new Map<string, [number, number, number | null]>();
        for (const row of rows)
          if (row.supertype !== 'event') expected.set(`point:${row.id}`, [row.lat, row.lon, null]);
        expected.set('event:se1', [eventRow(1, 0).lat, eventRow(1, 0).lon, NOW + 24 * HOUR + EVENT_GRACE_MS]);
        expected.set('event:se2', [eventRow(2, 0).lat, eventRow(2, 0).lon, NOW - HOUR + EVENT_GRACE_MS]);
        // shown posts: with a place, not hidden, not expired; Infinity: they never expire
        for (const [post, expires] of [
          [POSTS[0], Infinity],
          [POSTS[1], Infinity],
          [POSTS[2], NOW + 24 * HOUR],
        ] as const)
          expected.set(`post:${post?.id}`, [post?.lat as number, post?.lon as number, expires]);
        expect(exact).toEqual(expected);
        // Object.is: bit for bit, not merely close
        for (const [key, [lat, lon]] of expected) {
          expect(Object.is(exact.get(key)?.[0], lat)).toBe(true);
          expect(Object.is(exact.get(key)?.[1], lon)).toBe(true);
        }
      }
      expect(failures).toEqual([]);
    });

    it('builds the same tiles and leaves as adding the records one by one, and follows changes alike', async () => {
      const reference = await referenceIndex(store);
      const logs: string[] = [];
      const follower = new ChangeFollower(store, { intervalMs: 60_000 });
      const tiles = await PointTiles.open(store, {
        follower,
        scanThreads: 3,
        scanMinRowsPerThread: 1,
        log: (message) => logs.push(message),
      });
      try {
        const index = tiles.index;
        expect(index.count).toBe(reference.count);
        expect(index.count).toBe(600 + 2 + 3);
        expect(index.groupSize('post')).toBe(3);
        expect(contents(index, places)).toEqual(contents(reference, places));
        expect(logs.filter((m) => m.includes('failed'))).toEqual([]);

        // changes to bulk-loaded records: a rename, a move to another group, a delete, a new point in
        // the freed slot, an event that ended
        const renamed: LoadedRecord = {
          id: 'pé97',
          group: 'poi',
          type: 'museum',
          subtype: '',
          title: 'Renamed ✓',
          lat: 1.5,
          lon: 2.5,
          beamtype: 3,
          promo: 1,
          hideAfter: null,
        };
        const fresh: LoadedRecord = {
          ...renamed,
          id: 'new1',
          group: 'rental',
          title: 'New',
          lat: -3,
          lon: 4,
        };
        for (const target of [index, reference]) {
          target.apply('point', ['pé97', 'sp5'], [renamed], 1, NOW);
          target.apply('point', ['new1'], [fresh], 2, NOW);
          target.apply('event', ['se2'], [], 3, NOW);
        }
        const after = [...places, renamed, fresh];
        expect(contents(index, after)).toEqual(contents(reference, after));
        expect(index.count).toBe(600 + 2 + 3 - 1 + 1 - 1);

        // a post that expires leaves at that moment, with no change to tell it; one renewed stays
        const expiring = {
          ...renamed,
          id: POSTS[1]?.id as string,
          group: 'post' as const,
          hideAfter: NOW + HOUR,
        };
        for (const target of [index, reference]) target.apply('post', [expiring.id], [expiring], 4, NOW);
        expect(index.nextExpiry()).toBe(NOW + HOUR);
        expect(index.expireDue(NOW + HOUR - 1)).toBe(0);
        expect(index.expireDue(NOW + HOUR)).toBe(1);
        expect(index.groupSize('post')).toBe(2);
        expect(index.nextExpiry()).toBe(NOW + 24 * HOUR);
        for (const target of [reference]) target.apply('post', [expiring.id], [], 5, NOW);
        expect(contents(index, after)).toEqual(contents(reference, after));
      } finally {
        await tiles.close();
        await follower.stop();
      }
    });
  });
}

describe('the bulk scan of an in-memory SQLite store', () => {
  it('stays on the main thread (no file for a worker to open)', async () => {
    const { openStore } = await import('../../store/store');
    const store = await openStore({ dataDir: '', sqliteFile: ':memory:' });
    try {
      await store.db
        .insertInto('points')
        .values([newPoint({ id: 'm1', lat: 1, lon: 2 }), newPoint({ id: 'm2', lat: 3, lon: 4 })])
        .execute();
      const logs: string[] = [];
      const chunks = await readSnapshot(store, NOW, {
        threads: 4,
        minRowsPerThread: 1,
        log: (m) => logs.push(m),
      });
      expect(chunks.map((c) => [c.kind, c.count])).toEqual([
        ['point', 2],
        ['event', 0],
        ['post', 0],
      ]);
      expect(logs).toEqual([]);
      expect(LAYER_GROUPS[chunks[0]?.group[0] as number]).toBe('business');
    } finally {
      await store.close();
    }
  });
});
