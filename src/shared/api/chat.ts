import { z } from 'zod';

/**
 * Contracts of chat with a point (issue 22). A conversation is between ONE visitor and the point's
 * controllers (its owner and its consultant): it is named by the point and the visitor, never seen
 * by anyone else.
 *
 *   GET  /v1/chat/conversations?before=&limit=                 my inbox, newest first, keyset pages
 *   GET  /v1/chat/unread                                       {unread}: conversations with unread lines
 *   GET  /v1/chat/points/{pointid}?visitor=&before=&after=     a conversation's lines, newest page first
 *   POST /v1/chat/points/{pointid}/read {visitor?, upto}       read receipt: my side has read up to `upto`
 *
 * Live, on the realtime socket: join `chat:{pointid}` with {token, visitor?} (`visitor` only for the
 * point's controllers, naming the conversation they answer). Push `msg` {text, client_id}: the line
 * is stored, the reply `ok` carries it ({id, at, ...}), then every tab of both people in the
 * conversation hears `msg` with it. A resend with the same client_id answers the stored line again
 * and is never stored or broadcast twice. Marking read pushes `read` {side, upto} to the
 * conversation; each new line or receipt pushes {kind: 'chat', data: {unread}} on `user:{id}` of
 * the people concerned, for the header's badge.
 */

/** A conversation's sides: the visitor who opened it and the point (its owner and consultant). */
export const CHAT_SIDES = ['visitor', 'point'] as const;
export type ChatSide = (typeof CHAT_SIDES)[number];

/** The longest line, in characters. */
export const CHAT_TEXT_MAX = 2000;
export const CHAT_PAGE_SIZE = 30;
export const CHAT_MAX_PAGE_SIZE = 100;
export const CHAT_INBOX_PAGE_SIZE = 20;
/** A client's id of a line (resends carry the same one): letters, digits, '-' and '_'. */
export const CHAT_CLIENT_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** Lines one person may send per window, on every process (Redis when set). */
export const CHAT_RATE_MAX = 30;
export const CHAT_RATE_WINDOW_MS = 10_000;

/** Live events on `chat:{pointid}`. */
export const CHAT_LINE_EVENT = 'msg';
export const CHAT_READ_EVENT = 'read';
export { CHAT_UNREAD_KIND } from './wire';

export function chatTopic(pointId: string): string {
  return `chat:${pointId}`;
}

export const chatLineSchema = z.object({
  id: z.number().int(),
  point_id: z.string(),
  visitor_id: z.string(),
  sender_id: z.string(),
  /** the sender's username (`from` of the older chat line). */
  from: z.string(),
  side: z.enum(CHAT_SIDES),
  client_id: z.string(),
  text: z.string(),
  at: z.number().int(),
});
export type ChatLine = z.infer<typeof chatLineSchema>;

export const chatReadSchema = z.object({ side: z.enum(CHAT_SIDES), upto: z.number().int() });
export type ChatRead = z.infer<typeof chatReadSchema>;

export const chatPersonSchema = z.object({
  id: z.string(),
  username: z.string(),
  fullname: z.string(),
  avatar_url: z.string().nullable(),
});

export const chatConversationSchema = z.object({
  point: z.object({ id: z.string(), title: z.string() }),
  visitor: chatPersonSchema,
  /** the viewer's side. */
  role: z.enum(CHAT_SIDES),
  /** the last line of the visitor and the point's side have read (0: none). */
  read: z.object({ visitor: z.number().int(), point: z.number().int() }),
  /** lines the viewer's side has not read. */
  unread: z.number().int(),
});
export type ChatConversation = z.infer<typeof chatConversationSchema>;

export const chatMessagesQuerySchema = z.object({
  visitor: z
    .string()
    .max(64)
    .optional()
    .meta({ description: "the visitor's user id: needed by the point's owner and consultant" }),
  before: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .meta({ description: 'lines older than this id (the `next` of the previous page)' }),
  after: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .meta({ description: 'lines newer than this id, oldest first (catching up after a reconnect)' }),
  limit: z.coerce.number().int().min(1).max(CHAT_MAX_PAGE_SIZE).optional(),
});

export const chatMessagesPageSchema = z.object({
  conversation: chatConversationSchema,
  /** oldest first. */
  messages: z.array(chatLineSchema),
  /** `before` of the older page, or null when there is none. */
  next: z.number().int().nullable(),
});
export type ChatMessagesPage = z.infer<typeof chatMessagesPageSchema>;

export const chatInboxQuerySchema = z.object({
  before: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'the `next` of the previous page; absent for the first' }),
  limit: z.coerce.number().int().min(1).max(50).optional(),
});

export const chatInboxItemSchema = z.object({
  point: z.object({ id: z.string(), title: z.string() }),
  visitor: chatPersonSchema,
  role: z.enum(CHAT_SIDES),
  /** where the conversation opens: /chat/{pointid} or /chat/{pointid}/{visitorid}. */
  url: z.string(),
  last: z.object({ text: z.string(), at: z.number().int(), side: z.enum(CHAT_SIDES) }),
  unread: z.number().int(),
});
export type ChatInboxItem = z.infer<typeof chatInboxItemSchema>;

export const chatInboxPageSchema = z.object({
  items: z.array(chatInboxItemSchema),
  unread: z.number().int(),
  next: z.string().nullable(),
});
export type ChatInboxPage = z.infer<typeof chatInboxPageSchema>;

export const chatUnreadSchema = z.object({ unread: z.number().int() });

export const chatMarkReadSchema = z.object({
  visitor: z.string().max(64).optional(),
  upto: z.number().int().min(1).meta({ description: 'the newest line read' }),
});

/** The push a client sends on `chat:{pointid}`. */
export const chatSendSchema = z.object({
  text: z.string(),
  client_id: z.string(),
});

/** Where a conversation opens in the web app. */
export function chatUrl(pointId: string, visitorId: string | null): string {
  return visitorId ? `/chat/${pointId}/${visitorId}` : `/chat/${pointId}`;
}
