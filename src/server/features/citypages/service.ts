import { buildAddress, isValidCityForUrl } from '../../../shared/address';
import { cityLink, pointLink, profileLink } from '../../../shared/address/links';
import {
  CATEGORY_ORDER,
  CITY_QUERY_MAX_CHARS,
  CITY_SEARCH_LIMIT,
  type CityPageData,
  type CityPagePost,
  type CitySearchItem,
  type EventPageData,
} from '../../../shared/citypages/page';
import { categoryName } from '../../../shared/domain/categories';
import { POST_CATEGORIES, type PostCategory } from '../../../shared/domain/enums';
import { AppError } from '../../../shared/errors';
import type { Viewer } from '../../../shared/permissions';
import { isPostPlaceholder, placeholderCoverUrl, placeholderUrl } from '../../media/placeholders';
import type { Store } from '../../store/store';
import { DetailService } from '../details/service';
import * as q from './queries';
import { hotList } from './rank';

/** The newest live posts of the city that the hot lists are ranked from. */
export const POST_CANDIDATES = 200;
/** Posts in the hot list, and in each category's. */
export const HOT_POSTS = 12;
export const CATEGORY_POSTS = 4;
/** Events shown: running now, or starting within SOON_MS. */
export const CITY_EVENTS = 12;
export const SOON_MS = 7 * 24 * 3_600_000;
export const VISITED_POINTS = 8;
/** Authors who listed a post within this long count as the city's active ones (Lemmy: a month). */
const ACTIVE_MS = 30 * 24 * 3_600_000;
/** The zoom the app opens at for a city (social §9's default). */
const CITY_ZOOM = 9.7;
const EVENT_ZOOM = 15;
/** How much of a description a post's card shows. */
const EXCERPT_CHARS = 140;

/** The feed-sized cover a post's card shows: its own, else its placeholder, else its category's. */
function coverOf(row: q.PostCandidateRow, category: PostCategory): string {
  if (row.image_variants) {
    try {
      const variants = JSON.parse(row.image_variants) as { feed?: unknown };
      if (typeof variants.feed === 'string' && variants.feed) return variants.feed;
    } catch {
      // an unreadable variants column falls back to the original
    }
  }
  if (row.image_url) return row.image_url;
  return row.image_placeholder && isPostPlaceholder(row.image_placeholder)
    ? placeholderUrl(row.image_placeholder)
    : placeholderCoverUrl(category);
}

function excerpt(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(line);
  return chars.length <= EXCERPT_CHARS
    ? line
    : `${chars
        .slice(0, EXCERPT_CHARS - 1)
        .join('')
        .trimEnd()}…`;
}

function categoryOf(type: string): PostCategory {
  return (POST_CATEGORIES as readonly string[]).includes(type) ? (type as PostCategory) : 'general';
}

/**
 * "São Paulo" → "sao-paulo": what a typed city name is as the start of a city_forurl (accents folded,
 * anything but letters and digits a hyphen), or '' when nothing is left.
 */
export function cityQuerySlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+/, '');
}

/**
 * The city deals page and the event page (issue 19): each one question to the store per block, in
 * parallel, then ranked and shaped here.
 */
export class CityPageService {
  private readonly details: DetailService;

  constructor(private readonly store: Store) {
    this.details = new DetailService(store);
  }

