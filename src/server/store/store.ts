import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteAdapter, SqliteDialect, sql } from 'kysely';
import type { Database } from './schema';
import type { Dialect } from './dialect';
import { migrateToLatest } from './migrate';
import { startCheckpointer } from './checkpointer';
import { cachingStatements } from './statement-cache';

export interface StoreOptions {
  /** a postgres:// URL; when absent the store is SQLite at `${dataDir}/xpoint.db`. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** SQLite file name inside dataDir, or ':memory:'. */
  sqliteFile?: string;
}

/** The driver under Kysely, for bulk paths (seeding, index builds) where query building costs too much. */
export type RawDriver = { kind: 'sqlite'; database: SQLite.Database } | { kind: 'postgres'; pool: pg.Pool };

export interface Store {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  readonly raw: RawDriver;
  /** where the data lives, for logs (never the password). */
  readonly location: string;
  /** answers true when the database responds to a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const PG_INT8 = 20;

/**
 * SQLite does run DDL inside transactions; Kysely's adapter says it does not, which would let a kill
 * in the middle of a migration leave half a schema. Saying yes makes each migration all-or-nothing.
 */
class TransactionalSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}
class TransactionalSqliteDialect extends SqliteDialect {
  override createAdapter(): SqliteAdapter {
    return new TransactionalSqliteAdapter();
  }
}

/** Opens the store and applies pending migrations. Throws a clear Error if the database cannot be reached. */
export async function openStore(options: StoreOptions): Promise<Store> {
  const store = options.databaseUrl ? await openPostgres(options.databaseUrl) : openSqlite(options);
  try {
    await migrateToLatest(store.db as unknown as Kysely<unknown>, store.dialect);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

function openSqlite(options: StoreOptions): Store {
  const file = options.sqliteFile ?? 'xpoint.db';
  let location = ':memory:';
  if (file !== ':memory:') {
    fs.mkdirSync(options.dataDir, { recursive: true });
    location = path.join(options.dataDir, file);
  }
  const database = new SQLite(location);
  // WAL: readers never block the writer, and a kill mid-write leaves a store that opens cleanly.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  // checkpoints run in a worker thread, never inside a request's commit (checkpointer.ts)
  const checkpointer =
    location === ':memory:'
      ? undefined
      : startCheckpointer(database, location, {
          onFailure: (error) =>
            process.emitWarning(`SQLite checkpoints are back in the commits: ${String(error)}`),
        });
  // each query text is prepared once (statement-cache.ts)
  const db = new Kysely<Database>({
    dialect: new TransactionalSqliteDialect({ database: cachingStatements(database) }),
  });
  return storeOver(
    { db, dialect: 'sqlite', raw: { kind: 'sqlite', database }, location },
    () => database.prepare('select 1 as ok').get() !== undefined,
    () => checkpointer?.stop(),
  );
}

async function openPostgres(url: string): Promise<Store> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5000,
    // bigint columns hold epoch milliseconds: read them as numbers, like SQLite does.
    types: {
      getTypeParser: (oid: number, format?: 'text' | 'binary') =>
        oid === PG_INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format),
    } as pg.CustomTypesConfig,
  });
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const location = redactUrl(url);
  try {
    await sql`select 1`.execute(db);
  } catch (error) {
    await db.destroy();
    throw new Error(`cannot reach the PostgreSQL database at ${location}`, { cause: error });
  }
  return storeOver({ db, dialect: 'postgres', raw: { kind: 'postgres', pool }, location }, async () => {
    await sql`select 1`.execute(db);
    return true;
  });
}

/** A store over an opened database: `probe` asks it a trivial query; closing a closed store does nothing. */
function storeOver(
  opened: Omit<Store, 'ping' | 'close'>,
  probe: () => boolean | Promise<boolean>,
  beforeClose?: () => Promise<void> | undefined,
): Store {
  let closed = false;
  return {
    ...opened,
    async ping() {
      try {
        return await probe();
      } catch {
        return false;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await beforeClose?.();
      await opened.db.destroy();
    },
  };
}

/** postgres://user:secret@host/db -> postgres://user@host/db */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '(unparseable url)';
  }
}
