import {
  DOC_EVENT,
  DOC_SUPERTYPES,
  LEVELS,
  levelOf,
  supertypeCode,
  typeWords,
  type DocKind,
  type SearchDoc,
} from './doc';
import { coverKeys, hilbertKey, lowerBound as lowerBoundIn, orderByKey } from './space';
import { DocTerms, TypeTerms } from './terms';
import type { TopK } from './top-k';

/**
 * An immutable, columnar index over a set of documents, built in one go:
 *
 * - documents numbered along a Hilbert curve (space.ts), so the documents of an area are a few runs
 *   of consecutive numbers, and every ascending list of documents below yields an area's part by
 *   binary search;
 * - a sorted term dictionary: every folded word once, so all words starting with a prefix are one
 *   contiguous range of term numbers, found by two binary searches;
 * - postings (term -> documents, CSR) and a forward index (document -> its terms, title words first
 *   and in order), so a candidate is checked against the other query words with integer comparisons;
 * - first-title-word postings and whole-title hashes: the exact and prefix title matches, which
 *   outrank everything else, without reading every title that shares a common first word;
 * - a static rank level per document (doc.ts levelOf: promoted, hot, rating), one document list per
 *   level and one per title initial and level, so a search from space visits the best levels first
 *   and stops once the page is complete;
 * - a coarse grid of document counts, so that a planner can choose per query between the postings of
 *   the rarest word and candidates from space, whichever is expected to cost less (see search()).
 *
 * Documents deleted or replaced after the build are marked dead here and live on in the index's
 * delta (index.ts) until the next rebuild.
 */

/**
 * The planner's exchange rate: a candidate from postings costs about this fraction of one from space
 * (most postings candidates fail the bounds check on two columns; space's have their terms scanned).
 */
const TEXT_PER_SPACE = 2;
/** Postings lists this short are always read: cheaper than planning anything else. */
const TEXT_ALWAYS = 2_000;
/** Cells of the document-count grid that estimates how many documents a bounds holds: 0.25 degrees. */
const GRID_CELLS_PER_DEGREE = 4;
const GRID_WIDTH = 360 * GRID_CELLS_PER_DEGREE;
const GRID_HEIGHT = 180 * GRID_CELLS_PER_DEGREE;

export interface Bounds {
  south: number;
  west: number;
  north: number;
  east: number;
}

export interface Filter {
  /** supertype code (doc.ts), or -1 for any. */
  supertype: number;
  includeEvents: boolean;
  /** events that ended before this are not found. */
  now: number;
  bounds: Bounds | null;
}

/** One query word, resolved against this segment's dictionary. */
export interface CompiledWord {
  word: string;
  /** term number ranges [lo, hi) that count as a match (the prefix, plus typo neighbours when fuzzy). */
  ranges: Int32Array;
  /** the prefix range alone (for title-prefix matches). */
  prefixLo: number;
  prefixHi: number;
  /** the term equal to the word, or -1. */
  exact: number;
  /** how many postings the ranges hold. */
  cost: number;
}

/** Ranking tiers, best first. */
export const TIER_EXACT_TITLE = 0;
export const TIER_TITLE_PREFIX = 1;
export const TIER_OTHER = 2;

/** A ranking key: smaller is better. Tier, then static level, then title words, then distance. */
export function rankKey(tier: number, level: number, titleWords: boolean, distance: number): number {
  return ((tier * 64 + (63 - level)) * 2 + (titleWords ? 0 : 1)) * 1024 + Math.min(distance, 1023);
}

/** Where the ranking measures distance from (the centre of the bounds); null ranks every place alike. */
export interface Centre {
  lat: number;
  lon: number;
  cosLat: number;
}

export function centreOf(bounds: Bounds | null): Centre | null {
  if (!bounds) return null;
  const lat = (bounds.south + bounds.north) / 2;
  let width = bounds.east - bounds.west;
  if (width < 0) width += 360; // across the antimeridian
  let lon = bounds.west + width / 2;
  if (lon > 180) lon -= 360;
  return { lat, lon, cosLat: Math.cos((lat * Math.PI) / 180) };
}

/** Approximate distance in degrees of latitude (equirectangular): enough to order places. */
export function distanceFrom(centre: Centre | null, lat: number, lon: number): number {
  if (!centre) return 0;
  let dx = Math.abs(lon - centre.lon);
  if (dx > 180) dx = 360 - dx;
  const dy = lat - centre.lat;
  dx *= centre.cosLat;
  return Math.sqrt(dx * dx + dy * dy);
}

export function inBounds(bounds: Bounds | null, lat: number, lon: number): boolean {
  if (!bounds) return true;
  if (lat < bounds.south || lat > bounds.north) return false;
  return bounds.west <= bounds.east
    ? lon >= bounds.west && lon <= bounds.east
    : lon >= bounds.west || lon <= bounds.east;
}

export interface SearchStats {
  /** matches found (exact, or an estimate when `estimated`). */
  count: number;
  estimated: boolean;
}

