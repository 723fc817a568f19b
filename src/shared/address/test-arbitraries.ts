import fc from 'fast-check';
import { LAYER_GROUPS } from '../map/contract';
import type { MapData, Route } from './types';
import { SEARCH_PAGE_SIZES, SEARCH_SUPERTYPES } from './types';

/** fast-check arbitraries shared by the codec's tests (not part of the public API). */

/** The screens whose address is a point's or an event's id alone. */
export const ID_SCREENS = [
  'fullscreen',
  'point-landing',
  'claim',
  'become-consultant',
  'event-page',
  'rental-book',
] as const satisfies readonly Route['screen'][];

/** The owner's screens whose address is an id and the page to return to (`successUrl`). */
export const SUCCESS_URL_SCREENS = [
  'event-edit',
  'event-copy',
  'event-delete',
  'delete-redirect',
  'service-edit',
  'experience-edit',
  'rental-edit',
  'experience-delete',
  'rental-delete',
  'helprequest-copy',
  'clear-consultant',
] as const satisfies readonly Route['screen'][];

const coordinate = (limit: number) => fc.double({ min: -limit, max: limit, noNaN: true });
export const idArbitrary = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);
const corner = fc.record({ lat: coordinate(90), lon: coordinate(360) });

/** Valid data as a caller might hand it in: empty strings, 'all', unrounded numbers included. */
export const mapDataArbitrary: fc.Arbitrary<MapData> = fc.record(
  {
    loc: fc.record({
      zoom: fc.double({ min: 0, max: 20, noNaN: true }),
      lng: coordinate(180),
      lat: coordinate(90),
    }),
    search: fc.record(
      {
        supertype: fc.constantFrom(...SEARCH_SUPERTYPES, 'all' as const),
        keywords: fc.oneof(
          fc.string({ maxLength: 40 }),
          fc.string({ unit: 'grapheme', maxLength: 20 }),
          fc.constant(''),
        ),
        southwest: corner,
        northeast: corner,
        paging: fc.record(
          {
            pageNumber: fc.integer({ min: 1, max: 10_000 }),
            pageSize: fc.constantFrom(...SEARCH_PAGE_SIZES),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    ),
    event: fc.record({ id: idArbitrary }),
    xpoint: fc.record({ id: fc.oneof(idArbitrary, fc.constant('')) }),
    cluster: fc.record({
      group: fc.constantFrom(...LAYER_GROUPS),
      id: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    }),
  },
  { requiredKeys: [] },
);
