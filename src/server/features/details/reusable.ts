import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { Database } from '../../store/schema';
import type { Store } from '../../store/store';

/**
 * A Kysely query built and compiled once per store, then run with new values: on SQLite through a
 * cached better-sqlite3 statement. The detail JSON is eight small indexed reads; building, compiling
 * and preparing each of them on every request cost four times more than running them (measured on
 * the point query: 0.5 ms compile + 0.5 ms prepare against 0.2 ms run).
 *
 * `build` receives marker values in place of its arguments; every parameter of the compiled query
 * that is a marker is replaced by the matching argument on each call. Markers are strings no caller
 * passes, so a constant parameter of the query is never mistaken for an argument.
 */
export function reusable<A extends unknown[], R>(
  arity: A['length'],
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
): (store: Store, ...args: A) => Promise<R[]> {
  const markers = Array.from({ length: arity }, (_, i) => `\u0001xp-arg-${i}\u0001`);
  const compiledPerDb = new WeakMap<Kysely<Database>, { query: CompiledQuery<R>; slots: number[] }>();
  return async (store, ...args) => {
    let entry = compiledPerDb.get(store.db);
    if (!entry) {
      const query = build(store.db, ...(markers as unknown as A)).compile();
      entry = { query, slots: query.parameters.map((p) => markers.indexOf(p as string)) };
      compiledPerDb.set(store.db, entry);
    }
    const { query, slots } = entry;
    const parameters = query.parameters.map((p, i) => {
      const slot = slots[i] as number;
      return slot >= 0 ? args[slot] : p;
    });
    if (store.raw.kind === 'sqlite')
      return statementFor(store.raw.database, query.sql).all(parameters) as R[];
    return (await store.db.executeQuery<R>({ ...query, parameters })).rows;
  };
}

const statements = new WeakMap<SQLite.Database, Map<string, SQLite.Statement>>();

function statementFor(database: SQLite.Database, text: string): SQLite.Statement {
  let cache = statements.get(database);
  if (!cache) {
    cache = new Map();
    statements.set(database, cache);
  }
  let statement = cache.get(text);
  if (!statement) {
    statement = database.prepare(text);
    cache.set(text, statement);
  }
  return statement;
}