/** Collects documents in any order, tokenising as they come; build() turns them into a Segment. */
export class SegmentBuilder {
  private readonly words = new DocTerms();
  private forward: Uint32Array;
  private forwardLength = 0;
  private fwdStart: Uint32Array;
  private titleCount: Uint8Array;
  private readonly columns: Columns;
  /** the words of each type (supertype, type and subtype numbers -> words and their terms). */
  private readonly typeTerms = new Map<number, TypeTerms>();

  /** `capacity`: about how many documents will come, so the columns are allocated once. */
  constructor(capacity = 1024) {
    this.columns = new Columns(capacity);
    this.forward = new Uint32Array(Math.max(1024, capacity * 12));
    this.fwdStart = new Uint32Array(Math.max(16, capacity) + 1);
    this.titleCount = new Uint8Array(Math.max(16, capacity));
  }

  get size(): number {
    return this.columns.size;
  }

  add(doc: SearchDoc): void {
    const d = this.columns.push(doc);
    const words = this.words;
    words.collect(doc.title, this.typeTermsOf(doc, d), doc.address);
    const length = words.length;
    if (this.forwardLength + length > this.forward.length) {
      const grown = new Uint32Array(Math.max(this.forward.length * 2, this.forwardLength + length));
      grown.set(this.forward.subarray(0, this.forwardLength));
      this.forward = grown;
    }
    if (d >= this.titleCount.length) {
      const titleCount = new Uint8Array(this.titleCount.length * 2);
      titleCount.set(this.titleCount);
      this.titleCount = titleCount;
      const fwdStart = new Uint32Array(titleCount.length + 1);
      fwdStart.set(this.fwdStart);
      this.fwdStart = fwdStart;
    }
    const forward = this.forward;
    const ids = words.ids;
    let at = this.forwardLength;
    for (let k = 0; k < length; k++) forward[at++] = ids[k] as number;
    this.forwardLength = at;
    this.fwdStart[d + 1] = at;
    this.titleCount[d] = words.titleCount;
  }

  /** The type words of document `d` (just pushed), looked up by the numbers its columns store. */
  private typeTermsOf(doc: SearchDoc, d: number): TypeTerms {
    const code = supertypeCode(doc.supertype);
    const type = this.columns.type[d] as number;
    const subtype = this.columns.subtype[d] as number;
    if (code < 0 || type >= 0x1000000 || subtype >= 0x1000000)
      return new TypeTerms(typeWords(doc.supertype, doc.type, doc.subtype));
    const key = (type * 0x1000000 + subtype) * 16 + code;
    let terms = this.typeTerms.get(key);
    if (!terms)
      this.typeTerms.set(key, (terms = new TypeTerms(typeWords(doc.supertype, doc.type, doc.subtype))));
    return terms;
  }

  /** Builds the segment; yields to the event loop between phases when `yieldNow` is given. */
  async build(yieldNow?: () => Promise<void>): Promise<Segment> {
    const pause = async () => {
      if (yieldNow) await yieldNow();
    };
    // the dictionary, sorted (by UTF-16 code units, as the binary search compares)
    const terms = this.words.table.terms;
    this.words.table.release();
    const order = Array.from(terms.keys());
    order.sort((a, b) => {
      const x = terms[a] as string;
      const y = terms[b] as string;
      return x < y ? -1 : x > y ? 1 : 0;
    });
    const rank = new Uint32Array(terms.length);
    const sortedTerms: string[] = new Array<string>(terms.length);
    for (let i = 0; i < order.length; i++) {
      rank[order[i] as number] = i;
      sortedTerms[i] = terms[order[i] as number] as string;
    }
    await pause();

    const n = this.columns.size;
    // an exact copy: the buffer was sized for about 12 terms a document, a fifth more than they have
    const forward = this.forward.slice(0, this.forwardLength);
    this.forward = new Uint32Array(0);
    for (let j = 0; j < forward.length; j++) forward[j] = rank[forward[j] as number] as number;
    const fwdStart = this.fwdStart.slice(0, n + 1);
    const titleCount = this.titleCount.slice(0, n);
    const ordered = orderBySpace(this.columns.finish(), fwdStart, forward, titleCount);
    await pause();
    const segment = new Segment(
      ordered.columns,
      sortedTerms,
      ordered.fwdStart,
      ordered.forward,
      ordered.titleCount,
      ordered.spaceKeys,
      ordered.origin,
    );
    await pause();
    segment.buildPostings();
    await pause();
    segment.buildSpatial();
    await pause();
    segment.buildTitleIndex();
    return segment;
  }
}

type NumberColumn = Uint8Array | Uint32Array | Int32Array | Float32Array | Float64Array;

