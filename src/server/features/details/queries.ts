import type { Store } from '../../store/store';
import type { CallbackRequestsTable } from '../../store/schema';
import { reusable } from './reusable';

/**
 * Detail queries: Kysely only, no rules. A point's details are a handful of indexed reads — the
 * point by its unique id with its owner, consultant and city by primary key, then its screenshots,
 * contacts, events (events_point_start), their intervals and tickets, and health photos — each on an
 * index of 0001_initial or 0004_callbacks, so the cost does not grow with the number of points.
 */

const pointRowQuery = reusable(1, (db, id: string) =>
  db
    .selectFrom('points')
    .leftJoin('users as owner', 'owner.id', 'points.owner_userid')
    .leftJoin('users as consultant', 'consultant.id', 'points.consultant_userid')
    .leftJoin('cities', 'cities.id', 'points.city_id')
    .select([
      'points.id',
      'points.supertype',
      'points.type',
      'points.subtype',
      'points.title',
      'points.tagline',
      'points.description',
      'points.has_app',
      'points.owner_userid',
      'points.allow_consulting',
      'points.full_address',
      'points.country',
      'points.lat',
      'points.lon',
      'points.link_email',
      'points.link_phone',
      'points.link_website',
      'points.link_facebook',
      'points.rating',
      'points.rating_count',
      'points.health_status',
      'points.xsites_json',
      'points.stats_total',
      'points.stats_prev_month',
      'points.stats_this_month',
      'points.stats_today',
      'points.opening_hours',
      'points.time_zone_name',
      'points.resellerid',
      'points.beamtype',
      'points.marker',
      'points.url_icon_or_logo',
      'points.url_cover_video',
      'points.url_cover_image',
      'points.pickup_destination',
      'points.pickup_date_time',
      'points.delivery_lat',
      'points.delivery_lng',
      'points.help_taskduration_minutes',
      'points.help_taskbudget',
      'points.help_taskstart',
      'points.help_canacceptjob',
      'points.help_canquote',
      'points.meonmap_enabled',
      'points.meonmap_xpointid',
      'points.xpoint_service',
      'points.owner_dynamic_last_update',
      'points.owner_callchat_priceperminute',
      'points.updated_at',
      'owner.username as owner_username',
      'owner.fullname as owner_fullname',
      'owner.avatar_url as owner_avatar',
      'owner.status as owner_status',
      'consultant.username as consultant_username',
      'consultant.fullname as consultant_fullname',
      'consultant.avatar_url as consultant_avatar',
      'cities.city as city_name',
      'cities.city_forurl as city_forurl',
      'cities.country as city_country',
      'cities.state as city_state',
      'cities.iso2 as city_iso2',
      'cities.time_zone as city_time_zone',
    ])
    .where('points.id', '=', id),
);

export async function findPointRow(store: Store, id: string) {
  return (await pointRowQuery(store, id))[0];
}
export type PointRow = NonNullable<Awaited<ReturnType<typeof findPointRow>>>;

export const screenshotsOf = reusable(1, (db, pointId: string) =>
  db
    .selectFrom('point_screenshots')
    .select(['position', 'url'])
    .where('point_id', '=', pointId)
    .orderBy('position'),
);

export const contactsOf = reusable(1, (db, pointId: string) =>
  db
    .selectFrom('contacts')
    .select([
      'roleid',
      'roleoverride',
      'contact_firstname',
      'contact_lastname',
      'contact_username',
      'avatar_url',
    ])
    .where('point_id', '=', pointId)
    .orderBy('position')
    .orderBy('id'),
);

export const healthPhotosOf = reusable(1, (db, pointId: string) =>
  db
    .selectFrom('point_health_photos')
    .select(['position', 'url'])
    .where('point_id', '=', pointId)
    .orderBy('position'),
);

const EVENT_LIST_COLUMNS = [
  'id',
  'title',
  'cover_url',
  'type',
  'subtype',
  'start_date',
  'end_date',
  'admission',
  'admissionprice',
] as const;

const openEventsQuery = reusable(2, (db, pointId: string, now: number) =>
  db
    .selectFrom('events')
    .select(EVENT_LIST_COLUMNS)
    .where('xpoint_id', '=', pointId)
    .where('end_date', '>', now)
    .orderBy('start_date'),
);
const pastEventsQuery = reusable(3, (db, pointId: string, now: number, limit: number) =>
  db
    .selectFrom('events')
    .select(EVENT_LIST_COLUMNS)
    .where('xpoint_id', '=', pointId)
    .where('end_date', '<=', now)
    .orderBy('start_date', 'desc')
    .limit(limit),
);
const pastCountQuery = reusable(2, (db, pointId: string, now: number) =>
  db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('xpoint_id', '=', pointId)
    .where('end_date', '<=', now),
);

/**
 * The point's events that have not ended, and its `pastLimit` most recent ended ones, with the
 * number of ended ones; all through events_point_start (xpoint_id, start_date).
 */
export async function eventsOf(store: Store, pointId: string, now: number, pastLimit: number) {
  const [open, past] = await Promise.all([
    openEventsQuery(store, pointId, now),
    pastEventsQuery(store, pointId, now, pastLimit),
  ]);
  // counted only when the list is full: most points have a few past events, and then the list is the count
  const pastTotal =
    past.length < pastLimit ? past.length : Number((await pastCountQuery(store, pointId, now))[0]?.n ?? 0);
  return { open, past, pastTotal };
}
export type EventListRow = Awaited<ReturnType<typeof eventsOf>>['open'][number];

