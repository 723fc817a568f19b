import { z } from 'zod';
import { CLOSEST_CITIES_DEFAULT, nearestCitySchema } from '../../../shared/api/details';
import {
  duplicatesResponseSchema,
  pointWriteResponseSchema,
  type DuplicateCandidate,
  type PointWriteResponse,
} from '../../../shared/api/points';
import { apiPost } from '../../lib/api';
import type { CreateBody } from './addNewForm';

/** The calls of the add-new flow: the nearest cities (offline reverse lookup), duplicates, create. */

/** POST /v1/map/closestn (§7, §9: 5 cities): our own cities, no external geocoder. */
export function closestCities(lat: number, lon: number, signal?: AbortSignal) {
  return apiPost(
    '/v1/map/closestn',
    z.array(nearestCitySchema),
    { lat, lng: lon, n: CLOSEST_CITIES_DEFAULT },
    { signal },
  );
}

/** POST /v1/xpoint/create: 201 with the point's page, or an ApiError (7001 for a possible duplicate). */
export function createPoint(body: CreateBody): Promise<PointWriteResponse> {
  return apiPost('/v1/xpoint/create', pointWriteResponseSchema, body);
}

/** POST /v1/xpoint/duplicates: the places a create answered 7001 about, to offer them. */
export async function duplicateCandidates(body: CreateBody): Promise<DuplicateCandidate[]> {
  const { candidates } = await apiPost('/v1/xpoint/duplicates', duplicatesResponseSchema, {
    title: body.title,
    lat: body.lat,
    lon: body.lon,
  });
  return candidates;
}
