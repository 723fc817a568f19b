import { tokenize } from './fold';
import {
  DOC_EVENT,
  DOC_POINT,
  DOC_POST,
  MAX_OTHER_WORDS,
  MAX_TITLE_WORDS,
  addressWords,
  apostropheWords,
  levelOf,
  supertypeCode,
  typeWords,
  type DocKind,
  type SearchDoc,
} from './doc';
import {
  MATCH_NONE,
  TIER_EXACT_TITLE,
  TIER_OTHER,
  TIER_TITLE_PREFIX,
  centreAt,
  centreOf,
  distanceFrom,
  inBounds,
  rankKey,
  type Bounds,
  type Centre,
} from './ranking';
import { SegmentBuilder, type CompiledWord, type Filter, type SearchStats, type Segment } from './segment';
import { searchSegment } from './segment-search';
import { TopK } from './top-k';
import { TYPO_MIN_LENGTH, prefixWithinOneEdit } from './typo';

/**
 * The search index of one server process: an immutable segment (segment.ts) built from the store,
 * plus a small delta of documents written since, scanned linearly. A write marks the old copy dead
 * and puts the new one in the delta; when the delta grows past DELTA_LIMIT the segment is rebuilt in
 * the background (yielding to requests) and swapped in, and writes that came during the rebuild are
 * applied again to the new one.
 */

/** Documents written since the last build that are kept in the delta before a rebuild. */
export const DELTA_LIMIT = 4096;
/** Typo tolerance starts when the exact words find fewer matches than this. */
export const FUZZY_BELOW = 10;
/** Query words beyond this are ignored. */
export const MAX_QUERY_WORDS = 8;
/** A rebuild yields to requests after copying this many documents. */
const REBUILD_YIELD_EVERY = 20_000;
/** Typo matches rank after every exact match: their keys are offset by this. */
const FUZZY_OFFSET = 1e9;

export interface SearchRequest {
  text: string;
  bounds: Bounds | null;
  /** a supertype name, or null for any. */
  supertype: string | null;
  includeEvents: boolean;
  /** results to skip and to return (paged search); suggestions use offset 0. */
  offset: number;
  limit: number;
  /** whether the total number of matches is needed (paged search). */
  needCount: boolean;
  now: number;
  /** without bounds, where results are ranked by distance from (absent or null: no distance order). */
  near?: { lat: number; lon: number } | null;
  /** candidates counting one by one may visit before the count is estimated (segment-search.ts COUNT_EXACT_LIMIT). */
  countLimit?: number;
}

export interface SearchAnswer {
  docs: SearchDoc[];
  total: number;
  /** true when total is an estimate (very broad queries: see segment-search.ts); never less than the matches seen. */
  estimated: boolean;
}

interface DeltaDoc {
  doc: SearchDoc;
  level: number;
  titleWords: string[];
  otherWords: string[];
}

export type ChangeKind = 'point' | 'event' | 'post';

/** The small interface the routes use; the store is the source of truth, this is a derived copy. */
export interface SearchIndex {
  search(request: SearchRequest): SearchAnswer;
  /** applies the current state of changed records: `docs` are the re-read rows, absent ids were deleted. */
  apply(kind: ChangeKind, ids: readonly string[], docs: readonly SearchDoc[]): void;
  /** events hosted by a point (not ended when indexed). */
  eventsOf(pointId: string): SearchDoc[];
  readonly size: number;
}

export class MemorySearchIndex implements SearchIndex {
  private base: Segment;
  private basePos: Positions;
  private readonly delta = new Map<string, DeltaDoc>();
  /** point id -> ids of events it hosts; event id -> its host. */
  private readonly hosted = new Map<string, Set<string>>();
  private readonly hostOf = new Map<string, string>();
  private rebuilding: Promise<void> | undefined;
  private replaying = false;
  /** changes applied while a rebuild runs, applied again to the rebuilt segment. */
  private replay: { kind: ChangeKind; ids: readonly string[]; docs: readonly SearchDoc[] }[] = [];
  rebuilds = 0;

  private constructor(base: Segment) {
    this.base = base;
    this.basePos = new Positions(base);
    this.rebuilt(base);
  }

  /** The host links of a new segment's events (delta events keep theirs). */
  private rebuilt(base: Segment): void {
    for (let d = 0; d < base.size; d++) {
      if (base.kind[d] !== DOC_EVENT || base.dead[d]) continue;
      const host = base.hostIdAt(d);
      if (host) this.link(base.idAt(d), host);
    }
  }

