import { pointDetailsPath } from '../../../shared/api/details';
import { apiQuery } from '../../lib/query';
import { eventDetailsSchema, pointDetailsSchema } from './schemas';

/**
 * The detail reads every screen shares (the panels, the full-screen page, the owner's pages), so
 * they share one cache entry per point or event. The answer depends on who asks (its controls).
 */

export { pointDetailsPath };

export function eventDetailsPath(id: string): string {
  return `/v1/webonly/eventdetails/${encodeURIComponent(id)}`;
}

/** GET /v1/webonly/xpointdetails/{id}; a null id reads nothing. */
export function pointDetailsQuery(id: string | null, viewer: string) {
  return apiQuery(id === null ? null : pointDetailsPath(id), pointDetailsSchema, viewer);
}

/** GET /v1/webonly/eventdetails/{id}. */
export function eventDetailsQuery(id: string, viewer: string) {
  return apiQuery(eventDetailsPath(id), eventDetailsSchema, viewer);
}
