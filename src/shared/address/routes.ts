import { isValidId } from '../domain/ids';
import type { Supertype } from '../domain/supertypes';
import { ADD_NEW_SUPERTYPES, POINT_SUPERTYPES, parseSupertype, prefixFor } from '../domain/supertypes';
import { decodeData, encodeData, isEmptyData } from './data';
import { buildMapHash } from './location';
import type {
  AddNewSupertype,
  AddressProblem,
  IdActionScreen,
  IdScreen,
  MapData,
  ParsedAddress,
  PointRouteSupertype,
  Route,
  SearchSupertype,
} from './types';
import { SEARCH_SUPERTYPES } from './types';

/**
 * Parsing and building of every address of map-and-search §2. `parseAddress` never throws: what it
 * cannot use comes back as a `problem` beside a route the app can still show. `buildAddress` throws
 * on an invalid route (an id with a slash, say): that is a programming error, not user input.
 *
 * Route words (`MyXPoints`, `Edit`, the prefixes) are read case-insensitively; ids, usernames and
 * keywords keep their case. Trailing and doubled slashes are tolerated.
 */

/** Longer addresses are refused before any work (the data segment alone is capped at 8 KB). */
export const MAX_ADDRESS_LENGTH = 16_384;
/** successUrl values longer than this are dropped. */
export const MAX_RETURN_PATH_LENGTH = 4096;

/** `/{prefix}/{id}` point prefixes (§2): every point supertype plus `x` for unknown. */
const POINT_PREFIXES = new Map<string, PointRouteSupertype>(
  [...POINT_SUPERTYPES, 'none' as const].map((supertype) => [prefixFor(supertype), supertype]),
);

/**
 * First segments that are route words, so a bare `/{id}` with one of these names is not a point:
 * the routes of §2, the links the product builds, and the server's own paths. Lower case.
 */
export const RESERVED_FIRST_SEGMENTS: ReadonlySet<string> = new Set([
  'home',
  'search',
  'maps',
  'new',
  'cluster',
  'momcluster',
  'u',
  'post',
  'cads',
  'e',
  'a',
  'f',
  'business',
  'myxpoints',
  'meonmap',
  'myhelprequests',
  'myevents',
  'myexperience',
  'myrental',
  'event',
  'review',
  'rental',
  'chat',
  'inbox',
  'profile',
  'data',
  // account pages (the web app routes them; they are never bare point ids)
  'signin',
  'signup',
  'account',
  // served by the server, never by the app
  'v1',
  'api',
  'tiles',
  'socket',
  'xpoint',
  'map',
  'assets',
  'bundles',
  'js',
  'css',
  'media',
  ...POINT_PREFIXES.keys(),
]);

/** city_forurl: letters (any script), digits, underscore, hyphen and inner dots. */
const CITY_PATTERN = /^[\p{L}\p{N}_-][\p{L}\p{N}_.-]{0,127}$/u;

export function isValidCityForUrl(value: unknown): value is string {
  return typeof value === 'string' && CITY_PATTERN.test(value);
}

/** A same-site path: one leading `/` (not `//`, not `/\`), no backslash or control characters. */
export function isSafeReturnPath(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > MAX_RETURN_PATH_LENGTH) return false;
  if (value[0] !== '/' || value[1] === '/') return false;
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return false;
  }
  return !LONE_SURROGATE.test(value);
}

