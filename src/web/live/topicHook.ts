import { useEffect, useRef } from 'react';
import type { SocialLiveMessage } from '../../shared/api/social-live';

/**
 * Joins a topic and answers how to leave it: at once, or once the live client has loaded. `onJoined`
 * is called each time the topic is joined (first, and again after a lost connection came back).
 */
export type TopicSubscriber = (
  topic: string,
  listener: (message: SocialLiveMessage) => void,
  onJoined?: () => void,
) => (() => void) | Promise<() => void>;

/**
 * Hears `topic` while mounted (null: nothing to hear, e.g. no object yet), through `subscribe`; a
 * subscription that resolves after the component left is left at once. `onJoined` runs on every
 * join: what changed between the component's read and the join (or while the connection was lost)
 * was never pushed to it, so it reads again there.
 */
export function useTopic(
  topic: string | null,
  onMessage: (message: SocialLiveMessage) => void,
  subscribe: TopicSubscriber,
  onJoined?: () => void,
): void {
  const latest = useRef(onMessage);
  const latestJoined = useRef(onJoined);
  useEffect(() => {
    latest.current = onMessage;
    latestJoined.current = onJoined;
  }, [onMessage, onJoined]);
  useEffect(() => {
    if (!topic || typeof window === 'undefined') return;
    let leave: (() => void) | undefined;
    let left = false;
    const joined = subscribe(
      topic,
      (message) => latest.current(message),
      () => latestJoined.current?.(),
    );
    if (typeof joined === 'function') leave = joined;
    else
      joined.then(
        (unsubscribe) => {
          if (left) unsubscribe();
          else leave = unsubscribe;
        },
        (error: unknown) => console.warn('XPoint live: could not load the live client', error),
      );
    return () => {
      left = true;
      leave?.();
    };
    // `subscribe` is a module-level function of the hook's caller: it never changes
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [topic]);
}
