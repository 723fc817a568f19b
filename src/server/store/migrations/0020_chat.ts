import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Chat with a point (issue 22). A conversation is one visitor and one point (its owner and consultant
 * answer as "the point"); each side keeps the last line it has read and how many it has not. Lines
 * carry the sender's own id for them (`client_id`), unique per sender, so a resend after a reconnect
 * lands on the line already stored instead of a second one.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = (table: ReturnType<Kysely<unknown>['schema']['createTable']>) =>
    dialect === 'postgres'
      ? table.addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await id(db.schema.createTable('chat_conversations'))
    .addColumn('point_id', 'text', (c) => c.notNull().references('points.id').onDelete('cascade'))
    .addColumn('visitor_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_at', 'bigint', (c) => c.notNull())
    .addColumn('last_text', 'text', (c) => c.notNull())
    .addColumn('last_side', 'text', (c) => c.notNull())
    .addColumn('visitor_read_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('point_read_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('visitor_unread', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('point_unread', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`create unique index chat_conversations_pair on chat_conversations (point_id, visitor_id)`.execute(
    db,
  );
  // the inbox, newest first: a visitor's conversations, and a point's
  await sql`create index chat_conversations_visitor on chat_conversations (visitor_id, last_at, id)`.execute(
    db,
  );
  await sql`create index chat_conversations_point on chat_conversations (point_id, last_at, id)`.execute(db);

  // the point side of the inbox: the points a person owns or consults
  await sql`create index points_owner_userid on points (owner_userid)`.execute(db);
  await sql`create index points_consultant_userid on points (consultant_userid)`.execute(db);

  await id(db.schema.createTable('chat_messages'))
    .addColumn('conversation_id', 'bigint', (c) =>
      c.notNull().references('chat_conversations.id').onDelete('cascade'),
    )
    .addColumn('sender_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('side', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await sql`create unique index chat_messages_client on chat_messages (sender_id, client_id)`.execute(db);
  await sql`create index chat_messages_conversation on chat_messages (conversation_id, id)`.execute(db);
}
