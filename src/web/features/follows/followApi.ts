import type { QueryClient } from '@tanstack/react-query';
import { followResultSchema } from '../../../shared/api/follows';
import { ApiError, apiPost } from '../../lib/api';

/** Social §4: 122 is "already followed": the person is shown as followed. */
export const ALREADY_FOLLOWED = 122;

/**
 * Follows or unfollows `userId`; answers their follower count, or null when the server says the
 * follow was already there (122). Any other refusal throws its ApiError.
 */
export async function setFollow(userId: string, follow: boolean): Promise<number | null> {
  try {
    return await apiPost(follow ? '/v1/follow/add' : '/v1/follow/unfollow', followResultSchema, {
      user_id: userId,
    });
  } catch (error) {
    if (follow && error instanceof ApiError && error.code === ALREADY_FOLLOWED) return null;
    throw error;
  }
}

/**
 * After a follow: the answers that show isfollowed or counts are read again (posts, profiles, lists,
 * the home page's city feed).
 */
export function refreshFollowAnswers(client: QueryClient): Promise<void> {
  return client.invalidateQueries({
    predicate: ({ queryKey }) => {
      const key = queryKey[0];
      return (
        typeof key === 'string' &&
        (key.startsWith('/v1/posts/') ||
          key.startsWith('/myposts/details') ||
          key.startsWith('/v1/users/') ||
          key === '/asidelandingfeed')
      );
    },
  });
}
