import { MutationObserver, QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { cacheChange, optimisticUpdate, type OptimisticContext } from './optimistic';

interface Post {
  id: string;
  likes: number;
}

const POST = ['/v1/posts/p1'] as const;
const FEED = ['/v1/feed'] as const;

let client: QueryClient;
afterEach(() => client.clear());

/** A like: the post and the feed that lists it both count it before the server answers. */
function likeObserver(send: () => Promise<void>) {
  const bump = (post: Post): Post => ({ ...post, likes: post.likes + 1 });
  return new MutationObserver<void, Error, string, OptimisticContext>(client, {
    mutationFn: send,
    ...optimisticUpdate(client, (id: string) => [
      cacheChange<Post>([`/v1/posts/${id}`], bump),
      cacheChange<Post[]>(FEED, (feed) => feed.map((post) => (post.id === id ? bump(post) : post))),
    ]),
  });
}

function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('optimisticUpdate', () => {
  it('shows the change at once and puts every touched answer back when the write fails', async () => {
    client = new QueryClient();
    client.setQueryData(POST, { id: 'p1', likes: 1 });
    client.setQueryData(FEED, [
      { id: 'p0', likes: 7 },
      { id: 'p1', likes: 1 },
    ]);
    const server = deferred();
    const observer = likeObserver(() => server.promise);
    const done = observer.mutate('p1').catch((error: unknown) => error);

    await expect.poll(() => client.getQueryData<Post>(POST)?.likes).toBe(2);
    expect(client.getQueryData<Post[]>(FEED)?.[1]?.likes).toBe(2);

    server.reject(new ApiError(1010, 'Unauthorized', 401));
    expect(await done).toBeInstanceOf(ApiError);
    expect(client.getQueryData(POST)).toEqual({ id: 'p1', likes: 1 });
    expect(client.getQueryData(FEED)).toEqual([
      { id: 'p0', likes: 7 },
      { id: 'p1', likes: 1 },
    ]);
    expect(observer.getCurrentResult().status).toBe('error');
  });

  it('fetches the touched queries again once the write has succeeded', async () => {
    client = new QueryClient();
    let serverLikes = 1;
    let reads = 0;
    const post = new QueryObserver(client, {
      queryKey: POST,
      queryFn: () => {
        reads += 1;
        return Promise.resolve({ id: 'p1', likes: serverLikes });
      },
      staleTime: Infinity,
    });
    const unsubscribe = post.subscribe(() => undefined);
    await expect.poll(() => post.getCurrentResult().data?.likes).toBe(1);

    // the server counts another reader's like as well as ours
    const observer = likeObserver(() => {
      serverLikes = 3;
      return Promise.resolve();
    });
    await observer.mutate('p1');

    expect(reads).toBe(2);
    expect(client.getQueryData(POST)).toEqual({ id: 'p1', likes: 3 });
    unsubscribe();
  });

  it('keeps an answer read before the change from landing over it', async () => {
    client = new QueryClient();
    client.setQueryData(POST, { id: 'p1', likes: 1 });
    const slowRead = deferred();
    void client
      .fetchQuery({
        queryKey: POST,
        queryFn: async () => {
          await slowRead.promise;
          return { id: 'p1', likes: 1 };
        },
      })
      .catch(() => undefined);

    const observer = likeObserver(() => new Promise<void>(() => undefined));
    void observer.mutate('p1');
    await expect.poll(() => client.getQueryData<Post>(POST)?.likes).toBe(2);
    slowRead.resolve();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(client.getQueryData<Post>(POST)?.likes).toBe(2);
  });
});