/** A UTF-16 surrogate without its pair: encodeURIComponent throws on one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Replaces lone surrogates (a bad paste, a cut emoji) with U+FFFD, as String#toWellFormed does. */
function wellFormed(text: string): string {
  return text.replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD');
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** Keywords may start with `{supertype}=` (§2); `all` is removed; an unknown prefix is a keyword. */
function parseKeywords(raw: string): { keywords: string; supertype?: SearchSupertype } | null {
  const equals = raw.indexOf('=');
  if (equals > 0) {
    const prefix = safeDecode(raw.slice(0, equals));
    const supertype = prefix === null ? null : parseSupertype(prefix);
    if (supertype === 'all' || (SEARCH_SUPERTYPES as readonly string[]).includes(supertype ?? '')) {
      const keywords = safeDecode(raw.slice(equals + 1));
      if (keywords === null) return null;
      return supertype === 'all'
        ? { keywords: keywords.trim() }
        : { keywords: keywords.trim(), supertype: supertype as SearchSupertype };
    }
  }
  const keywords = safeDecode(raw);
  return keywords === null ? null : { keywords: keywords.trim() };
}

/** Reads one query parameter, the name case-insensitively (the spec writes `parentid`, `successUrl`). */
function queryParam(params: URLSearchParams, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of params) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

function stripTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === '/') end -= 1;
  return path.slice(0, end);
}

const DATA_MARKER = /(?:^|\/)data=/i;

