import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeData } from './data';
import { ID_SCREENS, SUCCESS_URL_SCREENS, idArbitrary as id, mapDataArbitrary } from './test-arbitraries';
import { normaliseData } from './data';
import { RESERVED_FIRST_SEGMENTS, buildAddress, isSafeReturnPath, parseAddress } from './routes';
import { POINT_SUPERTYPES } from '../domain/supertypes';
import type { MapData, Route } from './types';
import { SEARCH_SUPERTYPES } from './types';

// Properties of the router over generated routes and paths; the spec's table is in routes.test.ts.
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const data = mapDataArbitrary.map(normaliseData);
const keywords = fc
  .oneof(
    fc.string({ minLength: 1, maxLength: 30 }),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
    fc.constantFrom('.', '..', 'a=b', 'service=x', '%', 'data=x', 'a/data=b'),
  )
  .map((text) => text.trim())
  .filter((text) => text !== '');
const supertype = maybe(fc.constantFrom(...SEARCH_SUPERTYPES));
const successUrl = maybe(
  fc.oneof(
    fc.constantFrom('/', '/b/p1', '/u/jane/profile/?pagenumber=2&pagesize=24', '/maps/data=%7B%7D'),
    fc
      .string({ maxLength: 30 })
      .map((text) => `/${text}`)
      .filter(isSafeReturnPath),
  ),
);
const pointSupertype = fc.constantFrom('none', ...POINT_SUPERTYPES) as fc.Arbitrary<'none'>;

/** Drops undefined members so that toEqual compares routes as parseAddress writes them. */
const clean = (route: Route): Route => JSON.parse(JSON.stringify(route)) as Route;

const routeArbitrary: fc.Arbitrary<Route> = fc
  .oneof(
    fc.constant<Route>({ screen: 'landing' }),
    fc.constant<Route>({ screen: 'map' }),
    fc.record({ keywords, supertype, data }).map((r): Route => ({ screen: 'landing-search', ...r })),
    fc.record({ keywords: fc.oneof(keywords, fc.constant('')), supertype, data }).map((r): Route => {
      const { event: _event, ...rest }: MapData = r.data;
      // with neither keywords nor supertype, an event in the data makes it the event screen
      const bare = r.keywords === '' && r.supertype === undefined;
      const dataFor = bare ? rest : r.data;
      // and with nothing to search for at all, it is just the map
      if (bare && !rest.search?.keywords && !rest.search?.supertype) return { screen: 'map' };
      return { screen: 'map-search', ...r, data: dataFor };
    }),
    fc.record({ eventId: id, data }).map(({ eventId, data: { event: _event, ...rest } }): Route => ({
      screen: 'event',
      eventId,
      data: rest,
    })),
    fc.record({ supertype: pointSupertype, id }).map((r): Route => ({ screen: 'point', ...r })),
    fc
      .record({ supertype: pointSupertype, id, successUrl })
      .map((r): Route => ({ screen: 'point-edit', ...r })),
    fc
      .record({
        screen: fc.constantFrom(...ID_SCREENS),
        id: fc.oneof(id, fc.constantFrom(...RESERVED_FIRST_SEGMENTS)),
      })
      .map((r) => r as Route),
    fc
      .record({
        screen: fc.constantFrom(...SUCCESS_URL_SCREENS),
        id,
        successUrl,
      })
      .map((r) => r as Route),
    fc.record({ screen: fc.constantFrom('cluster', 'momcluster'), data }).map((r) => r as Route),
    fc.oneof(
      fc.constant<Route>({ screen: 'add-new' }),
      fc
        .record({
          supertype: fc.constantFrom('virtualstore', 'service', 'experience', 'rental'),
          type: maybe(id),
        })
        .map((r): Route => ({ screen: 'add-new', ...r })),
    ),
    fc.constantFrom<Route>({ screen: 'meonmap' }, { screen: 'myhelprequests' }),
    id.map((username): Route => ({ screen: 'profile', username })),
    id.map((postId): Route => ({ screen: 'post', id: postId })),
    fc
      .stringMatching(/^[\p{L}\p{N}_-][\p{L}\p{N}_.-]{0,20}$/u)
      .map((cityForUrl): Route => ({ screen: 'city', cityForUrl })),
    id.map((parentId): Route => ({ screen: 'event-add-child', parentId })),
    id.map((appId): Route => ({ screen: 'invite-review', appId })),
  )
  .map(clean);

/** Path-like text built from route words, ids, data segments and junk. */
const pathLike = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        ...RESERVED_FIRST_SEGMENTS,
        'Edit',
        'CopyToNew',
        'Delete',
        'DeleteFromMap',
        'Index',
        'claim',
        'becomecm',
        'ClearConsultant',
        'AddAsChild',
        'InviteReview',
        '2',
        'service=x',
        '',
        '%',
        '%E0%A4%A',
        '..',
      ),
      id,
      fc.string(),
      fc.string({ unit: 'binary' }),
      data.map((d) => `data=${encodeData(d)}`),
      fc.string().map((s) => `data=${s}`),
    ),
    { maxLength: 5 },
  )
  .chain((segments) =>
    fc.tuple(
      fc.constant(`/${segments.join('/')}`),
      fc.constantFrom(
        '',
        '?id=p1',
        '?successUrl=%2Fb%2Fp1&createpost=open',
        '?parentid=a&appid=b',
        '?%',
        '#x',
      ),
    ),
  )
  .map(([path, tail]) => path + tail);

describe('route properties', () => {
  it('build then parse gives back the same route', () => {
    fc.assert(
      fc.property(routeArbitrary, (route) => {
        const address = buildAddress(route);
        const parsed = parseAddress(address);
        expect(parsed.problem).toBeUndefined();
        expect(parsed.route).toEqual(route);
      }),
      { numRuns: 1000 },
    );
  });

  it('no input makes the parser throw', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' }), pathLike),
        fc.option(fc.string(), { nil: undefined }),
        (path, search) => {
          parseAddress(path, search);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('whatever it parses builds back to an address that parses the same (the canonical form)', () => {
    fc.assert(
      fc.property(fc.oneof(pathLike, fc.string({ unit: 'binary' })), (path) => {
        const { route } = parseAddress(path);
        if (route.screen === 'not-found') return;
        const again = parseAddress(buildAddress(route));
        expect(again.route).toEqual(route);
        expect(again.problem).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });
});
