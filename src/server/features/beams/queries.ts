import { sql, type Kysely } from 'kysely';
import type { Database } from '../../store/schema';
import type { Store } from '../../store/store';
import { lonRanges } from '../../store/geo';

/** The table migration 0006 adds; typed here so this feature owns its shape. */
interface LiveActivityTable {
  point_id: string;
  device_id: string;
  kind: 'impression' | 'click' | 'view' | 'chat';
  hour: number;
  created_at: number;
}
type LiveDatabase = Database & { live_activity: LiveActivityTable };
const live = (store: Store) => store.db as unknown as Kysely<LiveDatabase>;

export interface Box {
  south: number;
  west: number;
  north: number;
  east: number;
}

export interface BeamPointRow {
  id: string;
  supertype: string;
  type: string;
  subtype: string | null;
  title: string;
  lat: number;
  lon: number;
  beamtype: number;
  is_promo: number;
  meonmap_enabled: number;
  url_icon_or_logo: string | null;
  created_at: number;
}

const POINT_COLUMNS = [
  'points.id',
  'points.supertype',
  'points.type',
  'points.subtype',
  'points.title',
  'points.lat',
  'points.lon',
  'points.beamtype',
  'points.is_promo',
  'points.meonmap_enabled',
  'points.url_icon_or_logo',
  'points.created_at',
] as const;

export async function findPoint(store: Store, id: string): Promise<BeamPointRow | undefined> {
  return store.db.selectFrom('points').select(POINT_COLUMNS).where('points.id', '=', id).executeTakeFirst();
}

export async function findPoints(store: Store, ids: string[]): Promise<BeamPointRow[]> {
  if (ids.length === 0) return [];
  return store.db.selectFrom('points').select(POINT_COLUMNS).where('points.id', 'in', ids).execute();
}

/**
 * Points in the box that beam by themselves: promoted, flagged, help requests and incidents. The
 * spatial index answers the box (SQLite R*Tree, PostgreSQL GiST on point(lon, lat)).
 */
export async function flaggedPointsIn(store: Store, box: Box, limit: number): Promise<BeamPointRow[]> {
  const out: BeamPointRow[] = [];
  for (const range of lonRanges(box.west, box.east)) {
    let query = store.db
      .selectFrom('points')
      .select(POINT_COLUMNS)
      .where((eb) =>
        eb.or([
          eb('points.is_promo', '=', 1),
          eb('points.beamtype', '<>', 0),
          eb('points.supertype', 'in', ['helprequest', 'incident']),
        ]),
      )
      .where('points.lat', '>=', box.south)
      .where('points.lat', '<=', box.north)
      .where('points.lon', '>=', range.west)
      .where('points.lon', '<=', range.east);
    query =
      store.dialect === 'sqlite'
        ? query.where(
            'points.seq',
            'in',
            sql<number>`(select seq from points_rtree where min_lat <= ${box.north} and max_lat >= ${box.south} and min_lon <= ${range.east} and max_lon >= ${range.west})`,
          )
        : query.where(
            sql<boolean>`point(points.lon, points.lat) <@ box(point(${range.west}::float8, ${box.south}::float8), point(${range.east}::float8, ${box.north}::float8))`,
          );
    out.push(...(await query.limit(limit - out.length).execute()));
    if (out.length >= limit) break;
  }
  return out;
}

export interface EventRow {
  id: string;
  xpoint_id: string | null;
  owner_userid: string | null;
  title: string;
  type: string;
  subtype: string | null;
  lat: number;
  lon: number;
  start_date: number;
  end_date: number;
}

const EVENT_COLUMNS = [
  'events.id',
  'events.xpoint_id',
  'events.owner_userid',
  'events.title',
  'events.type',
  'events.subtype',
  'events.lat',
  'events.lon',
  'events.start_date',
  'events.end_date',
] as const;

export async function findEvent(store: Store, id: string): Promise<EventRow | undefined> {
  return store.db.selectFrom('events').select(EVENT_COLUMNS).where('events.id', '=', id).executeTakeFirst();
}

/**
 * Events that may be upcoming or current at `now`: they start before now + window and end after now,
 * inside the box when one is given; earliest start first.
 */
export async function liveEvents(
  store: Store,
  now: number,
  windowMs: number,
  box: Box | null,
  limit: number,
): Promise<EventRow[]> {
  const out: EventRow[] = [];
  const ranges = box ? lonRanges(box.west, box.east) : [null];
  for (const range of ranges) {
    let query = store.db
      .selectFrom('events')
      .select(EVENT_COLUMNS)
      .where('events.start_date', '<=', now + windowMs)
      .where('events.end_date', '>=', now);
    if (box && range) {
      query = query
        .where('events.lat', '>=', box.south)
        .where('events.lat', '<=', box.north)
        .where('events.lon', '>=', range.west)
        .where('events.lon', '<=', range.east);
    }
    out.push(
      ...(await query
        .orderBy('events.start_date')
        .orderBy('events.id')
        .limit(limit - out.length)
        .execute()),
    );
    if (out.length >= limit) break;
  }
  return out;
}

