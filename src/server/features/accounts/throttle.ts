import { sql } from 'kysely';
import type { Store } from '../../store/store';

/**
 * Sign-in throttling in the store, atomic under any concurrency (issue 16, finding 3).
 *
 * A sign-in first *reserves* an attempt on each of its keys with one conditional upsert: the counter
 * goes up only while the key is not locked and has fewer than `limit` attempts in its streak, and the
 * statement answers whether it did. Only a reserved attempt gets its password checked, so 50 parallel
 * wrong passwords check at most `limit` of them on SQLite (one writer) and PostgreSQL (the conflicting
 * row is locked and the condition read again on its newest version). A failure keeps its reservation
 * and, at the limit, locks the key: each lock of a streak is twice the one before, up to `maxLockMs`,
 * and after a lock one more attempt is allowed before the next. A success releases its reservation.
 * A streak is forgotten `forgetAfterMs` after its last attempt.
 */
export interface ThrottlePolicy {
  /** attempts in a streak before a lock. */
  limit: number;
  /** the first lock; every further lock of the streak doubles it. */
  baseLockMs: number;
  maxLockMs: number;
  /** a streak with no attempt for this long starts again from nothing. */
  forgetAfterMs: number;
}

export type Reservation = { ok: true } | { ok: false; retryAt: number };

/** An attempt on a key whose reservation is taken but whose outcome is not known yet is this short. */
const IN_FLIGHT_RETRY_MS = 1_000;

/** Reserves one attempt on `key`, or says when to try again. */
export async function reserveAttempt(
  store: Store,
  key: string,
  policy: ThrottlePolicy,
  now: number,
): Promise<Reservation> {
  const stale = now - policy.forgetAfterMs;
  const row = await store.db
    .insertInto('login_throttle')
    .values({ throttle_key: key, failures: 1, locks: 0, locked_until: 0, updated_at: now })
    .onConflict((oc) =>
      oc
        .column('throttle_key')
        .doUpdateSet({
          failures: sql<number>`case when login_throttle.updated_at < ${stale} then 1 else login_throttle.failures + 1 end`,
          locks: sql<number>`case when login_throttle.updated_at < ${stale} then 0 else login_throttle.locks end`,
          updated_at: now,
        })
        .where(
          sql<boolean>`login_throttle.locked_until <= ${now} and (login_throttle.failures < ${policy.limit} or login_throttle.updated_at < ${stale})`,
        ),
    )
    .returning('failures')
    .executeTakeFirst();
  if (row) return { ok: true };
  const current = await store.db
    .selectFrom('login_throttle')
    .select('locked_until')
    .where('throttle_key', '=', key)
    .executeTakeFirst();
  const lockedUntil = Number(current?.locked_until ?? 0);
  return { ok: false, retryAt: lockedUntil > now ? lockedUntil : now + IN_FLIGHT_RETRY_MS };
}

/** Gives a reserved attempt back (the password was right, or another key refused the attempt). */
export async function releaseAttempt(store: Store, key: string): Promise<void> {
  await store.db
    .updateTable('login_throttle')
    .set({
      failures: sql<number>`case when failures > 0 then failures - 1 else 0 end`,
    })
    .where('throttle_key', '=', key)
    .execute();
}

/** Forgets the streak of `key` (a right password from this address). */
export async function clearAttempts(store: Store, key: string): Promise<void> {
  await store.db.deleteFrom('login_throttle').where('throttle_key', '=', key).execute();
}

/**
 * Keeps a failed attempt's reservation; when the streak has reached the limit, locks the key (once:
 * the other failures of the same burst find the counter already lowered). Also drops rows no streak
 * needs any more, so invented logins do not grow the table.
 */
export async function recordFailure(
  store: Store,
  key: string,
  policy: ThrottlePolicy,
  now: number,
): Promise<void> {
  await store.db
    .updateTable('login_throttle')
    .set({
      locked_until: sql<number>`${sql.lit(now)} + ${lockLengthSql(policy)}`,
      locks: sql<number>`locks + 1`,
      failures: policy.limit - 1,
      updated_at: now,
    })
    .where('throttle_key', '=', key)
    .where('failures', '>=', policy.limit)
    .execute();
  await store.db
    .deleteFrom('login_throttle')
    .where('updated_at', '<', now - policy.forgetAfterMs)
    .where('locked_until', '<', now)
    .execute();
}

/** The lock after `locks` earlier ones, as SQL: base, 2 x base, 4 x base ... capped at the maximum. */
function lockLengthSql(policy: ThrottlePolicy) {
  const steps: number[] = [];
  for (let lock = policy.baseLockMs; lock < policy.maxLockMs; lock *= 2) steps.push(lock);
  // literals, not parameters: PostgreSQL cannot type a parameter that only meets other parameters
  const cases = steps.map((ms, locks) => sql`when ${sql.lit(locks)} then ${sql.lit(ms)}`);
  return sql`(case locks ${sql.join(cases, sql` `)} else ${sql.lit(policy.maxLockMs)} end)`;
}
