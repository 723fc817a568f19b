import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Writes wake the followers: on PostgreSQL the change-feed trigger (migration 0003) also notifies
 * `xpoint_changes`. A notification is delivered when its transaction commits, and PostgreSQL folds
 * identical ones of a transaction into one, so a bulk insert sends one however many rows it writes.
 * Each process's listener (store/notify.ts) then wakes its follower at once instead of at the next poll.
 * The payload is empty: the listener only wakes the follower, which reads the feed as before.
 *
 * SQLite is unchanged: one process per file, and its follower polls.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`create or replace function xp_record_changes() returns trigger language plpgsql as $$
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
      perform pg_notify('xpoint_changes', '');
      return null;
    end
  $$`.execute(db);
}
