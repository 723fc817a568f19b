import { Columns, orderBySpace, type SegmentColumns, type StoredColumns } from './columns';
import { DOC_SUPERTYPES, LEVELS, supertypeCode, typeWords, type DocKind, type SearchDoc } from './doc';
import { GRID_HEIGHT, GRID_WIDTH, gridEstimate } from './grid';
import { buildPostings, buildSpatial, buildTitleIndex, type SpatialGroup } from './postings';
import {
  MATCH_NONE,
  MATCH_OTHER,
  MATCH_TITLE,
  TIER_EXACT_TITLE,
  TIER_OTHER,
  TIER_TITLE_PREFIX,
  type Bounds,
} from './ranking';
import { inRanges, mergeRanges, termLowerBound, typoRanges } from './term-ranges';
import { DocTerms, TypeTerms } from './terms';

// where these lived before the split (the segment's tests and the search service import them here)
export { centreOf, distanceFrom, inBounds, rankKey, type Bounds } from './ranking';
export { inRanges, mergeRanges } from './term-ranges';

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
 *   the rarest word and candidates from space, whichever is expected to cost less (segment-search.ts).
 *
 * Documents deleted or replaced after the build are marked dead here and live on in the index's
 * delta (index.ts) until the next rebuild.
 *
 * Here: the builder, the segment's columns and dictionary lookups, and the per-candidate checks
 * (matchAll, tierOf). Beside it: columns.ts (the stored fields and their renumbering), postings.ts
 * (the lookup structures built once), term-ranges.ts (prefix and typo ranges of the dictionary),
 * grid.ts (the count grid), ranking.ts (rank keys), segment-search.ts (the planner and its walks).
 */

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
    buildPostings(segment);
    await pause();
    buildSpatial(segment);
    await pause();
    buildTitleIndex(segment);
    return segment;
  }
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
  readonly grid = new Uint32Array(GRID_WIDTH * GRID_HEIGHT);
  /** per-query "seen" marks: a document reached through two terms is counted once. */
  readonly seen: Uint32Array;
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
    return termLowerBound(this.terms, word, 0, this.terms.length);
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
    if (typos) typoRanges(this.terms, word, ranges);
    const merged = mergeRanges(ranges);
    let cost = 0;
    for (let i = 0; i < merged.length; i += 2)
      cost += this.postingCount(merged[i] as number, merged[i + 1] as number);
    return { word, ranges: Int32Array.from(merged), prefixLo, prefixHi, exact, cost };
  }

  /** About how many documents lie in the bounds (whole grid cells: an overestimate for small bounds). */
  inBoundsEstimate(bounds: Bounds | null): number {
    return gridEstimate(this.grid, this.size, bounds);
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

  /** A fresh mark for `seen`: a new query sees no document as visited. */
  nextGeneration(): number {
    this.generation = (this.generation + 1) >>> 0;
    if (this.generation === 0) {
      this.seen.fill(0);
      this.generation = 1;
    }
    return this.generation;
  }
}

export function supertypeName(code: number): string {
  return DOC_SUPERTYPES[code] ?? 'business';
}
