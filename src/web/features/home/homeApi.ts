import { infiniteQueryOptions, queryOptions, skipToken } from '@tanstack/react-query';
import { z } from 'zod';
import { nearestCitySchema } from '../../../shared/api/details';
import {
  FEED_PAGE_SIZE,
  NEARBY_LOCATIONS_MAX,
  STARTING_WITH_LIMIT,
  cityOptionSchema,
  landingFeedPageSchema,
  type LandingFeedPage,
} from '../../../shared/api/home';
import { apiGet, apiPost } from '../../lib/api';

/** The home page's calls (social §7): the city autocomplete, top destinations, nearby places, the city feed. */

/** POST /v1/locations/startingwith: up to 10 cities for the typed text. */
export function citiesStartingWith(query: string, signal?: AbortSignal) {
  return apiPost(
    '/v1/locations/startingwith',
    z.array(cityOptionSchema),
    { query, limit: STARTING_WITH_LIMIT },
    { signal, read: true },
  );
}

export const topDestinationsQuery = queryOptions({
  queryKey: ['/v1/locations/top'],
  queryFn: ({ signal }) => apiGet('/v1/locations/top', z.array(cityOptionSchema), { signal }),
  staleTime: 3600_000,
});

/** POST /v1/map/closestn: the places nearest to the home page's location (§9: at most 30). */
export function nearbyQuery(at: { lat: number; lon: number } | null) {
  const lat = at === null ? null : Math.round(at.lat * 1000) / 1000;
  const lon = at === null ? null : Math.round(at.lon * 1000) / 1000;
  return queryOptions({
    queryKey: ['/v1/map/closestn', lat, lon],
    queryFn:
      lat === null || lon === null
        ? skipToken
        : ({ signal }) =>
            apiPost(
              '/v1/map/closestn',
              z.array(nearestCitySchema),
              { lat, lng: lon, n: NEARBY_LOCATIONS_MAX },
              { signal, read: true },
            ),
    staleTime: 600_000,
  });
}

type Cursor = LandingFeedPage['next'];

/** POST /asidelandingfeed as JSON, a keyset page at a time (the next page's cursor from the last). */
export function cityFeedQuery(cityId: number | null, viewer: string) {
  return infiniteQueryOptions({
    queryKey: ['/asidelandingfeed', cityId, viewer],
    queryFn:
      cityId === null
        ? skipToken
        : ({ pageParam, signal }) =>
            apiPost(
              '/asidelandingfeed',
              landingFeedPageSchema,
              { cityid: cityId, limit: FEED_PAGE_SIZE, ...(pageParam ?? {}) },
              { signal, read: true },
            ),
    initialPageParam: null as Cursor,
    getNextPageParam: (page: LandingFeedPage) => page.next ?? undefined,
  });
}
