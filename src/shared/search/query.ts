import type { MapData, SearchSupertype } from '../address';

/**
 * What a search address asks for, and how its results are shown (map-and-search §2): read by the
 * app's search screen and by the server, which paints a search page's first screen (issue 23).
 */

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

/** Where a search without bounds ranks from: the centre of the map it was asked on. */
export interface SearchNear {
  lat: number;
  lon: number;
}

/**
 * The body of §7 POST /v1/webonly/pagedmapsearch for a query: the page the address names, and
 * without bounds `near`, which orders the world's results nearest first. The app's call and the
 * server's first paint of a search page (issue 23) send this same body, so both list the same page.
 */
export function pagedSearchBody(query: SearchQuery, near: SearchNear | null) {
  return {
    keywords: query.keywords,
    pageNumber: query.pageNumber,
    pageSize: query.pageSize,
    supertype: query.supertype,
    ...(query.southwest ? { southwest: query.southwest } : {}),
    ...(query.northeast ? { northeast: query.northeast } : {}),
    ...(!query.southwest && near ? { near } : {}),
  };
}