export function parseAddress(pathname: string, search?: string): ParsedAddress {
  let path = typeof pathname === 'string' ? pathname : '';
  let query = typeof search === 'string' ? search : undefined;
  if (path.length + (query?.length ?? 0) > MAX_ADDRESS_LENGTH) {
    return {
      route: { screen: 'not-found', path: '' },
      problem: { kind: 'not-found', detail: `address longer than ${MAX_ADDRESS_LENGTH} characters` },
      createPost: false,
      scrollToPosts: false,
    };
  }
  const hash = path.indexOf('#');
  if (hash >= 0) path = path.slice(0, hash);
  const questionMark = path.indexOf('?');
  if (questionMark >= 0) {
    query ??= path.slice(questionMark);
    path = path.slice(0, questionMark);
  }
  const requested = path;
  const params = new URLSearchParams(query ?? '');
  const flags = {
    createPost: queryParam(params, 'createpost')?.toLowerCase() === 'open',
    scrollToPosts: queryParam(params, 'posts') === '1',
  };
  const answer = (
    route: Route,
    extra?: { problem?: AddressProblem; replaceWith?: string },
  ): ParsedAddress => ({
    route,
    ...extra,
    ...flags,
  });
  const notFound = (problem: AddressProblem = { kind: 'not-found', detail: 'no screen has this address' }) =>
    answer({ screen: 'not-found', path: requested }, { problem });

  path = stripTrailingSlashes(path);
  let dataRaw: string | undefined;
  const marker = DATA_MARKER.exec(path);
  if (marker) {
    dataRaw = path.slice(marker.index + marker[0].length);
    path = path.slice(0, marker.index);
  }
  const segments = path.split('/').filter((segment) => segment !== '');
  const words = segments.map((segment) => segment.toLowerCase());
  const [first, second, third] = words;
  const count = segments.length;

  /** The data segment, or the bad-data answer (map mode, side panel closed). */
  const readData = (): { data: MapData } | { failed: ParsedAddress } => {
    if (dataRaw === undefined) return { data: {} };
    const decoded = decodeData(dataRaw);
    return decoded.ok
      ? { data: decoded.value }
      : { failed: answer({ screen: 'map' }, { problem: { kind: 'bad-data', detail: decoded.reason } }) };
  };
  /**
   * The id in segment `index`, or null when it is not a valid id. Ids are read literally: a valid
   * id never needs percent-encoding, so `/b/%41` is not the point `A`.
   */
  const idAt = (index: number): string | null => {
    const id = segments[index];
    return isValidId(id) ? id : null;
  };
  /** Keywords that do not decode: the plain map, and why (the same answer as bad data). */
  const badKeywords = () =>
    answer(
      { screen: 'map' },
      { problem: { kind: 'bad-data', detail: 'keywords have malformed percent-encoding' } },
    );
  const badId = (what: string) => notFound({ kind: 'bad-id', detail: `${what} is not a valid id` });
  const successUrl = (): { successUrl?: string } => {
    const value = queryParam(params, 'successUrl');
    return isSafeReturnPath(value) ? { successUrl: value } : {};
  };
  /** Routes addressed by an id in the path. */
  const idRoute = (screen: IdScreen, index: number) => {
    const id = idAt(index);
    return id === null ? badId('the point id') : answer({ screen, id });
  };
  const actionRoute = (screen: IdActionScreen, id: string | null | undefined) =>
    isValidId(id) ? answer({ screen, id, ...successUrl() }) : badId('the id');
  const queryIdRoute = (screen: IdActionScreen) => actionRoute(screen, queryParam(params, 'id'));

  if (
    dataRaw !== undefined &&
    first !== 'search' &&
    first !== 'maps' &&
    first !== 'cluster' &&
    first !== 'momcluster'
  ) {
    return notFound();
  }

  switch (first) {
    case undefined:
      return answer({ screen: 'landing' });
    case 'home':
      return count === 1 ? answer({ screen: 'landing' }) : notFound();
    case 'search': {
      if (count > 2) return notFound();
      // §2: a data segment alone returns to the landing page and the address becomes '/'.
      const parsed = count === 2 ? parseKeywords(segments[1] ?? '') : { keywords: '' };
      if (parsed === null) return badKeywords();
      if (parsed.keywords === '') return answer({ screen: 'landing' }, { replaceWith: '/' });
      const read = readData();
      if ('failed' in read) return read.failed;
      return answer({ screen: 'landing-search', ...parsed, data: read.data });
    }
    case 'maps': {
      if (count > 2) return notFound();
      const parsed = count === 2 ? parseKeywords(segments[1] ?? '') : { keywords: '' };
      if (parsed === null) return badKeywords();
      const bare = parsed.keywords === '' && parsed.supertype === undefined;
      if (bare && dataRaw === undefined) return answer({ screen: 'map' });
      const read = readData();
      if ('failed' in read) return read.failed;
      const { event, ...rest } = read.data;
      // §2: /maps/data={event id json} opens that event; with keywords the event is a next level.
      if (bare && event) return answer({ screen: 'event', eventId: event.id, data: rest });
      // nothing to search for (a location-only link): just the map, there, with the place in the hash
      if (bare && !rest.search?.keywords && !rest.search?.supertype)
        return answer({ screen: 'map' }, { replaceWith: `/maps${rest.loc ? buildMapHash(rest.loc) : ''}` });
      return answer({ screen: 'map-search', ...parsed, data: read.data });
    }
    case 'cluster':
    case 'momcluster': {
      if (count !== 1) return notFound();
      const read = readData();
      if ('failed' in read) return read.failed;
      return answer({ screen: first, data: read.data });
    }
    case 'f':
      return count === 2 ? idRoute('fullscreen', 1) : notFound();
    case 'a':
      return count === 2 ? idRoute('point-landing', 1) : notFound();
    case 'e':
      if (count === 2) return idRoute('event-page', 1);
      if (count === 3 && third === 'edit') return actionRoute('event-edit', idAt(1));
      if (count === 3 && third === 'copytonew') return actionRoute('event-copy', idAt(1));
      return notFound();
    case 'new':
      return count > 3 ? notFound() : parseAddNew(segments, answer);
    case 'myxpoints':
      return count === 3 && second === 'delete' ? actionRoute('delete-redirect', idAt(2)) : notFound();
    case 'meonmap':
      if (count === 2 && second === 'index') return answer({ screen: 'meonmap' });
      return count === 2 && second === 'edit' ? queryIdRoute('service-edit') : notFound();
    case 'myhelprequests':
      return count === 1 ? answer({ screen: 'myhelprequests' }) : notFound();
    case 'myexperience':
    case 'myrental': {
      if (count !== 2 || (second !== 'edit' && second !== 'delete')) return notFound();
      if (first === 'myexperience')
        return queryIdRoute(second === 'edit' ? 'experience-edit' : 'experience-delete');
      return queryIdRoute(second === 'edit' ? 'rental-edit' : 'rental-delete');
    }
    case 'myevents':
      return count === 3 && second === 'deletefrommap' ? actionRoute('event-delete', idAt(2)) : notFound();
    case 'u': {
      if (count !== 2) return notFound();
      const username = idAt(1);
      return username === null ? badId('the username') : answer({ screen: 'profile', username });
    }
    case 'post': {
      if (count !== 2) return notFound();
      const id = idAt(1);
      return id === null ? badId('the post id') : answer({ screen: 'post', id });
    }
    case 'cads': {
      if (count !== 2) return notFound();
      const city = safeDecode(segments[1] ?? '');
      return isValidCityForUrl(city)
        ? answer({ screen: 'city', cityForUrl: city })
        : notFound({ kind: 'bad-id', detail: 'the city is not a valid city_forurl' });
    }
    case 'business':
      if (count !== 3) return notFound();
      if (second === 'claim') return idRoute('claim', 2);
      if (second === 'becomecm') return idRoute('become-consultant', 2);
      return second === 'clearconsultant' ? actionRoute('clear-consultant', idAt(2)) : notFound();
    case 'event': {
      if (count !== 2 || second !== 'addaschild') return notFound();
      const parentId = queryParam(params, 'parentid');
      return isValidId(parentId) ? answer({ screen: 'event-add-child', parentId }) : badId('parentid');
    }
    case 'rental':
      return count === 3 && third === '2' ? idRoute('rental-book', 1) : notFound();
    case 'chat': {
      if (count < 2 || count > 3) return notFound();
      const pointId = idAt(1);
      if (pointId === null) return badId('the point id');
      if (count === 2) return answer({ screen: 'chat', pointId });
      const visitorId = idAt(2);
      return visitorId === null ? badId('the visitor id') : answer({ screen: 'chat', pointId, visitorId });
    }
    case 'inbox':
      if (count === 1) return answer({ screen: 'inbox' });
      return count === 2 && second === 'bookings' ? answer({ screen: 'inbox', tab: 'bookings' }) : notFound();
    case 'review': {
      if (count !== 2 || second !== 'invitereview') return notFound();
      const appId = queryParam(params, 'appid');
      return isValidId(appId) ? answer({ screen: 'invite-review', appId }) : badId('appid');
    }
    default: {
      const supertype = POINT_PREFIXES.get(first);
      if (supertype !== undefined) {
        const id = idAt(1);
        if (count < 2 || count > 3) return notFound();
        if (id === null) return badId('the point id');
        if (count === 2) return answer({ screen: 'point', supertype, id });
        if (third === 'edit') return answer({ screen: 'point-edit', supertype, id, ...successUrl() });
        if (third === 'copytonew' && first === 'h') return actionRoute('helprequest-copy', id);
        return notFound();
      }
      if (count === 1 && !RESERVED_FIRST_SEGMENTS.has(first)) return idRoute('fullscreen', 0);
      return notFound();
    }
  }
}

