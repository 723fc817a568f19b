import SQLite from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { LAYER_GROUPS } from '../../../shared/map/contract';
import { worldX, worldY } from './morton';
import { WordTable } from './words';
import { PackedStringsBuilder, hashPacked, type PackedStrings } from './packed-text';
import type { PointRecord } from './columns';

/**
 * Reading the point index's records in bulk, as columns (typed arrays plus packed UTF-8 strings)
 * rather than one JS object and five JS strings per row.
 *
 * From SQLite, a range of points is read a few thousand rows per statement step with SQLite's own
 * aggregates: json_group_array of each number and category column (SQLite 3.53 writes doubles with
 * 17 significant digits, so they read back bit-exact), and ids and titles as one blob each with the
 * byte length of every string. Measured at a million points: 0.9 s of SQLite plus 0.2 s of JSON.parse,
 * against 1.9 s for stepping the same columns row by row through better-sqlite3 and 2-3 s more for
 * the strings, objects and garbage those rows make. The scan runs in worker threads too (scan-worker.cjs,
 * started by scan-threads.ts): a chunk's typed arrays are transferred, not copied.
 */

export type RecordKind = 'point' | 'event' | 'post';

/** Records read in bulk, in column form; string fields are packed, categories numbered. */
export interface RecordChunk {
  kind: RecordKind;
  count: number;
  lon: Float64Array;
  lat: Float64Array;
  /** Web Mercator world position in [0, 1) (morton.ts). */
  wx: Float64Array;
  wy: Float64Array;
  /** layer group number (LAYER_GROUPS order). */
  group: Uint8Array;
  /** the record's type and subtype as numbers into `words` (words[0] = ''). */
  type: Uint32Array;
  subtype: Uint32Array;
  words: string[];
  beam: Int32Array;
  promo: Uint8Array;
  /** events and posts: epoch ms after which the record is hidden (Infinity: never); null for points. */
  hideAfter: Float64Array | null;
  ids: PackedStrings;
  /** hashBytes of each id (for the id table; computed where the chunk is read). */
  idHashes: Uint32Array;
  titles: PackedStrings;
}

/** One record as a row source gives it (PostgreSQL rows, the change feed's re-reads). */
export interface ChunkRecord extends PointRecord {
  hideAfter: number | null;
}

/** The buffers of a chunk, for postMessage's transfer list. */
export function chunkBuffers(chunk: RecordChunk): ArrayBuffer[] {
  const arrays = [
    chunk.lon,
    chunk.lat,
    chunk.wx,
    chunk.wy,
    chunk.group,
    chunk.type,
    chunk.subtype,
    chunk.beam,
    chunk.promo,
    chunk.ids.bytes,
    chunk.ids.ends,
    chunk.idHashes,
    chunk.titles.bytes,
    chunk.titles.ends,
    ...(chunk.hideAfter ? [chunk.hideAfter] : []),
  ];
  // each array is the only view of its buffer (see finish): transferring one detaches nothing else
  return [...new Set(arrays.map((a) => a.buffer as ArrayBuffer))];
}

const GROUP_NUMBER = new Map<string, number>(LAYER_GROUPS.map((g, i) => [g, i]));

/**
 * Collects records into one chunk, growing its columns as they come (from `expected` records: given
 * an upper bound, they never grow, and finish() hands out views rather than copies; the chunk is
 * copied into the index's columns right after anyway).
 */
export class ChunkBuilder {
  private capacity: number;
  count = 0;
  private lon: Float64Array;
  private lat: Float64Array;
  private group: Uint8Array;
  private type: Uint32Array;
  private subtype: Uint32Array;
  private beam: Int32Array;
  private promo: Uint8Array;
  private hideAfter: Float64Array | null;
  private readonly wordTable = new WordTable();
  /** rows read as blobs (SQLite): their bytes and lengths; rows pushed one by one: the builders. */
  private readonly idParts: PackedStrings[] = [];
  private readonly titleParts: PackedStrings[] = [];
  private idBuilder: PackedStringsBuilder | undefined;
  private titleBuilder: PackedStringsBuilder | undefined;

  constructor(
    readonly kind: RecordKind,
    expected = 1024,
  ) {
    const capacity = Math.max(16, expected);
    this.capacity = capacity;
    this.lon = new Float64Array(capacity);
    this.lat = new Float64Array(capacity);
    this.group = new Uint8Array(capacity);
    this.type = new Uint32Array(capacity);
    this.subtype = new Uint32Array(capacity);
    this.beam = new Int32Array(capacity);
    this.promo = new Uint8Array(capacity);
    this.hideAfter = kind === 'point' ? null : new Float64Array(capacity);
  }

