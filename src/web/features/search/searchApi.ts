import type { PagedSearchResponse, Suggestion } from '../../../shared/api/search';
import { apiPost } from '../../lib/api';
import { lazySchema } from '../../lib/schemas';
import { pagedSearchBody, type SearchNear } from '../../../shared/search/query';
import type { SearchQuery } from './searchView';

/** §7 POST /v1/app/searchsuggestions over the visible map, as form fields; events only when asked. */
export function fetchSuggestions(
  q: string,
  bounds: Pick<SearchQuery, 'southwest' | 'northeast'> | null,
  signal: AbortSignal,
): Promise<Suggestion[]> {
  return apiPost(
    '/v1/app/searchsuggestions',
    lazySchema('suggestionsResponseSchema'),
    { q, maxresults: 10, includeevents: true, ...(bounds ?? {}) },
    { signal, form: true },
  );
}

/**
 * §7 POST /v1/webonly/pagedmapsearch: the page the address asks for. Without bounds (a search from
 * the landing page), `near` (the map's centre) orders the world's results nearest first.
 */
export function fetchSearchPage(
  query: SearchQuery,
  signal: AbortSignal,
  near: SearchNear | null = null,
): Promise<PagedSearchResponse> {
  return apiPost(
    '/v1/webonly/pagedmapsearch',
    lazySchema('pagedSearchResponseSchema'),
    pagedSearchBody(query, near),
    // §7: the paged search says it is a script's call, as the spec's client did
    { signal, headers: { 'X-Requested-With': 'XMLHttpRequest' } },
  );
}
