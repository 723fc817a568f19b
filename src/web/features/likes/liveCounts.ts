import { useCallback, useEffect, useRef } from 'react';
import { likesLiveDataSchema, type LikeObjectType } from '../../../shared/api/likes';
import { socialTopic, type SocialLiveMessage } from '../../../shared/api/social-live';
import { useSocialTopic } from '../../live/socialTopic';

/**
 * How far outside the screen a like bar still counts as shown (useOnScreen): a connection may hold 200
 * social topics (realtime/hub.ts), so a long comments thread or reviews list joins only what the person
 * can see; a bar scrolled just out of sight keeps its topic, so scrolling back and forth does not leave
 * and join again at every line.
 */
export const LIKE_BAR_MARGIN = '200px';

/**
 * Hears an object's like counts (`social:{type}:{id}`, kind 'likes') while `listening`, and hands each
 * change of that object's counts to `onCounts`.
 */
export function useLiveLikeCounts(
  objectType: LikeObjectType,
  objectId: string,
  listening: boolean,
  onCounts: (counts: { up: number; down: number }) => void,
): void {
  const latest = useRef(onCounts);
  useEffect(() => {
    latest.current = onCounts;
  }, [onCounts]);
  const onMessage = useCallback(
    (message: SocialLiveMessage) => {
      if (message.kind !== 'likes') return;
      const counts = likesLiveDataSchema.safeParse(message.data);
      if (!counts.success || counts.data.objecttype !== objectType || counts.data.objectid !== objectId)
        return;
      latest.current({ up: counts.data.up, down: counts.data.down });
    },
    [objectType, objectId],
  );
  useSocialTopic(listening ? socialTopic(objectType, objectId) : null, onMessage);
}
