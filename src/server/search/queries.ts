import type { Store } from '../store/store';
import { DOC_EVENT, DOC_POINT, DOC_POST, EMPTY_DOC, type SearchDoc } from './doc';

/**
 * The rows the search index is built from: every point, every event that has not ended and every post
 * shown on the map (a place, not hidden, not expired), read with the raw drivers at start (a million
 * rows through the query builder cost seconds), and a few by id after each change from the feed.
 */

const POINT_COLUMNS =
  'id, supertype, type, subtype, title, full_address, lat, lon, beamtype, is_promo, rating, stats_this_month, url_cover_image, health_status';
/** The first opening interval decides whether an event is current (spec §4). */
const EVENT_COLUMNS = `e.id, e.xpoint_id, e.type, e.subtype, e.title, e.full_address, e.lat, e.lon, e.start_date, e.end_date, e.cover_url,
  (select i.start_at from event_intervals i where i.event_id = e.id order by i.start_at limit 1) as first_start,
  (select i.end_at from event_intervals i where i.event_id = e.id order by i.start_at limit 1) as first_end`;
/**
 * A post's title and category are searched (its description is not: see README, Search); its city is
 * its address. The cover is the map-sized variant (image_variants, JSON), else the stored image.
 */
const POST_COLUMNS = `o.id, o.type, o.title, (select c.city from cities c where c.id = o.city_id) as city,
  o.lat, o.lon, o.expires_at, o.image_variants, o.image_url`;
/** The posts the map and search show; expiry is compared with the caller's clock. */
const POST_SHOWN = 'o.lat is not null and o.lon is not null and o.hidden_at is null';
/** Rows per round trip when PostgreSQL streams the points. */
const PG_PAGE = 50_000;

type PointTuple = [
  id: string,
  supertype: string,
  type: string,
  subtype: string | null,
  title: string,
  address: string | null,
  lat: number,
  lon: number,
  beamtype: number,
  promo: number,
  rating: number | null,
  statsMonth: number,
  cover: string | null,
  health: number,
];
type EventTuple = [
  id: string,
  hostId: string | null,
  type: string,
  subtype: string | null,
  title: string,
  address: string | null,
  lat: number,
  lon: number,
  start: number,
  end: number,
  cover: string | null,
  firstStart: number | null,
  firstEnd: number | null,
];

const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** Fills `doc` from a point row (a scratch object may be reused: the index copies what it keeps). */
export function pointDoc(row: PointTuple, doc: SearchDoc = { ...EMPTY_DOC }): SearchDoc {
  doc.id = row[0];
  doc.kind = DOC_POINT;
  doc.supertype = row[1];
  doc.type = row[2];
  doc.subtype = row[3];
  doc.title = row[4];
  doc.address = row[5];
  doc.lat = Number(row[6]);
  doc.lon = Number(row[7]);
  doc.beamtype = Number(row[8]);
  doc.promo = Number(row[9]);
  doc.rating = num(row[10]);
  doc.statsMonth = Number(row[11]);
  doc.cover = row[12];
  doc.health = Number(row[13]);
  return doc;
}

export function eventDoc(row: EventTuple): SearchDoc {
  const [id, hostId, type, subtype, title, address, lat, lon, start, end, cover, firstStart, firstEnd] = row;
  return {
    id,
    kind: DOC_EVENT,
    supertype: 'event',
    type,
    subtype,
    title,
    address,
    lat: Number(lat),
    lon: Number(lon),
    beamtype: 0,
    promo: 0,
    rating: null,
    statsMonth: 0,
    cover,
    health: 0,
    startDate: Number(start),
    endDate: Number(end),
    firstStart: num(firstStart) ?? Number(start),
    firstEnd: num(firstEnd) ?? Number(end),
    hostId,
  };
}

type PostTuple = [
  id: string,
  type: string,
  title: string,
  city: string | null,
  lat: number,
  lon: number,
  expires: number | null,
  variants: string | null,
  image: string | null,
];

/** The cover a result shows: the map-sized variant, else the feed-sized one, else the stored image. */
export function postCover(variants: string | null, image: string | null): string | null {
  if (variants) {
    try {
      const parsed = JSON.parse(variants) as unknown;
      if (parsed && typeof parsed === 'object') {
        const { map, feed } = parsed as { map?: unknown; feed?: unknown };
        if (typeof map === 'string' && map !== '') return map;
        if (typeof feed === 'string' && feed !== '') return feed;
      }
    } catch {
      // a cover written half-way is no reason to lose the post from search: fall back to image_url
    }
  }
  return image || null;
}

