import { sql, type Kysely, type Transaction } from 'kysely';
import type { ChatLine, ChatSide } from '../../../shared/api/chat';
import type { Database } from '../../store/schema';
import type { Store } from '../../store/store';

/** Chat queries (issue 22): Kysely only, no rules (those are in service.ts). */

export interface ChatPoint {
  id: string;
  title: string;
  lat: number;
  lon: number;
  owner_userid: string | null;
  consultant_userid: string | null;
}

export interface ConversationRow {
  id: number;
  point_id: string;
  visitor_id: string;
  visitor_read_id: number;
  point_read_id: number;
  visitor_unread: number;
  point_unread: number;
}

export async function chatPoint(store: Store, pointId: string): Promise<ChatPoint | undefined> {
  return store.db
    .selectFrom('points')
    .select(['id', 'title', 'lat', 'lon', 'owner_userid', 'consultant_userid'])
    .where('id', '=', pointId)
    .executeTakeFirst();
}

export async function chatPerson(store: Store, userId: string) {
  return store.db
    .selectFrom('users')
    .select(['id', 'username', 'fullname', 'avatar_url'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

const CONVERSATION_COLUMNS = [
  'id',
  'point_id',
  'visitor_id',
  'visitor_read_id',
  'point_read_id',
  'visitor_unread',
  'point_unread',
] as const;

export async function findConversation(
  db: Kysely<Database>,
  pointId: string,
  visitorId: string,
): Promise<ConversationRow | undefined> {
  const row = await db
    .selectFrom('chat_conversations')
    .select(CONVERSATION_COLUMNS)
    .where('point_id', '=', pointId)
    .where('visitor_id', '=', visitorId)
    .executeTakeFirst();
  return row ? { ...row, id: Number(row.id) } : undefined;
}

interface LineRow {
  id: number;
  conversation_id: number;
  sender_id: string;
  side: string;
  client_id: string;
  text: string;
  created_at: number;
}

function lineOf(row: LineRow, from: string, pointId: string, visitorId: string): ChatLine {
  return {
    id: Number(row.id),
    point_id: pointId,
    visitor_id: visitorId,
    sender_id: row.sender_id,
    from,
    side: row.side as ChatSide,
    client_id: row.client_id,
    text: row.text,
    at: Number(row.created_at),
  };
}

export type StoredLine =
  | { kind: 'stored'; line: ChatLine; conversationId: number }
  | { kind: 'again'; line: ChatLine; conversationId: number }
  | { kind: 'client-id-taken' };

/**
 * Stores one line in one transaction: the conversation (a visitor's first line opens it), the line
 * (unless this sender's client id is already stored: then that line is answered, nothing written),
 * and the conversation's last line and counters (the sender's side has read everything up to it).
 */
export async function storeLine(
  store: Store,
  input: LineInput,
  /** the conversation's id when the caller knows it already: two statements instead of five. */
  known: number | null = null,
): Promise<StoredLine> {
  if (known !== null) {
    const fast = await store.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('chat_messages')
        .values({
          conversation_id: known,
          sender_id: input.sender.id,
          side: input.side,
          client_id: input.clientId,
          text: input.text,
          created_at: input.at,
        })
        .onConflict((conflict) => conflict.columns(['sender_id', 'client_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) return null;
      const id = Number(inserted.id);
      await trx
        .updateTable('chat_conversations')
        .set({
          last_at: input.at,
          last_text: input.text,
          last_side: input.side,
          ...countersAfter(input.side, id),
        })
        .where('id', '=', known)
        .execute();
      return storedLine(input, id, known);
    });
    // a resend: answered from the line stored, below
    if (fast) return fast;
  }
  return store.db.transaction().execute(async (trx) => {
    const previous = await trx
      .selectFrom('chat_messages')
      .selectAll()
      .where('sender_id', '=', input.sender.id)
      .where('client_id', '=', input.clientId)
      .executeTakeFirst();
    if (previous) {
      const conversation = await trx
        .selectFrom('chat_conversations')
        .select(['id', 'point_id', 'visitor_id'])
        .where('id', '=', previous.conversation_id)
        .executeTakeFirst();
      if (
        !conversation ||
        conversation.point_id !== input.pointId ||
        conversation.visitor_id !== input.visitorId
      )
        return { kind: 'client-id-taken' };
      return {
        kind: 'again',
        line: lineOf(previous, input.sender.username, input.pointId, input.visitorId),
        conversationId: Number(conversation.id),
      };
    }
    if (input.side === 'visitor') {
      await trx
        .insertInto('chat_conversations')
        .values({
          point_id: input.pointId,
          visitor_id: input.visitorId,
          created_at: input.at,
          last_at: input.at,
          last_text: input.text,
          last_side: input.side,
          visitor_read_id: 0,
          point_read_id: 0,
          visitor_unread: 0,
          point_unread: 0,
        })
        .onConflict((conflict) => conflict.columns(['point_id', 'visitor_id']).doNothing())
        .execute();
    }
    const conversation = await findConversation(trx, input.pointId, input.visitorId);
    if (!conversation) throw new Error('chat: the conversation of a point-side line is not there');
    const inserted = await trx
      .insertInto('chat_messages')
      .values({
        conversation_id: conversation.id,
        sender_id: input.sender.id,
        side: input.side,
        client_id: input.clientId,
        text: input.text,
        created_at: input.at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(inserted.id);
    await trx
      .updateTable('chat_conversations')
      .set({
        last_at: input.at,
        last_text: input.text,
        last_side: input.side,
        ...countersAfter(input.side, id),
      })
      .where('id', '=', conversation.id)
      .execute();
    return storedLine(input, id, conversation.id);
  });
}

interface LineInput {
  pointId: string;
  visitorId: string;
  sender: { id: string; username: string };
  side: ChatSide;
  clientId: string;
  text: string;
  at: number;
}

/** A new line of `side`: the other side has one more unread, the sender's side has read all. */
function countersAfter(side: ChatSide, id: number) {
  return side === 'visitor'
    ? { point_unread: sql<number>`point_unread + 1`, visitor_unread: 0, visitor_read_id: id }
    : { visitor_unread: sql<number>`visitor_unread + 1`, point_unread: 0, point_read_id: id };
}

function storedLine(input: LineInput, id: number, conversationId: number): StoredLine {
  return {
    kind: 'stored',
    line: {
      id,
      point_id: input.pointId,
      visitor_id: input.visitorId,
      sender_id: input.sender.id,
      from: input.sender.username,
      side: input.side,
      client_id: input.clientId,
      text: input.text,
      at: input.at,
    },
    conversationId,
  };
}

/** A page of lines, oldest first: older than `before` (the newest page without it), or newer than `after`. */
export async function listLines(
  store: Store,
  conversation: { id: number; point_id: string; visitor_id: string },
  page: { before?: number | undefined; after?: number | undefined; limit: number },
): Promise<ChatLine[]> {
  let query = store.db
    .selectFrom('chat_messages as m')
    .innerJoin('users as u', 'u.id', 'm.sender_id')
    .select([
      'm.id',
      'm.conversation_id',
      'm.sender_id',
      'm.side',
      'm.client_id',
      'm.text',
      'm.created_at',
      'u.username',
    ])
    .where('m.conversation_id', '=', conversation.id);
  if (page.after !== undefined) {
    query = query.where('m.id', '>', page.after).orderBy('m.id', 'asc');
  } else {
    if (page.before !== undefined) query = query.where('m.id', '<', page.before);
    query = query.orderBy('m.id', 'desc');
  }
  const rows = await query.limit(page.limit).execute();
  if (page.after === undefined) rows.reverse();
  return rows.map((row) => lineOf(row, row.username, conversation.point_id, conversation.visitor_id));
}

/**
 * Marks one side read up to `upto` (never backwards) and counts what it still has not read.
 * Answers null when `upto` is not a line of the conversation.
 */
export async function markSideRead(
  store: Store,
  conversationId: number,
  side: ChatSide,
  upto: number,
): Promise<{ readId: number; unread: number; changed: boolean } | null> {
  return store.db.transaction().execute(async (trx: Transaction<Database>) => {
    const line = await trx
      .selectFrom('chat_messages')
      .select('id')
      .where('id', '=', upto)
      .where('conversation_id', '=', conversationId)
      .executeTakeFirst();
    if (!line) return null;
    const row = await trx
      .selectFrom('chat_conversations')
      .select(['visitor_read_id', 'point_read_id'])
      .where('id', '=', conversationId)
      .executeTakeFirstOrThrow();
    const before = Number(side === 'visitor' ? row.visitor_read_id : row.point_read_id);
    const readId = Math.max(before, upto);
    const { count } = await trx
      .selectFrom('chat_messages')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('conversation_id', '=', conversationId)
      .where('side', '!=', side)
      .where('id', '>', readId)
      .executeTakeFirstOrThrow();
    const unread = Number(count);
    await trx
      .updateTable('chat_conversations')
      .set(
        side === 'visitor'
          ? { visitor_read_id: readId, visitor_unread: unread }
          : { point_read_id: readId, point_unread: unread },
      )
      .where('id', '=', conversationId)
      .execute();
    return { readId, unread, changed: readId !== before };
  });
}

export interface InboxRow {
  id: number;
  point_id: string;
  visitor_id: string;
  last_at: number;
  last_text: string;
  last_side: string;
  visitor_unread: number;
  point_unread: number;
  title: string;
  username: string;
  fullname: string;
  avatar_url: string | null;
}

/** The conversations a person is in (as visitor, or as owner or consultant of the point), newest first. */
export async function inboxRows(
  store: Store,
  userId: string,
  after: { at: number; id: number } | null,
  limit: number,
): Promise<InboxRow[]> {
  let query = store.db
    .selectFrom('chat_conversations as c')
    .innerJoin('points as p', 'p.id', 'c.point_id')
    .innerJoin('users as u', 'u.id', 'c.visitor_id')
    .select([
      'c.id',
      'c.point_id',
      'c.visitor_id',
      'c.last_at',
      'c.last_text',
      'c.last_side',
      'c.visitor_unread',
      'c.point_unread',
      'p.title',
      'u.username',
      'u.fullname',
      'u.avatar_url',
    ])
    .where((eb) =>
      eb.or([eb('c.visitor_id', '=', userId), eb('c.point_id', 'in', controlledPoints(store, userId))]),
    );
  if (after)
    query = query.where((eb) =>
      eb.or([
        eb('c.last_at', '<', after.at),
        eb.and([eb('c.last_at', '=', after.at), eb('c.id', '<', after.id)]),
      ]),
    );
  const rows = await query.orderBy('c.last_at', 'desc').orderBy('c.id', 'desc').limit(limit).execute();
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    last_at: Number(row.last_at),
    visitor_unread: Number(row.visitor_unread),
    point_unread: Number(row.point_unread),
  }));
}

/** The points a person answers for: those they own or consult (each read from its own index). */
function controlledPoints(store: Store, userId: string) {
  return store.db
    .selectFrom('points')
    .select('id')
    .where((eb) => eb.or([eb('owner_userid', '=', userId), eb('consultant_userid', '=', userId)]));
}

/** How many conversations have lines the person's side has not read. */
export async function unreadConversations(store: Store, userId: string): Promise<number> {
  const asVisitor = await store.db
    .selectFrom('chat_conversations')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('visitor_id', '=', userId)
    .where('visitor_unread', '>', 0)
    .executeTakeFirstOrThrow();
  const asPoint = await store.db
    .selectFrom('chat_conversations')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('point_id', 'in', controlledPoints(store, userId))
    .where('point_unread', '>', 0)
    .executeTakeFirstOrThrow();
  return Number(asVisitor.count) + Number(asPoint.count);
}
