import { sql } from 'kysely';
import type { Store } from '../../store/store';

/** Notification queries: Kysely only, no rules (those are in service.ts). */

const DAY_MS = 86_400_000;

/**
 * How rows fold into list items (Mastodon's grouping): likes of one object on one UTC day, follows
 * on one day; a comment, review or answer stays one item per object and person.
 */
export function groupKeyOf(row: {
  action: string;
  objectType: string;
  objectId: string;
  actorId: string;
  at: number;
}): string {
  const day = Math.floor(row.at / DAY_MS);
  if (row.action === 'like') return `like:${row.objectType}:${row.objectId}:${day}`;
  if (row.action === 'follow') return `follow:${day}`;
  return `${row.action}:${row.objectType}:${row.objectId}:${row.actorId}`;
}

/** Acts whose repetition is news again (a second comment); a like or follow given again is not. */
const RENEWING_ACTIONS = new Set(['comment', 'review', 'review_reply']);

/**
 * Records one notification. Answers its id and group, or null when it was already there (a double
 * emit, a like taken back and given again): then nobody is told twice.
 */
export async function recordNotification(
  store: Store,
  row: {
    recipientId: string;
    actorId: string;
    action: string;
    objectType: string;
    objectId: string;
    at: number;
  },
): Promise<{ id: number; group: string } | null> {
  const group = groupKeyOf(row);
  const inserted = await store.db
    .insertInto('notifications')
    .values({
      recipient_id: row.recipientId,
      actor_id: row.actorId,
      action: row.action,
      object_type: row.objectType,
      object_id: row.objectId,
      group_key: group,
      created_at: row.at,
      read_at: null,
    })
    .onConflict((conflict) => {
      const on = conflict.columns(['recipient_id', 'action', 'object_type', 'object_id', 'actor_id']);
      return RENEWING_ACTIONS.has(row.action)
        ? on.doUpdateSet({ created_at: row.at, read_at: null })
        : on.doNothing();
    })
    .returning(['id', 'group_key'])
    .executeTakeFirst();
  return inserted ? { id: Number(inserted.id), group: inserted.group_key } : null;
}

/**
 * Deletes the notification of one act (its row is unique per recipient, act, object and actor).
 * Answers its group, or null when there was none (never sent, or already taken back).
 */
export async function withdrawNotification(
  store: Store,
  row: { recipientId: string; actorId: string; action: string; objectType: string; objectId: string },
): Promise<{ group: string } | null> {
  const deleted = await store.db
    .deleteFrom('notifications')
    .where('recipient_id', '=', row.recipientId)
    .where('action', '=', row.action)
    .where('object_type', '=', row.objectType)
    .where('object_id', '=', row.objectId)
    .where('actor_id', '=', row.actorId)
    .returning('group_key')
    .executeTakeFirst();
  return deleted ? { group: deleted.group_key } : null;
}

export interface GroupRow {
  group_key: string;
  latest: number;
  top_id: number;
  count: number;
  unread: number;
  action: string;
  object_type: string;
  object_id: string;
}

/** One page of a person's groups, newest first; `after` is the last group of the previous page. */
export async function listGroups(
  store: Store,
  recipientId: string,
  limit: number,
  after: { latest: number; group: string } | null,
  onlyGroup?: string,
): Promise<GroupRow[]> {
  let query = store.db
    .selectFrom('notifications')
    .where('recipient_id', '=', recipientId)
    .select([
      'group_key',
      sql<number>`max(created_at)`.as('latest'),
      sql<number>`max(id)`.as('top_id'),
      sql<number>`count(*)`.as('count'),
      sql<number>`sum(case when read_at is null then 1 else 0 end)`.as('unread'),
      sql<string>`min(action)`.as('action'),
      sql<string>`min(object_type)`.as('object_type'),
      sql<string>`max(object_id)`.as('object_id'),
    ])
    .groupBy('group_key');
  if (onlyGroup !== undefined) query = query.where('group_key', '=', onlyGroup);
  if (after)
    query = query.having(
      sql<boolean>`max(created_at) < ${after.latest} or (max(created_at) = ${after.latest} and group_key < ${after.group})`,
    );
  const rows = await query
    .orderBy(sql`max(created_at)`, 'desc')
    .orderBy('group_key', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    ...row,
    latest: Number(row.latest),
    top_id: Number(row.top_id),
    count: Number(row.count),
    unread: Number(row.unread),
  }));
}

/** The newest people of a group. */
export async function groupActors(store: Store, recipientId: string, group: string, limit: number) {
  return store.db
    .selectFrom('notifications as n')
    .innerJoin('users as u', 'u.id', 'n.actor_id')
    .where('n.recipient_id', '=', recipientId)
    .where('n.group_key', '=', group)
    .orderBy('n.created_at', 'desc')
    .orderBy('n.id', 'desc')
    .limit(limit)
    .select(['u.id', 'u.username', 'u.fullname', 'u.avatar_url'])
    .execute();
}

export async function unreadCount(store: Store, recipientId: string): Promise<number> {
  const row = await store.db
    .selectFrom('notifications')
    .where('recipient_id', '=', recipientId)
    .where('read_at', 'is', null)
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function markRead(store: Store, recipientId: string, upto: number | undefined, now: number) {
  let query = store.db
    .updateTable('notifications')
    .set({ read_at: now })
    .where('recipient_id', '=', recipientId)
    .where('read_at', 'is', null);
  if (upto !== undefined) query = query.where('id', '<=', upto);
  await query.execute();
}

/** Forgets the notifications about an object that no longer exists. */
export async function deleteForObject(store: Store, objectType: string, objectId: string): Promise<void> {
  await store.db
    .deleteFrom('notifications')
    .where('object_type', '=', objectType)
    .where('object_id', '=', objectId)
    .execute();
}

/**
 * Where each object leads, or nothing when it is gone: a post and a point lead to themselves, a
 * review to its point, a comment to what it is on, a user to their profile.
 */
export async function objectUrls(
  store: Store,
  objectType: string,
  ids: string[],
): Promise<Map<string, string>> {
  const urls = new Map<string, string>();
  if (ids.length === 0) return urls;
  const db = store.db;
  if (objectType === 'P') {
    for (const row of await db.selectFrom('posts').where('id', 'in', ids).select('id').execute())
      urls.set(row.id, `/post/${encodeURIComponent(row.id)}`);
  } else if (objectType === 'X') {
    for (const row of await db.selectFrom('points').where('id', 'in', ids).select('id').execute())
      urls.set(row.id, `/x/${encodeURIComponent(row.id)}`);
  } else if (objectType === 'R') {
    const rows = await db.selectFrom('reviews').where('id', 'in', ids).select(['id', 'point_id']).execute();
    for (const row of rows) urls.set(row.id, `/x/${encodeURIComponent(row.point_id)}`);
  } else if (objectType === 'C') {
    const rows = await db
      .selectFrom('comments')
      .where('id', 'in', ids)
      .select(['id', 'object_type', 'object_id'])
      .execute();
    for (const row of rows)
      urls.set(
        row.id,
        row.object_type === 'X'
          ? `/x/${encodeURIComponent(row.object_id)}`
          : `/post/${encodeURIComponent(row.object_id)}`,
      );
  } else if (objectType === 'U') {
    const rows = await db.selectFrom('users').where('id', 'in', ids).select(['id', 'username']).execute();
    for (const row of rows) urls.set(row.id, `/u/${encodeURIComponent(row.username)}`);
  }
  return urls;
}
