import { useEffect, useState } from 'react';
import type { z } from 'zod';
import { ApiError, apiGet } from './api';

export type Resource<T> =
  | { status: 'loading' }
  | { status: 'ready'; data: T }
  | { status: 'error'; message: string; httpStatus: number };

/**
 * A GET that follows its path: loading, then the data or the error's safe text (the API client
 * makes every failure safe, src/shared/http/safeText). A newer path aborts the older request, so a
 * stale answer never replaces a newer one. A null path loads nothing.
 */
export function useResource<S extends z.ZodType>(path: string | null, schema: S): Resource<z.output<S>> {
  const [state, setState] = useState<{ path: string | null; resource: Resource<z.output<S>> }>({
    path,
    resource: { status: 'loading' },
  });
  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    apiGet(path, schema, { signal: controller.signal }).then(
      (data) => setState({ path, resource: { status: 'ready', data } }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const message = error instanceof Error ? error.message : String(error);
        setState({
          path,
          resource: { status: 'error', message, httpStatus: error instanceof ApiError ? error.status : 0 },
        });
      },
    );
    return () => controller.abort();
  }, [path, schema]);
  // an answer for an older path is never shown for the new one
  return state.path === path ? state.resource : { status: 'loading' };
}
