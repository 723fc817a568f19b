import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * The durable job queue (issue 25; src/server/jobs/queue.ts): one row per job, written before the work
 * starts, so a job survives a crash of the process that enqueued it or ran it.
 * - `state`: queued (waiting for `run_at`), running (leased to `locked_by` until `locked_until`: a
 *   worker that dies stops renewing it, and another takes the job once it has passed), done, failed;
 * - `key`: a job enqueued twice with one key is one job (unique per name; jobs without a key never clash);
 * - the claim reads by (state, run_at): the queued jobs that are due, oldest first.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('queued', 'running', 'done', 'failed')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_name_key').on('jobs').columns(['name', 'key']).unique().execute();
  await db.schema.createIndex('jobs_due').on('jobs').columns(['state', 'run_at']).execute();
}
