/**
 * The city deals page `/cads/{city_forurl}` and the event page `/e/{id}` as the server renders them
 * and the browser hydrates them (issue 19): the data both sides render from, one type per page.
 */
import type { EventDetails } from '../api/details';
import type { PostCategory } from '../domain/enums';

/** A post as the city page lists it. */
export interface CityPagePost {
  id: string;
  title: string;
  /** the start of the description, one line. */
  excerpt: string;
  type: PostCategory;
  /** /post/{id}: the app with the post open. */
  url: string;
  /** the feed-sized cover, or the category's placeholder. */
  image: string;
  author: { username: string; name: string };
  /** when it went to the top of its lists (created or renewed), epoch ms. */
  listed_at: number;
  /** likes up minus down (Lemmy's score). */
  score: number;
  comments: number;
}

/** An event of the city that runs now or starts soon. */
export interface CityPageEvent {
  id: string;
  title: string;
  type: string;
  start_date: number;
  end_date: number;
  /** runs at the page's moment, or starts later. */
  running: boolean;
  /** /e/{id} */
  url: string;
  cover_url: string | null;
  address: string | null;
  lat: number;
  lon: number;
}

/** One of the city's most visited points. */
export interface CityPagePoint {
  id: string;
  title: string;
  category: string;
  /** /{prefix}/{id}: the point on the map. */
  url: string;
  /** visits this month, and in all (the point's xpStats). */
  visits_month: number;
  visits_total: number;
  rating: number | null;
}

export interface CityPageCity {
  id: number;
  name: string;
  state: string | null;
  country: string;
  city_forurl: string;
  time_zone: string | null;
  lat: number;
  lon: number;
}

export interface CityPageData {
  kind: 'city';
  city: CityPageCity;
  /** the hot list: every category, ranked, at most a few posts per author. */
  hot: CityPagePost[];
  /** each category with live posts, in social §1's order, its own hot list. */
  categories: { type: PostCategory; posts: CityPagePost[] }[];
  events: CityPageEvent[];
  points: CityPagePoint[];
  /** the app's map, centred on the city. */
  map_url: string;
  /** the moment the page was made, epoch ms. */
  now: number;
}

export interface EventPageData {
  kind: 'event';
  event: EventDetails;
  /** the zone the times are written in: the event's city's, else UTC. */
  time_zone: string;
  /** the app's map at the event. */
  map_url: string;
  /** its city's page (/cads/{city_forurl}) and its owner's profile, when it has them. */
  city_url: string | null;
  owner_url: string | null;
}

/** A city as the city search lists it. */
export interface CitySearchItem {
  city: string;
  state: string | null;
  country: string;
  city_forurl: string;
  /** /cads/{city_forurl} */
  url: string;
}

/** The 404 page of /cads/{city}, and /cads?q= : a city search. */
export interface CitySearchPageData {
  kind: 'city-search';
  /** what was asked for: the unknown city's segment, or the query typed. */
  query: string;
  /** why the page answers as it does: an unknown or malformed city, a search, or a refused query. */
  reason: 'unknown' | 'malformed' | 'search' | 'invalid';
  /** the catalogue's message when the query was refused. */
  message: string | null;
  cities: CitySearchItem[];
}

/** The event page's 404. */
export interface EventMissingPageData {
  kind: 'event-missing';
  id: string;
}

export type CityPagesData = CityPageData | EventPageData | CitySearchPageData | EventMissingPageData;

/** Renders a page's markup (the inside of #root) from its data. */
export type CityPagesRenderer = (data: CityPagesData) => string;

/** `data-ssr` on #root of these pages. */
export const SSR_CITY_PAGES = 'citypages';

/** What the city search takes: at least 1 character, at most this many. */
export const CITY_QUERY_MAX_CHARS = 100;
/** How many cities the search page lists. */
export const CITY_SEARCH_LIMIT = 10;

/** Social §1's categories as the page names them, in the order the page shows them. */
export const CATEGORY_TITLES: Readonly<Record<PostCategory, string>> = {
  deal: 'Deals',
  classified: 'Classifieds',
  gig: 'Gigs',
  petition: 'Petitions',
  promotion: 'Promotions',
  recommendation: 'Recommendations',
  general: 'General',
};
export const CATEGORY_ORDER: readonly PostCategory[] = [
  'deal',
  'classified',
  'gig',
  'petition',
  'promotion',
  'recommendation',
  'general',
];

/** "New York City, New York, US": the city as a heading's subtitle and a description name it. */
export function cityLabel(city: Pick<CityPageCity, 'name' | 'state' | 'country'>): string {
  return [city.name, city.state, city.country].filter(Boolean).join(', ');
}
