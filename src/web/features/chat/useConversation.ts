import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Socket, type Channel } from 'phoenix';
import {
  CHAT_LINE_EVENT,
  CHAT_READ_EVENT,
  chatLineSchema,
  chatMessagesPageSchema,
  chatReadSchema,
  chatTopic,
  chatUnreadSchema,
  type ChatConversation,
  type ChatLine,
} from '../../../shared/api/chat';
import { SOCKET_PATH } from '../../../shared/api/live';
import { apiGet, apiPost } from '../../lib/api';
import { errorText } from '../../lib/query';
import { DEVICE_ID_KEY, deviceIdFrom } from '../../live/liveData';
import { keepWebSocketOnceOpen } from '../../live/reconnect';
import {
  failLine,
  lastStoredId,
  mergeLines,
  newestOtherId,
  pendingLine,
  type ShownLine,
} from './conversationState';
import { CHAT_INBOX_PATH, CHAT_UNREAD_PATH } from './chatPaths';

function deviceId(): string {
  let stored: string | null = null;
  try {
    stored = window.localStorage.getItem(DEVICE_ID_KEY);
  } catch {
    // storage blocked: a device id for this page only
  }
  return deviceIdFrom(stored, () => crypto.randomUUID()).id;
}

function path(pointId: string, visitorId: string | undefined, query: Record<string, string | number>) {
  const params = new URLSearchParams();
  if (visitorId) params.set('visitor', visitorId);
  for (const [key, value] of Object.entries(query)) params.set(key, String(value));
  const search = params.toString();
  return `/v1/chat/points/${encodeURIComponent(pointId)}${search ? `?${search}` : ''}`;
}

export interface ConversationView {
  conversation: ChatConversation | null;
  lines: ShownLine[];
  /** the page could not be read (not signed in, a conversation that is not yours…). */
  error: string | null;
  /** the socket is in the conversation (false while it reconnects: lines written meanwhile wait). */
  live: boolean;
  older: { load(): Promise<void>; loading: boolean } | null;
  send(text: string): void;
}

/**
 * One conversation, live (issue 22): its newest page, then its own socket joined to `chat:{point}`.
 * A line is shown at once as pending and pushed with a client id; the reply replaces it with the
 * stored line. When the socket comes back after a cut, the channel rejoins, the lines missed since
 * the last stored id are fetched, and every line still pending is pushed again with the same client
 * id (the server answers a line it already has instead of storing it twice). Lines of the other side
 * on screen are marked read.
 */
