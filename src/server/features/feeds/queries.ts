import type { Store } from '../../store/store';
import { rowOf, selectPosts, type PostRow } from '../posts/queries';

/** The landing feed's queries: Kysely only, no rules (those are in service.ts). */

export interface FeedCursor {
  /** epoch ms: only posts listed before it (or at it, with an id below beforeid) */
  before: number;
  beforeid?: string | undefined;
}

/**
 * One keyset page of a city's live posts (not hidden, not expired at `now`), newest first by
 * (listed_at, id): the index posts_city_listed (migration 0017) walked backwards from the cursor, so
 * a page deep in the feed costs what the first costs, and posts listed while someone pages never
 * shift the pages after the one they read (no duplicates, no gaps).
 */
export async function cityFeedPage(
  store: Store,
  cityId: number,
  cursor: FeedCursor | undefined,
  now: number,
  limit: number,
): Promise<PostRow[]> {
  let query = selectPosts(store)
    .where('p.city_id', '=', cityId)
    .where('p.hidden_at', 'is', null)
    .where((eb) => eb.or([eb('p.expires_at', 'is', null), eb('p.expires_at', '>', now)]));
  if (cursor === undefined) query = query.where('p.listed_at', 'is not', null);
  else if (cursor.beforeid === undefined) query = query.where('p.listed_at', '<', cursor.before);
  else {
    const { before, beforeid } = cursor;
    query = query
      .where('p.listed_at', '<=', before)
      .where((eb) => eb.or([eb('p.listed_at', '<', before), eb('p.id', '<', beforeid)]));
  }
  const rows = await query.orderBy('p.listed_at', 'desc').orderBy('p.id', 'desc').limit(limit).execute();
  return rows.map(rowOf);
}

/**
 * The same page read by position (`offset` rows skipped): what a page-number feed does. Only for the
 * benchmark's comparison; nothing in the product pages this way.
 */
export async function cityFeedPageByOffset(
  store: Store,
  cityId: number,
  offset: number,
  now: number,
  limit: number,
): Promise<PostRow[]> {
  const rows = await selectPosts(store)
    .where('p.city_id', '=', cityId)
    .where('p.hidden_at', 'is', null)
    .where((eb) => eb.or([eb('p.expires_at', 'is', null), eb('p.expires_at', '>', now)]))
    .where('p.listed_at', 'is not', null)
    .orderBy('p.listed_at', 'desc')
    .orderBy('p.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
  return rows.map(rowOf);
}

/** Posts by id that are listed in a city, live, and listed after `since` (the live feed's candidates). */
export async function freshlyListed(
  store: Store,
  ids: string[],
  since: number,
  now: number,
): Promise<PostRow[]> {
  if (ids.length === 0) return [];
  const rows = await selectPosts(store)
    .where('p.id', 'in', ids)
    .where('p.city_id', 'is not', null)
    .where('p.hidden_at', 'is', null)
    .where('p.listed_at', '>', since)
    .where((eb) => eb.or([eb('p.expires_at', 'is', null), eb('p.expires_at', '>', now)]))
    .execute();
  return rows.map(rowOf);
}
