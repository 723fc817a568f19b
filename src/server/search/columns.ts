import { levelOf, supertypeCode, type SearchDoc } from './doc';
import { hilbertKey, orderByKey } from './space';

/**
 * The stored fields of a segment's documents, in typed columns: collected as the documents come
 * (Columns), then renumbered along the Hilbert curve (orderBySpace) for the fields a search reads per
 * candidate, while the fields only an answer reads stay in the order added (StoredColumns).
 */

type NumberColumn = Uint8Array | Uint32Array | Int32Array | Float32Array | Float64Array;

/** The stored fields of every document, in the order they were added, in typed arrays that grow. */
export class Columns {
  size = 0;
  private capacity: number;
  readonly ids: string[] = [];
  readonly titles: string[] = [];
  readonly addresses: (string | null)[] = [];
  readonly hostIds: (string | null)[] = [];
  kind: Uint8Array;
  supertype: Uint8Array;
  type: Uint32Array;
  subtype: Uint32Array;
  cover: Uint32Array;
  lat: Float64Array;
  lon: Float64Array;
  beam: Int32Array;
  promo: Uint8Array;
  rating: Float32Array;
  statsMonth: Int32Array;
  health: Uint8Array;
  level: Uint8Array;
  startDate: Float64Array;
  endDate: Float64Array;
  firstStart: Float64Array;
  firstEnd: Float64Array;
  readonly strings = new Interner();

  constructor(capacity: number) {
    this.capacity = Math.max(16, capacity);
    const n = this.capacity;
    this.kind = new Uint8Array(n);
    this.supertype = new Uint8Array(n);
    this.type = new Uint32Array(n);
    this.subtype = new Uint32Array(n);
    this.cover = new Uint32Array(n);
    this.lat = new Float64Array(n);
    this.lon = new Float64Array(n);
    this.beam = new Int32Array(n);
    this.promo = new Uint8Array(n);
    this.rating = new Float32Array(n);
    this.statsMonth = new Int32Array(n);
    this.health = new Uint8Array(n);
    this.level = new Uint8Array(n);
    this.startDate = new Float64Array(n);
    this.endDate = new Float64Array(n);
    this.firstStart = new Float64Array(n);
    this.firstEnd = new Float64Array(n);
  }

  /** Adds a document; returns its number. */
  push(doc: SearchDoc): number {
    if (this.size === this.capacity) this.grow();
    const i = this.size++;
    this.ids.push(doc.id);
    this.titles.push(doc.title);
    this.addresses.push(doc.address);
    this.hostIds.push(doc.hostId);
    this.kind[i] = doc.kind;
    this.supertype[i] = Math.max(0, supertypeCode(doc.supertype));
    this.type[i] = this.strings.of(doc.type);
    this.subtype[i] = this.strings.of(doc.subtype);
    this.cover[i] = this.strings.of(doc.cover);
    this.lat[i] = doc.lat;
    this.lon[i] = doc.lon;
    this.beam[i] = doc.beamtype | 0;
    this.promo[i] = doc.promo ? 1 : 0;
    this.rating[i] = doc.rating ?? NaN;
    this.statsMonth[i] = doc.statsMonth | 0;
    this.health[i] = doc.health;
    this.level[i] = levelOf(doc.promo, doc.beamtype, doc.rating);
    this.startDate[i] = doc.startDate ?? NaN;
    this.endDate[i] = doc.endDate ?? NaN;
    this.firstStart[i] = doc.firstStart ?? NaN;
    this.firstEnd[i] = doc.firstEnd ?? NaN;
    return i;
  }

  finish(): SegmentColumns {
    const n = this.size;
    // exact sizes: a copy only when the estimate was too large
    const fit = <T extends NumberColumn>(column: T): T =>
      column.length === n ? column : (column.slice(0, n) as T);
    return {
      ids: this.ids,
      titles: this.titles,
      addresses: this.addresses,
      hostIds: this.hostIds,
      kind: fit(this.kind),
      supertype: fit(this.supertype),
      type: fit(this.type),
      subtype: fit(this.subtype),
      cover: fit(this.cover),
      lat: fit(this.lat),
      lon: fit(this.lon),
      beam: fit(this.beam),
      promo: fit(this.promo),
      rating: fit(this.rating),
      statsMonth: fit(this.statsMonth),
      health: fit(this.health),
      level: fit(this.level),
      startDate: fit(this.startDate),
      endDate: fit(this.endDate),
      firstStart: fit(this.firstStart),
      firstEnd: fit(this.firstEnd),
      strings: this.strings.values,
    };
  }

