import { sql, type ColumnDataType, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Posts become writable (issue 17):
 * - posts get their place (`lat`, `lon`: the attached point's position when written, so the map and
 *   search read one row), `listed_at` (when the post last went to the top of its lists: created, or
 *   renewed), `renewed_at` (renew is allowed once per 48 hours), `hidden_at` (an admin hid it), `version`
 *   (the point edit's rule: an edit names the version it read, so two tabs cannot silently overwrite
 *   each other), `image_variants` (JSON: the sized URLs of the cover) and `video_id`;
 * - `videos`: a resumable video upload and what became of it (queued, processing, ready, failed);
 * - the change feed (migration 0003) learns the kind `post`, so a post shows on the map and in search
 *   on every process within a second of its write, like points and events.
 * The lists read posts newest first by (owner, point or city, listed_at, id): keyset pages on an index.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const time: ColumnDataType = 'bigint';

  await db.schema
    .createTable('videos')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('uploading', 'queued', 'processing', 'ready', 'failed')`),
    )
    .addColumn('error', 'text')
    .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('duration_ms', 'integer')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('mime', 'text')
    .addColumn('source_key', 'text')
    .addColumn('url', 'text')
    .addColumn('poster_url', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('videos_user').on('videos').columns(['user_id', 'created_at']).execute();

  for (const [column, type] of [
    ['lat', 'double precision'],
    ['lon', 'double precision'],
    ['listed_at', time],
    ['renewed_at', time],
    ['hidden_at', time],
    ['image_variants', 'text'],
  ] as const) {
    await db.schema
      .alterTable('posts')
      .addColumn(column, dialect === 'sqlite' && type === 'double precision' ? 'real' : type)
      .execute();
  }
  await db.schema
    .alterTable('posts')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('posts')
    .addColumn('video_id', 'text', (c) => c.references('videos.id').onDelete('set null'))
    .execute();
  await sql`update posts set listed_at = created_at`.execute(db);
  // the seed's posts on a point take its position
  await sql`update posts set lat = (select p.lat from points p where p.id = posts.xpoint_id),
    lon = (select p.lon from points p where p.id = posts.xpoint_id) where xpoint_id is not null`.execute(db);

  await db.schema.dropIndex('posts_city_created').execute();
  await db.schema.dropIndex('posts_user').execute();
  await db.schema.dropIndex('posts_point').execute();
  await db.schema
    .createIndex('posts_user_listed')
    .on('posts')
    .columns(['user_id', 'listed_at', 'id'])
    .execute();
  await db.schema
    .createIndex('posts_point_listed')
    .on('posts')
    .columns(['xpoint_id', 'listed_at', 'id'])
    .execute();
  await db.schema
    .createIndex('posts_city_listed')
    .on('posts')
    .columns(['city_id', 'listed_at', 'id'])
    .execute();

  if (dialect === 'postgres') await postgresPostChanges(db);
  else await sqlitePostChanges(db);
}

async function postgresPostChanges(db: Kysely<unknown>): Promise<void> {
  await sql`alter table point_changes drop constraint if exists point_changes_kind_check`.execute(db);
  await sql`alter table point_changes add constraint point_changes_kind_check
    check (kind in ('point', 'event', 'post'))`.execute(db);
  // xp_record_changes (migrations 0003 and 0009) records the rows and notifies the listeners
  await sql`create trigger posts_changes_ai after insert on posts
    referencing new table as new_rows for each statement execute function xp_record_changes('post')`.execute(
    db,
  );
  await sql`create trigger posts_changes_au after update on posts
    referencing old table as old_rows new table as new_rows
    for each statement execute function xp_record_changes('post')`.execute(db);
  await sql`create trigger posts_changes_ad after delete on posts
    referencing old table as old_rows for each statement execute function xp_record_changes('post')`.execute(
    db,
  );
}

/**
 * SQLite cannot change a CHECK constraint in place: the feed table is rebuilt with its rows (a table
 * renamed while another table's trigger names a table that no longer exists is refused, so the
 * triggers go first and come back after).
 */
async function sqlitePostChanges(db: Kysely<unknown>): Promise<void> {
  for (const table of ['points', 'events'])
    for (const suffix of ['ai', 'au', 'ad'])
      await sql.raw(`drop trigger ${table}_changes_${suffix}`).execute(db);
  await sql`create table point_changes_next (
    seq integer primary key autoincrement,
    kind text not null check (kind in ('point', 'event', 'post')),
    object_id text not null,
    op text not null check (op in ('upsert', 'delete')),
    changed_at bigint not null
  )`.execute(db);
  await sql`insert into point_changes_next (seq, kind, object_id, op, changed_at)
    select seq, kind, object_id, op, changed_at from point_changes`.execute(db);
  // the feed's position never goes back, even when pruning has emptied it
  await sql`delete from sqlite_sequence where name = 'point_changes_next'`.execute(db);
  await sql`insert into sqlite_sequence (name, seq)
    select 'point_changes_next', seq from sqlite_sequence where name = 'point_changes'`.execute(db);
  await sql`drop table point_changes`.execute(db);
  await sql`alter table point_changes_next rename to point_changes`.execute(db);
  await db.schema
    .createIndex('point_changes_changed_at')
    .on('point_changes')
    .columns(['changed_at'])
    .execute();

  const now = `cast((julianday('now') - 2440587.5) * 86400000 as integer)`;
  for (const [table, kind] of [
    ['points', 'point'],
    ['events', 'event'],
    ['posts', 'post'],
  ] as const) {
    const insert = (op: string, id: string) =>
      `insert into point_changes (kind, object_id, op, changed_at) values ('${kind}', ${id}, '${op}', ${now});`;
    await sql
      .raw(
        `create trigger ${table}_changes_ai after insert on ${table} begin ${insert('upsert', 'new.id')} end`,
      )
      .execute(db);
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
