import type SQLite from 'better-sqlite3';

/**
 * Counts every row written to the watched tables of a SQLite store: temporary triggers on the
 * test's own connection (the one the app writes through) add one per inserted, updated or deleted
 * row to a temporary table. Nothing reaches the store's file; the count is exact where a fingerprint
 * of row counts would miss an update, and cheap enough to read around every request.
 */
export class WriteCounter {
  private readonly read: SQLite.Statement<[], { tbl: string; n: number }>;

  constructor(
    database: SQLite.Database,
    readonly tables: readonly string[],
  ) {
    database.exec('create temp table if not exists fuzz_writes (tbl text primary key, n integer not null)');
    for (const table of tables) {
      if (!/^\w+$/.test(table)) throw new Error(`not a table name: ${table}`);
      database.prepare('insert or ignore into temp.fuzz_writes (tbl, n) values (?, 0)').run(table);
      for (const event of ['insert', 'update', 'delete'])
        database.exec(
          `create temp trigger if not exists fuzz_${table}_${event} after ${event} on main.${table} ` +
            `begin update temp.fuzz_writes set n = n + 1 where tbl = '${table}'; end`,
        );
    }
    this.read = database.prepare('select tbl, n from temp.fuzz_writes');
  }

  /**
   * The store's tables except SQLite's own, Kysely's migration bookkeeping and `except`. The search
   * and bounds indexes (virtual tables, which take no triggers, and their shadow tables) are left
   * out too: triggers on `points` keep them, and `points` is watched.
   */
  static tablesOf(database: SQLite.Database, except: readonly string[]): string[] {
    const tables = database
      .prepare("select name, sql from sqlite_master where type = 'table' and name not like 'sqlite_%'")
      .all() as { name: string; sql: string }[];
    const virtual = tables.filter((table) => /^create virtual/i.test(table.sql)).map((table) => table.name);
    return tables
      .map((table) => table.name)
      .filter(
        (name) =>
          !name.startsWith('kysely_') &&
          !except.includes(name) &&
          !virtual.some((index) => name === index || name.startsWith(`${index}_`)),
      )
      .sort();
  }

  /** Rows written so far, per table. */
  snapshot(): Map<string, number> {
    return new Map(this.read.all().map((row) => [row.tbl, row.n]));
  }

  /** The tables written between two snapshots, with how many rows. */
  static difference(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
    const changed: Record<string, number> = {};
    for (const [table, n] of after)
      if (n !== before.get(table)) changed[table] = n - (before.get(table) ?? 0);
    return changed;
  }
}