  private grow(): void {
    this.capacity *= 2;
    const grown = <T extends NumberColumn>(column: T): T => {
      const next = new (column.constructor as new (n: number) => T)(this.capacity);
      next.set(column as never);
      return next;
    };
    this.kind = grown(this.kind);
    this.supertype = grown(this.supertype);
    this.type = grown(this.type);
    this.subtype = grown(this.subtype);
    this.cover = grown(this.cover);
    this.lat = grown(this.lat);
    this.lon = grown(this.lon);
    this.beam = grown(this.beam);
    this.promo = grown(this.promo);
    this.rating = grown(this.rating);
    this.statsMonth = grown(this.statsMonth);
    this.health = grown(this.health);
    this.level = grown(this.level);
    this.startDate = grown(this.startDate);
    this.endDate = grown(this.endDate);
    this.firstStart = grown(this.firstStart);
    this.firstEnd = grown(this.firstEnd);
  }
}

/**
 * The documents renumbered along the Hilbert curve (space.ts): the columns and the forward index in the
 * new order, each document's key (ascending), and origin[d], its number in the order it was added.
 */
export function orderBySpace(
  columns: SegmentColumns,
  fwdStart: Uint32Array,
  forward: Uint32Array,
  titleCount: Uint8Array,
): {
  columns: SegmentColumns;
  fwdStart: Uint32Array;
  forward: Uint32Array;
  titleCount: Uint8Array;
  spaceKeys: Uint32Array;
  origin: Uint32Array;
} {
  const n = columns.kind.length;
  const keys = new Uint32Array(n);
  for (let d = 0; d < n; d++) keys[d] = hilbertKey(columns.lat[d] as number, columns.lon[d] as number);
  const order = orderByKey(keys);
  // one copy loop per array type: a single generic loop would see five element kinds at one access
  // and run several times slower
  const u8 = (column: Uint8Array) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = column[order[i] as number] as number;
    return out;
  };
  const u32 = (column: Uint32Array) => {
    const out = new Uint32Array(n);
    for (let i = 0; i < n; i++) out[i] = column[order[i] as number] as number;
    return out;
  };
  const f64 = (column: Float64Array) => {
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = column[order[i] as number] as number;
    return out;
  };
  const nextStart = new Uint32Array(n + 1);
  const nextForward = new Uint32Array(forward.length);
  for (let i = 0, at = 0; i < n; i++) {
    const d = order[i] as number;
    for (let j = fwdStart[d] as number; j < (fwdStart[d + 1] as number); j++)
      nextForward[at++] = forward[j] as number;
    nextStart[i + 1] = at;
  }
  return {
    columns: {
      ...columns,
      // what a search reads per candidate, renumbered; the rest stays in the order added (origin)
      kind: u8(columns.kind),
      supertype: u8(columns.supertype),
      lat: f64(columns.lat),
      lon: f64(columns.lon),
      level: u8(columns.level),
      endDate: f64(columns.endDate),
    },
    fwdStart: nextStart,
    forward: nextForward,
    titleCount: u8(titleCount),
    spaceKeys: u32(keys),
    origin: order,
  };
}

/** The columns a Segment keeps in the order the documents were added. */
export type StoredColumns = Pick<
  SegmentColumns,
  | 'ids'
  | 'titles'
  | 'addresses'
  | 'hostIds'
  | 'type'
  | 'subtype'
  | 'cover'
  | 'beam'
  | 'promo'
  | 'rating'
  | 'statsMonth'
  | 'health'
  | 'startDate'
  | 'firstStart'
  | 'firstEnd'
>;

/** A finished segment's columns: the builder's arrays, trimmed to size, with the strings it interned. */
export type SegmentColumns = Omit<Columns, 'size' | 'strings' | 'push' | 'finish'> & {
  strings: (string | null)[];
};

/** Repeated strings (types, covers) stored once, referred to by number. */
class Interner {
  readonly values: (string | null)[] = [null];
  private readonly numbers = new Map<string, number>();
  of(value: string | null): number {
    if (value === null) return 0;
    let n = this.numbers.get(value);
    if (n === undefined) {
      n = this.values.length;
      this.values.push(value);
      this.numbers.set(value, n);
    }
    return n;
  }
}
