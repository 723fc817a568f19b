import type { Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/server/store/migrate';
import { openTestStore, type TestStore } from '../support/store';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

/**
 * Tests and tenants share one PostgreSQL database, each in its own schema. Kysely's migrator lists every
 * schema's tables to find its own; a schema dropped by someone else during that listing must not fail
 * our migration (CI once failed "schema t_… does not exist" this way).
 */
describe.runIf(!!TEST_DATABASE_URL)('migrations beside other stores in one PostgreSQL database', () => {
  const stores: TestStore[] = [];
  afterAll(async () => {
    for (const store of stores) await store.dispose();
  });

  it('re-applies nothing while other schemas are created and dropped all along', async () => {
    const store = await openTestStore('postgres');
    stores.push(store);
    const churn = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await churn.connect();
    let stop = false;
    const churning = (async () => {
      for (let i = 0; !stop; i++) {
        const name = `churn_${process.pid}_${i}`;
        await churn.query(`create schema ${name}; create table ${name}.t (id int)`);
        await churn.query(`drop schema ${name} cascade`);
        // other test files drop their schemas now and then, not back to back
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    try {
      for (let i = 0; i < 150; i++)
        expect(await migrateToLatest(store.db as unknown as Kysely<unknown>, 'postgres')).toEqual([]);
    } finally {
      stop = true;
      await churning;
      await churn.end();
    }
  }, 120_000);
});