const firstIntervalQuery = reusable(1, (db, eventId: string) =>
  db
    .selectFrom('event_intervals')
    .select(['start_at', 'end_at'])
    .where('event_id', '=', eventId)
    .orderBy('start_at')
    .orderBy('id')
    .limit(1),
);

/** The first opening interval (by start) of each event, through event_intervals_event (event_id, start_at). */
export async function firstIntervalsOf(
  store: Store,
  eventIds: readonly string[],
): Promise<Map<string, { start: number; end: number }>> {
  const first = new Map<string, { start: number; end: number }>();
  const rows = await Promise.all(eventIds.map((id) => firstIntervalQuery(store, id)));
  eventIds.forEach((id, i) => {
    const row = rows[i]?.[0];
    if (row) first.set(id, { start: Number(row.start_at), end: Number(row.end_at) });
  });
  return first;
}

const eventRowQuery = reusable(1, (db, id: string) =>
  db
    .selectFrom('events')
    .leftJoin('users as owner', 'owner.id', 'events.owner_userid')
    .leftJoin('points', 'points.id', 'events.xpoint_id')
    .leftJoin('cities', 'cities.id', 'events.city_id')
    .select([
      'events.id',
      'events.title',
      'events.cover_url',
      'events.type',
      'events.subtype',
      'events.start_date',
      'events.end_date',
      'events.lat',
      'events.lon',
      'events.full_address',
      'events.admission',
      'events.admissionprice',
      'events.website',
      'events.description',
      'events.marker',
      'events.xpoint_id',
      'owner.username as owner_username',
      'owner.fullname as owner_fullname',
      'owner.avatar_url as owner_avatar',
      'points.title as xpoint_title',
      'points.supertype as xpoint_supertype',
      'cities.city as city_name',
      'cities.country as city_country',
      'cities.city_forurl as city_forurl',
    ])
    .where('events.id', '=', id),
);

export async function findEventRow(store: Store, id: string) {
  return (await eventRowQuery(store, id))[0];
}

export const intervalsOf = reusable(1, (db, eventId: string) =>
  db
    .selectFrom('event_intervals')
    .select(['start_at', 'end_at'])
    .where('event_id', '=', eventId)
    .orderBy('start_at')
    .orderBy('id'),
);

export const ticketsOf = reusable(1, (db, eventId: string) =>
  db
    .selectFrom('event_tickets')
    .select(['id', 'name', 'unit_price', 'max_quantity'])
    .where('event_id', '=', eventId)
    .orderBy('unit_price')
    .orderBy('id'),
);

export async function healthStatusOf(store: Store, pointId: string) {
  return store.db.selectFrom('points').select(['health_status']).where('id', '=', pointId).executeTakeFirst();
}

// --- callback requests and the inbox ------------------------------------------------------------

export async function findUserById(store: Store, id: string) {
  return store.db.selectFrom('users').select(['id', 'username']).where('id', '=', id).executeTakeFirst();
}

export async function findServicePoint(store: Store, id: string) {
  return store.db
    .selectFrom('points')
    .select(['id', 'title', 'supertype', 'owner_userid'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The same requester's request to the same provider and point since `since`, if any. */
export async function recentSameRequest(
  store: Store,
  request: {
    to_userid: string;
    xpoint_id: string;
    from_userid: string | null;
    phone: string | null;
    email: string | null;
    ip: string | null;
  },
  since: number,
) {
  let query = store.db
    .selectFrom('callback_requests')
    .select(['id'])
    .where('to_userid', '=', request.to_userid)
    .where('created_at', '>=', since)
    .where('xpoint_id', '=', request.xpoint_id);
  if (request.from_userid) query = query.where('from_userid', '=', request.from_userid);
  else
    query = query
      .where('from_userid', 'is', null)
      .where('ip', request.ip === null ? 'is' : '=', request.ip)
      .where('phone', request.phone === null ? 'is' : '=', request.phone)
      .where('email', request.email === null ? 'is' : '=', request.email);
  return query.orderBy('created_at', 'desc').executeTakeFirst();
}

/** Stores the request and delivers it to the provider's inbox in one transaction. */
export async function insertCallbackWithInbox(
  store: Store,
  row: CallbackRequestsTable,
  inboxTitle: string,
): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    await trx.insertInto('callback_requests').values(row).execute();
    await trx
      .insertInto('inbox_messages')
      .values({
        user_id: row.to_userid,
        kind: 'callback_request',
        callback_id: row.id,
        title: inboxTitle,
        created_at: row.created_at,
        read_at: null,
      })
      .execute();
  });
}

/** One page of a user's inbox, newest first; `before` is the id of the last message seen (ids only grow). */
export async function inboxPage(store: Store, userId: string, limit: number, before: number | null) {
  let query = store.db
    .selectFrom('inbox_messages as m')
    .leftJoin('callback_requests as c', 'c.id', 'm.callback_id')
    .leftJoin('points as p', 'p.id', 'c.xpoint_id')
    .leftJoin('users as u', 'u.id', 'c.from_userid')
    .select([
      'm.id',
      'm.kind',
      'm.title',
      'm.created_at',
      'm.read_at',
      'c.id as callback_id',
      'c.xpoint_id',
      'p.title as xpoint_title',
      'c.service_name',
      'c.from_userid',
      'u.username as from_username',
      'c.name',
      'c.phone',
      'c.email',
      'c.message',
    ])
    .where('m.user_id', '=', userId);
  if (before !== null) query = query.where('m.id', '<', before);
  return query.orderBy('m.id', 'desc').limit(limit).execute();
}
