import type { FastifyBaseLogger } from 'fastify';
import {
  CHAT_CLIENT_ID,
  CHAT_INBOX_PAGE_SIZE,
  CHAT_PAGE_SIZE,
  CHAT_RATE_MAX,
  CHAT_RATE_WINDOW_MS,
  CHAT_READ_EVENT,
  CHAT_TEXT_MAX,
  CHAT_UNREAD_KIND,
  chatUrl,
  type ChatConversation,
  type ChatInboxPage,
  type ChatLine,
  type ChatMessagesPage,
  type ChatSide,
} from '../../../shared/api/chat';
import { isValidId } from '../../../shared/domain/ids';
import { AppError } from '../../../shared/errors';
import type { Viewer } from '../../../shared/permissions';
import { requireViewer } from '../../auth/hook';
import { decodeKeyCursor, encodeKeyCursor } from '../../http/cursor';
import type { Limits } from '../../http/rate-limits';
import type { Store } from '../../store/store';
import type { SocialEvents } from '../social/events';
import {
  chatPerson,
  chatPoint,
  findConversation,
  inboxRows,
  listLines,
  markSideRead,
  storeLine,
  unreadConversations,
  type ChatPoint,
} from './queries';

/** One conversation as a socket holds it: the room its lines go to, and the joiner's side. */
export interface ChatSeat {
  pointId: string;
  visitorId: string;
  side: ChatSide;
  /** the bus room of the conversation: `chat:{pointid}:{visitorid}`. */
  room: string;
  /** the conversation's row once it exists (a visitor's first line opens it): lines then store in two statements. */
  conversationId: number | null;
  /** where the point is: its chat beam on the map. */
  location: { lat: number; lon: number };
  /** who answers for the point (owner, consultant): told of a visitor's lines. */
  controllers: string[];
}

/** Publishes an event to every socket in a conversation's room (the live layer sets it). */
export type RoomPublisher = (room: string, event: string, payload: Record<string, unknown>) => void;

/** Unread counts of a burst of lines are told once, this long after its first line. */
const UNREAD_COALESCE_MS = 100;

export function roomOf(pointId: string, visitorId: string): string {
  return `chat:${pointId}:${visitorId}`;
}

/** A cursor of the inbox: the last item's time and id, opaque to clients. */
export function encodeInboxCursor(at: number, id: number): string {
  return encodeKeyCursor(at, id);
}

export function decodeInboxCursor(cursor: string): { at: number; id: number } {
  const pair = decodeKeyCursor(cursor, 'number');
  if (pair === null) throw new AppError('chatInboxCursorInvalid');
  return { at: pair[0], id: pair[1] };
}

/** The text of a line, checked: 1 to CHAT_TEXT_MAX characters with something besides spaces. */
export function checkText(text: unknown): string {
  if (typeof text !== 'string' || text.trim() === '') throw new AppError('chatTextEmpty');
  if (text.length > CHAT_TEXT_MAX)
    throw new AppError('chatTextTooLong', { max: CHAT_TEXT_MAX, length: text.length });
  return text;
}

export function checkClientId(clientId: unknown): string {
  if (typeof clientId !== 'string' || !CHAT_CLIENT_ID.test(clientId))
    throw new AppError('chatClientIdInvalid', { reason: '1 to 64 letters, digits, "-" or "_".' });
  return clientId;
}

function controllersOf(point: ChatPoint): string[] {
  return [point.owner_userid, point.consultant_userid].filter((id): id is string => id !== null);
}

function controls(point: ChatPoint, userId: string): boolean {
  return point.owner_userid === userId || point.consultant_userid === userId;
}

/**
 * Chat with a point (issue 22): who may sit in which conversation, lines stored before anyone hears
 * them, read receipts, the inbox and its unread count. The socket side (realtime/hub.ts) asks
 * `seat` on a join and `send` on a line; the HTTP side (routes.ts) the rest.
 */
export class ChatService {
  private publish: RoomPublisher | null = null;
  private readonly allowed: (key: string) => Promise<{ ok: boolean; retryMs: number }>;

  constructor(
    private readonly store: Store,
    private readonly social: SocialEvents,
    limits: Limits,
    private readonly log: FastifyBaseLogger,
    rate: { max: number; windowMs: number } = { max: CHAT_RATE_MAX, windowMs: CHAT_RATE_WINDOW_MS },
  ) {
    this.allowed = limits.counter('chat', rate.max, rate.windowMs);
  }

