import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Distinct query texts kept prepared; the app builds a few hundred, `in (?, ?, …)` lists add more. */
export const STATEMENT_CACHE_SIZE = 1000;

/**
 * The database Kysely's SQLite driver talks to, with each query text prepared once instead of on
 * every execution. Kysely's driver calls `prepare(sql)` for each query; for the posts slice's joined
 * row query, preparing cost more than running it (10.6% of the landing feed's CPU over HTTP,
 * against 16% spent executing every query of the request), so the prepared statements are kept,
 * least recently used first out.
 *
 * A statement is only reused when it is idle: better-sqlite3 runs `all` and `run` synchronously, so
 * the only busy one is a stream's `iterate` still being read, and a second stream of the same text
 * gets a statement of its own. SQLite re-prepares a statement by itself after a schema change.
 */
export function cachingStatements(
  database: SQLite.Database,
  size: number = STATEMENT_CACHE_SIZE,
): SqliteDatabase {
  const prepared = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      prepared.clear();
      database.close();
    },
    prepare(text: string): SqliteStatement {
      const cached = prepared.get(text);
      if (cached) {
        if (cached.busy) return database.prepare(text);
        // most recently used last: a Map iterates in insertion order
        prepared.delete(text);
        prepared.set(text, cached);
        return cached;
      }
      const statement = database.prepare(text);
      prepared.set(text, statement);
      if (prepared.size > size) prepared.delete(prepared.keys().next().value as string);
      return statement;
    },
  };
}
