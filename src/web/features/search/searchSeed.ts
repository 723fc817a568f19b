import type { PagedSearchResponse } from '../../../shared/api/search';
import type { SearchQuery } from '../../../shared/search/query';

/**
 * The page a search address was painted with by the server (issue 23), kept from the take-over
 * (ssr/takeOver.ts) until the search screen's first render takes it: that render shows the same
 * results in the same order, with no loader and no second request (a second one could rank them
 * around another centre). Forgotten once that screen has mounted.
 */
let seeded: { key: string; page: PagedSearchResponse } | null = null;

export function seedSearch(query: SearchQuery, page: PagedSearchResponse): void {
  seeded = { key: JSON.stringify(query), page };
}

export function takeSeededSearch(query: SearchQuery): PagedSearchResponse | null {
  return seeded !== null && seeded.key === JSON.stringify(query) ? seeded.page : null;
}

export function forgetSeededSearch(): void {
  seeded = null;
}