/** Opening intervals (UTC) of the events, in order; an event without rows has none. */
export async function eventIntervals(
  store: Store,
  eventIds: string[],
): Promise<Map<string, { start: number; end: number }[]>> {
  const map = new Map<string, { start: number; end: number }[]>();
  if (eventIds.length === 0) return map;
  const rows = await store.db
    .selectFrom('event_intervals')
    .select(['event_id', 'start_at', 'end_at'])
    .where('event_id', 'in', eventIds)
    .orderBy('event_id')
    .orderBy('start_at')
    .execute();
  for (const row of rows) {
    let list = map.get(row.event_id);
    if (!list) map.set(row.event_id, (list = []));
    list.push({ start: Number(row.start_at), end: Number(row.end_at) });
  }
  return map;
}

/** Weights of recent activity in the hot rank: a chat says more than a glance. */
const HOT_WEIGHTS = { impression: 1, view: 1, click: 3, chat: 5 } as const;

/** Points ranked by weighted activity since `since`, hottest first. */
export async function hotRanks(store: Store, since: number, limit: number): Promise<Map<string, number>> {
  const weight = sql<number>`sum(case kind when 'chat' then ${sql.lit(HOT_WEIGHTS.chat)} when 'click' then ${sql.lit(HOT_WEIGHTS.click)} else ${sql.lit(HOT_WEIGHTS.view)} end)`;
  const rows = await live(store)
    .selectFrom('live_activity')
    .select(['point_id', weight.as('score')])
    .where('hour', '>=', since - (since % 3_600_000))
    .groupBy('point_id')
    .orderBy('score', 'desc')
    .orderBy('point_id')
    .limit(limit)
    .execute();
  return new Map(rows.map((row) => [row.point_id, Number(row.score)]));
}

/**
 * Records one activity; false when this device already did this to this point this hour.
 * Stats columns are recomputed from promo_events when a promo impression or click counts.
 */
export async function recordActivity(
  store: Store,
  row: { pointId: string; deviceId: string; kind: LiveActivityTable['kind']; now: number },
): Promise<boolean> {
  const hour = row.now - (row.now % 3_600_000);
  const result = await live(store)
    .insertInto('live_activity')
    .values({ point_id: row.pointId, device_id: row.deviceId, kind: row.kind, hour, created_at: row.now })
    .onConflict((oc) => oc.columns(['point_id', 'device_id', 'kind', 'hour']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Counts a promo impression or click into promo_events and the point's xpStats columns, in one transaction. */
export async function countPromo(
  store: Store,
  row: { pointId: string; deviceId: string; kind: 'impression' | 'click'; now: number },
): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('promo_events')
      .values({ point_id: row.pointId, device_id: row.deviceId, kind: row.kind, created_at: row.now })
      .execute();
    const now = new Date(row.now);
    const dayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    const prevMonthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1);
    const counts = await trx
      .selectFrom('promo_events')
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        sql<number>`sum(case when created_at >= ${dayStart} then 1 else 0 end)`.as('today'),
        sql<number>`sum(case when created_at >= ${monthStart} then 1 else 0 end)`.as('this_month'),
        sql<number>`sum(case when created_at >= ${prevMonthStart} and created_at < ${monthStart} then 1 else 0 end)`.as(
          'prev_month',
        ),
      ])
      .where('point_id', '=', row.pointId)
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('points')
      .set({
        stats_total: Number(counts.total),
        stats_today: Number(counts.today ?? 0),
        stats_this_month: Number(counts.this_month ?? 0),
        stats_prev_month: Number(counts.prev_month ?? 0),
      })
      .where('id', '=', row.pointId)
      .execute();
  });
}

/** Activity rows older than `before` no longer rank anything. */
export async function pruneActivity(store: Store, before: number): Promise<void> {
  await live(store).deleteFrom('live_activity').where('hour', '<', before).execute();
}

/** Remembers a device the live server has met on a socket (promo counting trusts only these). */
export async function rememberDevice(store: Store, deviceId: string, now: number): Promise<void> {
  await store.db
    .insertInto('known_devices')
    .values({ device_id: deviceId, last_seen_at: now })
    .onConflict((oc) => oc.column('device_id').doUpdateSet({ last_seen_at: now }))
    .execute();
}

/** Whether this device opened a live socket, on any process, since `since`. */
export async function isKnownDevice(store: Store, deviceId: string, since: number): Promise<boolean> {
  const row = await store.db
    .selectFrom('known_devices')
    .select('device_id')
    .where('device_id', '=', deviceId)
    .where('last_seen_at', '>=', since)
    .executeTakeFirst();
  return row !== undefined;
}

/** Devices not seen since `before` are no longer known: the table stays the size of recent visitors. */
export async function pruneKnownDevices(store: Store, before: number): Promise<void> {
  await store.db.deleteFrom('known_devices').where('last_seen_at', '<', before).execute();
}
