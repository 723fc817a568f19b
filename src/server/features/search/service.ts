import {
  RESULT_WINDOW,
  SUGGESTION_ADDRESS_MAX_LENGTH,
  type EventRef,
  type PagedSearchResponse,
  type ParsedPagedSearchRequest,
  type ParsedSuggestionRequest,
  type SearchBounds,
  type SearchResult,
  type Suggestion,
} from '../../../shared/api/search';
import { BeamFlag } from '../../../shared/domain/beams';
import { prefixFor } from '../../../shared/domain/supertypes';
import { postPath } from '../../../shared/map/links';
import { DOC_EVENT, DOC_POST, type SearchDoc } from '../../search/doc';
import type { SearchIndex, SearchRequest } from '../../search/index';
import { inBounds, type Bounds } from '../../search/segment';

type LatLon = { lat: number; lon: number };

/** §4: an event is upcoming when it starts within 0 to 120 minutes. */
export const UPCOMING_WINDOW_MS = 120 * 60_000;
/** Coordinates are shown to 6 decimals (§9). */
const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * The rules of the two search calls: what is searched (bounds, supertype, events), how much, and how
 * a document becomes a suggestion or a result. The index (search/index.ts) does the matching.
 */
export class SearchService {
  constructor(
    private readonly index: SearchIndex,
    private readonly now: () => number = Date.now,
    /** candidates counted one by one before a total is estimated (segment-search.ts COUNT_EXACT_LIMIT). */
    private readonly countLimit?: number,
  ) {}

  suggest(request: ParsedSuggestionRequest): Suggestion[] {
    const now = this.now();
    const answer = this.index.search({
      text: request.q,
      bounds: toBounds(request.bounds),
      supertype: null,
      includeEvents: request.includeevents,
      offset: 0,
      limit: request.maxresults,
      needCount: false,
      now,
    });
    return answer.docs.map((doc) => this.suggestion(doc, now));
  }

  page(request: ParsedPagedSearchRequest): PagedSearchResponse {
    const now = this.now();
    const { pageNumber, pageSize } = request;
    const offset = (pageNumber - 1) * pageSize;
    // pages past the result window are empty: no page costs more than the window
    const inWindow = offset < RESULT_WINDOW;
    const query = {
      text: request.keywords,
      bounds: toBounds(request.bounds),
      supertype: request.supertype,
      near: request.near,
      // a search limited to another supertype never finds events; otherwise they are results too
      includeEvents: request.supertype === null || request.supertype === 'event',
      offset: inWindow ? offset : 0,
      limit: inWindow ? Math.min(pageSize, RESULT_WINDOW - offset) : 0,
      needCount: true,
      now,
      ...(this.countLimit === undefined ? {} : { countLimit: this.countLimit }),
    };
    const answer = this.index.search(query);
    const total = answer.total;
    const near = query.bounds === null && inWindow ? query.near : null;
    const docs = near ? this.nearFirst({ ...query, near }, answer.docs) : answer.docs;
    return {
      results: docs.map((doc) => result(doc)),
      posts_total: total,
      posts_total_exact: !answer.estimated,
      page_current: pageNumber,
      page_total: Math.ceil(Math.min(total, RESULT_WINDOW) / pageSize),
      page_size: pageSize,
    };
  }

  /**
   * A search without bounds from a map (issue 21, item 7): the places around `near` come first, each
   * group in the usual rank order, as every map product lists them; the rest of the world follows.
   * Relevance alone would list a 'Coffee …' in Nanjing before a café round the corner. The page is
   * cut from the two lists laid end to end, so paging through them never repeats or skips a place.
   */
  private nearFirst(query: SearchRequest & { near: LatLon }, world: SearchDoc[]): SearchDoc[] {
    const { offset, limit } = query;
    const area = areaAround(query.near);
    const wanted = offset + limit;
    const local = this.index.search({
      ...query,
      bounds: area,
      offset: 0,
      limit: wanted,
      needCount: false,
    }).docs;
    if (local.length >= wanted) return local.slice(offset);
    if (local.length === 0) return world;
    // the rest of the world: the same ranking without the places already listed (at most local.length of them)
    const rest = this.index
      .search({ ...query, offset: 0, limit: wanted + local.length, needCount: false })
      .docs.filter((doc) => !inBounds(area, doc.lat, doc.lon));
    return [...local, ...rest].slice(offset, wanted);
  }