export function useConversation(
  pointId: string,
  visitorId: string | undefined,
  me: { username: string },
): ConversationView {
  const client = useQueryClient();
  const [conversation, setConversation] = useState<ChatConversation | null>(null);
  const [lines, setLines] = useState<ShownLine[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [live, setLive] = useState(false);
  const [next, setNext] = useState<number | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const channelRef = useRef<Channel | null>(null);
  const linesRef = useRef<ShownLine[]>([]);
  const conversationRef = useRef<ChatConversation | null>(null);
  const markedRef = useRef(0);

  const update = useCallback((change: (was: ShownLine[]) => ShownLine[]) => {
    linesRef.current = change(linesRef.current);
    setLines(linesRef.current);
  }, []);

  const push = useCallback(
    (channel: Channel, line: ShownLine) => {
      channel
        .push(CHAT_LINE_EVENT, { text: line.text, client_id: line.client_id })
        .receive('ok', (stored: unknown) => {
          const parsed = chatLineSchema.safeParse(stored);
          if (parsed.success) update((was) => mergeLines(was, [parsed.data]));
        })
        .receive('error', (refusal: { error?: string }) =>
          update((was) => failLine(was, line.client_id, refusal.error ?? 'The message was refused.')),
        );
      // a timeout leaves it pending: it is pushed again when the channel rejoins
    },
    [update],
  );

  useEffect(() => {
    let stopped = false;
    const catchUp = async () => {
      // everything newer than the last line shown, page by page
      for (let round = 0; round < 20 && !stopped; round++) {
        const after = lastStoredId(linesRef.current);
        const page = await apiGet(path(pointId, visitorId, { after, limit: 100 }), chatMessagesPageSchema);
        if (stopped) return;
        conversationRef.current = page.conversation;
        setConversation(page.conversation);
        update((was) => mergeLines(was, page.messages));
        if (page.messages.length < 100) return;
      }
    };
    const start = async () => {
      let first;
      try {
        first = await apiGet(path(pointId, visitorId, {}), chatMessagesPageSchema);
      } catch (failure) {
        if (!stopped) setError(errorText(failure));
        return;
      }
      if (stopped) return;
      conversationRef.current = first.conversation;
      setConversation(first.conversation);
      setNext(first.next);
      update((was) => mergeLines(was, first.messages));

      const socket = new Socket(SOCKET_PATH, { params: { deviceId: deviceId() } });
      keepWebSocketOnceOpen(socket);
      socket.onClose(() => setLive(false));
      socket.connect();
      const channel = socket.channel(chatTopic(pointId), visitorId ? { visitor: visitorId } : {});
      channel.on(CHAT_LINE_EVENT, (payload: unknown) => {
        const parsed = chatLineSchema.safeParse(payload);
        if (parsed.success) update((was) => mergeLines(was, [parsed.data]));
      });
      channel.on(CHAT_READ_EVENT, (payload: unknown) => {
        const parsed = chatReadSchema.safeParse(payload);
        if (!parsed.success || !conversationRef.current) return;
        const read = { ...conversationRef.current.read, [parsed.data.side]: parsed.data.upto };
        conversationRef.current = { ...conversationRef.current, read };
        setConversation(conversationRef.current);
      });
      // every join, the first and each after a reconnect: catch up, then resend what waits
      channel.join().receive('ok', () => {
        setLive(true);
        void catchUp()
          .catch((failure: unknown) => console.warn('XPoint chat: catching up failed', failure))
          .finally(() => {
            for (const line of linesRef.current) if (line.state === 'pending') push(channel, line);
          });
      });
      channel.onError(() => setLive(false));
      channelRef.current = channel;
      cleanup = () => {
        channel.leave();
        socket.disconnect();
      };
    };
    let cleanup = () => {};
    void start();
    return () => {
      stopped = true;
      channelRef.current = null;
      cleanup();
    };
  }, [pointId, visitorId, update, push]);

  // the other side's lines on screen are read: the receipt goes out, the badge follows
  useEffect(() => {
    const mine = conversation?.role;
    if (!mine) return;
    const newest = newestOtherId(lines, mine);
    const already = Math.max(markedRef.current, conversation.read[mine]);
    if (newest === 0 || newest <= already) return;
    markedRef.current = newest;
    apiPost(`/v1/chat/points/${encodeURIComponent(pointId)}/read`, chatUnreadSchema, {
      upto: newest,
      ...(visitorId ? { visitor: visitorId } : {}),
    })
      .then((answer) => {
        client.setQueryData([CHAT_UNREAD_PATH], answer);
        void client.invalidateQueries({ queryKey: [CHAT_INBOX_PATH] });
      })
      .catch((failure: unknown) => console.warn('XPoint chat: marking read failed', failure));
  }, [lines, conversation, pointId, visitorId, client]);

  const send = useCallback(
    (text: string) => {
      const side = conversationRef.current?.role ?? 'visitor';
      const line = pendingLine(crypto.randomUUID(), text, side, me.username);
      update((was) => [...was, line]);
      const channel = channelRef.current;
      // not joined (the socket is away): the line waits and goes when the channel rejoins
      if (channel && channel.state === 'joined') push(channel, line);
    },
    [me.username, update, push],
  );

  const loadOlder = useCallback(async () => {
    if (next === null) return;
    setLoadingOlder(true);
    try {
      const page = await apiGet(path(pointId, visitorId, { before: next }), chatMessagesPageSchema);
      update((was) => mergeLines(was, page.messages));
      setNext(page.next);
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setLoadingOlder(false);
    }
  }, [next, pointId, visitorId, update]);

  return {
    conversation,
    lines,
    error,
    live,
    older: next === null ? null : { load: loadOlder, loading: loadingOlder },
    send,
  };
}

export type { ChatLine };
