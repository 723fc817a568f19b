import type { FeedItem, LandingFeedPage, LandingFeedRequest } from '../../../shared/api/home';
import type { PostResult } from '../../../shared/api/posts';
import { AppError } from '../../../shared/errors';
import type { Viewer } from '../../../shared/permissions';
import type { Store } from '../../store/store';
import { markFollowed } from '../follows/queries';
import { likeSummaries } from '../likes/queries';
import { postRecord } from '../posts/record';
import type { PostRow } from '../posts/queries';
import { placeholderUrl } from '../../media/placeholders';
import { POST_PLACEHOLDERS } from '../../../shared/domain/enums';
import * as q from './queries';

const PLACEHOLDER_URLS = POST_PLACEHOLDERS.map(placeholderUrl);

/** A feed item of a post row: its record, plus social §3's feed item attributes and its listing time. */
export function feedItemOf(record: PostResult, row: PostRow): FeedItem {
  return { ...record, id: record.postid, owner: record.user_id, listed_at: row.listed_at ?? row.created_at };
}

/**
 * POST /asidelandingfeed (social §2, §7): the home page's horizontal news feed of one city. Pages are
 * keyset pages on (listed_at, id); `next` carries the last item's pair as the next page's before and
 * beforeid.
 */
export class LandingFeedService {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  async page(viewer: Viewer, request: LandingFeedRequest): Promise<LandingFeedPage> {
    const city = await this.store.db
      .selectFrom('cities')
      .select(['id', 'city', 'city_forurl', 'state', 'country', 'time_zone'])
      .where('id', '=', request.cityid)
      .executeTakeFirst();
    if (!city) throw new AppError('feedCityNotFound', { id: request.cityid });
    const now = this.now();
    const cursor =
      request.before === undefined ? undefined : { before: request.before, beforeid: request.beforeid };
    // one more than asked: whether there is a next page, without a count
    const rows = await q.cityFeedPage(this.store, request.cityid, cursor, now, request.limit + 1);
    const shown = rows.slice(0, request.limit);
    const items = await feedItems(this.store, viewer, shown, now);
    const last = items[items.length - 1];
    return {
      city: { ...city, id: Number(city.id) },
      items,
      placeholders: PLACEHOLDER_URLS,
      next:
        rows.length > request.limit && last
          ? { before: new Date(last.listed_at).toISOString(), beforeid: last.id }
          : null,
    };
  }
}

/** Feed items with their likes (two reads per page) and whether the viewer follows each author. */
export async function feedItems(
  store: Store,
  viewer: Viewer,
  rows: PostRow[],
  now: number,
): Promise<FeedItem[]> {
  if (rows.length === 0) return [];
  const likes = await likeSummaries(
    store.db,
    'P',
    rows.map((row) => row.id),
    viewer?.id,
  );
  const items = rows.map((row) => feedItemOf(postRecord(viewer, row, now, likes.get(row.id)), row));
  return markFollowed(store, viewer, items);
}