  /** /cads/{city_forurl}: 400 (19302) for a malformed city, 404 (19301) for an unknown one. */
  async cityPage(cityForUrl: string, now: number): Promise<CityPageData> {
    if (!isValidCityForUrl(cityForUrl)) throw new AppError('cityPageMalformed');
    const city = await q.cityByForUrl(this.store, cityForUrl);
    if (!city) throw new AppError('cityPageNotFound', { city: cityForUrl });
    const [rows, events, points] = await Promise.all([
      q.livePosts(this.store.db, city.id, now, POST_CANDIDATES),
      q.cityEvents(this.store.db, city.id, now, now + SOON_MS, CITY_EVENTS),
      q.mostVisitedPoints(this.store.db, city.id, VISITED_POINTS),
    ]);
    // ranked on the four numbers the rank needs; only the posts shown are shaped (excerpt, cover,
    // address): a dozen or two of the 200 candidates
    const candidates = rows.map((row) => ({
      id: row.id,
      author: row.user_id,
      score: row.up - row.down,
      listed_at: row.listed_at,
      type: categoryOf(row.type),
      row,
    }));
    const active = new Set(candidates.filter((c) => c.listed_at > now - ACTIVE_MS).map((c) => c.author)).size;
    const shaped = new Map<string, CityPagePost>();
    const shown = (list: typeof candidates): CityPagePost[] =>
      list.map(({ row, type }) => {
        let post = shaped.get(row.id);
        if (!post) {
          post = {
            id: row.id,
            title: row.title,
            excerpt: excerpt(row.description),
            type,
            url: buildAddress({ screen: 'post', id: row.id }),
            image: coverOf(row, type),
            author: { username: row.username, name: row.fullname || row.username },
            listed_at: row.listed_at,
            score: row.up - row.down,
            comments: row.comments_count,
          };
          shaped.set(row.id, post);
        }
        return post;
      });
    const categories = CATEGORY_ORDER.map((type) => ({
      type,
      posts: shown(
        hotList(
          candidates.filter((post) => post.type === type),
          now,
          active,
          CATEGORY_POSTS,
        ),
      ),
    })).filter((category) => category.posts.length > 0);
    return {
      kind: 'city',
      city: {
        id: city.id,
        name: city.city,
        state: city.state,
        country: city.country,
        city_forurl: city.city_forurl,
        time_zone: city.time_zone,
        lat: city.lat,
        lon: city.lon,
      },
      hot: shown(hotList(candidates, now, active, HOT_POSTS)),
      categories,
      events: events.map((event) => ({
        id: event.id,
        title: event.title,
        type: event.type,
        start_date: event.start_date,
        end_date: event.end_date,
        running: event.start_date <= now,
        url: buildAddress({ screen: 'event-page', id: event.id }),
        cover_url: event.cover_url,
        address: event.full_address,
        lat: event.lat,
        lon: event.lon,
      })),
      points: points.map((point) => ({
        id: point.id,
        title: point.title,
        category: categoryName(point.supertype, point.type),
        url: pointLink(point.id, point.supertype),
        visits_month: point.stats_this_month,
        visits_total: point.stats_total,
        rating: point.rating,
      })),
      map_url: buildAddress({
        screen: 'map-search',
        keywords: '',
        data: { loc: { zoom: CITY_ZOOM, lng: city.lon, lat: city.lat } },
      }),
      now,
    };
  }

  /** /e/{id}: the event as the detail call answers this viewer, and the zone to write its times in. */
  async eventPage(viewer: Viewer, id: string, now: number): Promise<EventPageData> {
    const event = await this.details.eventDetails(viewer, id, now);
    const zone = event.location.city_forurl
      ? await q.timeZoneOf(this.store.db, event.location.city_forurl)
      : null;
    return {
      kind: 'event',
      event,
      time_zone: zone ?? 'UTC',
      city_url: event.location.city_forurl ? cityLink(event.location.city_forurl) : null,
      owner_url: event.owner_username ? profileLink(event.owner_username) : null,
      map_url: buildAddress({
        screen: 'event',
        eventId: event.id,
        data: { loc: { zoom: EVENT_ZOOM, lng: event.location.lon, lat: event.location.lat } },
      }),
    };
  }

  /** The city search of the 404 page: 1 to 100 characters (19303 otherwise), most populous first. */
  async searchCities(query: string): Promise<CitySearchItem[]> {
    const text = query.trim();
    if (text.length === 0) throw new AppError('cityQueryInvalid', { reason: 'type at least 1 character.' });
    if (Array.from(text).length > CITY_QUERY_MAX_CHARS)
      throw new AppError('cityQueryInvalid', { reason: `at most ${CITY_QUERY_MAX_CHARS} characters.` });
    const slug = cityQuerySlug(text);
    if (slug === '') return [];
    const cities = await q.citiesStartingWith(this.store.db, slug, CITY_SEARCH_LIMIT);
    return cities.map((city) => ({ ...city, url: cityLink(city.city_forurl) }));
  }
}
