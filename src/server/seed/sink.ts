/**
 * Bulk writing for the seed, on the raw drivers (query building costs too much at a million rows).
 * SQLite: one prepared INSERT per table, rows run inside the caller's transaction. PostgreSQL: one
 * client, `INSERT ... SELECT * FROM unnest($1::type[], ...)` per table and chunk (one parameter per
 * column, so no 65535-parameter limit and one round trip per few thousand rows).
 */
import type SQLite from 'better-sqlite3';
import type pg from 'pg';
import type { Store } from '../store/store';

export type PgType = 'text' | 'bigint' | 'integer' | 'smallint' | 'double precision';

export interface TableSpec<Row = Record<string, unknown>> {
  name: string;
  columns: readonly (readonly [column: keyof Row & string, pgType: PgType])[];
  /** skip rows whose key already exists (media assets are shared between runs). */
  ignoreConflicts?: boolean;
}

export interface Sink {
  readonly kind: 'sqlite' | 'postgres';
  begin(): Promise<void>;
  write<Row>(table: TableSpec<Row>, rows: readonly Row[]): Promise<void>;
  /** runs statements that return nothing (wipes, pragmas). */
  exec(sql: string): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  release(): void;
}

/** Rows per unnest INSERT on PostgreSQL. */
const PG_CHUNK = 2000;

export async function openSink(store: Store): Promise<Sink> {
  return store.raw.kind === 'sqlite'
    ? sqliteSink(store.raw.database)
    : postgresSink(await store.raw.pool.connect());
}

/**
 * The SQLite insert trigger on points that keeps the R*Tree and FTS5 indexes current (migration
 * 0001). Row by row it costs more than half of a large seed; when the trigger is exactly this one,
 * the seed drops it inside its transaction and builds both indexes in bulk before committing.
 */
const POINTS_INSERT_TRIGGER = `create trigger points_ai after insert on points begin
  insert into points_rtree (seq, min_lat, max_lat, min_lon, max_lon) values (new.seq, new.lat, new.lat, new.lon, new.lon);
  insert into points_fts (rowid, title, tagline, type, full_address) values (new.seq, new.title, new.tagline, new.type, new.full_address);
end`;

const normalise = (sql: string) => sql.replace(/\s+/g, ' ').trim().toLowerCase();

function sqliteSink(database: SQLite.Database): Sink {
  const statements = new Map<string, SQLite.Statement>();
  const previousCache = database.pragma('cache_size', { simple: true }) as number;
  const previousForeignKeys = database.pragma('foreign_keys', { simple: true }) as number;
  /** the trigger's SQL while it is dropped, and the last seq before this seed's points. */
  let deferredIndexes: { triggerSql: string; afterSeq: number | null } | null = null;
  /**
   * The change feed's triggers (migration 0003) would log a row per seeded point and event: a fifth
   * more seeding time, and a million rows nobody reads, since the seed fills a store before the server
   * builds its indexes from the tables. They are silenced for the bulk load and restored before commit.
   */
  let silencedTriggers: string[] = [];
  const statementFor = (table: TableSpec<unknown>) => {
    let statement = statements.get(table.name);
    if (!statement) {
      const columns = table.columns.map(([c]) => c);
      statement = database.prepare(
        `insert ${table.ignoreConflicts ? 'or ignore ' : ''}into ${table.name} (${columns.join(', ')}) ` +
          `values (${columns.map(() => '?').join(', ')})`,
      );
      statements.set(table.name, statement);
    }
    return statement;
  };
  const restore = () => {
    database.pragma(`cache_size = ${Number(previousCache) || -2000}`);
    database.pragma(`foreign_keys = ${previousForeignKeys ? 'ON' : 'OFF'}`);
  };
  return {
    kind: 'sqlite',
    async begin() {
      // A large page cache keeps the index B-trees in memory while a million rows go in. Foreign keys
      // are checked by the generator's construction (and by PostgreSQL in the tests); the pragma only
      // takes effect outside a transaction, so it is set before BEGIN.
      database.pragma('cache_size = -262144');
      database.pragma('foreign_keys = OFF');
      database.exec('begin immediate');
      const trigger = database
        .prepare(
          "select sql from sqlite_master where type = 'trigger' and name = 'points_ai' and tbl_name = 'points'",
        )
        .get() as { sql: string } | undefined;
      if (trigger && normalise(trigger.sql) === normalise(POINTS_INSERT_TRIGGER)) {
        database.exec('drop trigger points_ai');
        deferredIndexes = { triggerSql: trigger.sql, afterSeq: null };
      }
      const feedTriggers = database
        .prepare(
          "select name, sql from sqlite_master where type = 'trigger' and tbl_name in ('points', 'events') and name like '%_changes_a_'",
        )
        .all() as { name: string; sql: string }[];
      for (const feedTrigger of feedTriggers) database.exec(`drop trigger ${feedTrigger.name}`);
      silencedTriggers = feedTriggers.map((t) => t.sql);
    },
    async write(table, rows) {
      if (table.name === 'points' && deferredIndexes && deferredIndexes.afterSeq === null) {
        const last = database.prepare('select coalesce(max(seq), 0) as seq from points').get() as {
          seq: number;
        };
        deferredIndexes.afterSeq = last.seq;
      }
      const statement = statementFor(table as TableSpec<unknown>);
      const columns = table.columns.map(([c]) => c);
      const values: unknown[] = new Array(columns.length);
      for (const row of rows) {
        const record = row as Record<string, unknown>;
        for (let i = 0; i < columns.length; i++) values[i] = record[columns[i] as string] ?? null;
        statement.run(values);
      }
    },
    async exec(sql) {
      database.exec(sql);
    },
    async commit() {
      if (deferredIndexes) {
        // the same entries the trigger would have made, built in bulk; FTS5 'rebuild' re-reads the
        // whole external-content table, so it is right whatever was there before
        if (deferredIndexes.afterSeq !== null) {
          database
            .prepare(
              'insert into points_rtree (seq, min_lat, max_lat, min_lon, max_lon) ' +
                'select seq, lat, lat, lon, lon from points where seq > ?',
            )
            .run(deferredIndexes.afterSeq);
          database.exec("insert into points_fts (points_fts) values ('rebuild')");
        }
        database.exec(deferredIndexes.triggerSql);
        deferredIndexes = null;
      }
      for (const triggerSql of silencedTriggers) database.exec(triggerSql);
      silencedTriggers = [];
      // foreign keys were off while writing: check them all once, before anything is committed
      const violations = database.pragma('foreign_key_check') as { table: string; parent: string }[];
      if (violations.length > 0) {
        const first = violations[0] as { table: string; parent: string };
        throw new Error(
          `seed: ${violations.length} rows break a foreign key (first: ${first.table} -> ${first.parent})`,
        );
      }
      database.exec('commit');
    },
    async rollback() {
      // rolls the dropped trigger back too: SQLite DDL is transactional
      if (database.inTransaction) database.exec('rollback');
      deferredIndexes = null;
      silencedTriggers = [];
    },
    release() {
      restore();
    },
  };
}