  /** Adds one record (row by row sources). */
  push(record: ChunkRecord): void {
    const i = this.reserve(1);
    this.lon[i] = record.lon;
    this.lat[i] = record.lat;
    this.group[i] = GROUP_NUMBER.get(record.group) as number;
    this.type[i] = this.wordTable.numberOf(record.type);
    this.subtype[i] = this.wordTable.numberOf(record.subtype);
    this.beam[i] = record.beamtype | 0;
    this.promo[i] = record.promo ? 1 : 0;
    if (this.hideAfter) this.hideAfter[i] = record.hideAfter ?? Infinity;
    (this.idBuilder ??= new PackedStringsBuilder()).push(record.id);
    (this.titleBuilder ??= new PackedStringsBuilder()).push(record.title);
    this.count++;
  }

  /**
   * Adds the rows of one aggregate step: JSON arrays of equal length for the numbers and categories,
   * and the ids and titles as packed strings. Rows whose group is not shown are skipped by the query.
   */
  pushColumns(
    columns: {
      lat: number[];
      lon: number[];
      group: string[];
      type: string[];
      subtype: (string | null)[];
      /** beamtype * 2 + (promo ? 1 : 0); null: all 0 (events). */
      beamPromo: number[] | null;
      /** when each record ends (events) or expires (posts; negative: never). */
      end: number[] | null;
    },
    ids: PackedStrings,
    titles: PackedStrings,
    graceMs: number,
  ): void {
    const n = columns.lat.length;
    const at = this.reserve(n);
    const { lat, lon, group, type, subtype, beamPromo, end } = columns;
    for (let k = 0; k < n; k++) {
      const i = at + k;
      this.lat[i] = lat[k] as number;
      this.lon[i] = lon[k] as number;
      this.group[i] = GROUP_NUMBER.get(group[k] as string) as number;
      this.type[i] = this.wordTable.numberOf(type[k] as string);
      this.subtype[i] = this.wordTable.numberOf(subtype[k] ?? '');
      if (beamPromo) {
        const v = beamPromo[k] as number;
        const beam = Math.floor(v / 2);
        this.beam[i] = beam | 0;
        this.promo[i] = v - beam * 2;
      }
      if (this.hideAfter && end) {
        const at = end[k] as number;
        this.hideAfter[i] = at < 0 ? Infinity : at + graceMs;
      }
    }
    this.flushBuilders();
    this.idParts.push(ids);
    this.titleParts.push(titles);
    this.count += n;
  }

  finish(): RecordChunk {
    this.flushBuilders();
    const n = this.count;
    const lon = this.lon.subarray(0, n);
    const lat = this.lat.subarray(0, n);
    const wx = new Float64Array(n);
    const wy = new Float64Array(n);
    const ids = concatPacked(this.idParts);
    for (let i = 0; i < n; i++) {
      wx[i] = worldX(lon[i] as number);
      wy[i] = worldY(lat[i] as number);
    }
    return {
      kind: this.kind,
      count: n,
      lon,
      lat,
      wx,
      wy,
      group: this.group.subarray(0, n),
      type: this.type.subarray(0, n),
      subtype: this.subtype.subarray(0, n),
      words: this.wordTable.words,
      beam: this.beam.subarray(0, n),
      promo: this.promo.subarray(0, n),
      hideAfter: this.hideAfter ? this.hideAfter.subarray(0, n) : null,
      ids,
      idHashes: hashPacked(ids),
      titles: concatPacked(this.titleParts),
    };
  }

  private flushBuilders(): void {
    if (this.idBuilder && this.idBuilder.count > 0) this.idParts.push(this.idBuilder.finish());
    if (this.titleBuilder && this.titleBuilder.count > 0) this.titleParts.push(this.titleBuilder.finish());
    this.idBuilder = undefined;
    this.titleBuilder = undefined;
  }

  /** Room for `n` more records; answers where they go. */
  private reserve(n: number): number {
    const need = this.count + n;
    if (need > this.capacity) {
      let capacity = this.capacity;
      while (capacity < need) capacity *= 2;
      const grow = <T extends Float64Array | Uint8Array | Uint32Array | Int32Array>(old: T, next: T): T => {
        next.set(old);
        return next;
      };
      this.lon = grow(this.lon, new Float64Array(capacity));
      this.lat = grow(this.lat, new Float64Array(capacity));
      this.group = grow(this.group, new Uint8Array(capacity));
      this.type = grow(this.type, new Uint32Array(capacity));
      this.subtype = grow(this.subtype, new Uint32Array(capacity));
      this.beam = grow(this.beam, new Int32Array(capacity));
      this.promo = grow(this.promo, new Uint8Array(capacity));
      if (this.hideAfter) this.hideAfter = grow(this.hideAfter, new Float64Array(capacity));
      this.capacity = capacity;
    }
    return this.count;
  }
}

