import { useQueryClient } from '@tanstack/react-query';
import { useCallback, type ReactNode } from 'react';
import { likesLiveDataSchema, type Liker } from '../../../shared/api/likes';
import type { PostResult } from '../../../shared/api/posts';
import { socialTopic, type SocialLiveMessage } from '../../../shared/api/social-live';
import { cacheChange } from '../../lib/optimistic';
import { refreshAfterWrite } from '../../lib/query';
import { useSocialTopic } from '../../live/socialTopic';
import { postDetailsPath } from '../posts/postsApi';
import { LikeBar } from './LikeBar';
import type { LikeState } from './likeState';

/** Every cached posts list (a point's, a profile's): their cards show the counts. */
const POST_LISTS = {
  predicate: ({ queryKey }: { queryKey: readonly unknown[] }) =>
    typeof queryKey[0] === 'string' && queryKey[0].startsWith('/v1/posts/'),
};

/**
 * A post's like bar (the post details view): its state lives in the post's cached answer
 * (`likes_up`, `likes_down`, `my_like`), which the press changes at once; other people's likes
 * arrive on the post's live topic (`social:P:{id}`) and set the counts without a reload.
 */
export function PostLikeBar({
  post,
  renderFollow,
}: {
  post: PostResult;
  renderFollow?(liker: Liker): ReactNode;
}) {
  const client = useQueryClient();
  const detailKey = [postDetailsPath(post.postid)];
  const changes = (next: LikeState) => [
    cacheChange<PostResult>(detailKey, (current) => ({
      ...current,
      likes_up: next.up,
      likes_down: next.down,
      my_like: next.mine,
    })),
  ];
  const onLive = useCallback(
    (message: SocialLiveMessage) => {
      if (message.kind !== 'likes') return;
      const counts = likesLiveDataSchema.safeParse(message.data);
      if (!counts.success || counts.data.objectid !== post.postid) return;
      const queryKey = [postDetailsPath(post.postid)];
      client.setQueriesData<PostResult>({ queryKey }, (current) =>
        current ? { ...current, likes_up: counts.data.up, likes_down: counts.data.down } : current,
      );
      // a read begun before this like (the join's catch-up, below) answers the older counts after
      // it and would put them back: that read is dropped and the post read again
      if (client.isFetching({ queryKey }) > 0) void client.invalidateQueries({ queryKey });
    },
    [client, post.postid],
  );
  // likes given between the post's read and the join were never pushed here: read it again then
  const onJoined = useCallback(
    () => void client.invalidateQueries({ queryKey: [postDetailsPath(post.postid)] }),
    [client, post.postid],
  );
  useSocialTopic(socialTopic('P', post.postid), onLive, onJoined);
  return (
    <LikeBar
      objectType="P"
      objectId={post.postid}
      state={{ up: post.likes_up, down: post.likes_down, mine: post.my_like }}
      changes={changes}
      onSettled={() => void refreshAfterWrite(client, POST_LISTS)}
      {...(renderFollow ? { renderFollow } : {})}
    />
  );
}
