import type { ColumnDataType, Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Sign-in sessions and failed sign-in attempts (issue 3).
 * A session row is keyed by the sha256 of the token's random part, so a copy of the database
 * cannot be replayed as tokens. Failed sign-ins live in the store so that several processes agree
 * on when an account is throttled.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const time: ColumnDataType = 'bigint';
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('last_seen_at', time, (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .addColumn('revoked_at', time)
    .addColumn('user_agent', 'text')
    .addColumn('ip', 'text')
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').columns(['user_id']).execute();
  await db.schema.createIndex('sessions_expires').on('sessions').columns(['expires_at']).execute();

  const table = db.schema.createTable('login_failures');
  await (
    dialect === 'postgres'
      ? table.addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    /** 'user:<id>' for a known account, 'login:<lower-cased login>' for an unknown one. */
    .addColumn('account_key', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('failed_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_failures_key_time')
    .on('login_failures')
    .columns(['account_key', 'failed_at'])
    .execute();
}