function parseAddNew(
  segments: readonly string[],
  answer: (route: Route, extra?: { problem?: AddressProblem }) => ParsedAddress,
): ParsedAddress {
  if (segments.length === 1) return answer({ screen: 'add-new' });
  const name = safeDecode(segments[1] ?? '') ?? '';
  const supertype = parseSupertype(name);
  if (!isAddNewSupertype(supertype)) {
    // §2: an invalid supertype raises an error; the flow starts at step 1 and the problem is reported.
    return answer(
      { screen: 'add-new' },
      {
        problem: {
          kind: 'bad-supertype',
          detail: `cannot add a point of supertype ${JSON.stringify(name.slice(0, 40))}`,
        },
      },
    );
  }
  if (segments.length === 2) return answer({ screen: 'add-new', supertype });
  const type = segments[2];
  return isValidId(type)
    ? answer({ screen: 'add-new', supertype, type })
    : answer(
        { screen: 'add-new', supertype },
        { problem: { kind: 'bad-type', detail: 'the type is not a valid key' } },
      );
}

function isAddNewSupertype(value: Supertype | null): value is AddNewSupertype {
  return (ADD_NEW_SUPERTYPES as readonly string[]).includes(value ?? '');
}

// ---------------------------------------------------------------------------------------------
// Building