/** One PackedStrings of the parts, in order (its arrays own their buffers). */
function concatPacked(parts: readonly PackedStrings[]): PackedStrings {
  let size = 0;
  let count = 0;
  for (const part of parts) {
    size += part.bytes.length;
    count += part.ends.length;
  }
  const bytes = new Uint8Array(size);
  const ends = new Uint32Array(count);
  let at = 0;
  let n = 0;
  for (const part of parts) {
    bytes.set(part.bytes, at);
    for (let i = 0; i < part.ends.length; i++) ends[n++] = at + (part.ends[i] as number);
    at += part.bytes.length;
  }
  return { bytes, ends };
}

/** Byte lengths to end offsets. */
function endsOf(lengths: number[]): Uint32Array {
  const ends = new Uint32Array(lengths.length);
  let at = 0;
  for (let i = 0; i < lengths.length; i++) {
    at += lengths[i] as number;
    ends[i] = at;
  }
  return ends;
}

const EMPTY_BYTES = new Uint8Array(0);

/** Most records a scan's builder is sized for up front. */
const MAX_EXPECTED = 1 << 20;
/** Seq values per aggregate step: a few MB of JSON at a time. */
const STEP = 16_384;
/** The point groups, for the scan's filter (points whose supertype has no layer are not shown). */
const POINT_GROUPS_SQL = LAYER_GROUPS.filter((g) => g !== 'event' && g !== 'post')
  .map((g) => `'${g}'`)
  .join(', ');
// octet_length: the UTF-8 byte count without copying the text (length(cast(x as blob)) copies)
const strings = (column: string) =>
  `cast(group_concat(${column}, '') as blob), json_group_array(octet_length(${column}))`;
// `+supertype`: filter on the rows read, never pick the supertype index over the seq range;
// beamtype (an integer, as `| 0` made it) and is_promo travel as one number, beamtype * 2 + promo
const POINTS_STEP_SQL = `select json_group_array(lat), json_group_array(lon), json_group_array(supertype),
  json_group_array(type), json_group_array(subtype), json_group_array(cast(beamtype as integer) * 2 + (is_promo <> 0)),
  ${strings('id')}, ${strings('title')}
  from points where seq > ? and seq <= ? and +supertype in (${POINT_GROUPS_SQL})`;
// In end_date order, as the end_date index gives them: records at one map position keep their order.
// Through that index when few events are still shown (a lookup costs ~3.5 us a shown event), else one
// pass over the table and a sort (~1 us a row each: 81k shown of 108k, 0.18 s of CPU against 0.29 s).
const eventsSql = (filter: string, order: string) => `select json_group_array(lat), json_group_array(lon),
  json_group_array('event'), json_group_array(type), json_group_array(subtype), null,
  ${strings('id')}, ${strings('title')}, json_group_array(end_date)
  from (select id, type, subtype, title, lat, lon, end_date from events where ${filter} > ?
        order by ${order}, rowid)`;
const EVENTS_BY_INDEX_SQL = eventsSql('end_date', 'end_date');
const EVENTS_BY_SCAN_SQL = eventsSql('+end_date', '+end_date');

// Posts with a place, not hidden, not expired (issue 17), in listing order: newer posts at one
// position come later. `expires_at` null (never) travels as -1. The table is small beside points
// (about 1 post for 20 points in the seed), so one step reads them all.
const POSTS_SQL = `select json_group_array(lat), json_group_array(lon), json_group_array('post'),
  json_group_array(type), json_group_array(null), null, ${strings('id')}, ${strings('title')},
  json_group_array(coalesce(expires_at, -1))
  from (select id, type, title, lat, lon, expires_at from posts
        where lat is not null and lon is not null and hidden_at is null
          and (expires_at is null or expires_at > ?)
        order by listed_at, rowid)`;

type StepRow = [
  lat: string,
  lon: string,
  group: string,
  type: string,
  subtype: string,
  beamPromo: string | null,
  idBytes: Uint8Array | null,
  idLengths: string,
  titleBytes: Uint8Array | null,
  titleLengths: string,
  end?: string,
];

