import {
  QueryClient,
  queryOptions,
  skipToken,
  useQueryClient,
  type QueryFilters,
} from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import type { z } from 'zod';
import { ApiError, apiGet } from './api';
import type { SchemaSource } from './schemas';

/**
 * Server state in the browser goes through TanStack Query: a read is a query keyed by its API path
 * (so a write can name what it changed: `[path]`), a write is a mutation that invalidates the
 * queries it changed (src/web/lib/optimistic.ts for the optimistic ones).
 */

/** Retries after a failure that may pass: no answer (network, status 0) or a 5xx; never a 4xx. */
export const MAX_RETRIES = 2;

export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  if (!(error instanceof ApiError)) return false;
  return error.status === 0 || error.status >= 500;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        // a point or event opened again within half a minute (back, then forward) shows at once
        // without a loader; every write in the app drops or refetches what it may have changed
        staleTime: 30_000,
        // the panels sit over the map and move it to their place: coming back to the tab must not
        // refetch and redraw a panel, or pan the map, under the user
        refetchOnWindowFocus: false,
      },
      // a write is never repeated by itself: the user sees the refusal and decides
      mutations: { retry: false },
    },
  });
}

/**
 * A GET of `path` answered in its contract's shape, with the query's abort signal: a newer path
 * leaves the older request to be cancelled, so a stale answer never shows for a newer address.
 * A null path loads nothing (the query stays pending, as a loading panel).
 *
 * `viewer` is the signed-in user's id ('' for a visitor) when the answer depends on who asks (a
 * point's controls, one's own list): signing in or out then reads again instead of showing the
 * controls of the one before. The path comes first, so `[path]` names the answer for every viewer.
 */
export function apiQuery<S extends z.ZodType>(path: string | null, schema: SchemaSource<S>, viewer?: string) {
  return queryOptions({
    queryKey: viewer === undefined ? [path ?? ''] : [path ?? '', viewer],
    queryFn:
      path === null ? skipToken : ({ signal }): Promise<z.output<S>> => apiGet(path, schema, { signal }),
  });
}

/** Every cached answer of `path`, whatever its query string and whoever asked. */
export function answersOf(path: string): QueryFilters {
  return {
    predicate: ({ queryKey }) => {
      const key = queryKey[0];
      return typeof key === 'string' && (key === path || key.startsWith(`${path}?`));
    },
  };
}

/**
 * After a write, for the answers it changed (all by default): those off screen are dropped, so the
 * next visit loads them as a first visit does instead of showing the old answer first; those on
 * screen are fetched again, and the promise waits for them.
 */
export async function refreshAfterWrite(client: QueryClient, filters: QueryFilters = {}): Promise<void> {
  client.removeQueries({ ...filters, type: 'inactive' });
  await client.invalidateQueries({ ...filters, type: 'active' });
}

/**
 * For a level that deletes what it shows: `forget(filters)` drops those answers at once where no
 * one looks at them, and the level's own once it has left the screen. Dropped while still on
 * screen, they would be read again at its next render, and answer "not found" to a deleted thing.
 */
export function useForgetOnLeave(): (filters: QueryFilters) => void {
  const client = useQueryClient();
  const forgotten = useRef<QueryFilters[]>([]);
  useEffect(
    () => () => {
      for (const filters of forgotten.current) client.removeQueries(filters);
    },
    [client],
  );
  return useCallback(
    (filters: QueryFilters) => {
      client.removeQueries({ ...filters, type: 'inactive' });
      forgotten.current.push(filters);
    },
    [client],
  );
}

/** The text a failed read or write shows: the API client's safe text (src/shared/http/safeText). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