  /** The live layer's way to reach a conversation's sockets on every process. */
  attach(publish: RoomPublisher): void {
    this.publish = publish;
  }

  /**
   * Which conversation `user` sits in on `pointId`: a visitor their own; the point's owner and
   * consultant the one of the visitor they name (it must exist: a point does not start conversations).
   */
  async seat(user: { id: string }, pointId: string, visitor: unknown): Promise<ChatSeat> {
    if (!isValidId(pointId)) throw new AppError('pointNotFound', { id: String(pointId).slice(0, 64) });
    const point = await chatPoint(this.store, pointId);
    if (!point) throw new AppError('pointNotFound', { id: pointId });
    const named = typeof visitor === 'string' && visitor !== '' ? visitor : null;
    if (controls(point, user.id)) {
      if (!named || named === user.id) throw new AppError('chatOwnPoint');
      const conversation = isValidId(named)
        ? await findConversation(this.store.db, pointId, named)
        : undefined;
      if (!conversation) throw new AppError('chatConversationNotFound', { id: pointId });
      return {
        pointId,
        visitorId: named,
        side: 'point',
        room: roomOf(pointId, named),
        conversationId: conversation.id,
        location: { lat: point.lat, lon: point.lon },
        controllers: controllersOf(point),
      };
    }
    if (named && named !== user.id) throw new AppError('chatConversationForbidden');
    const conversation = await findConversation(this.store.db, pointId, user.id);
    return {
      pointId,
      visitorId: user.id,
      side: 'visitor',
      room: roomOf(pointId, user.id),
      conversationId: conversation?.id ?? null,
      location: { lat: point.lat, lon: point.lon },
      controllers: controllersOf(point),
    };
  }

  /**
   * Stores one line, then answers it; `fresh` is false for a resend of a line already stored (it is
   * answered again, never stored or broadcast twice). The caller broadcasts a fresh line.
   */
  async send(
    user: { id: string; username: string },
    seat: ChatSeat,
    payload: Record<string, unknown>,
  ): Promise<{ line: ChatLine; fresh: boolean }> {
    const text = checkText(payload['text']);
    const clientId = checkClientId(payload['client_id']);
    const limit = await this.allowed(user.id);
    if (!limit.ok)
      throw new AppError('chatRateLimited', { retry: `${Math.max(1, Math.ceil(limit.retryMs / 1000))} s` });
    const stored = await storeLine(
      this.store,
      {
        pointId: seat.pointId,
        visitorId: seat.visitorId,
        sender: user,
        side: seat.side,
        clientId,
        text,
        at: Date.now(),
      },
      seat.conversationId,
    );
    if (stored.kind === 'client-id-taken')
      throw new AppError('chatClientIdInvalid', {
        reason: 'this id is taken by a line of another conversation.',
      });
    seat.conversationId = stored.conversationId;
    // the other side has a new unread line (the sender's own count is theirs to ask: they read by sending)
    if (stored.kind === 'stored')
      this.tellUnreadSoon(seat.side === 'visitor' ? seat.controllers : [seat.visitorId], seat);
    return { line: stored.line, fresh: stored.kind === 'stored' };
  }

  /** people told their unread counts at the next flush, with the conversation that changed last. */
  private readonly toTell = new Map<string, { pointId: string; visitorId: string }>();
  private telling: NodeJS.Timeout | null = null;

  /**
   * Tells people their counts of unread conversations (the header's badge) shortly: a burst of lines
   * is counted once per person (the badge needs no millisecond; the line itself went out at once).
   */
  private tellUnreadSoon(people: string[], seat: { pointId: string; visitorId: string }): void {
    for (const person of people)
      this.toTell.set(person, { pointId: seat.pointId, visitorId: seat.visitorId });
    this.telling ??= setTimeout(() => {
      this.telling = null;
      const batch = [...this.toTell];
      this.toTell.clear();
      void this.tellUnread(batch);
    }, UNREAD_COALESCE_MS);
  }

