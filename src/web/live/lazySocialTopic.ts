import type { SocialLiveMessage } from '../../shared/api/social-live';
import { retryImport } from '../lib/retryImport';
import type * as SocialTopicsModule from './socialTopic';
import { useTopic } from './topicHook';

type SocialTopics = typeof SocialTopicsModule;

/**
 * The social topics' module (./socialTopic.ts with the phoenix client), loaded when the first
 * subscriber asks rather than with the first screen (issue 23). If it cannot load (offline through
 * every retry), the next subscriber tries again.
 */
let loading: Promise<SocialTopics> | null = null;
function loadSocialTopics(): Promise<SocialTopics> {
  loading ??= retryImport(() => import('./socialTopic')).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

const subscribeLater = (topic: string, listener: (message: SocialLiveMessage) => void) =>
  loadSocialTopics().then(({ subscribeSocialTopic }) => subscribeSocialTopic(topic, listener));

/**
 * `useSocialTopic` for the top bar (the bell, the chat badge): the same hearing, joined once the
 * live client has loaded, so the first screen's JavaScript does without phoenix.
 */
export function useSocialTopicLater(
  topic: string | null,
  onMessage: (message: SocialLiveMessage) => void,
): void {
  useTopic(topic, onMessage, subscribeLater);
}
