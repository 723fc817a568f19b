import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * The store change feed (store/changes.ts): every insert, update and delete of a point or an event
 * leaves a row in point_changes, written by triggers in the same transaction as the change, so every
 * server process on the same database sees every write in commit order of its `seq`, whoever made it
 * (the seed, a feature's Kysely query, a script, psql).
 *
 * SQLite: row triggers. PostgreSQL: statement triggers with transition tables, so a bulk insert of a
 * million rows costs one `insert ... select` rather than a million function calls.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    await db.schema
      .createTable('point_changes')
      .addColumn('seq', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('point', 'event')`))
      .addColumn('object_id', 'text', (c) => c.notNull())
      .addColumn('op', 'text', (c) => c.notNull().check(sql`op in ('upsert', 'delete')`))
      .addColumn('changed_at', 'bigint', (c) => c.notNull())
      .execute();
  } else {
    await db.schema
      .createTable('point_changes')
      .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('point', 'event')`))
      .addColumn('object_id', 'text', (c) => c.notNull())
      .addColumn('op', 'text', (c) => c.notNull().check(sql`op in ('upsert', 'delete')`))
      .addColumn('changed_at', 'bigint', (c) => c.notNull())
      .execute();
  }
  // pruning deletes by age
  await db.schema
    .createIndex('point_changes_changed_at')
    .on('point_changes')
    .columns(['changed_at'])
    .execute();

  if (dialect === 'sqlite') {
    await sqliteTriggers(db);
    // The tile index reads these columns of every point at start. A covering index keeps that read off
    // the wide rows (80 MB instead of 680 MB at a million points: 2 s instead of 8 s); led by seq, so the
    // seed's inserts append to it rather than scatter.
    await db.schema
      .createIndex('points_tiles')
      .on('points')
      .columns(['seq', 'id', 'supertype', 'type', 'subtype', 'title', 'lat', 'lon', 'beamtype', 'is_promo'])
      .execute();
  } else await postgresTriggers(db);
}

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  // epoch milliseconds, the store's time unit (julianday keeps this working on any SQLite 3)
  const now = `cast((julianday('now') - 2440587.5) * 86400000 as integer)`;
  for (const [table, kind] of [
    ['points', 'point'],
    ['events', 'event'],
  ] as const) {
    const insert = (op: string, id: string) =>
      `insert into point_changes (kind, object_id, op, changed_at) values ('${kind}', ${id}, '${op}', ${now});`;
    await sql
      .raw(
        `create trigger ${table}_changes_ai after insert on ${table} begin ${insert('upsert', 'new.id')} end`,
      )
      .execute(db);
    // an id change is a delete of the old id and an insert of the new one
    await sql
      .raw(
        `create trigger ${table}_changes_au after update on ${table} begin
          insert into point_changes (kind, object_id, op, changed_at)
            select '${kind}', old.id, 'delete', ${now} where old.id is not new.id;
          ${insert('upsert', 'new.id')}
        end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${table}_changes_ad after delete on ${table} begin ${insert('delete', 'old.id')} end`,
      )
      .execute(db);
  }
}

async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`create function xp_record_changes() returns trigger language plpgsql as $$
    declare
      kind text := tg_argv[0];
      now_ms bigint := (extract(epoch from clock_timestamp()) * 1000)::bigint;
    begin
      if tg_op = 'INSERT' then
        insert into point_changes (kind, object_id, op, changed_at)
          select kind, n.id, 'upsert', now_ms from new_rows n;
      elsif tg_op = 'UPDATE' then
        insert into point_changes (kind, object_id, op, changed_at)
          select kind, o.id, 'delete', now_ms from old_rows o
          where not exists (select 1 from new_rows n where n.id = o.id);
        insert into point_changes (kind, object_id, op, changed_at)
          select kind, n.id, 'upsert', now_ms from new_rows n;
      else
        insert into point_changes (kind, object_id, op, changed_at)
          select kind, o.id, 'delete', now_ms from old_rows o;
      end if;
      return null;
    end
  $$`.execute(db);
  for (const [table, kind] of [
    ['points', 'point'],
    ['events', 'event'],
  ] as const) {
    await sql
      .raw(
        `create trigger ${table}_changes_ai after insert on ${table}
          referencing new table as new_rows for each statement execute function xp_record_changes('${kind}')`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${table}_changes_au after update on ${table}
          referencing old table as old_rows new table as new_rows
          for each statement execute function xp_record_changes('${kind}')`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${table}_changes_ad after delete on ${table}
          referencing old table as old_rows for each statement execute function xp_record_changes('${kind}')`,
      )
      .execute(db);
  }
}