  /** Builds an index from a stream of documents (yielding to the event loop while it builds). */
  static async build(
    fill: (add: (doc: SearchDoc) => void) => Promise<void> | void,
    yieldNow?: () => Promise<void>,
    capacity?: number,
  ): Promise<MemorySearchIndex> {
    const builder = new SegmentBuilder(capacity);
    await fill((doc) => builder.add(doc));
    return new MemorySearchIndex(await builder.build(yieldNow));
  }

  get size(): number {
    return this.basePos.live + this.delta.size;
  }

  get deltaSize(): number {
    return this.delta.size;
  }

  apply(kind: ChangeKind, ids: readonly string[], docs: readonly SearchDoc[]): void {
    if (this.rebuilding) this.replay.push({ kind, ids, docs });
    const byId = new Map(docs.map((doc) => [doc.id, doc]));
    for (const id of ids) {
      const key = deltaKey(kind, id);
      const positions = this.basePos.of(kind);
      const at = positions.get(id);
      if (at !== undefined) {
        this.base.dead[at] = 1;
        positions.delete(id);
      }
      this.delta.delete(key);
      if (kind === 'event') this.unlink(id);
      const doc = byId.get(id);
      if (!doc) continue;
      this.delta.set(key, toDelta(doc));
      if (kind === 'event' && doc.hostId) this.link(id, doc.hostId);
    }
    if (this.delta.size > DELTA_LIMIT && !this.rebuilding && !this.replaying) {
      this.rebuilding = this.rebuild().finally(() => {
        this.rebuilding = undefined;
      });
    }
  }

  /** Waits for a rebuild in flight (tests, shutdown). */
  async settled(): Promise<void> {
    await this.rebuilding;
  }

  eventsOf(pointId: string): SearchDoc[] {
    const out: SearchDoc[] = [];
    for (const eventId of this.hosted.get(pointId) ?? []) {
      const doc = this.docOf('event', eventId);
      if (doc) out.push(doc);
    }
    return out;
  }

  search(request: SearchRequest): SearchAnswer {
    const words = tokenize(request.text).slice(0, MAX_QUERY_WORDS);
    const supertype = request.supertype === null ? -1 : supertypeCode(request.supertype);
    if (request.supertype !== null && supertype < 0) return { docs: [], total: 0, estimated: false };
    // no words and no supertype: nothing to look for (a supertype alone is browsed in the bounds)
    if (words.length === 0 && supertype < 0) return { docs: [], total: 0, estimated: false };
    const filter: Filter = {
      supertype,
      includeEvents: request.includeEvents,
      now: request.now,
      bounds: request.bounds,
    };
    const k = request.offset + request.limit;
    const top = new TopK(k);
    const stats: SearchStats = { count: 0, estimated: false };
    const base = this.base;
    const exact = words.map((word) => base.compileWord(word, false));
    const centre = filter.bounds ? centreOf(filter.bounds) : centreAt(request.near);
    searchSegment(base, exact, filter, centre, top, stats, request.needCount, undefined, request.countLimit);
    this.searchDelta(words, false, filter, centre, top, stats);

    if (stats.count < FUZZY_BELOW && words.some((word) => word.length >= TYPO_MIN_LENGTH)) {
      const fuzzy = words.map((word) => base.compileWord(word, word.length >= TYPO_MIN_LENGTH));
      const fuzzyTop = new TopK(k);
      const fuzzyStats: SearchStats = { count: 0, estimated: false };
      searchSegment(
        base,
        fuzzy,
        filter,
        centre,
        fuzzyTop,
        fuzzyStats,
        request.needCount,
        (d) => base.matchAll(d, exact) !== MATCH_NONE,
        request.countLimit,
      );
      this.searchDelta(words, true, filter, centre, fuzzyTop, fuzzyStats);
      for (const hit of fuzzyTop.sorted()) top.push(hit.key + FUZZY_OFFSET, hit.order, hit.item);
      stats.count += fuzzyStats.count;
      stats.estimated ||= fuzzyStats.estimated;
    }

    const hits = top.sorted().slice(request.offset, k);
    const docs = hits.map(({ item }) =>
      item >= 0 ? base.docAt(item) : (this.deltaAt(-item - 1) as SearchDoc),
    );
    // an estimate is never less than the pages up to this one hold (a page past its end, by address)
    const total = stats.estimated ? Math.max(stats.count, request.offset + docs.length) : stats.count;
    return { docs, total, estimated: stats.estimated };
  }

