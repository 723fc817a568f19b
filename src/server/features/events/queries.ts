import { sql, type Transaction } from 'kysely';
import type { Database } from '../../store/schema';
import type { Store } from '../../store/store';
import { recordAsset, type MediaWrite } from '../points/queries';

/** Event write queries: Kysely only, no rules (those are in service.ts). */

export async function findEventForWrite(store: Store, id: string) {
  const row = await store.db
    .selectFrom('events')
    .leftJoin('users as owner', 'owner.id', 'events.owner_userid')
    .selectAll('events')
    .select(['owner.username as owner_username'])
    .where('events.id', '=', id)
    .executeTakeFirst();
  return row ? { ...row, version: Number(row.version) } : undefined;
}
export type EventForWrite = NonNullable<Awaited<ReturnType<typeof findEventForWrite>>>;

export async function eventIntervals(store: Store, eventId: string) {
  const rows = await store.db
    .selectFrom('event_intervals')
    .select(['start_at', 'end_at'])
    .where('event_id', '=', eventId)
    .orderBy('start_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ start: Number(r.start_at), end: Number(r.end_at) }));
}

export async function eventTickets(store: Store, eventId: string) {
  return store.db
    .selectFrom('event_tickets')
    .select(['name', 'unit_price', 'max_quantity'])
    .where('event_id', '=', eventId)
    .orderBy('id')
    .execute();
}

type NewEventRow = Omit<Database['events'], 'version'> & { version?: number };
export interface EventChildren {
  intervals?: { start: number; end: number }[];
  tickets?: { name: string; unit_price: number; max_quantity: number }[];
}

async function replaceEventChildren(tx: Transaction<Database>, eventId: string, children: EventChildren) {
  if (children.intervals) {
    await tx.deleteFrom('event_intervals').where('event_id', '=', eventId).execute();
    if (children.intervals.length > 0)
      await tx
        .insertInto('event_intervals')
        .values(children.intervals.map((i) => ({ event_id: eventId, start_at: i.start, end_at: i.end })))
        .execute();
  }
  if (children.tickets) {
    await tx.deleteFrom('event_tickets').where('event_id', '=', eventId).execute();
    if (children.tickets.length > 0)
      await tx
        .insertInto('event_tickets')
        .values(children.tickets.map((t) => ({ event_id: eventId, ...t })))
        .execute();
  }
}

export async function insertEvent(store: Store, row: NewEventRow, children: EventChildren) {
  await store.db.transaction().execute(async (tx) => {
    await tx.insertInto('events').values(row).execute();
    await replaceEventChildren(tx, row.id, children);
  });
}

export async function updateEventIfVersion(
  store: Store,
  id: string,
  version: number,
  set: Partial<Omit<Database['events'], 'version' | 'id'>>,
  children: EventChildren,
): Promise<number | null> {
  return store.db.transaction().execute(async (tx) => {
    const result = await tx
      .updateTable('events')
      .set({ ...set, version: sql<number>`version + 1` })
      .where('id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return null;
    await replaceEventChildren(tx, id, children);
    return version + 1;
  });
}

/** Records the asset and sets the event's cover, only if the event is still at `version`. */
export async function setEventCover(store: Store, args: MediaWrite): Promise<number | null> {
  return store.db.transaction().execute(async (tx) => {
    const result = await tx
      .updateTable('events')
      .set({ cover_url: args.url, updated_at: args.now, version: sql<number>`version + 1` })
      .where('id', '=', args.id)
      .where('version', '=', args.version)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return null;
    if (args.asset) await recordAsset(tx, args.asset, args.ownerUserId, args.now);
    return args.version + 1;
  });
}

export async function deleteEvent(store: Store, id: string): Promise<boolean> {
  const result = await store.db.deleteFrom('events').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
