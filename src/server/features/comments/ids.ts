import { randomBytes } from 'node:crypto';

/**
 * Comment ids sort by the time they were written: 9 base-36 digits of the epoch ms (enough until
 * the year 5138), then 7 random base-36 digits. Only digits and lowercase letters, all of one
 * length, so the order is the same byte-wise (SQLite) and under any PostgreSQL collation, and the
 * keyset "older than beforeid" is `id < beforeid` on the index (object_type, object_id, id).
 */
const TIME_DIGITS = 9;
const RANDOM_DIGITS = 7;

/** The time part of an id written at `at` (epoch ms): a lower bound of every id written from then on. */
export function commentTimePrefix(at: number): string {
  return Math.max(0, Math.floor(at)).toString(36).padStart(TIME_DIGITS, '0');
}

export function newCommentId(at: number = Date.now()): string {
  let tail = '';
  for (const byte of randomBytes(RANDOM_DIGITS)) tail += (byte % 36).toString(36);
  return commentTimePrefix(at) + tail;
}
