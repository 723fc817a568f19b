import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { cachingStatements } from './statement-cache';

describe('cachingStatements', () => {
  let database: SQLite.Database;
  afterEach(() => {
    if (database.open) database.close();
  });

  const open = () => {
    database = new SQLite(':memory:');
    database.exec('create table t (id integer primary key, name text)');
    database.exec("insert into t (name) values ('a'), ('b'), ('c')");
    return database;
  };

  it('prepares a query text once and answers with its current parameters each time', () => {
    const cache = cachingStatements(open());
    const first = cache.prepare('select name from t where id = ?');
    const again = cache.prepare('select name from t where id = ?');
    expect(again).toBe(first);
    expect(first.all([1])).toEqual([{ name: 'a' }]);
    expect(again.all([3])).toEqual([{ name: 'c' }]);
  });

  it('keeps the most recently used texts and lets the oldest go', () => {
    const cache = cachingStatements(open(), 2);
    const one = cache.prepare('select 1');
    const two = cache.prepare('select 2');
    expect(cache.prepare('select 1')).toBe(one); // now the most recent
    cache.prepare('select 3'); // pushes out 'select 2'
    expect(cache.prepare('select 1')).toBe(one);
    expect(cache.prepare('select 2')).not.toBe(two);
  });

  it('gives a stream still being read a statement of its own for the same text', () => {
    const cache = cachingStatements(open());
    const text = 'select id from t order by id';
    const reading = cache.prepare(text).iterate([]);
    expect(reading.next().value).toEqual({ id: 1 });
    const second = cache.prepare(text);
    expect(second.all([])).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect([...reading]).toEqual([{ id: 2 }, { id: 3 }]);
  });

  it('sees a schema change made after a statement was prepared', async () => {
    const db = new Kysely<{ t: { id: number; name: string } }>({
      dialect: new SqliteDialect({ database: cachingStatements(open()) }),
    });
    const read = () => sql<{ n: number }>`select count(*) as n from t`.execute(db);
    expect((await read()).rows).toEqual([{ n: 3 }]);
    await sql`drop table t`.execute(db);
    await sql`create table t (id integer primary key, name text, extra text)`.execute(db);
    expect((await read()).rows).toEqual([{ n: 0 }]);
    await db.destroy();
    expect(database.open).toBe(false);
  });
});
