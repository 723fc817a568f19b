import { useEffect, useState } from 'react';
import { profileResponseSchema, type ProfileResponse } from '../../../shared/api/profiles';
import { ApiError, apiGet } from '../../lib/api';

export type ProfileState =
  | { status: 'loading' }
  | { status: 'ready'; profile: ProfileResponse }
  | { status: 'missing' }
  | { status: 'error'; message: string };

/** GET /v1/users/{username} with the given query; a new argument cancels the answer still on its way. */
export function useProfile(username: string | null, query: Record<string, string | number>): ProfileState {
  const search = new URLSearchParams(
    Object.entries(query).map(([name, value]) => [name, String(value)]),
  ).toString();
  const key = username === null ? null : `${encodeURIComponent(username)}?${search}`;
  const [state, setState] = useState<{ key: string | null; value: ProfileState }>({
    key: null,
    value: { status: 'loading' },
  });

  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    apiGet(`/v1/users/${key}`, profileResponseSchema, { signal: controller.signal })
      .then((profile) => setState({ key, value: { status: 'ready', profile } }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const missing = error instanceof ApiError && (error.status === 404 || error.status === 400);
        const value: ProfileState = missing
          ? { status: 'missing' }
          : { status: 'error', message: error instanceof Error ? error.message : String(error) };
        setState({ key, value });
      });
    return () => controller.abort();
  }, [key]);

  // an answer for an older key is not this key's answer: show loading until the new one arrives
  return state.key === key ? state.value : { status: 'loading' };
}