  /** The delta, scanned linearly: its words are strings (they may be missing from the dictionary). */
  private deltaList: DeltaDoc[] = [];

  private deltaAt(i: number): SearchDoc | undefined {
    return this.deltaList[i]?.doc;
  }

  private searchDelta(
    words: string[],
    fuzzy: boolean,
    filter: Filter,
    centre: Centre | null,
    top: TopK,
    stats: SearchStats,
  ): void {
    if (this.delta.size === 0) return;
    // a stable list for this search: item numbers point into it
    this.deltaList = [...this.delta.values()];
    const orderBase = this.base.size;
    const matches = (word: string, term: string, typo: boolean) =>
      term.startsWith(word) || (typo && word.length >= TYPO_MIN_LENGTH && prefixWithinOneEdit(word, term));
    for (let i = 0; i < this.deltaList.length; i++) {
      const entry = this.deltaList[i] as DeltaDoc;
      const doc = entry.doc;
      if (filter.supertype >= 0 && supertypeCode(doc.supertype) !== filter.supertype) continue;
      if (doc.kind === DOC_EVENT && (!filter.includeEvents || (doc.endDate ?? 0) <= filter.now)) continue;
      if (doc.kind === DOC_POST && doc.endDate !== null && doc.endDate <= filter.now) continue;
      if (!inBounds(filter.bounds, doc.lat, doc.lon)) continue;
      let allTitle = true;
      let ok = true;
      let exactly = true;
      for (const word of words) {
        const inTitle = entry.titleWords.some((t) => t.startsWith(word));
        const inOther = !inTitle && entry.otherWords.some((t) => t.startsWith(word));
        if (inTitle || inOther) {
          if (!inTitle) allTitle = false;
          continue;
        }
        exactly = false;
        if (!fuzzy) {
          ok = false;
          break;
        }
        const typoTitle = entry.titleWords.some((t) => matches(word, t, true));
        const typoOther = !typoTitle && entry.otherWords.some((t) => matches(word, t, true));
        if (!typoTitle && !typoOther) {
          ok = false;
          break;
        }
        if (!typoTitle) allTitle = false;
      }
      // the fuzzy pass takes only what the exact pass did not
      if (!ok || (fuzzy && exactly)) continue;
      const key = rankKey(
        deltaTier(entry.titleWords, words),
        entry.level,
        allTitle,
        distanceFrom(centre, doc.lat, doc.lon),
      );
      top.push(key, orderBase + i, -(i + 1));
      stats.count++;
    }
  }

  private docOf(kind: ChangeKind, id: string): SearchDoc | undefined {
    const at = this.basePos.of(kind).get(id);
    if (at !== undefined) return this.base.docAt(at);
    return this.delta.get(deltaKey(kind, id))?.doc;
  }

  private link(eventId: string, hostId: string): void {
    this.hostOf.set(eventId, hostId);
    let set = this.hosted.get(hostId);
    if (!set) this.hosted.set(hostId, (set = new Set()));
    set.add(eventId);
  }

  private unlink(eventId: string): void {
    const host = this.hostOf.get(eventId);
    if (host === undefined) return;
    this.hostOf.delete(eventId);
    const set = this.hosted.get(host);
    set?.delete(eventId);
    if (set && set.size === 0) this.hosted.delete(host);
  }

  /** Rebuilds the segment from the live documents (base and delta), yielding while it works. */
  private async rebuild(): Promise<void> {
    this.replay = [];
    const old = this.base;
    const builder = new SegmentBuilder(old.size + this.delta.size);
    const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));
    // The delta as it is now (a document in it is already dead in the old segment). Writes during the
    // rebuild are replayed onto the new segment afterwards: a document copied before its write is
    // found there by id and replaced, one written before it was reached is skipped as dead here.
    const delta = [...this.delta.values()].map((entry) => entry.doc);
    for (let d = 0; d < old.size; d++) {
      if (!old.dead[d]) builder.add(old.docAt(d));
      if (d % REBUILD_YIELD_EVERY === REBUILD_YIELD_EVERY - 1) await yieldNow();
    }
    for (const doc of delta) builder.add(doc);
    const segment = await builder.build(yieldNow);
    // swap in one synchronous step (the old host links stay valid: links are by id), then replay
    const replay = this.replay;
    this.replay = [];
    this.base = segment;
    this.basePos = new Positions(segment);
    this.delta.clear();
    this.rebuilt(segment);
    this.rebuilds++;
    this.replaying = true;
    try {
      for (const change of replay) this.apply(change.kind, change.ids, change.docs);
    } finally {
      this.replaying = false;
    }
  }
}