export function postDoc(row: PostTuple): SearchDoc {
  const [id, type, title, city, lat, lon, expires, variants, image] = row;
  return {
    ...EMPTY_DOC,
    id,
    kind: DOC_POST,
    supertype: 'post',
    type,
    subtype: null,
    title,
    address: city,
    lat: Number(lat),
    lon: Number(lon),
    cover: postCover(variants, image),
    endDate: num(expires),
  };
}

/** Streams every point, every event not ended at `now` and every post shown at `now` to `sink`. */
export async function readAllDocs(store: Store, now: number, sink: (doc: SearchDoc) => void): Promise<void> {
  if (store.raw.kind === 'sqlite') {
    const database = store.raw.database;
    // one scratch document for the whole scan: a million fewer objects for the collector
    const scratch: SearchDoc = { ...EMPTY_DOC };
    for (const row of database.prepare(`select ${POINT_COLUMNS} from points`).raw(true).iterate())
      sink(pointDoc(row as PointTuple, scratch));
    // `+e.end_date`: read the table in its own order rather than through events_end, whose order
    // scatters the reads (most stored events have not ended: 0.2 s instead of 0.7 s for 80,000)
    const events = database.prepare(`select ${EVENT_COLUMNS} from events e where +e.end_date > ?`).raw(true);
    for (const row of events.iterate(now)) sink(eventDoc(row as EventTuple));
    const posts = database.prepare(
      `select ${POST_COLUMNS} from posts o where ${POST_SHOWN} and (o.expires_at is null or o.expires_at > ?)`,
    );
    for (const row of posts.raw(true).iterate(now)) sink(postDoc(row as PostTuple));
    return;
  }
  const pool = store.raw.pool;
  let after = -1;
  for (;;) {
    const page = await pool.query<unknown[]>({
      text: `select seq, ${POINT_COLUMNS} from points where seq > $1 order by seq limit ${PG_PAGE}`,
      values: [after],
      rowMode: 'array',
    });
    const scratch: SearchDoc = { ...EMPTY_DOC };
    for (const row of page.rows) sink(pointDoc(row.slice(1) as PointTuple, scratch));
    if (page.rows.length < PG_PAGE) break;
    after = Number((page.rows[page.rows.length - 1] as unknown[])[0]);
  }
  const events = await pool.query<unknown[]>({
    text: `select ${EVENT_COLUMNS} from events e where e.end_date > $1`,
    values: [now],
    rowMode: 'array',
  });
  for (const row of events.rows) sink(eventDoc(row as EventTuple));
  const posts = await pool.query<unknown[]>({
    text: `select ${POST_COLUMNS} from posts o where ${POST_SHOWN} and (o.expires_at is null or o.expires_at > $1)`,
    values: [now],
    rowMode: 'array',
  });
  for (const row of posts.rows) sink(postDoc(row as PostTuple));
}

/** The current rows of these ids; absent ones were deleted (or, for events, have ended). */
export async function readDocsByIds(
  store: Store,
  kind: 'point' | 'event' | 'post',
  ids: readonly string[],
  now: number,
): Promise<SearchDoc[]> {
  const out: SearchDoc[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const marks = chunk.map((_, k) => (store.dialect === 'postgres' ? `$${k + 1}` : '?')).join(', ');
    const text =
      kind === 'point'
        ? `select ${POINT_COLUMNS} from points where id in (${marks})`
        : kind === 'post'
          ? `select ${POST_COLUMNS} from posts o where o.id in (${marks}) and ${POST_SHOWN}`
          : `select ${EVENT_COLUMNS} from events e where e.id in (${marks})`;
    let rows: unknown[][];
    if (store.raw.kind === 'sqlite')
      rows = store.raw.database
        .prepare(text)
        .raw(true)
        .all(...chunk) as unknown[][];
    else rows = (await store.raw.pool.query<unknown[]>({ text, values: chunk, rowMode: 'array' })).rows;
    for (const row of rows) {
      if (kind === 'point') out.push(pointDoc(row as PointTuple));
      else if (kind === 'post') {
        const doc = postDoc(row as PostTuple);
        if (doc.endDate === null || doc.endDate > now) out.push(doc);
      } else {
        const doc = eventDoc(row as EventTuple);
        if ((doc.endDate ?? 0) > now) out.push(doc);
      }
    }
  }
  return out;
}

/** About how many documents readAllDocs will give (points, events, posts), to size the index once. */
export async function countDocs(store: Store): Promise<number> {
  const points = await store.db
    .selectFrom('points')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  const events = await store.db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  const posts = await store.db
    .selectFrom('posts')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  return Number(points?.n ?? 0) + Number(events?.n ?? 0) + Number(posts?.n ?? 0);
}
