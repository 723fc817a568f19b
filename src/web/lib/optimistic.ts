import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Optimistic updates with rollback, written once: a write that the user should see at once (a like,
 * a comment) names the cached answers it changes and how; the helper gives the mutation's callbacks
 * that show the change before the server answers, put every answer back if the server refuses,
 * and fetch the touched queries again once it has answered either way, so the cache ends as the
 * server has it.
 */

/** One change a write makes to the cache: every query whose key starts with `queryKey`. */
export interface CacheChange {
  queryKey: QueryKey;
  update(current: unknown): unknown;
}

/**
 * A change to the queries under `queryKey`, typed by the answer they hold (apiQuery's key carries
 * it); queries not loaded yet are left alone: nothing to show, and the refetch fills them.
 */
export function cacheChange<T>(queryKey: QueryKey, update: (current: T) => T): CacheChange {
  return { queryKey, update: (current) => update(current as T) };
}

export interface OptimisticContext {
  snapshot: Array<[QueryKey, unknown]>;
  touched: QueryKey[];
}

/** The onMutate/onError/onSettled of a mutation whose `changes(variables)` show before the answer. */
export function optimisticUpdate<TVariables>(
  client: QueryClient,
  changes: (variables: TVariables) => CacheChange[],
) {
  return {
    async onMutate(variables: TVariables): Promise<OptimisticContext> {
      const list = changes(variables);
      // an answer already on its way was read before the change: it must not land over it
      await Promise.all(list.map(({ queryKey }) => client.cancelQueries({ queryKey })));
      const snapshot = list.flatMap(({ queryKey }) => client.getQueriesData({ queryKey }));
      for (const { queryKey, update } of list)
        client.setQueriesData({ queryKey }, (current: unknown) =>
          current === undefined ? undefined : update(current),
        );
      return { snapshot, touched: list.map(({ queryKey }) => queryKey) };
    },
    onError(_error: unknown, _variables: TVariables, context: OptimisticContext | undefined): void {
      // the snapshot was taken before any change, so overlapping keys restore to the same answer
      for (const [queryKey, data] of context?.snapshot ?? []) client.setQueryData(queryKey, data);
    },
    onSettled(
      _data: unknown,
      _error: unknown,
      _variables: TVariables,
      context: OptimisticContext | undefined,
    ): Promise<unknown> {
      // returned, so the mutation counts as pending until the server's own answers are back
      return invalidateAll(client, context?.touched ?? []);
    },
  };
}

/** Marks the queries under each key stale and fetches again those on screen. */
export function invalidateAll(client: QueryClient, keys: readonly QueryKey[]): Promise<unknown> {
  return Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
}
