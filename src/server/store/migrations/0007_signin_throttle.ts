import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Sign-in throttling that holds under concurrency (issue 16, finding 3), and the devices the live
 * server has seen (finding 4).
 *
 * `login_throttle` replaces `login_failures`: one row per throttle key (an account and an address, or
 * an account across every address) with a counter that a sign-in attempt reserves with one conditional
 * upsert before the password is checked, so no number of parallel requests checks more passwords than
 * the limit allows. `known_devices` holds the device ids of live sockets, so promo counting can tell a
 * device the server has met from an invented one, whichever process the socket reached.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.dropTable('login_failures').execute();
  await db.schema
    .createTable('login_throttle')
    /** 'pair:<account>|<address>' or 'account:<account>'; <account> is 'user:<id>' or 'login:<lower login>'. */
    .addColumn('throttle_key', 'text', (c) => c.primaryKey())
    /** attempts reserved and failed in the current streak (a reservation counts until released). */
    .addColumn('failures', 'integer', (c) => c.notNull())
    /** how many locks this streak has had: the next lock is twice as long. */
    .addColumn('locks', 'integer', (c) => c.notNull())
    .addColumn('locked_until', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_throttle_updated')
    .on('login_throttle')
    .columns(['updated_at'])
    .execute();

  await db.schema
    .createTable('known_devices')
    .addColumn('device_id', 'text', (c) => c.primaryKey())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('known_devices_seen').on('known_devices').columns(['last_seen_at']).execute();
}