function postgresSink(client: pg.PoolClient): Sink {
  const sqlFor = new Map<string, string>();
  /**
   * The secondary indexes of points (spatial, full-text, trigram, plain), dropped inside the
   * transaction before the first point and rebuilt from their own definitions before commit:
   * building a GIN index once is several times faster than growing it row by row.
   */
  let deferredIndexes: string[] | null = null;
  const statementFor = (table: TableSpec<unknown>) => {
    let text = sqlFor.get(table.name);
    if (!text) {
      const columns = table.columns.map(([c]) => c).join(', ');
      const arrays = table.columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
      text = `insert into ${table.name} (${columns}) select * from unnest(${arrays})${
        table.ignoreConflicts ? ' on conflict do nothing' : ''
      }`;
      sqlFor.set(table.name, text);
    }
    return text;
  };
  return {
    kind: 'postgres',
    async begin() {
      await client.query('begin');
      await client.query("set local maintenance_work_mem = '256MB'");
    },
    async write(table, rows) {
      if (table.name === 'points' && deferredIndexes === null) {
        const indexes = await client.query<{ schemaname: string; indexname: string; indexdef: string }>(
          `select schemaname, indexname, indexdef from pg_indexes i
           where schemaname = current_schema() and tablename = 'points'
             and not exists (select 1 from pg_constraint c where c.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass)`,
        );
        for (const index of indexes.rows) {
          await client.query(`drop index ${quoteIdent(index.schemaname)}.${quoteIdent(index.indexname)}`);
        }
        deferredIndexes = indexes.rows.map((index) => index.indexdef);
      }
      const text = statementFor(table as TableSpec<unknown>);
      for (let start = 0; start < rows.length; start += PG_CHUNK) {
        const end = Math.min(rows.length, start + PG_CHUNK);
        const params = table.columns.map(([column]) => {
          const values: unknown[] = new Array(end - start);
          for (let i = start; i < end; i++)
            values[i - start] = (rows[i] as Record<string, unknown>)[column] ?? null;
          return values;
        });
        await client.query(text, params);
      }
    },
    async exec(sql) {
      await client.query(sql);
    },
    async commit() {
      for (const definition of deferredIndexes ?? []) await client.query(definition);
      deferredIndexes = null;
      await client.query('commit');
    },
    async rollback() {
      deferredIndexes = null;
      await client.query('rollback');
    },
    release() {
      client.release();
    },
  };
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