  private async tellUnread(batch: Array<[string, { pointId: string; visitorId: string }]>): Promise<void> {
    try {
      for (const [person, last] of batch) {
        const unread = await unreadConversations(this.store, person);
        this.social.user(person, {
          kind: CHAT_UNREAD_KIND,
          data: { unread, point_id: last.pointId, visitor_id: last.visitorId },
        });
      }
    } catch (error) {
      this.log.error({ err: error }, 'chat: telling the unread counts failed');
    }
  }

  /** The conversation the viewer sits in on a point, checked as a join is. */
  private async conversationOf(viewer: Viewer, pointId: string, visitor: string | undefined) {
    const user = requireViewer(viewer);
    const seat = await this.seat(user, pointId, visitor);
    const conversation = await findConversation(this.store.db, seat.pointId, seat.visitorId);
    return { user, seat, conversation };
  }

  async messages(
    viewer: Viewer,
    pointId: string,
    query: {
      visitor?: string | undefined;
      before?: number | undefined;
      after?: number | undefined;
      limit?: number | undefined;
    },
  ): Promise<ChatMessagesPage> {
    const { seat, conversation } = await this.conversationOf(viewer, pointId, query.visitor);
    const point = await chatPoint(this.store, seat.pointId);
    const visitor = await chatPerson(this.store, seat.visitorId);
    if (!point || !visitor) throw new AppError('pointNotFound', { id: pointId });
    const limit = query.limit ?? CHAT_PAGE_SIZE;
    const view: ChatConversation = {
      point: { id: point.id, title: point.title },
      visitor,
      role: seat.side,
      read: {
        visitor: Number(conversation?.visitor_read_id ?? 0),
        point: Number(conversation?.point_read_id ?? 0),
      },
      unread: Number(
        (seat.side === 'visitor' ? conversation?.visitor_unread : conversation?.point_unread) ?? 0,
      ),
    };
    if (!conversation) return { conversation: view, messages: [], next: null };
    const rows = await listLines(this.store, conversation, {
      before: query.after === undefined ? query.before : undefined,
      after: query.after,
      limit: query.after === undefined ? limit + 1 : limit,
    });
    if (query.after !== undefined) return { conversation: view, messages: rows, next: null };
    const more = rows.length > limit;
    const messages = more ? rows.slice(1) : rows;
    return { conversation: view, messages, next: more ? (messages[0]?.id ?? null) : null };
  }

  /** A read receipt: the viewer's side has read up to `upto`; the other side hears it live. */
  async markRead(viewer: Viewer, pointId: string, body: { visitor?: string | undefined; upto: number }) {
    const { user, seat, conversation } = await this.conversationOf(viewer, pointId, body.visitor);
    if (!conversation) throw new AppError('chatReadBeyond', { upto: body.upto });
    const read = await markSideRead(this.store, conversation.id, seat.side, body.upto);
    if (!read) throw new AppError('chatReadBeyond', { upto: body.upto });
    if (read.changed) {
      this.publish?.(seat.room, CHAT_READ_EVENT, { side: seat.side, upto: read.readId });
      this.tellUnreadSoon([user.id], seat);
    }
    return { unread: await unreadConversations(this.store, user.id) };
  }

  async inbox(
    viewer: Viewer,
    query: { before?: string | undefined; limit?: number | undefined },
  ): Promise<ChatInboxPage> {
    const user = requireViewer(viewer);
    const limit = query.limit ?? CHAT_INBOX_PAGE_SIZE;
    const after = query.before ? decodeInboxCursor(query.before) : null;
    const rows = await inboxRows(this.store, user.id, after, limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map((row) => {
        const role: ChatSide = row.visitor_id === user.id ? 'visitor' : 'point';
        return {
          point: { id: row.point_id, title: row.title },
          visitor: {
            id: row.visitor_id,
            username: row.username,
            fullname: row.fullname,
            avatar_url: row.avatar_url,
          },
          role,
          url: chatUrl(row.point_id, role === 'visitor' ? null : row.visitor_id),
          last: { text: row.last_text, at: row.last_at, side: row.last_side as ChatSide },
          unread: role === 'visitor' ? row.visitor_unread : row.point_unread,
        };
      }),
      unread: await unreadConversations(this.store, user.id),
      next: rows.length > limit && last ? encodeInboxCursor(last.last_at, last.id) : null,
    };
  }

  async unread(viewer: Viewer): Promise<number> {
    return unreadConversations(this.store, requireViewer(viewer).id);
  }
}
