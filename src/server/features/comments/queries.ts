import type { Transaction } from 'kysely';
import type { CommentObjectType } from '../../../shared/api/comments';
import type { Database } from '../../store/schema';
import type { Store } from '../../store/store';
import { commentTimePrefix } from './ids';

/** Comment queries: Kysely only, no rules (those are in service.ts). */

/** A comment with what its item shows of its author. */
export interface CommentRow {
  id: string;
  object_id: string;
  object_type: string;
  user_id: string;
  text: string;
  created_at: number;
  updated_at: number;
  username: string;
  fullname: string;
  avatar_url: string | null;
}

/** What the rules need of a commented object: who wrote it, whether it is hidden, its count. */
export interface CommentedObject {
  id: string;
  user_id: string;
  hidden_at: number | null;
  comments_count: number;
}

type Db = Store['db'] | Transaction<Database>;

function selectComments(db: Db) {
  return db
    .selectFrom('comments as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select([
      'c.id',
      'c.object_id',
      'c.object_type',
      'c.user_id',
      'c.text',
      'c.created_at',
      'c.updated_at',
      'u.username',
      'u.fullname',
      'u.avatar_url',
    ]);
}

export async function findObject(
  db: Db,
  _type: CommentObjectType,
  id: string,
): Promise<CommentedObject | undefined> {
  return db
    .selectFrom('posts')
    .select(['id', 'user_id', 'hidden_at', 'comments_count'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findComment(db: Db, id: string): Promise<CommentRow | undefined> {
  return selectComments(db).where('c.id', '=', id).executeTakeFirst();
}

/**
 * The `limit` newest comments of an object older than `beforeId` (all, when absent): one range of
 * the index (object_type, object_id, id), walked backwards.
 */
export async function pageBefore(
  db: Db,
  type: CommentObjectType,
  objectId: string,
  beforeId: string | undefined,
  limit: number,
): Promise<CommentRow[]> {
  let query = selectComments(db).where('c.object_type', '=', type).where('c.object_id', '=', objectId);
  if (beforeId !== undefined) query = query.where('c.id', '<', beforeId);
  return query.orderBy('c.id', 'desc').limit(limit).execute();
}

/** Whether `userId` wrote `text` on the object since `since` (ids start with their time: a range of the index). */
export async function sameTextSince(
  db: Db,
  type: CommentObjectType,
  objectId: string,
  userId: string,
  text: string,
  since: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('comments')
    .select('id')
    .where('object_type', '=', type)
    .where('object_id', '=', objectId)
    .where('id', '>=', commentTimePrefix(since))
    .where('user_id', '=', userId)
    .where('text', '=', text)
    .where('created_at', '>=', since)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertComment(
  db: Db,
  row: { id: string; object_id: string; object_type: string; user_id: string; text: string; at: number },
): Promise<void> {
  await db
    .insertInto('comments')
    .values({
      id: row.id,
      object_id: row.object_id,
      object_type: row.object_type,
      user_id: row.user_id,
      text: row.text,
      created_at: row.at,
      updated_at: row.at,
    })
    .execute();
}

/** Adds `delta` to the object's counter and answers the new count (in the caller's transaction). */
export async function bumpCount(db: Db, objectId: string, delta: number): Promise<number> {
  const row = await db
    .updateTable('posts')
    .set((eb) => ({ comments_count: eb('comments_count', '+', delta) }))
    .where('id', '=', objectId)
    .returning('comments_count')
    .executeTakeFirst();
  return Number(row?.comments_count ?? 0);
}

export async function updateText(db: Db, id: string, text: string, at: number): Promise<boolean> {
  const result = await db
    .updateTable('comments')
    .set({ text, updated_at: at })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes the comment and the likes on it; false when another request deleted it first. */
export async function deleteComment(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('comments').where('id', '=', id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) return false;
  await db.deleteFrom('likes').where('object_type', '=', 'C').where('object_id', '=', id).execute();
  return true;
}
