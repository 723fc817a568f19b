import { useCallback, useEffect, useRef, useState } from 'react';
import { likesLiveDataSchema, type LikeObjectType } from '../../../shared/api/likes';
import { socialTopic, type SocialLiveMessage } from '../../../shared/api/social-live';
import { useSocialTopic } from '../../live/socialTopic';

/**
 * How far outside the screen a like bar still counts as shown: a bar scrolled just out of sight keeps
 * its topic, so scrolling back and forth does not leave and join again at every line.
 */
const ON_SCREEN_MARGIN = '200px';

/**
 * Whether the element is on screen (or close to it), and the ref that tells. A connection may hold
 * 200 social topics (realtime/hub.ts): a long comments thread or reviews list must join only what the
 * person can see. Without IntersectionObserver (old browsers) every element counts as shown.
 */
export function useOnScreen<T extends Element>(enabled: boolean): [(element: T | null) => void, boolean] {
  const [element, setElement] = useState<T | null>(null);
  const [onScreen, setOnScreen] = useState(false);
  useEffect(() => {
    if (!enabled || !element || !observable()) return;
    const observer = new IntersectionObserver(
      (entries) => {
        const last = entries.at(-1);
        if (last) setOnScreen(last.isIntersecting);
      },
      { rootMargin: ON_SCREEN_MARGIN },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      setOnScreen(false);
    };
  }, [enabled, element]);
  return [setElement, observable() ? onScreen : enabled];
}

const observable = () => typeof IntersectionObserver !== 'undefined';

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
