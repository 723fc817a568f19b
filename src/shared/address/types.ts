import type { ADD_NEW_SUPERTYPES, PointSupertype } from '../domain/supertypes';
import type { LayerGroup } from '../map/contract';

/**
 * Types of the address codec (map-and-search §2). The address is the state: every screen has a
 * Route, `parseAddress` reads one from a path and `buildAddress` writes it back, so that
 * `parseAddress(buildAddress(route)).route` equals `route` for every valid route.
 */

/**
 * Supertypes a search can be narrowed to: the `{supertype}=` keyword prefixes of §2, and `post` (§1, §3;
 * issue 17), as the search API takes them (src/shared/api/search.ts).
 */
export const SEARCH_SUPERTYPES = [
  'service',
  'virtualstore',
  'poi',
  'business',
  'experience',
  'rental',
  'event',
  'helprequest',
  'incident',
  'post',
] as const;
export type SearchSupertype = (typeof SEARCH_SUPERTYPES)[number];

/** Search page sizes (§9); the default is 12. */
export const SEARCH_PAGE_SIZES = [12, 24, 48, 96] as const;
export const DEFAULT_SEARCH_PAGE_SIZE = 12;

export type AddNewSupertype = (typeof ADD_NEW_SUPERTYPES)[number];
/** The supertype a point prefix names; `none` is the `x` prefix (unknown). */
export type PointRouteSupertype = PointSupertype | 'none';

/** `loc` of the data segment: the map view. Coordinates rounded to 6 decimals, zoom to 2 (§9). */
export interface MapLocation {
  zoom: number;
  lng: number;
  lat: number;
}

/** A corner of the search bounds; `lon` (not `lng`) as in the search calls of §7. */
export interface LatLon {
  lat: number;
  lon: number;
}

/**
 * `search.paging`. The spec names the field but not its members; we use the names of the paged
 * search call (§7): `pageNumber` (1-based) and `pageSize` (12, 24, 48 or 96). An absent member
 * means the default (page 1, size 12).
 */
export interface SearchPaging {
  pageNumber?: number;
  pageSize?: number;
}

/** `search` of the data segment, with the spec's wire names. */
export interface SearchData {
  /** `all` may be given when building and is removed (§5): it means "no filter". */
  supertype?: SearchSupertype | 'all';
  keywords?: string;
  southwest?: LatLon;
  northeast?: LatLon;
  paging?: SearchPaging;
}

/**
 * The JSON of the `data=` segment. `loc`, `search` and `event` are the spec's names. The spec says
 * the json may also hold "a point id for a next-level detail" without naming it: we call it
 * `xpoint: {id}`, mirroring `event: {id}`. Empty fields are never present in a decoded value.
 */
export interface MapData {
  loc?: MapLocation;
  search?: SearchData;
  event?: { id: string };
  xpoint?: { id: string };
  /**
   * The cluster a /cluster list shows (§2 "cluster list views carrying the location"; the spec does
   * not name the field): its layer group and the point tiles' `cluster_id`.
   */
  cluster?: { group: LayerGroup; id: number };
}

/** Routes whose link carries a `successUrl`, the path to return to (§2 "Links the product builds"). */
interface ReturnsTo {
  /** a same-site path starting with a single `/`; an unsafe value is dropped when parsing. */
  successUrl?: string;
}

/** Action routes addressed by one id: the screen says what is done to it. */
export type IdActionScreen =
  | 'event-edit'
  | 'event-copy'
  | 'event-delete'
  | 'delete-redirect'
  | 'service-edit'
  | 'experience-edit'
  | 'rental-edit'
  | 'experience-delete'
  | 'rental-delete'
  | 'helprequest-copy'
  | 'clear-consultant';

/** Screens reached by one id with nothing else. */
export type IdScreen =
  'fullscreen' | 'point-landing' | 'claim' | 'become-consultant' | 'event-page' | 'rental-book';