/** The stored fields of every document, in the order they were added, in typed arrays that grow. */
class Columns {
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
function orderBySpace(
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
type StoredColumns = Pick<
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

interface SegmentColumns {
  ids: string[];
  titles: string[];
  addresses: (string | null)[];
  hostIds: (string | null)[];
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
  strings: (string | null)[];
}

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

/**
 * Some documents (a level, or a title initial's level), ascending: as documents are numbered along the
 * Hilbert curve, the ones in an area are found by binary search for each run of the area's cover.
 */
interface SpatialGroup {
  docs: Uint32Array;
}

export class Segment {
  readonly size: number;
  readonly kind: Uint8Array;
  readonly supertype: Uint8Array;
  readonly lat: Float64Array;
  readonly lon: Float64Array;
  readonly level: Uint8Array;
  readonly endDate: Float64Array;
  readonly strings: (string | null)[];
  /**
   * The columns only an answer reads, in the order the documents were added (not renumbered along
   * the curve, which would cost a random gather of each at every build): read them at origin[d].
   */
  readonly stored: StoredColumns;
  /** 1 when the document was deleted or replaced since the build. */
  readonly dead: Uint8Array;
  /** term -> documents (CSR); a term's documents are ascending. */
  offsets = new Uint32Array(1);
  postings = new Uint32Array(0);
  /** first title word -> documents (CSR): the candidates of exact and prefix title matches. */
  firstOffsets = new Uint32Array(1);
  firstPostings = new Uint32Array(0);
  /**
   * Whole titles by a hash of their term numbers, sorted by hash (CSR-free: equal hashes are adjacent):
   * the exact-title matches of a query in one binary search, however common its first word.
   */
  titleHashes = new Uint32Array(0);
  titleHashDocs = new Uint32Array(0);
  /** documents per supertype code, for the planner's estimate of a filtered query's matches. */
  readonly supertypeCounts = new Float64Array(DOC_SUPERTYPES.length);
  /** one spatial index per static level (best level first when scanning). */
  readonly levels: (SpatialGroup | undefined)[] = new Array<SpatialGroup | undefined>(LEVELS);
  /** per first character of the first title word, one spatial index per level. */
  readonly initials = new Map<string, (SpatialGroup | undefined)[]>();
  /** documents per grid cell, to estimate how many a bounds holds. */
  private readonly grid = new Uint32Array(GRID_WIDTH * GRID_HEIGHT);
  /** per-query "seen" marks: a document reached through two terms is counted once. */
  private readonly seen: Uint32Array;
  private generation = 0;

  constructor(
    columns: SegmentColumns,
    readonly terms: string[],
    /** document -> its terms (CSR): title words first, in order (repeats kept), then other words. */
    readonly fwdStart: Uint32Array,
    readonly forward: Uint32Array,
    readonly titleCount: Uint8Array,
    /** each document's Hilbert key (space.ts), ascending: documents are numbered along the curve. */
    readonly spaceKeys: Uint32Array,
    /** each document's number in the order it was added: ties rank in that order. */
    readonly origin: Uint32Array,
  ) {
    this.size = columns.kind.length;
    this.kind = columns.kind;
    this.supertype = columns.supertype;
    this.lat = columns.lat;
    this.lon = columns.lon;
    this.level = columns.level;
    this.endDate = columns.endDate;
    this.strings = columns.strings;
    this.stored = columns;
    this.dead = new Uint8Array(this.size);
    this.seen = new Uint32Array(this.size);
  }

  /** Postings: a counting pass, then a fill pass in document order (so each list is ascending). */
  buildPostings(): void {
    const { fwdStart, forward, titleCount, size: n } = this;
    const t = this.terms.length;
    const offsets = new Uint32Array(t + 1);
    const firstOffsets = new Uint32Array(t + 1);
    // title words may repeat ('New New York'); other words were made unique when added
    const isRepeat = (from: number, j: number) => {
      const term = forward[j];
      for (let k = from; k < j; k++) if (forward[k] === term) return true;
      return false;
    };
    for (let pass = 0; pass < 2; pass++) {
      const fill = pass === 1 ? offsets.slice(0, t) : offsets;
      const firstFill = pass === 1 ? firstOffsets.slice(0, t) : firstOffsets;
      for (let d = 0; d < n; d++) {
        const from = fwdStart[d] as number;
        const to = fwdStart[d + 1] as number;
        const titleEnd = from + (titleCount[d] as number);
        for (let j = from; j < to; j++) {
          if (j < titleEnd && isRepeat(from, j)) continue;
          const term = forward[j] as number;
          if (pass === 0) offsets[term + 1] = (offsets[term + 1] as number) + 1;
          else {
            this.postings[fill[term] as number] = d;
            fill[term] = (fill[term] as number) + 1;
          }
        }
        if (titleEnd > from) {
          const term = forward[from] as number;
          if (pass === 0) firstOffsets[term + 1] = (firstOffsets[term + 1] as number) + 1;
          else {
            this.firstPostings[firstFill[term] as number] = d;
            firstFill[term] = (firstFill[term] as number) + 1;
          }
        }
      }
      if (pass === 0) {
        for (let i = 0; i < t; i++) {
          offsets[i + 1] = (offsets[i + 1] as number) + (offsets[i] as number);
          firstOffsets[i + 1] = (firstOffsets[i + 1] as number) + (firstOffsets[i] as number);
        }
        this.postings = new Uint32Array(offsets[t] as number);
        this.firstPostings = new Uint32Array(firstOffsets[t] as number);
      }
    }
    this.offsets = offsets;
    this.firstOffsets = firstOffsets;
  }

  /** The documents of each level, and of each title initial's level, ascending; the count grid. */
  buildSpatial(): void {
    const byLevel: number[][] = Array.from({ length: LEVELS }, () => []);
    const byInitial = new Map<string, number[][]>();
    for (let d = 0; d < this.size; d++) {
      const cell = gridCell(this.lat[d] as number, this.lon[d] as number);
      this.grid[cell] = (this.grid[cell] as number) + 1;
      const level = this.level[d] as number;
      (byLevel[level] as number[]).push(d);
      if ((this.titleCount[d] as number) === 0) continue;
      const initial = (this.terms[this.forward[this.fwdStart[d] as number] as number] as string)[0] as string;
      let lists = byInitial.get(initial);
      if (!lists) byInitial.set(initial, (lists = Array.from({ length: LEVELS }, () => [])));
      (lists[level] as number[]).push(d);
    }
    const group = (docs: number[]): SpatialGroup => ({ docs: Uint32Array.from(docs) });
    for (let level = 0; level < LEVELS; level++) {
      const docs = byLevel[level] as number[];
      if (docs.length > 0) this.levels[level] = group(docs);
    }
    for (const [initial, lists] of byInitial)
      this.initials.set(
        initial,
        lists.map((docs) => (docs.length > 0 ? group(docs) : undefined)),
      );
  }

  /** The whole-title hashes (exact-title lookups) and the documents per supertype. */
  buildTitleIndex(): void {
    const n = this.size;
    const hashes = new Uint32Array(n);
    const terms: number[] = [];
    let titled = 0;
    for (let d = 0; d < n; d++) {
      const code = this.supertype[d] as number;
      this.supertypeCounts[code] = (this.supertypeCounts[code] as number) + 1;
      const count = this.titleCount[d] as number;
      if (count === 0) continue;
      const from = this.fwdStart[d] as number;
      terms.length = 0;
      for (let i = 0; i < count; i++) terms.push(this.forward[from + i] as number);
      hashes[d] = titleHash(terms);
      titled++;
    }
    // a radix sort of the titled documents by hash: two passes of 16 bits
    let docs = new Uint32Array(titled);
    let keys = new Uint32Array(titled);
    for (let d = 0, i = 0; d < n; d++) {
      if ((this.titleCount[d] as number) === 0) continue;
      docs[i] = d;
      keys[i++] = hashes[d] as number;
    }
    let nextDocs = new Uint32Array(titled);
    let nextKeys = new Uint32Array(titled);
    for (const shift of [0, 16]) {
      const counts = new Uint32Array(65_537);
      for (let i = 0; i < titled; i++) {
        const bucket = (((keys[i] as number) >>> shift) & 0xffff) + 1;
        counts[bucket] = (counts[bucket] as number) + 1;
      }
      for (let c = 0; c < 65_536; c++) counts[c + 1] = (counts[c + 1] as number) + (counts[c] as number);
      for (let i = 0; i < titled; i++) {
        const bucket = ((keys[i] as number) >>> shift) & 0xffff;
        const at = counts[bucket] as number;
        counts[bucket] = at + 1;
        nextDocs[at] = docs[i] as number;
        nextKeys[at] = keys[i] as number;
      }
      [docs, nextDocs] = [nextDocs, docs];
      [keys, nextKeys] = [nextKeys, keys];
    }
    this.titleHashes = keys;
    this.titleHashDocs = docs;
  }

  /** The document as it was indexed (to rebuild, or to answer). */
  docAt(d: number): SearchDoc {
    const st = this.strings;
    const c = this.stored;
    const a = this.origin[d] as number;
    const num = (value: number) => (Number.isNaN(value) ? null : value);
    return {
      id: c.ids[a] as string,
      kind: this.kind[d] as DocKind,
      supertype: supertypeName(this.supertype[d] as number),
      type: st[c.type[a] as number] ?? '',
      subtype: st[c.subtype[a] as number] ?? null,
      title: c.titles[a] as string,
      address: c.addresses[a] ?? null,
      lat: this.lat[d] as number,
      lon: this.lon[d] as number,
      beamtype: c.beam[a] as number,
      promo: c.promo[a] as number,
      rating: num(c.rating[a] as number),
      statsMonth: c.statsMonth[a] as number,
      cover: st[c.cover[a] as number] ?? null,
      health: c.health[a] as number,
      startDate: num(c.startDate[a] as number),
      endDate: num(this.endDate[d] as number),
      firstStart: num(c.firstStart[a] as number),
      firstEnd: num(c.firstEnd[a] as number),
      hostId: c.hostIds[a] ?? null,
    };
  }

  /** A document's id, and the point hosting it (events). */
  idAt(d: number): string {
    return this.stored.ids[this.origin[d] as number] as string;
  }

  hostIdAt(d: number): string | null {
    return this.stored.hostIds[this.origin[d] as number] ?? null;
  }

  /** The first term >= word. */
  lowerBound(word: string): number {
    let lo = 0;
    let hi = this.terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.terms[mid] as string) < word) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Terms starting with `prefix`: [lo, hi). */
  prefixRange(prefix: string): [number, number] {
    const lo = this.lowerBound(prefix);
    // every string starting with prefix sorts before prefix + U+FFFF
    const hi = this.lowerBound(`${prefix}\uffff`);
    return [lo, hi];
  }

  postingCount(lo: number, hi: number): number {
    return (this.offsets[hi] as number) - (this.offsets[lo] as number);
  }

  /**
   * Resolves a query word: its prefix range, and with `typos` the prefix ranges of every string one edit
   * away (typo.ts typoNeighbourhood: the same strings, found by narrowing shared prefixes rather than
   * searching the whole dictionary for each of the several hundred).
   */
  compileWord(word: string, typos: boolean): CompiledWord {
    const [prefixLo, prefixHi] = this.prefixRange(word);
    const exact = prefixLo < prefixHi && this.terms[prefixLo] === word ? prefixLo : -1;
    const ranges: [number, number][] = [];
    if (prefixLo < prefixHi) ranges.push([prefixLo, prefixHi]);
    if (typos) this.typoRanges(word, ranges);
    const merged = mergeRanges(ranges);
    let cost = 0;
    for (let i = 0; i < merged.length; i += 2)
      cost += this.postingCount(merged[i] as number, merged[i + 1] as number);
    return { word, ranges: Int32Array.from(merged), prefixLo, prefixHi, exact, cost };
  }

  /**
   * Adds to `out` the non-empty prefix ranges of the strings one edit from `word`: a letter left out,
   * two neighbours swapped, a letter replaced or one added before position i (letters of TYPO_ALPHABET).
   * Every such string starts with word[0..i), so the search for each stays within the terms sharing that
   * prefix, and a replaced or added letter is tried only where some term has it at position i.
   */
  private typoRanges(word: string, out: [number, number][]): void {
    const n = word.length;
    const add = (variant: string, lo: number, hi: number) => {
      const from = this.lowerBoundIn(variant, lo, hi);
      const to = this.lowerBoundIn(`${variant}\uffff`, from, hi);
      if (from < to) out.push([from, to]);
    };
    // [lo, hi): the terms that start with word[0..i)
    let lo = 0;
    let hi = this.terms.length;
    for (let i = 0; i < n && lo < hi; i++) {
      const head = word.slice(0, i);
      add(head + word.slice(i + 1), lo, hi);
      if (i + 1 < n && word[i] !== word[i + 1])
        add(head + (word[i + 1] as string) + (word[i] as string) + word.slice(i + 2), lo, hi);
      // each letter some term has at position i: its block of terms, then the replacement and the insertion
      let at = lo;
      while (at < hi) {
        const code = charAt(this.terms[at] as string, i);
        const end = this.charBlockEnd(at, hi, i, code);
        if (code >= 0 && TYPO_ALPHABET.includes(String.fromCharCode(code))) {
          const letter = String.fromCharCode(code);
          if (letter !== word[i]) add(head + letter + word.slice(i + 1), at, end);
          add(head + letter + word.slice(i), at, end);
        }
        at = end;
      }
      const next = word.charCodeAt(i);
      const from = this.charBlockStart(lo, hi, i, next);
      hi = this.charBlockEnd(from, hi, i, next);
      lo = from;
    }
  }

  /** The first term in [lo, hi) that is >= word. */
  private lowerBoundIn(word: string, lo: number, hi: number): number {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.terms[mid] as string) < word) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Within terms [lo, hi) that share their first i characters: the first whose character i is >= code. */
  private charBlockStart(lo: number, hi: number, i: number, code: number): number {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (charAt(this.terms[mid] as string, i) < code) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Within terms [lo, hi) that share their first i characters: the first whose character i is > code. */
  private charBlockEnd(lo: number, hi: number, i: number, code: number): number {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (charAt(this.terms[mid] as string, i) <= code) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Adds the matches of `words` that pass `filter` to `top` (keys from rankKey, order and item = the
   * document number), and counts them into `stats` (exactly, or estimated when a broad scan stopped
   * early). `skip` names documents already taken by an earlier pass.
   *
   * A small planner picks where candidates come from. Either the postings of the rarest word: every
   * match, whatever its rank, so the count is exact. Or space, in rank order, stopping once the page is
   * complete: the exact titles (one lookup in the title hashes), then the title-prefix matches (the
   * first-title-word postings when they are few, else the title initial's kd-trees, best level first),
   * then every level's kd-tree, best first. It reads postings when they cost less than the documents
   * space is expected to visit before the page is full.
   */
  search(
    words: CompiledWord[],
    filter: Filter,
    centre: Centre | null,
    top: TopK,
    stats: SearchStats,
    needCount: boolean,
    skip?: (d: number) => boolean,
  ): void {
    if (words.length === 0) return;
    for (const w of words) if (w.ranges.length === 0) return;
    const gen = this.nextGeneration();
    const seen = this.seen;
    let rarest = words[0] as CompiledWord;
    for (const w of words) if (w.cost < rarest.cost) rarest = w;
    const b = filter.bounds;
    const south = b ? b.south : -90;
    const north = b ? b.north : 90;
    const west = b ? b.west : -180;
    const east = b ? b.east : 180;
    const wraps = west > east;
    const wantSupertype = filter.supertype;
    const events = filter.includeEvents;
    const now = filter.now;
    const { lat, lon, dead, supertype, kind, endDate, level, origin } = this;

    /** Checks one candidate and ranks it; true when it matched. */
    const visit = (d: number): boolean => {
      const y = lat[d] as number;
      if (y < south || y > north) return false;
      const x = lon[d] as number;
      if (wraps ? x < west && x > east : x < west || x > east) return false;
      if (seen[d] === gen) return false;
      seen[d] = gen;
      if (dead[d] === 1) return false;
      if (wantSupertype >= 0 && supertype[d] !== wantSupertype) return false;
      if (kind[d] === DOC_EVENT && (!events || (endDate[d] as number) <= now)) return false;
      const match = this.matchAll(d, words);
      if (match === MATCH_NONE) return false;
      if (skip !== undefined && skip(d)) return false;
      const key = rankKey(
        this.tierOf(d, words),
        level[d] as number,
        match === MATCH_TITLE,
        distanceFrom(centre, y, x),
      );
      top.push(key, origin[d] as number, d);
      return true;
    };

    // The documents of the bounds: runs of consecutive numbers (documents are numbered along a Hilbert
    // curve), and the share of all documents they hold.
    const whole = !b || north - south >= 90;
    const runs: number[] = [];
    let runDocs = this.size;
    if (!whole && b) {
      runDocs = 0;
      const keys = coverKeys(b);
      for (let i = 0; i < keys.length; i += 2) {
        const from = lowerBoundIn(this.spaceKeys, keys[i] as number);
        const to = lowerBoundIn(this.spaceKeys, keys[i + 1] as number, from);
        if (from < to) {
          runs.push(from, to);
          runDocs += to - from;
        }
      }
    }
    const share = runDocs / Math.max(1, this.size);
    /** About how many documents reading these terms' postings in the bounds visits. */
    const readCost = (termCount: number, postings: number) =>
      whole ? postings : Math.min(postings, postings * share + termCount * runs.length);
    /** Visits the postings of terms [lo, hi) that lie in the bounds' runs and pass `accept`. */
    const readTerms = (
      list: Uint32Array,
      offsets: Uint32Array,
      lo: number,
      hi: number,
      accept?: (d: number) => boolean,
    ) => {
      for (let t = lo; t < hi; t++) {
        let p = offsets[t] as number;
        const to = offsets[t + 1] as number;
        if (whole || to - p <= 2 * runs.length) {
          for (; p < to; p++) {
            const d = list[p] as number;
            if ((!accept || accept(d)) && visit(d)) stats.count++;
          }
          continue;
        }
        for (let r = 0; r < runs.length && p < to; r += 2) {
          p = lowerBoundIn(list, runs[r] as number, p, to);
          const end = runs[r + 1] as number;
          for (; p < to; p++) {
            const d = list[p] as number;
            if (d >= end) break;
            if ((!accept || accept(d)) && visit(d)) stats.count++;
          }
        }
      }
    };
    /** Every match: the postings of the rarest word in the bounds (documents already visited are skipped). */
    const readRarest = () => {
      const r = rarest.ranges;
      for (let i = 0; i < r.length; i += 2)
        readTerms(this.postings, this.offsets, r[i] as number, r[i + 1] as number);
    };

    // The plan: the postings of the rarest word, or space?
    const inBounds = whole ? this.size : Math.min(runDocs, this.inBoundsEstimate(b));
    let selectivity = 1;
    for (const w of words) selectivity *= Math.min(1, w.cost / Math.max(1, this.size));
    if (wantSupertype >= 0)
      selectivity *= (this.supertypeCounts[wantSupertype] as number) / Math.max(1, this.size);
    // documents space visits before `top` is full, if matches are spread evenly
    const spaceCost = Math.min(inBounds, top.capacity / Math.max(selectivity, 1e-12));
    let rarestTerms = 0;
    for (let i = 0; i < rarest.ranges.length; i += 2)
      rarestTerms += (rarest.ranges[i + 1] as number) - (rarest.ranges[i] as number);
    const textCost = readCost(rarestTerms, rarest.cost);
    if (textCost <= TEXT_ALWAYS || textCost <= TEXT_PER_SPACE * spaceCost) return readRarest();
    // The estimate assumes matches spread evenly over the levels; when they gather in the lower ones
    // (help requests have no rating), space would visit far more. Past this many documents from space,
    // the postings are cheaper after all, and the search switches to them.
    const spaceBudget = textCost / TEXT_PER_SPACE;

    let scanned = 0;
    /** Stops a broad scan once the results are complete; the count is then an estimate. */
    const complete = () => {
      if (!top.full) return false;
      if (needCount) {
        // matches per candidate so far, over all the candidates the bounds' runs hold
        const rate = scanned > 0 ? stats.count / scanned : 0;
        stats.count = Math.max(stats.count, Math.round(rate * runDocs));
        stats.estimated = true;
      }
      return true;
    };
    /**
     * Visits the documents of a group that are in bounds and pass `accept`; true when the space budget
     * ran out on the way (the caller then reads the postings instead).
     */
    const scan = (group: SpatialGroup, accept?: (d: number) => boolean): boolean => {
      const docs = group.docs;
      const each = (d: number): boolean => {
        if ((!accept || accept(d)) && visit(d)) stats.count++;
        return ++scanned > spaceBudget;
      };
      if (whole) {
        for (let i = 0; i < docs.length; i++) if (each(docs[i] as number)) return true;
        return false;
      }
      let p = 0;
      for (let r = 0; r < runs.length && p < docs.length; r += 2) {
        p = lowerBoundIn(docs, runs[r] as number, p);
        const end = runs[r + 1] as number;
        for (; p < docs.length; p++) {
          const d = docs[p] as number;
          if (d >= end) break;
          if (each(d)) return true;
        }
      }
      return false;
    };

    // 1. exact titles, which outrank everything: one lookup of the query's whole title
    let exactAll = true;
    for (const w of words) if (w.exact < 0) exactAll = false;
    if (exactAll) {
      const hash = titleHash(words.map((w) => w.exact));
      const list = this.titleHashDocs;
      for (let p = lowerBoundIn(this.titleHashes, hash); p < list.length; p++) {
        if (this.titleHashes[p] !== hash) break;
        const d = list[p] as number;
        if (this.tierOf(d, words) === TIER_EXACT_TITLE && visit(d)) stats.count++;
      }
    }

    // 2. titles that start with the query: their first word is the query's first word (or, for a
    // one-word query, starts with it), so they are one slice of the first-title-word postings
    const first = words[0] as CompiledWord;
    const m = words.length;
    const firstLo = m === 1 ? first.prefixLo : first.exact;
    const firstHi = m === 1 ? first.prefixHi : first.exact + 1;
    if (firstLo >= 0 && firstLo < firstHi) {
      const sliceCost = readCost(
        firstHi - firstLo,
        (this.firstOffsets[firstHi] as number) - (this.firstOffsets[firstLo] as number),
      );
      const groups = this.initials.get(first.word[0] as string);
      const prefixOnly = (d: number) => this.tierOf(d, words) === TIER_TITLE_PREFIX;
      // The initial's kd-trees, best level first, stop once the page is full: about k documents divided
      // by the share of the initial's documents that start with the query, at most all in the bounds.
      // The slice cannot stop early, and every match in it is ranked.
      let initialDocs = 0;
      if (groups) for (const group of groups) if (group) initialDocs += group.docs.length;
      const slice = (this.firstOffsets[firstHi] as number) - (this.firstOffsets[firstLo] as number);
      const initialCost = Math.min(
        (inBounds * initialDocs) / Math.max(1, this.size),
        (top.capacity * initialDocs) / Math.max(1, slice),
      );
      if (!groups || sliceCost <= TEXT_ALWAYS || sliceCost <= TEXT_PER_SPACE * initialCost) {
        readTerms(this.firstPostings, this.firstOffsets, firstLo, firstHi, prefixOnly);
      } else {
        for (let lv = LEVELS - 1; lv >= 0; lv--) {
          const group = groups[lv];
          if (!group) continue;
          if (complete()) return;
          if (scan(group, prefixOnly)) return readRarest();
        }
      }
    }

    // 3. every level, best first, until the results are complete
    for (let lv = LEVELS - 1; lv >= 0; lv--) {
      const group = this.levels[lv];
      if (!group) continue;
      if (complete()) return;
      if (scan(group)) return readRarest();
    }
  }

  /** About how many documents lie in the bounds (whole grid cells: an overestimate for small bounds). */
  inBoundsEstimate(bounds: Bounds | null): number {
    if (!bounds) return this.size;
    const row0 = gridRow(bounds.south);
    const row1 = gridRow(bounds.north);
    const col0 = gridColumn(bounds.west);
    const col1 = gridColumn(bounds.east);
    const columns = col0 <= col1 ? col1 - col0 + 1 : GRID_WIDTH - col0 + col1 + 1;
    let total = 0;
    for (let row = row0; row <= row1; row++) {
      for (let k = 0; k < columns; k++)
        total += this.grid[row * GRID_WIDTH + ((col0 + k) % GRID_WIDTH)] as number;
    }
    return total;
  }

  /** Whether every word matches some term of the document: MATCH_TITLE when all match title words. */
  matchAll(d: number, words: CompiledWord[]): number {
    const forward = this.forward;
    const from = this.fwdStart[d] as number;
    const to = this.fwdStart[d + 1] as number;
    const titleEnd = from + (this.titleCount[d] as number);
    let allTitle = true;
    for (let k = 0; k < words.length; k++) {
      const r = (words[k] as CompiledWord).ranges;
      let found = -1;
      for (let j = from; j < to; j++) {
        if (inRanges(r, forward[j] as number)) {
          found = j;
          break;
        }
      }
      if (found < 0) return MATCH_NONE;
      // title words come first: the first match is in the title when any is
      if (found >= titleEnd) allTitle = false;
    }
    return allTitle ? MATCH_TITLE : MATCH_OTHER;
  }

  /** Exact title (all words equal), title prefix (the title starts with the query), or other. */
  tierOf(d: number, words: CompiledWord[]): number {
    const m = words.length;
    const count = this.titleCount[d] as number;
    if (m === 0 || count < m) return TIER_OTHER;
    const from = this.fwdStart[d] as number;
    for (let i = 0; i < m - 1; i++) {
      const w = words[i] as CompiledWord;
      if (w.exact < 0 || this.forward[from + i] !== w.exact) return TIER_OTHER;
    }
    const last = words[m - 1] as CompiledWord;
    const term = this.forward[from + m - 1] as number;
    if (count === m && term === last.exact) return TIER_EXACT_TITLE;
    return term >= last.prefixLo && term < last.prefixHi ? TIER_TITLE_PREFIX : TIER_OTHER;
  }

  private nextGeneration(): number {
    this.generation = (this.generation + 1) >>> 0;
    if (this.generation === 0) {
      this.seen.fill(0);
      this.generation = 1;
    }
    return this.generation;
  }
}

/**
 * Whether `term` lies in one of the sorted, disjoint [lo, hi) ranges: a scan for a few ranges, a binary
 * search for the hundreds a typo-tolerant word brings.
 */
export function inRanges(ranges: Int32Array, term: number): boolean {
  const n = ranges.length;
  if (n <= 8) {
    for (let i = 0; i < n; i += 2)
      if (term >= (ranges[i] as number) && term < (ranges[i + 1] as number)) return true;
    return false;
  }
  // the last range whose start is <= term
  let lo = 0;
  let hi = n / 2 - 1;
  if (term < (ranges[0] as number)) return false;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((ranges[2 * mid] as number) <= term) lo = mid;
    else hi = mid - 1;
  }
  return term < (ranges[2 * lo + 1] as number);
}

/** FNV-1a over term numbers: the hash of a whole title (collisions are checked by the caller). */
export function titleHash(terms: readonly number[]): number {
  let h = 0x811c9dc5;
  for (const term of terms) {
    h = Math.imul(h ^ (term & 0xffff), 0x01000193);
    h = Math.imul(h ^ (term >>> 16), 0x01000193);
  }
  return h >>> 0;
}

/** [lo, hi) ranges sorted and joined where they touch or overlap, flat: lo0, hi0, lo1, hi1, … */
export function mergeRanges(ranges: [number, number][]): number[] {
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: number[] = [];
  for (const [lo, hi] of ranges) {
    const last = merged.length - 1;
    if (merged.length > 0 && lo <= (merged[last] as number))
      merged[last] = Math.max(merged[last] as number, hi);
    else merged.push(lo, hi);
  }
  return merged;
}

/** The letters a typo may put in (typo.ts). */
const TYPO_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** The UTF-16 unit at i, or -1 past the end (a term that ends there sorts before every longer one). */
function charAt(term: string, i: number): number {
  return i < term.length ? term.charCodeAt(i) : -1;
}

function gridRow(lat: number): number {
  return Math.min(GRID_HEIGHT - 1, Math.max(0, Math.floor((lat + 90) * GRID_CELLS_PER_DEGREE)));
}
function gridColumn(lon: number): number {
  return Math.min(GRID_WIDTH - 1, Math.max(0, Math.floor((lon + 180) * GRID_CELLS_PER_DEGREE)));
}
function gridCell(lat: number, lon: number): number {
  return gridRow(lat) * GRID_WIDTH + gridColumn(lon);
}

export const MATCH_NONE = 0;
export const MATCH_TITLE = 1;
export const MATCH_OTHER = 2;

export function supertypeName(code: number): string {
  return DOC_SUPERTYPES[code] ?? 'business';
}
