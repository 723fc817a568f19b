import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError } from './api';
import { MAX_RETRIES, answersOf, apiQuery, refreshAfterWrite, shouldRetry } from './query';

describe('shouldRetry', () => {
  it('tries again after no answer or a server failure, at most twice', () => {
    const offline = new ApiError(0, 'Internet Connection lost or server is not responding!', 0);
    const failing = new ApiError(-1, 'Status 503. Network/Server error.', 503);
    expect([0, 1, 2].map((count) => shouldRetry(count, offline))).toEqual([true, true, false]);
    expect([0, 1, 2].map((count) => shouldRetry(count, failing))).toEqual([true, true, false]);
    expect(MAX_RETRIES).toBe(2);
  });

  it('never repeats a refusal or an answer that did not fit its contract', () => {
    expect(shouldRetry(0, new ApiError(1010, 'Unauthorized', 401))).toBe(false);
    expect(shouldRetry(0, new ApiError(2001, 'Not found', 404))).toBe(false);
    expect(shouldRetry(0, new ApiError(-1, 'Server returned EMPTY/Invalid response!', 200))).toBe(false);
    expect(shouldRetry(0, new TypeError('x is undefined'))).toBe(false);
  });
});

describe('answersOf and refreshAfterWrite', () => {
  it('drop the answers of a path that no one shows, fetch again those on screen, and leave others', async () => {
    const client = new QueryClient();
    const service = ['/v1/account/mypoints?supertype=service', 'u1'];
    const all = ['/v1/account/mypoints?supertype=all', 'u1'];
    const other = ['/v1/account/mypointsandmore', 'u1'];
    for (const key of [service, other]) client.setQueryData(key, { items: ['old'] });
    let reads = 0;
    const onScreen = new QueryObserver(client, {
      queryKey: all,
      queryFn: () => {
        reads += 1;
        return Promise.resolve({ items: [`read ${reads}`] });
      },
      staleTime: Infinity,
    });
    const unsubscribe = onScreen.subscribe(() => undefined);
    await expect.poll(() => reads).toBe(1);

    await refreshAfterWrite(client, answersOf('/v1/account/mypoints'));

    expect(client.getQueryData(service)).toBeUndefined();
    expect(client.getQueryData(all)).toEqual({ items: ['read 2'] });
    expect(client.getQueryData(other)).toEqual({ items: ['old'] });
    unsubscribe();
    client.clear();
  });
});

describe('apiQuery', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads its path with the query’s abort signal, keyed by the path and then the viewer', async () => {
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => new Response('{"ok":true}'));
    vi.stubGlobal('fetch', fetchMock);
    const client = new QueryClient();
    const options = apiQuery('/v1/x/1', z.object({ ok: z.boolean() }), 'u1');
    expect(options.queryKey).toEqual(['/v1/x/1', 'u1']);
    await expect(client.fetchQuery(options)).resolves.toEqual({ ok: true });
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/v1/x/1');
    expect(fetchMock.mock.calls[0]?.[1].signal).toBeInstanceOf(AbortSignal);
    client.clear();
  });
});