export type Route =
  /** '' or /home. */
  | { screen: 'landing' }
  /** /search/{supertype=}{keywords}/data={json}; keywords are trimmed and never empty. */
  | { screen: 'landing-search'; keywords: string; supertype?: SearchSupertype; data: MapData }
  /** /maps: map mode with nothing selected. */
  | { screen: 'map' }
  /**
   * /maps/{supertype=}{keywords}/data={json}, or /maps/data={json} without an event (keywords '':
   * "the search is run from the address"). With keywords '' the data holds no event (that is the
   * `event` screen).
   */
  | { screen: 'map-search'; keywords: string; supertype?: SearchSupertype; data: MapData }
  /** /maps/data={"event":{"id":..},...}: the event's id is lifted out of `data`. */
  | { screen: 'event'; eventId: string; data: Omit<MapData, 'event'> }
  /** /{prefix}/{id}: point detail; the prefix's supertype may be wrong (see needsPrefixCorrection). */
  | { screen: 'point'; supertype: PointRouteSupertype; id: string }
  /** /{prefix}/{id}/Edit?successUrl= */
  | ({ screen: 'point-edit'; supertype: PointRouteSupertype; id: string } & ReturnsTo)
  /** /{id} or /f/{id} (fullscreen), /a/{id} (point-landing), /business/claim/{id}, /business/becomecm/{id}, /e/{id} (event-page), /rental/{id}/2 (rental-book). */
  | { screen: IdScreen; id: string }
  /** /e/{id}/Edit, /e/{id}/CopyToNew, /MyEvents/DeleteFromMap/{id}, /MyXPoints/Delete/{id}, /MeOnMap/Edit?id=, ... */
  | ({ screen: IdActionScreen; id: string } & ReturnsTo)
  /** /cluster and /momcluster, carrying the location in the data segment. */
  | { screen: 'cluster' | 'momcluster'; data: MapData }
  /** /new (step 1), /new/{supertype} (step 2), /new/{supertype}/{type} (step 3). */
  | { screen: 'add-new'; supertype?: AddNewSupertype; type?: string }
  /** /MeOnMap/Index and /MyHelpRequests: buttons on the map. */
  | { screen: 'meonmap' | 'myhelprequests' }
  /** /u/{username} */
  | { screen: 'profile'; username: string }
  /** /post/{id}: the map with the post open in the posts modal (social §2 "Post detail"; issue 17). */
  | { screen: 'post'; id: string }
  /** /cads/{city_forurl} */
  | { screen: 'city'; cityForUrl: string }
  /** /Event/AddAsChild?parentid={id} */
  | { screen: 'event-add-child'; parentId: string }
  /** /Review/InviteReview?appid={id} */
  | { screen: 'invite-review'; appId: string }
  /** /chat/{pointid} (a visitor's conversation) or /chat/{pointid}/{visitorid} (the point answering; issue 22) */
  | { screen: 'chat'; pointId: string; visitorId?: string }
  /** /inbox (conversations) or /inbox/bookings (issue 22) */
  | { screen: 'inbox'; tab?: 'bookings' }
  /** Anything else; `path` is what was asked for, for the message. */
  | { screen: 'not-found'; path: string };

export type Screen = Route['screen'];

/** Why an address could not be used as it stands. Parsing never throws; it reports one of these. */
export type AddressProblem =
  /** the data segment is not valid (bad percent-encoding, bad JSON, wrong types, too long). */
  | { kind: 'bad-data'; detail: string }
  /** /new/{supertype} with a supertype that cannot be added. */
  | { kind: 'bad-supertype'; detail: string }
  /** /new/{supertype}/{type} with a type that is not a category key. */
  | { kind: 'bad-type'; detail: string }
  /** an id, username or city segment with characters an id may not hold. */
  | { kind: 'bad-id'; detail: string }
  /** no screen has this address, or it is too long to read. */
  | { kind: 'not-found'; detail: string };

export interface ParsedAddress {
  /**
   * The screen to show. When `problem` is `bad-data` this is `{screen: 'map'}`: the side panel is
   * closed and the problem logged (§8 "Bad JSON in the address closes the side panel").
   */
  route: Route;
  problem?: AddressProblem;
  /** Replace the address with this one (history.replaceState), e.g. '/' for /search/data=... (§2). */
  replaceWith?: string;
  /** `createpost=open` in the query: open the post creation form, then drop the flag (social §2). */
  createPost: boolean;
  /** `posts=1` in the query: scroll to the posts block (social §2). */
  scrollToPosts: boolean;
}