function pushStep(builder: ChunkBuilder, row: StepRow, graceMs: number): void {
  const [lat, lon, group, type, subtype, beamPromo, idBytes, idLengths, titleBytes, titleLengths, end] = row;
  builder.pushColumns(
    {
      lat: JSON.parse(lat) as number[],
      lon: JSON.parse(lon) as number[],
      group: JSON.parse(group) as string[],
      type: JSON.parse(type) as string[],
      subtype: JSON.parse(subtype) as (string | null)[],
      beamPromo: beamPromo === null ? null : (JSON.parse(beamPromo) as number[]),
      end: end === undefined ? null : (JSON.parse(end) as number[]),
    },
    { bytes: idBytes ?? EMPTY_BYTES, ends: endsOf(JSON.parse(idLengths) as number[]) },
    { bytes: titleBytes ?? EMPTY_BYTES, ends: endsOf(JSON.parse(titleLengths) as number[]) },
    graceMs,
  );
}

/** The shown points with seq in (after, upTo], in seq order. */
export function scanSqlitePoints(database: SQLite.Database, after: number, upTo: number): RecordChunk {
  // at most one point per seq value: sized once (up to a million; a sparser range grows as it must)
  const builder = new ChunkBuilder('point', Math.min(upTo - after, MAX_EXPECTED));
  const step = database.prepare(POINTS_STEP_SQL).raw(true);
  for (let from = after; from < upTo; from += STEP) {
    pushStep(builder, step.get(from, Math.min(upTo, from + STEP)) as StepRow, 0);
  }
  return builder.finish();
}

/** The events that end after `cutoff`; each is hidden `graceMs` after its end. */
export function scanSqliteEvents(database: SQLite.Database, cutoff: number, graceMs: number): RecordChunk {
  const count = (sqlText: string, ...values: number[]) =>
    Number(
      database
        .prepare(sqlText)
        .pluck()
        .get(...values) ?? 0,
    );
  // a few ms: the second count reads the end_date index alone
  const total = count('select count(*) from events');
  const shown = count('select count(*) from events where end_date > ?', cutoff);
  const sqlText = shown * 5 < total * 2 ? EVENTS_BY_INDEX_SQL : EVENTS_BY_SCAN_SQL;
  const builder = new ChunkBuilder('event', shown);
  pushStep(builder, database.prepare(sqlText).raw(true).get(cutoff) as StepRow, graceMs);
  return builder.finish();
}

/** The posts shown at `now`: with a place, not hidden, not expired. */
export function scanSqlitePosts(database: SQLite.Database, now: number): RecordChunk {
  const builder = new ChunkBuilder('post');
  pushStep(builder, database.prepare(POSTS_SQL).raw(true).get(now) as StepRow, 0);
  return builder.finish();
}

/** The lowest and highest seq of the points table (0, 0 when empty); two index lookups. */
export function seqBounds(database: SQLite.Database): [low: number, high: number] {
  const low = database.prepare('select seq from points order by seq asc limit 1').pluck().get();
  const high = database.prepare('select seq from points order by seq desc limit 1').pluck().get();
  return [Number(low ?? 0), Number(high ?? 0)];
}

/**
 * What a scan worker is asked to read: a range of points, the events when `events` is set, and the
 * posts shown at `events.now`.
 */
export interface ScanJob {
  file: string;
  after: number;
  upTo: number;
  events: { cutoff: number; graceMs: number; now: number } | null;
}

/** Runs a scan job on `database`: its points chunk, then its events and posts chunks if asked. */
export function runScanJob(database: SQLite.Database, job: Omit<ScanJob, 'file'>): RecordChunk[] {
  const chunks = [scanSqlitePoints(database, job.after, job.upTo)];
  if (job.events) {
    chunks.push(scanSqliteEvents(database, job.events.cutoff, job.events.graceMs));
    chunks.push(scanSqlitePosts(database, job.events.now));
  }
  return chunks;
}

/** The body of a scan worker (scan-worker.cjs): runs its job on its own read-only connection. */
export function runScanWorker(): void {
  const port = parentPort;
  if (!port) throw new Error('runScanWorker runs in a worker thread');
  const job = workerData as ScanJob;
  const database = new SQLite(job.file, { readonly: true, fileMustExist: true });
  try {
    database.pragma('busy_timeout = 5000');
    const chunks = runScanJob(database, job);
    port.postMessage(chunks, chunks.flatMap(chunkBuffers));
  } finally {
    database.close();
  }
}
