/**
 * Pure rules of the search screens (map-and-search §2, §4, §9): the pages shown by the pagination,
 * the result mode cookie, the default of the update-on-move toggle, and what a search address holds
 * (those two in src/shared/search/query.ts, which the server reads too).
 */
export {
  RESULT_MODE_COOKIE,
  isEmptyQuery,
  readResultMode,
  resultModeCookie,
  searchData,
  searchQueryOf,
  type ResultMode,
  type SearchQuery,
} from '../../../shared/search/query';
import { buildAddress, type MapData } from '../../../shared/address';
import {
  resultModeCookie,
  searchData,
  type ResultMode,
  type SearchQuery,
} from '../../../shared/search/query';

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

/** Keeps the visitor's choice for the next search and the next visit. */
export function storeResultMode(mode: ResultMode): void {
  document.cookie = resultModeCookie(mode);
}

/** §4: the update-on-move toggle is off by default below 640 px. */
export const UPDATE_ON_MOVE_MIN_WIDTH = 640;
export function updateOnMoveDefault(viewportWidth: number): boolean {
  return viewportWidth >= UPDATE_ON_MOVE_MIN_WIDTH;
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

/** The address of a search with other data (a page, new bounds, an opened result), at the map's `loc`. */
export function searchAddress(
  query: SearchQuery,
  loc: MapData['loc'],
  extra: Pick<MapData, 'xpoint' | 'event'> = {},
): string {
  const data = { ...searchData(query, loc ? { loc } : {}), ...extra };
  return buildAddress({ screen: 'map-search', keywords: query.keywords, data });
}
