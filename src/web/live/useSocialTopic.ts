import { useEffect, useRef } from 'react';
import type { SocialLiveMessage } from '../../shared/api/social-live';
import { retryImport } from '../lib/retryImport';
import type * as SocialTopicsModule from './socialTopic';

type SocialTopics = typeof SocialTopicsModule;

/**
 * The social topics' module (./socialTopic.ts with the phoenix client), loaded when the first
 * component subscribes rather than with the first screen (issue 23: the top bar's bell and chat badge
 * subscribe on every page of a signed-in person). If it cannot load (offline through every retry), the
 * next subscriber tries again.
 */
let loading: Promise<SocialTopics> | null = null;
function loadSocialTopics(): Promise<SocialTopics> {
  loading ??= retryImport(() => import('./socialTopic')).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/** Hears a topic while mounted (null: nothing to hear, e.g. no object yet). */
export function useSocialTopic(topic: string | null, onMessage: (message: SocialLiveMessage) => void): void {
  const latest = useRef(onMessage);
  useEffect(() => {
    latest.current = onMessage;
  }, [onMessage]);
  useEffect(() => {
    if (!topic || typeof window === 'undefined') return;
    let leave: (() => void) | undefined;
    let left = false;
    loadSocialTopics().then(
      ({ subscribeSocialTopic }) => {
        if (!left) leave = subscribeSocialTopic(topic, (message) => latest.current(message));
      },
      (error: unknown) => console.warn('XPoint live: could not load the live client', error),
    );
    return () => {
      left = true;
      leave?.();
    };
  }, [topic]);
}
