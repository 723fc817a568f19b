import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openStore, type Store } from '../../src/server/store/store';
import type { Dialect } from '../../src/server/store/dialect';

/** Set by .ci/run when a local PostgreSQL answers; the PostgreSQL half of the suites runs only then. */
export const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'];

/** The dialects to run store tests on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const TEST_DIALECTS: Dialect[] = TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestStore extends Store {
  /** removes the temporary directory or schema. */
  dispose(): Promise<void>;
  /**
   * Opens another store on the same database (PostgreSQL: the same schema), as a second server process
   * would; its dispose only closes it (the first store's dispose removes the schema).
   */
  openAnother(): Promise<TestStore>;
}

/**
 * A fresh, migrated store on a real database: SQLite in a new temporary directory, or PostgreSQL in a
 * new schema of TEST_DATABASE_URL (dropped by dispose), so parallel test files never see each other.
 */
export async function openTestStore(dialect: Dialect = 'sqlite'): Promise<TestStore> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-test-'));
  if (dialect === 'sqlite') {
    const store = await openStore({ dataDir });
    return {
      ...store,
      openAnother: () => Promise.reject(new Error('a SQLite store has one process per file')),
      async dispose() {
        await store.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema},public`);
  const dropSchema = async () => {
    const cleanup = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await cleanup.connect();
    await cleanup.query(`drop schema if exists ${schema} cascade`);
    await cleanup.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  let store: Store;
  try {
    store = await openStore({ databaseUrl: url.toString(), dataDir });
  } catch (error) {
    await dropSchema();
    throw error;
  }
  const another = async (): Promise<TestStore> => {
    const second = await openStore({ databaseUrl: url.toString(), dataDir });
    return { ...second, dispose: () => second.close(), openAnother: another };
  };
  return {
    ...store,
    openAnother: another,
    async dispose() {
      await store.close();
      await dropSchema();
    },
  };
}