/** Slot marks of DocIds: never used, and freed by a delete (a probe goes on past it). */
const SLOT_EMPTY = -1;
const SLOT_FREED = -2;

/**
 * A segment's live documents of one kind, by id: an open-addressing table of document numbers, the ids
 * compared where the segment keeps them. A million ids cost one 8 MB array and about a tenth of a second,
 * where a Map of them took most of a second and a million entries for the collector to walk. The
 * table never grows: a segment gains no documents (new ones go to the delta), it only loses them.
 */
class DocIds {
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** live documents in the table. */
  count = 0;

  constructor(
    private readonly segment: Segment,
    kindCode: number,
  ) {
    const { kind, dead, size } = segment;
    let wanted = 0;
    for (let d = 0; d < size; d++) if (kind[d] === kindCode && !dead[d]) wanted++;
    let length = 16;
    while (length < wanted * 2) length *= 2;
    this.slots = new Int32Array(length).fill(SLOT_EMPTY);
    this.mask = length - 1;
    for (let d = 0; d < size; d++) {
      if (kind[d] !== kindCode || dead[d]) continue;
      let i = idHash(segment.idAt(d)) & this.mask;
      while ((this.slots[i] as number) !== SLOT_EMPTY) i = (i + 1) & this.mask;
      this.slots[i] = d;
      this.count++;
    }
  }

  get(id: string): number | undefined {
    const at = this.find(id);
    return at < 0 ? undefined : (this.slots[at] as number);
  }

  delete(id: string): boolean {
    const at = this.find(id);
    if (at < 0) return false;
    this.slots[at] = SLOT_FREED;
    this.count--;
    return true;
  }

  /** The slot holding this id's document, or -1. */
  private find(id: string): number {
    for (let i = idHash(id) & this.mask; ; i = (i + 1) & this.mask) {
      const d = this.slots[i] as number;
      if (d === SLOT_EMPTY) return -1;
      if (d >= 0 && this.segment.idAt(d) === id) return i;
    }
  }
}

/** FNV-1a over an id's UTF-16 units. */
function idHash(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Where each live document of a segment is, by kind and id. */
class Positions {
  readonly point: DocIds;
  readonly event: DocIds;
  readonly post: DocIds;

  constructor(segment: Segment) {
    this.point = new DocIds(segment, DOC_POINT);
    this.event = new DocIds(segment, DOC_EVENT);
    this.post = new DocIds(segment, DOC_POST);
  }

  /** live documents of the segment. */
  get live(): number {
    return this.point.count + this.event.count + this.post.count;
  }

  of(kind: ChangeKind): DocIds {
    return this[kind];
  }
}

function deltaKey(kind: ChangeKind, id: string): string {
  return `${kind}:${id}`;
}

function toDelta(doc: SearchDoc): DeltaDoc {
  const titleWords = tokenize(doc.title).slice(0, MAX_TITLE_WORDS);
  const otherWords = [
    ...new Set([
      ...apostropheWords(doc.title),
      ...typeWords(doc.supertype, doc.type, doc.subtype),
      ...addressWords(doc.address),
    ]),
  ].slice(0, MAX_OTHER_WORDS);
  return { doc, level: levelOf(doc.promo, doc.beamtype, doc.rating), titleWords, otherWords };
}

function deltaTier(title: string[], words: string[]): number {
  const m = words.length;
  if (m === 0 || title.length < m) return TIER_OTHER;
  for (let i = 0; i < m - 1; i++) if (title[i] !== words[i]) return TIER_OTHER;
  const last = title[m - 1] as string;
  const word = words[m - 1] as string;
  if (title.length === m && last === word) return TIER_EXACT_TITLE;
  return last.startsWith(word) ? TIER_TITLE_PREFIX : TIER_OTHER;
}

export type { Bounds, CompiledWord, DocKind };
