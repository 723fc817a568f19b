import type { Store } from '../store/store';

/** The store side of sessions: Kysely only. Times are epoch milliseconds. */

export interface SessionUser {
  sessionId: string;
  expiresAt: number;
  lastSeenAt: number;
  user: { id: string; username: string; isAdmin: boolean };
}

export async function insertSession(
  store: Store,
  row: {
    id: string;
    userId: string;
    now: number;
    expiresAt: number;
    userAgent: string | null;
    ip: string | null;
  },
): Promise<void> {
  await store.db
    .insertInto('sessions')
    .values({
      id: row.id,
      user_id: row.userId,
      created_at: row.now,
      last_seen_at: row.now,
      expires_at: row.expiresAt,
      revoked_at: null,
      user_agent: row.userAgent,
      ip: row.ip,
    })
    .execute();
}

/** The live session with this id and its user, or undefined when unknown, revoked or expired. */
export async function findLiveSession(
  store: Store,
  sessionId: string,
  now: number,
): Promise<SessionUser | undefined> {
  const row = await store.db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id as session_id',
      'sessions.expires_at',
      'sessions.last_seen_at',
      'users.id as user_id',
      'users.username',
      'users.is_admin',
    ])
    .where('sessions.id', '=', sessionId)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    sessionId: row.session_id,
    expiresAt: Number(row.expires_at),
    lastSeenAt: Number(row.last_seen_at),
    user: { id: row.user_id, username: row.username, isAdmin: Number(row.is_admin) === 1 },
  };
}

/** Sliding expiry: a session used now lives another TTL. */
export async function touchSession(
  store: Store,
  sessionId: string,
  now: number,
  expiresAt: number,
): Promise<void> {
  await store.db
    .updateTable('sessions')
    .set({ last_seen_at: now, expires_at: expiresAt })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeSession(store: Store, sessionId: string, now: number): Promise<void> {
  await store.db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes every live session of a user, except `keep` when given (the one changing the password). */
export async function revokeUserSessions(
  store: Store,
  userId: string,
  now: number,
  keep?: string,
): Promise<number> {
  let query = store.db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (keep) query = query.where('id', '<>', keep);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Forgets a user's sessions that expired or were revoked before `before` (run at each sign-in). */
export async function deleteDeadSessions(store: Store, userId: string, before: number): Promise<void> {
  await store.db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('expires_at', '<', before), eb('revoked_at', '<', before)]))
    .execute();
}
