import { useEffect, useRef } from 'react';
import { Socket, type Channel } from 'phoenix';
import { SOCKET_PATH } from '../../shared/api/live';
import { SOCIAL_EVENT, type SocialLiveMessage } from '../../shared/api/social-live';
import { DEVICE_ID_KEY, deviceIdFrom } from './liveData';
import { keepWebSocketOnceOpen } from './reconnect';

/**
 * Social topics on one Phoenix socket per page (issue 18): `useSocialTopic(topic, onMessage)` joins
 * a `social:{type}:{id}` or `user:{id}` topic while a component shows it and hands it every
 * `social` push. Components showing the same object share one channel. The socket is opened by the
 * first subscriber and closed when the last leaves; the official client rejoins after a reconnect.
 */

type Listener = (message: SocialLiveMessage) => void;

interface Subscription {
  channel: Channel;
  listeners: Set<Listener>;
}

let socket: Socket | null = null;
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

function openSocket(): Socket {
  if (socket) return socket;
  socket = new Socket(SOCKET_PATH, { params: { deviceId: deviceId() } });
  socket.onError((error: unknown) => console.warn('XPoint live: social socket error', error));
  keepWebSocketOnceOpen(socket);
  socket.connect();
  return socket;
}

function isMessage(value: unknown): value is SocialLiveMessage {
  if (!value || typeof value !== 'object') return false;
  const { kind, data } = value as Record<string, unknown>;
  return typeof kind === 'string' && !!data && typeof data === 'object';
}

/** Subscribes to a topic; the returned function unsubscribes (the last one leaves the channel). */
export function subscribeSocialTopic(topic: string, listener: Listener): () => void {
  let subscription = subscriptions.get(topic);
  if (!subscription) {
    const channel = openSocket().channel(topic, {});
    const listeners = new Set<Listener>();
    channel.on(SOCIAL_EVENT, (payload: unknown) => {
      if (!isMessage(payload)) return;
      for (const each of listeners) each(payload);
    });
    channel
      .join()
      .receive('error', (reason: unknown) => console.warn('XPoint live: could not join', topic, reason));
    subscription = { channel, listeners };
    subscriptions.set(topic, subscription);
  }
  subscription.listeners.add(listener);
  const joined = subscription;
  return () => {
    joined.listeners.delete(listener);
    if (joined.listeners.size > 0) return;
    joined.channel.leave();
    subscriptions.delete(topic);
    if (subscriptions.size === 0) {
      socket?.disconnect();
      socket = null;
    }
  };
}

/** Hears a topic while mounted (null: nothing to hear, e.g. no object yet). */
export function useSocialTopic(topic: string | null, onMessage: Listener): void {
  const latest = useRef(onMessage);
  useEffect(() => {
    latest.current = onMessage;
  }, [onMessage]);
  useEffect(() => {
    if (!topic || typeof window === 'undefined') return;
    return subscribeSocialTopic(topic, (message) => latest.current(message));
  }, [topic]);
}