function requireId(value: string, what: string): string {
  if (!isValidId(value)) {
    throw new Error(
      `Invalid ${what} for an address: ${JSON.stringify(value)} (letters, digits, _ and - only)`,
    );
  }
  return value;
}

function requirePointSupertype(value: string): string {
  if (value !== 'none' && !(POINT_SUPERTYPES as readonly string[]).includes(value)) {
    throw new Error(`Not a point supertype: ${JSON.stringify(value)}`);
  }
  return prefixFor(value);
}

/** A path with query parameters; undefined values are left out. */
function withQuery(path: string, params: readonly (readonly [string, string | undefined])[]): string {
  const parts = params.flatMap(([name, value]) =>
    value === undefined ? [] : [`${name}=${encodeURIComponent(value)}`],
  );
  return parts.length > 0 ? `${path}?${parts.join('&')}` : path;
}

function returnTo(successUrl: string | undefined): string | undefined {
  if (successUrl !== undefined && !isSafeReturnPath(successUrl)) {
    throw new Error(`successUrl must be a same-site path starting with '/': ${JSON.stringify(successUrl)}`);
  }
  return successUrl;
}

/** A path segment: percent-encoded, and never '.' or '..' (browsers would resolve those away). */
function segment(text: string): string {
  const encoded = encodeURIComponent(wellFormed(text));
  return encoded === '.' || encoded === '..' ? encoded.replaceAll('.', '%2E') : encoded;
}

function keywordSegment(keywords: string, supertype: SearchSupertype | undefined): string {
  if (supertype !== undefined && !(SEARCH_SUPERTYPES as readonly string[]).includes(supertype)) {
    throw new Error(`Not a searchable supertype: ${JSON.stringify(supertype)}`);
  }
  const encoded = segment(keywords.trim());
  return supertype === undefined ? encoded : `${supertype}=${encoded}`;
}

function dataSuffix(data: MapData): string {
  return isEmptyData(data) ? '' : `/data=${encodeData(data)}`;
}

/** `/{id}`, or `/f/{id}` when the id is a route word (`/home` is not a point). */
export function fullscreenPath(id: string): string {
  requireId(id, 'point id');
  return RESERVED_FIRST_SEGMENTS.has(id.toLowerCase()) ? `/f/${id}` : `/${id}`;
}

/**
 * The address of a point of the given (actual) supertype: `/{prefix}/{id}`; an event is `/e/{id}`,
 * an unknown supertype `/x/{id}`.
 */
export function canonicalPointPath(id: string, actualSupertype: Supertype | string): string {
  return `/${prefixFor(actualSupertype)}/${requireId(id, 'point id')}`;
}

/**
 * True when a point route's prefix does not match the point's actual supertype (known once its
 * details load); the app then replaces the address with `canonicalPointPath` (§2 "silently corrected").
 */
export function needsPrefixCorrection(route: Route, actualSupertype: Supertype | string): boolean {
  if (route.screen !== 'point' && route.screen !== 'point-edit') return false;
  return prefixFor(route.supertype) !== prefixFor(actualSupertype);
}