  private suggestion(doc: SearchDoc, now: number): Suggestion {
    const { current, upcoming } = this.eventsNow(doc, now);
    const address = doc.address ?? '';
    return {
      id: doc.id,
      lon: round6(doc.lon),
      lat: round6(doc.lat),
      title: doc.title,
      businesstype: doc.type,
      subtype: doc.subtype ?? '',
      hotpointclickurl: clickUrl(doc),
      address:
        address.length > SUGGESTION_ADDRESS_MAX_LENGTH
          ? `${address.slice(0, SUGGESTION_ADDRESS_MAX_LENGTH - 1)}…`
          : address,
      hotpointrank: (doc.beamtype & BeamFlag.hot) !== 0 ? Math.max(1, doc.statsMonth) : 0,
      chatrank: (doc.beamtype & BeamFlag.chat) !== 0 ? 1 : 0,
      currentevent: current,
      upcomingevent: upcoming,
    };
  }

  /** The event running now and the one starting soonest within 120 minutes: the document itself, or hosted ones. */
  private eventsNow(doc: SearchDoc, now: number): { current: EventRef | null; upcoming: EventRef | null } {
    // a post hosts no events (and its GUID is no point's id)
    if (doc.kind === DOC_POST) return { current: null, upcoming: null };
    const events = doc.kind === DOC_EVENT ? [doc] : this.index.eventsOf(doc.id);
    let current: SearchDoc | null = null;
    let upcoming: SearchDoc | null = null;
    for (const event of events) {
      const start = event.firstStart ?? event.startDate ?? NaN;
      const end = event.firstEnd ?? event.endDate ?? NaN;
      if (start <= now && now < end && (!current || start < (current.firstStart ?? 0))) current = event;
      const until = start - now;
      if (until >= 0 && until <= UPCOMING_WINDOW_MS && (!upcoming || start < (upcoming.firstStart ?? 0)))
        upcoming = event;
    }
    return { current: current && eventRef(current), upcoming: upcoming && eventRef(upcoming) };
  }
}

function eventRef(event: SearchDoc): EventRef {
  return {
    id: event.id,
    title: event.title,
    start_date: event.startDate ?? event.firstStart ?? 0,
    end_date: event.endDate ?? event.firstEnd ?? 0,
  };
}

function result(doc: SearchDoc): SearchResult {
  const subtype = doc.subtype ?? '';
  const url = clickUrl(doc);
  return {
    marker: {
      id: doc.id,
      lng: round6(doc.lon),
      lat: round6(doc.lat),
      title: doc.title,
      type: doc.type,
      subtype,
      classes: `marker-${doc.supertype} marker-${doc.type}`,
      select: false,
      data: { hotpointclickurl: url },
    },
    supertype: doc.supertype,
    address: doc.address ?? '',
    cover_url: doc.cover,
    stars_rating: doc.rating === null ? null : Math.round(doc.rating / 2) / 10,
    healthdata: { status: doc.health },
    start_date: doc.kind === DOC_EVENT ? doc.startDate : null,
    name: doc.title,
    class: doc.supertype,
    subclass: doc.type,
    beamtype: doc.beamtype,
  };
}

/** A point's detail route (§2): /{prefix}/{id}; events open at /e/{id}, posts at /post/{id}. */
export function clickUrl(doc: SearchDoc): string {
  if (doc.kind === DOC_EVENT) return `/e/${doc.id}`;
  if (doc.kind === DOC_POST) return postPath(doc.id);
  return `/${prefixFor(doc.supertype)}/${doc.id}`;
}

/** How far around the map's centre counts as near: about 55 km each way, a city and its suburbs. */
export const NEAR_HALF_SIZE_DEGREES = 0.5;

/** The box of about NEAR_HALF_SIZE_DEGREES around a point, in longitude widened by the latitude. */
export function areaAround({ lat, lon }: LatLon): Bounds {
  const cos = Math.max(0.05, Math.cos((lat * Math.PI) / 180));
  const halfLon = Math.min(180, NEAR_HALF_SIZE_DEGREES / cos);
  const wrap = (value: number) => ((((value + 180) % 360) + 360) % 360) - 180;
  return {
    south: Math.max(-90, lat - NEAR_HALF_SIZE_DEGREES),
    north: Math.min(90, lat + NEAR_HALF_SIZE_DEGREES),
    west: halfLon >= 180 ? -180 : wrap(lon - halfLon),
    east: halfLon >= 180 ? 180 : wrap(lon + halfLon),
  };
}

function toBounds(bounds: SearchBounds | null): Bounds | null {
  if (!bounds) return null;
  return {
    south: bounds.southwest.lat,
    west: bounds.southwest.lon,
    north: bounds.northeast.lat,
    east: bounds.northeast.lon,
  };
}
