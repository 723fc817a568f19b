/**
 * Live social activity (social §4, issue 18): what open pages and signed-in people hear over the
 * Phoenix socket besides the map's beams.
 *
 * - `social:{objecttype}:{objectid}` is public: any page showing an object joins it (a post `P`, a
 *   point's reviews `X`, a review `R`, a comment `C`, a user's follower counts `U`) and hears its
 *   changes (like counts, comments, the reviews change event).
 * - `user:{userid}` needs the person's own session (the cookie of the socket's upgrade request, or a
 *   token like the chat topics): their notifications and unread count.
 *
 * Every push is the event `social` with a `{kind, data}` payload; each feature types its own `data`
 * in its contract file and parses it where it listens.
 */
export const SOCIAL_TOPIC_PREFIX = 'social:';
export const USER_TOPIC_PREFIX = 'user:';
export const SOCIAL_EVENT = 'social';

/** P post, X point (its reviews), R review, C comment, U user; T a city's feed (issue 19, home19: new posts). */
export const SOCIAL_OBJECT_TYPES = ['P', 'X', 'R', 'C', 'U', 'T'] as const;
export type SocialObjectType = (typeof SOCIAL_OBJECT_TYPES)[number];

export const socialTopic = (objectType: SocialObjectType, objectId: string): string =>
  `${SOCIAL_TOPIC_PREFIX}${objectType}:${objectId}`;
export const userTopic = (userId: string): string => `${USER_TOPIC_PREFIX}${userId}`;

/** The payload of every `social` push. */
export interface SocialLiveMessage {
  /** what changed: 'likes', 'comment', 'reviews', 'follows', 'notification'… */
  kind: string;
  data: Record<string, unknown>;
}