/** The address of a route. Throws on an invalid route (bad id, unsafe successUrl, unknown supertype). */
export function buildAddress(route: Route): string {
  switch (route.screen) {
    case 'landing':
      return '/';
    case 'map':
      return '/maps';
    case 'landing-search': {
      if (route.keywords.trim() === '') throw new Error('A landing-page search needs keywords');
      return `/search/${keywordSegment(route.keywords, route.supertype)}${dataSuffix(route.data)}`;
    }
    case 'map-search': {
      const keywords = keywordSegment(route.keywords, route.supertype);
      // With no keywords and no supertype the address is /maps/data=..., always with the data segment.
      if (keywords === '') return `/maps/data=${encodeData(route.data)}`;
      return `/maps/${keywords}${dataSuffix(route.data)}`;
    }
    case 'event':
      return `/maps/data=${encodeData({ ...route.data, event: { id: requireId(route.eventId, 'event id') } })}`;
    case 'point':
      return `/${requirePointSupertype(route.supertype)}/${requireId(route.id, 'point id')}`;
    case 'point-edit':
      return withQuery(`/${requirePointSupertype(route.supertype)}/${requireId(route.id, 'point id')}/Edit`, [
        ['successUrl', returnTo(route.successUrl)],
      ]);
    case 'fullscreen':
      return fullscreenPath(route.id);
    case 'point-landing':
      return `/a/${requireId(route.id, 'point id')}`;
    case 'claim':
      return `/business/claim/${requireId(route.id, 'point id')}`;
    case 'become-consultant':
      return `/business/becomecm/${requireId(route.id, 'point id')}`;
    case 'event-page':
      return `/e/${requireId(route.id, 'event id')}`;
    case 'rental-book':
      return `/rental/${requireId(route.id, 'rental id')}/2`;
    case 'cluster':
    case 'momcluster':
      return `/${route.screen}${dataSuffix(route.data)}`;
    case 'add-new': {
      if (route.supertype === undefined) {
        if (route.type !== undefined) throw new Error('An add-new type needs a supertype');
        return '/new';
      }
      if (!isAddNewSupertype(route.supertype)) {
        throw new Error(`Cannot add a point of supertype ${JSON.stringify(route.supertype)}`);
      }
      if (route.type === undefined) return `/new/${route.supertype}`;
      return `/new/${route.supertype}/${requireId(route.type, 'type')}`;
    }
    case 'meonmap':
      return '/MeOnMap/Index';
    case 'myhelprequests':
      return '/MyHelpRequests';
    case 'profile':
      return `/u/${requireId(route.username, 'username')}`;
    case 'post':
      return `/post/${requireId(route.id, 'post id')}`;
    case 'city':
      if (!isValidCityForUrl(route.cityForUrl)) {
        throw new Error(`Invalid city_forurl for an address: ${JSON.stringify(route.cityForUrl)}`);
      }
      return `/cads/${segment(route.cityForUrl)}`;
    case 'event-add-child':
      return withQuery('/Event/AddAsChild', [['parentid', requireId(route.parentId, 'parent event id')]]);
    case 'invite-review':
      return withQuery('/Review/InviteReview', [['appid', requireId(route.appId, 'point id')]]);
    case 'chat':
      return route.visitorId === undefined
        ? `/chat/${requireId(route.pointId, 'point id')}`
        : `/chat/${requireId(route.pointId, 'point id')}/${requireId(route.visitorId, 'visitor id')}`;
    case 'inbox':
      return route.tab === 'bookings' ? '/inbox/bookings' : '/inbox';
    case 'not-found':
      return isSafeReturnPath(route.path) ? route.path : '/';
    default:
      return buildAction(route);
  }
}

/** Paths of the action routes, which carry a successUrl to return to. */
function buildAction(route: Extract<Route, { screen: IdActionScreen }>): string {
  const id = requireId(route.id, 'id');
  const back: [string, string | undefined] = ['successUrl', returnTo(route.successUrl)];
  switch (route.screen) {
    case 'event-edit':
      return withQuery(`/e/${id}/Edit`, [back]);
    case 'event-copy':
      return withQuery(`/e/${id}/CopyToNew`, [back]);
    case 'event-delete':
      return withQuery(`/MyEvents/DeleteFromMap/${id}`, [back]);
    case 'delete-redirect':
      return withQuery(`/MyXPoints/Delete/${id}`, [back]);
    case 'helprequest-copy':
      return withQuery(`/h/${id}/CopyToNew`, [back]);
    case 'clear-consultant':
      return withQuery(`/business/ClearConsultant/${id}`, [back]);
    case 'service-edit':
      return withQuery('/MeOnMap/Edit', [['id', id], back]);
    case 'experience-edit':
      return withQuery('/MyExperience/Edit', [['id', id], back]);
    case 'rental-edit':
      return withQuery('/MyRental/Edit', [['id', id], back]);
    case 'experience-delete':
      return withQuery('/MyExperience/Delete', [['id', id], back]);
    case 'rental-delete':
      return withQuery('/MyRental/Delete', [['id', id], back]);
  }
}
