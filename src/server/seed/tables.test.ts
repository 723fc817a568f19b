import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../../test/support/store';
import { WIPE_ORDER } from './tables';

/**
 * The seed's wipe (`--force`) empties WIPE_ORDER's tables; on PostgreSQL in one TRUNCATE, which is
 * refused when any table outside the list still points at one inside it. A feature that adds a table
 * hanging off points or users must add it to the list: this reads the migrated schema's foreign keys
 * and names any table that was forgotten (chat's were, once, and only CI's PostgreSQL run saw it).
 */
describe('the seed wipe order', () => {
  let t: TestStore;
  beforeAll(async () => {
    t = await openTestStore('sqlite');
  });
  afterAll(async () => {
    await t.dispose();
  });

  it('lists every table that refers to a wiped table, children before parents', async () => {
    const wiped = new Set<string>([...WIPE_ORDER, 'points', 'users', 'cities']);
    const tables = await sql<{ name: string }>`
      select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(t.db);
    const forgotten: string[] = [];
    const misordered: string[] = [];
    for (const { name } of tables.rows) {
      const keys = await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${name})`.execute(
        t.db,
      );
      for (const { table: parent } of keys.rows) {
        if (!wiped.has(parent) || parent === name) continue;
        if (!wiped.has(name)) forgotten.push(`${name} -> ${parent}`);
        const child = WIPE_ORDER.indexOf(name as (typeof WIPE_ORDER)[number]);
        const of = WIPE_ORDER.indexOf(parent as (typeof WIPE_ORDER)[number]);
        if (child >= 0 && of >= 0 && child > of) misordered.push(`${name} after ${parent}`);
      }
    }
    expect(forgotten).toEqual([]);
    expect(misordered).toEqual([]);
  });
});
