import { isPointSupertype } from '../../../shared/domain/supertypes';
import { isLayerGroup, type LayerGroup } from '../../../shared/map/contract';
import type { Store } from '../../store/store';
import type { RecordKind } from './columns';
import type { LoadedRecord } from './index';
import { ChunkBuilder, type RecordChunk } from './scan';
import { scanSqliteInThreads, type ScanThreadsOptions } from './scan-threads';

/**
 * The rows the point tiles show, read from the store: all of them at start (raw drivers, in bulk as
 * column chunks: scan.ts, scan-threads.ts), a few by id after each change.
 *
 * Events are shown until a day after they end (EVENT_GRACE_MS): a party that ended last night is still
 * worth finding this morning; older ones leave the map (the tile index sweeps them every minute).
 * Posts are shown when they have a place, are not hidden and have not expired; an expired post leaves
 * the map the moment it expires (the tile index's Expiries), with no write to tell it.
 */
export const EVENT_GRACE_MS = 24 * 60 * 60 * 1000;

type PointTuple = [
  id: string,
  supertype: string,
  type: string,
  subtype: string | null,
  title: string,
  lat: number,
  lon: number,
  beamtype: number,
  is_promo: number,
];
type EventTuple = [
  id: string,
  type: string,
  subtype: string | null,
  title: string,
  lat: number,
  lon: number,
  end_date: number,
];

const POINT_COLUMNS = 'id, supertype, type, subtype, title, lat, lon, beamtype, is_promo';
const EVENT_COLUMNS = 'id, type, subtype, title, lat, lon, end_date';
const POST_COLUMNS = 'id, type, title, lat, lon, expires_at';
/** The posts a map shows (expiry is checked by the caller, against its own clock). */
const POST_SHOWN = 'lat is not null and lon is not null and hidden_at is null';
/** Rows per round trip when PostgreSQL streams the points. */
const PG_PAGE = 50_000;

function pointRecord(row: PointTuple): LoadedRecord | null {
  const [id, supertype, type, subtype, title, lat, lon, beamtype, promo] = row;
  if (!isLayerGroup(supertype) || !isPointSupertype(supertype)) return null;
  return {
    id,
    group: supertype as LayerGroup,
    type,
    subtype: subtype ?? '',
    title,
    lat: Number(lat),
    lon: Number(lon),
    beamtype: Number(beamtype),
    promo: Number(promo),
    hideAfter: null,
  };
}

function eventRecord(row: EventTuple): LoadedRecord {
  const [id, type, subtype, title, lat, lon, end] = row;
  return {
    id,
    group: 'event',
    type,
    subtype: subtype ?? '',
    title,
    lat: Number(lat),
    lon: Number(lon),
    beamtype: 0,
    promo: 0,
    hideAfter: Number(end) + EVENT_GRACE_MS,
  };
}

type PostTuple = [
  id: string,
  type: string,
  title: string,
  lat: number,
  lon: number,
  expires_at: number | null,
];

function postRecord(row: PostTuple): LoadedRecord {
  const [id, type, title, lat, lon, expires] = row;
  return {
    id,
    group: 'post',
    type,
    subtype: '',
    title,
    lat: Number(lat),
    lon: Number(lon),
    beamtype: 0,
    promo: 0,
    hideAfter: expires === null || expires === undefined ? null : Number(expires),
  };
}

/** Every visible point, event and post, in bulk: column chunks for PointTileIndex.load. */
export async function readSnapshot(
  store: Store,
  now: number,
  options: ScanThreadsOptions = {},
): Promise<RecordChunk[]> {
  const cutoff = now - EVENT_GRACE_MS;
  if (store.raw.kind === 'sqlite') {
    return scanSqliteInThreads(store.raw.database, { cutoff, graceMs: EVENT_GRACE_MS, now }, options);
  }
  // PostgreSQL: paged by seq on this thread (the pages are network-bound, not parse-bound)
  const pool = store.raw.pool;
  const points = new ChunkBuilder('point');
  let after = -1;
  for (;;) {
    const page = await pool.query<unknown[]>({
      text: `select seq, ${POINT_COLUMNS} from points where seq > $1 order by seq limit ${PG_PAGE}`,
      values: [after],
      rowMode: 'array',
    });
    for (const row of page.rows) {
      const record = pointRecord(row.slice(1) as PointTuple);
      if (record) points.push(record);
    }
    if (page.rows.length < PG_PAGE) break;
    after = Number((page.rows[page.rows.length - 1] as unknown[])[0]);
  }
  const events = new ChunkBuilder('event');
  const eventRows = await pool.query<unknown[]>({
    text: `select ${EVENT_COLUMNS} from events where end_date > $1`,
    values: [cutoff],
    rowMode: 'array',
  });
  for (const row of eventRows.rows) events.push(eventRecord(row as EventTuple));
  const posts = new ChunkBuilder('post');
  const postRows = await pool.query<unknown[]>({
    text: `select ${POST_COLUMNS} from posts where ${POST_SHOWN} and (expires_at is null or expires_at > $1)
      order by listed_at, id`,
    values: [now],
    rowMode: 'array',
  });
  for (const row of postRows.rows) posts.push(postRecord(row as PostTuple));
  return [points.finish(), events.finish(), posts.finish()];
}

/** The current rows of these ids (absent ones were deleted, or, for posts, are not shown). */
export async function readByIds(
  store: Store,
  kind: RecordKind,
  ids: readonly string[],
): Promise<LoadedRecord[]> {
  const out: LoadedRecord[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    if (kind === 'point') {
      const rows = await store.db
        .selectFrom('points')
        .select(['id', 'supertype', 'type', 'subtype', 'title', 'lat', 'lon', 'beamtype', 'is_promo'])
        .where('id', 'in', chunk)
        .execute();
      for (const r of rows) {
        const record = pointRecord([
          r.id,
          r.supertype,
          r.type,
          r.subtype,
          r.title,
          r.lat,
          r.lon,
          r.beamtype,
          r.is_promo,
        ]);
        if (record) out.push(record);
      }
    } else if (kind === 'post') {
      const rows = await store.db
        .selectFrom('posts')
        .select(['id', 'type', 'title', 'lat', 'lon', 'expires_at'])
        .where('id', 'in', chunk)
        .where('lat', 'is not', null)
        .where('lon', 'is not', null)
        .where('hidden_at', 'is', null)
        .execute();
      for (const r of rows)
        out.push(postRecord([r.id, r.type, r.title, r.lat as number, r.lon as number, r.expires_at]));
    } else {
      const rows = await store.db
        .selectFrom('events')
        .select(['id', 'type', 'subtype', 'title', 'lat', 'lon', 'end_date'])
        .where('id', 'in', chunk)
        .execute();
      for (const r of rows)
        out.push(eventRecord([r.id, r.type, r.subtype, r.title, r.lat, r.lon, r.end_date]));
    }
  }
  return out;
}
