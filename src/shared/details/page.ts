/**
 * The full-screen point page as the server renders it and the browser hydrates it (issue 7): the data
 * both sides render from, and where the page carries it.
 */
import type { PointDetails } from '../api/details';
import type { PagedSearchResponse } from '../api/search';
import { pagedSearchBody, type ResultMode, type SearchNear, type SearchQuery } from '../search/query';
import type { WebsiteView } from '../website';
import type { OpeningHoursText } from './hours-text';

/** The `id` of the `<script type="application/json">` holding the page's data. */
export const PAGE_DATA_ELEMENT_ID = 'xp-page-data';
/** `data-ssr` on #root says which server-rendered page the browser hydrates. */
export const SSR_FULLSCREEN = 'fullscreen';

export interface FullScreenPageData {
  /** the point's details as GET /v1/webonly/xpointdetails/{id} answers this viewer. */
  point: PointDetails;
  /** the name of the point's category. */
  category: string;
  /** the site's own host, for the link rule of §5. */
  host: string;
  /** the reader's language for dates and times (from Accept-Language), written the same on both sides. */
  locale: string;
  /** the point's own site (issue 20), rendered in the site viewer; absent for help requests and incidents. */
  website?: WebsiteView | null;
  /**
   * The point's opening hours in words (open now, the next change, the rules), written by the server
   * at the same instant as the details, so the browser hydrates them as they are; null without hours.
   */
  hoursText?: OpeningHoursText | null;
}

/** Renders the full-screen page's markup (the inside of #root) from its data. */
export type FullScreenRenderer = (data: FullScreenPageData) => string;

/** The first language of an Accept-Language header that Intl knows, else 'en'. */
export function pageLocale(acceptLanguage: string | undefined): string {
  for (const part of (acceptLanguage ?? '').split(',').slice(0, 8)) {
    const tag = part.split(';')[0]?.trim() ?? '';
    if (!/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/.test(tag)) continue;
    try {
      const [supported] = Intl.DateTimeFormat.supportedLocalesOf(tag);
      if (supported) return supported;
    } catch {
      // not a locale Intl can read: try the next
    }
  }
  return 'en';
}

/**
 * The first paint of a point's level in the app (/b/{id} and its kin, issue 23): written by the server
 * for a visitor, then replaced by the app's first render from the same answer.
 */
export interface PointFirstPaintData {
  /** the point's details as GET /v1/webonly/xpointdetails/{id} answers a visitor. */
  point: PointDetails;
  category: string;
  host: string;
  hoursText?: OpeningHoursText | null;
}

/** A first paint: the inside of #root, and the body's classes for its screen. */
export interface FirstPaint {
  markup: string;
  bodyClass: string;
}

/**
 * The map's credit as its attribution control will show it (HTML from the server's own settings,
 * `basemapCredit`), painted in the map's corner before the map comes; null when the server does not
 * know it (an external style): the map shows it when it comes.
 */
export type MapCredit = string | null;

/** Renders a point's first paint for the app address `path` + `search`. */
export type PointFirstPaintRenderer = (
  data: PointFirstPaintData,
  path: string,
  search: string,
  credit: MapCredit,
) => FirstPaint;

/** The app's screens the server paints first (issue 23), from the built renderer (ssr/render.tsx). */
export interface FirstPaintRenderers {
  /** a point's level (/b/{id}). */
  point: PointFirstPaintRenderer;
  /** the landing card ('' and /home), which needs no data of its own to paint. */
  landing: (path: string, search: string, credit: MapCredit) => FirstPaint;
  /** the map with no panel (/maps): the shell's frame, and the map's place for the map to fill. */
  map: (path: string, search: string, credit: MapCredit) => FirstPaint;
  /** a search's first page (/search/{keywords}, /maps/{keywords}), in the visitor's result mode. */
  search: (data: SearchFirstPaintData, path: string, search: string, credit: MapCredit) => FirstPaint;
}

/** The `id` of the `<script type="application/json">` holding the answers a first paint was written from. */
export const FIRST_ANSWERS_ELEMENT_ID = 'xp-first-answers';
/** `data-first-paint` on #root: the screen the server painted there. */
export const FIRST_PAINT_POINT = 'point';
export const FIRST_PAINT_LANDING = 'landing';
export const FIRST_PAINT_MAP = 'map';
export const FIRST_PAINT_SEARCH = 'search';

/** What a search page is painted from: the query its address asks, the page found, the result mode. */
export interface SearchFirstPaintData {
  query: SearchQuery;
  page: PagedSearchResponse;
  mode: ResultMode;
}

/**
 * The path a search page's answer is seeded under (FirstAnswer.path): the call it answers, the query
 * and the centre it ranked around. The app takes it only for the call it would make itself: a map
 * opened elsewhere by the address's hash, which the server never sees, asks again.
 */
export function searchAnswerPath(query: SearchQuery, near: SearchNear | null): string {
  return `search:${JSON.stringify(pagedSearchBody(query, near))}`;
}

/** One answer of a first paint, as the app caches it: the call's path and the viewer ('' a visitor). */
export interface FirstAnswer {
  path: string;
  viewer: string;
  data: unknown;
}
