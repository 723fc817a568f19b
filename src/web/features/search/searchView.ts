import type { MapData, SearchSupertype } from '../../../shared/address';

/**
 * Pure rules of the search screens (map-and-search §2, §4, §9): the pages shown by the pagination,
 * the result mode cookie, the default of the update-on-move toggle, and what a search address holds.
 */

/** §9: every page is shown when there are fewer than 8, otherwise a window around the current one. */
export const PAGINATION_ALL_BELOW = 8;
/** Pages shown on each side of the current one inside the window. */
const WINDOW_SIDE = 2;

export type PageItem = number | 'gap';

/** The page buttons for page `current` of `total`: all of them, or first, a window, last and gaps. */
export function paginationItems(current: number, total: number): PageItem[] {
  if (total <= 1) return total === 1 ? [1] : [];
  if (total < PAGINATION_ALL_BELOW) return Array.from({ length: total }, (_, i) => i + 1);
  const page = Math.min(Math.max(1, current), total);
  const from = Math.max(2, page - WINDOW_SIDE);
  const to = Math.min(total - 1, page + WINDOW_SIDE);
  const items: PageItem[] = [1];
  if (from > 2) items.push('gap');
  for (let n = from; n <= to; n += 1) items.push(n);
  if (to < total - 1) items.push('gap');
  items.push(total);
  return items;
}

/** §2: the result mode is kept in the cookie 'search.resultmode', tile by default. */
export type ResultMode = 'tile' | 'list';
export const RESULT_MODE_COOKIE = 'search.resultmode';

export function readResultMode(cookies: string): ResultMode {
  const match = /(?:^|;\s*)search\.resultmode=(tile|list)(?:;|$)/.exec(cookies);
  return match?.[1] === 'list' ? 'list' : 'tile';
}

export function resultModeCookie(mode: ResultMode): string {
  return `${RESULT_MODE_COOKIE}=${mode}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

/** Keeps the visitor's choice for the next search and the next visit. */
export function storeResultMode(mode: ResultMode): void {
  document.cookie = resultModeCookie(mode);
}

/** §4: the update-on-move toggle is off by default below 640 px. */
export const UPDATE_ON_MOVE_MIN_WIDTH = 640;
export function updateOnMoveDefault(viewportWidth: number): boolean {
  return viewportWidth >= UPDATE_ON_MOVE_MIN_WIDTH;
}

/** What a search address asks for, with the defaults filled in. */
export interface SearchQuery {
  keywords: string;
  supertype: SearchSupertype | null;
  southwest?: { lat: number; lon: number };
  northeast?: { lat: number; lon: number };
  pageNumber: number;
  pageSize: number;
}

export function searchQueryOf(
  keywords: string,
  prefix: SearchSupertype | undefined,
  data: MapData,
): SearchQuery {
  const search = data.search ?? {};
  const supertype = prefix ?? (search.supertype === 'all' ? undefined : search.supertype) ?? null;
  return {
    keywords: keywords || search.keywords || '',
    supertype,
    ...(search.southwest ? { southwest: search.southwest } : {}),
    ...(search.northeast ? { northeast: search.northeast } : {}),
    pageNumber: search.paging?.pageNumber ?? 1,
    pageSize: search.paging?.pageSize ?? 12,
  };
}

/** The data segment of a search: bounds, supertype and paging (page 1 and size 12 are left out). */
export function searchData(query: SearchQuery, base: MapData = {}): MapData {
  const paging = {
    ...(query.pageNumber > 1 ? { pageNumber: query.pageNumber } : {}),
    ...(query.pageSize !== 12 ? { pageSize: query.pageSize } : {}),
  };
  return {
    ...base,
    search: {
      ...(query.supertype !== null ? { supertype: query.supertype } : {}),
      ...(query.southwest ? { southwest: query.southwest } : {}),
      ...(query.northeast ? { northeast: query.northeast } : {}),
      ...(Object.keys(paging).length > 0 ? { paging } : {}),
    },
  };
}

/** A query with nothing to look for: no words and no supertype to list. */
export function isEmptyQuery(query: Pick<SearchQuery, 'keywords' | 'supertype'>): boolean {
  return query.keywords === '' && query.supertype === null;
}

/**
 * How many places a search found, as the result list says it: '1 place', '214 places', and for an
 * estimate (the server says posts_total_exact false) 'about 2,100 places', rounded to two figures so
 * it does not pretend to a precision it has not.
 */
export function resultCountText(total: number, exact = true): string {
  if (exact) return `${total.toLocaleString('en-US')} ${total === 1 ? 'place' : 'places'}`;
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, total))) - 1);
  const rounded = Math.round(total / magnitude) * magnitude;
  return `about ${rounded.toLocaleString('en-US')} places`;
}
