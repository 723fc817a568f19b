import { FEED_POST_KIND } from '../../../shared/api/home';
import type { ChangeFollower, Subscription } from '../../store/follower';
import type { Store } from '../../store/store';
import type { SocialEvents } from '../social/events';
import { feedItems } from './service';
import * as q from './queries';

/**
 * A post only counts as new to a city's feed when it was listed (created or renewed) this recently: an
 * edit of an older post writes the change feed too, and must not send it to the front of the feeds.
 */
export const FRESH_LISTING_MS = 5 * 60_000;
const ID_CHUNK = 500;

/**
 * New posts slide into the home page's city feed live (issue 19): the store's change feed (the
 * follower every process runs) hands over each written post; a post of a city, live, listed within
 * FRESH_LISTING_MS, is pushed as `{kind: 'feedpost', data: {item}}` on the city's topic
 * `social:T:{cityid}` (the item as a visitor sees it: isfollowed 0, no own like). Every process
 * follows the feed, so with several processes a post is pushed once per process and the page keeps
 * an item once by its id.
 */
export async function followNewPosts(
  store: Store,
  follower: ChangeFollower,
  social: SocialEvents,
  now: () => number = Date.now,
): Promise<Subscription> {
  const subscription = await follower.subscribe({
    name: 'city feeds',
    async onChanges(kind, changes) {
      if (kind !== 'post') return;
      const ids = [...new Set(changes.filter((c) => c.op === 'upsert').map((c) => c.objectId))];
      // a batch holds up to 10,000 changes: read them a few hundred ids at a time
      for (let from = 0; from < ids.length; from += ID_CHUNK) {
        const at = now();
        const rows = await q.freshlyListed(
          store,
          ids.slice(from, from + ID_CHUNK),
          at - FRESH_LISTING_MS,
          at,
        );
        const items = await feedItems(store, null, rows, at);
        items.forEach((item, index) => {
          const cityId = rows[index]?.city_id;
          if (cityId === null || cityId === undefined) return;
          social.object('T', String(cityId), { kind: FEED_POST_KIND, data: { item } });
        });
      }
    },
  });
  subscription.start();
  return subscription;
}
