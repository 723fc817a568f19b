import { Socket, type Channel } from 'phoenix';
import { useTopic } from './topicHook';
import { SOCKET_PATH } from '../../shared/api/live';
import { SOCIAL_EVENT, USER_TOPIC_PREFIX, type SocialLiveMessage } from '../../shared/api/social-live';
import { DEVICE_ID_KEY, deviceIdFrom } from './liveData';
import { keepWebSocketOnceOpen } from './reconnect';

/**
 * Social topics on one Phoenix socket per page (issue 18): `useSocialTopic(topic, onMessage)` joins
 * a `social:{type}:{id}` or `user:{id}` topic while a component shows it and hands it every
 * `social` push. The top bar's bell and chat badge, on every page's first screen, use
 * `useSocialTopicLater` (./lazySocialTopic.ts) instead, which loads this module (and phoenix) when
 * they first subscribe; content (posts, comments, likes, reviews, feeds) loads with its own chunks
 * and joins as soon as it shows. Components showing the same object share one channel. A socket is opened by the
 * first subscriber and closed when the last leaves; the official client rejoins after a reconnect.
 */

export type Listener = (message: SocialLiveMessage) => void;

/**
 * `public` carries `social:` topics; `user` carries `user:` topics and is opened only when one is
 * first heard, so its upgrade request has the session cookie of the person signed in then (a page
 * that opened its public socket as a visitor and signed in later still joins its user topic). It
 * closes when the last user topic is left (signing out), so the next person gets a socket of theirs.
 */
type SocketKind = 'public' | 'user';

interface Subscription {
  channel: Channel;
  kind: SocketKind;
  listeners: Set<Listener>;
  /** told of every join of the channel (the first, and each rejoin after a reconnect). */
  joins: Set<() => void>;
}

const sockets: Record<SocketKind, Socket | null> = { public: null, user: null };
const subscriptions = new Map<string, Subscription>();

function deviceId(): string {
  let stored: string | null = null;
  try {
    stored = window.localStorage.getItem(DEVICE_ID_KEY);
  } catch {
    // storage blocked: a device id for this page only
  }
  const { id } = deviceIdFrom(stored, () => crypto.randomUUID());
  return id;
}

function openSocket(kind: SocketKind): Socket {
  const open = sockets[kind];
  if (open) return open;
  const socket = new Socket(SOCKET_PATH, { params: { deviceId: deviceId() } });
  socket.onError((error: unknown) => console.warn('XPoint live: social socket error', error));
  keepWebSocketOnceOpen(socket);
  socket.connect();
  sockets[kind] = socket;
  return socket;
}

function isMessage(value: unknown): value is SocialLiveMessage {
  if (!value || typeof value !== 'object') return false;
  const { kind, data } = value as Record<string, unknown>;
  return typeof kind === 'string' && !!data && typeof data === 'object';
}

/**
 * Subscribes to a topic; the returned function unsubscribes (the last one leaves the channel).
 * `onJoined` hears each join of the channel: the official client resends the same join after a
 * reconnect, so its 'ok' comes again then.
 */
export function subscribeSocialTopic(topic: string, listener: Listener, onJoined?: () => void): () => void {
  let subscription = subscriptions.get(topic);
  if (!subscription) {
    const kind: SocketKind = topic.startsWith(USER_TOPIC_PREFIX) ? 'user' : 'public';
    const channel = openSocket(kind).channel(topic, {});
    const listeners = new Set<Listener>();
    const joins = new Set<() => void>();
    channel.on(SOCIAL_EVENT, (payload: unknown) => {
      if (!isMessage(payload)) return;
      for (const each of listeners) each(payload);
    });
    channel
      .join()
      .receive('ok', () => {
        for (const each of joins) each();
      })
      .receive('error', (reason: unknown) => console.warn('XPoint live: could not join', topic, reason));
    subscription = { channel, kind, listeners, joins };
    subscriptions.set(topic, subscription);
  }
  subscription.listeners.add(listener);
  if (onJoined) subscription.joins.add(onJoined);
  const joined = subscription;
  return () => {
    joined.listeners.delete(listener);
    if (onJoined) joined.joins.delete(onJoined);
    if (joined.listeners.size > 0) return;
    joined.channel.leave();
    subscriptions.delete(topic);
    if (![...subscriptions.values()].some((each) => each.kind === joined.kind)) {
      sockets[joined.kind]?.disconnect();
      sockets[joined.kind] = null;
    }
  };
}

/**
 * Hears a topic while mounted (null: nothing to hear, e.g. no object yet); `onJoined` runs on every
 * join, to read again what may have changed before it (useTopic).
 */
export function useSocialTopic(topic: string | null, onMessage: Listener, onJoined?: () => void): void {
  useTopic(topic, onMessage, subscribeSocialTopic, onJoined);
}
