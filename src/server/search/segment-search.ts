import { DOC_EVENT, DOC_POINT, LEVELS } from './doc';
import { titleHash, type SpatialGroup } from './postings';
import {
  MATCH_NONE,
  MATCH_TITLE,
  TIER_EXACT_TITLE,
  TIER_TITLE_PREFIX,
  distanceFrom,
  rankKey,
  type Centre,
} from './ranking';
import type { CompiledWord, Filter, SearchStats, Segment } from './segment';
import { coverKeys, lowerBound as lowerBoundIn } from './space';
import { inRanges } from './term-ranges';
import type { TopK } from './top-k';

/**
 * The planner's exchange rate: a candidate from postings costs about this fraction of one from space
 * (most postings candidates fail the bounds check on two columns; space's have their terms scanned).
 */
const TEXT_PER_SPACE = 2;
/** Postings lists this short are always read: cheaper than planning anything else. */
const TEXT_ALWAYS = 2_000;
/**
 * Counting: once the page is complete, the remaining matches are counted one by one when that visits
 * at most this many candidates (the rarest word's postings in the bounds; the bounds' documents when
 * browsing a supertype). Past it the count is an estimate (see estimateCount). A candidate visited
 * costs about 0.3-0.5 µs (its columns are scattered reads): at 20,000 a broad page took 10 ms at p99
 * at 1,000,000 points, at 2,000 it takes about what it took before counts were fixed (0.7 against 0.5 ms in process).
 */
export const COUNT_EXACT_LIMIT = 2_000;
/**
 * An estimate below this is not given: the matches are counted after all. Twice the result window
 * (10,000, shared/api/search.ts), so that every page a person can reach is full whatever the
 * estimate's error, and the last page the pager shows (the window's) cannot move. Counting after all
 * is bounded too: past COUNT_FALLBACK_FACTOR times the count limit of candidates the estimate is given
 * anyway (a common word over a country), as the price of the time budget.
 */
export const ESTIMATE_MIN = 20_000;
export const COUNT_FALLBACK_FACTOR = 2;
/** The page whose plan decides how a query is counted (PAGE_SIZE_FALLBACK, shared/api/search.ts). */
const COUNT_PLAN_PAGE = 24;
/** Candidates an estimate samples: spread evenly over all of them, the same ones for every page. */
const ESTIMATE_SAMPLE = 1_024;
/**
 * Browsing samples more: its candidates are every document of the bounds, of which the supertype may
 * be a small share (a rental in 25), and a sampled document costs a few column reads, no words.
 */
const BROWSE_SAMPLE = 8_192;

/**
 * Adds the matches of `words` that pass `filter` to `top` (keys from rankKey, order and item = the
 * document number), and counts them into `stats` (exactly, or estimated when a broad scan stopped
 * early). `skip` names documents already taken by an earlier pass. `countLimit` (default
 * COUNT_EXACT_LIMIT) is how many candidates counting one by one may visit before it estimates.
 *
 * The count never depends on the page asked for: counted one by one, it is every match; estimated,
 * it comes from the same sample for every page (and is never less than the matches already seen, so
 * never less than the pages shown hold). So the pager's last page holds still (issue 21 item 6: an
 * estimate that grew with the scan had "the" show 137 pages, then 168 on page 137).
 *
 * A small planner picks where candidates come from. Either the postings of the rarest word: every
 * match, whatever its rank, so the count is exact. Or space, in rank order, stopping once the page is
 * complete: the exact titles (one lookup in the title hashes), then the title-prefix matches (the
 * first-title-word postings when they are few, else the title initial's kd-trees, best level first),
 * then every level's kd-tree, best first. It reads postings when they cost less than the documents
 * space is expected to visit before the page is full.
 *
 * The planner and its walks stay in one function: they share the query's bounds, runs and counters
 * as locals, and each candidate costs one call of `visit` whichever walk found it.
 */
export function searchSegment(
  segment: Segment,
  words: CompiledWord[],
  filter: Filter,
  centre: Centre | null,
  top: TopK,
  stats: SearchStats,
  needCount: boolean,
  skip?: (d: number) => boolean,
  countLimit = COUNT_EXACT_LIMIT,
): void {
  // no words: browsing one supertype in the bounds (a search of nothing at all finds nothing)
  const browsing = words.length === 0;
  if (browsing && filter.supertype < 0) return;
  for (const w of words) if (w.ranges.length === 0) return;
  const gen = segment.nextGeneration();
  const seen = segment.seen;
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
  const { lat, lon, dead, supertype, kind, endDate, level, origin } = segment;

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
    // events that ended, and posts that expired (endDate NaN: never), are not found
    const k = kind[d];
    if (k !== DOC_POINT && ((k === DOC_EVENT && !events) || (endDate[d] as number) <= now)) return false;
    const match = segment.matchAll(d, words);
    if (match === MATCH_NONE) return false;
    if (skip !== undefined && skip(d)) return false;
    const key = rankKey(
      segment.tierOf(d, words),
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
  let runDocs = segment.size;
  if (!whole && b) {
    runDocs = 0;
    const keys = coverKeys(b);
    for (let i = 0; i < keys.length; i += 2) {
      const from = lowerBoundIn(segment.spaceKeys, keys[i] as number);
      const to = lowerBoundIn(segment.spaceKeys, keys[i + 1] as number, from);
      if (from < to) {
        runs.push(from, to);
        runDocs += to - from;
      }
    }
  }
  const share = runDocs / Math.max(1, segment.size);
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
  /** How many terms the rarest word's ranges hold. */
  const rarestTerms = () => {
    let n = 0;
    for (let i = 0; i < rarest.ranges.length; i += 2)
      n += (rarest.ranges[i + 1] as number) - (rarest.ranges[i] as number);
    return n;
  };
  /** Every match: the postings of the rarest word in the bounds (documents already visited are skipped). */
  const readRarest = () => {
    const r = rarest.ranges;
    for (let i = 0; i < r.length; i += 2)
      readTerms(segment.postings, segment.offsets, r[i] as number, r[i + 1] as number);
  };

  // The plan: the postings of the rarest word, or space? (Browsing has no postings: space.)
  const inBounds = whole ? segment.size : Math.min(runDocs, segment.inBoundsEstimate(b));
  let selectivity = 1;
  for (const w of words) selectivity *= Math.min(1, w.cost / Math.max(1, segment.size));
  if (wantSupertype >= 0)
    selectivity *= (segment.supertypeCounts[wantSupertype] as number) / Math.max(1, segment.size);
  /** Documents space visits before `capacity` results are found, if matches are spread evenly. */
  const spaceCost = (capacity: number) => Math.min(inBounds, capacity / Math.max(selectivity, 1e-12));
  const textCost = browsing ? Number.POSITIVE_INFINITY : readCost(rarestTerms(), rarest.cost);
  /** Whether reading the rarest word's postings is the cheaper plan for this many results. */
  const textPlan = (capacity: number) =>
    textCost <= TEXT_ALWAYS || textCost <= TEXT_PER_SPACE * spaceCost(capacity);

  let scanned = 0;
  /** The matches among the candidates of `estimateCount`: what `visit` accepts, without ranking it. */
  const matches = (d: number): boolean => {
    const y = lat[d] as number;
    if (y < south || y > north) return false;
    const x = lon[d] as number;
    if (wraps ? x < west && x > east : x < west || x > east) return false;
    if (dead[d] === 1) return false;
    if (wantSupertype >= 0 && supertype[d] !== wantSupertype) return false;
    const k = kind[d];
    if (k !== DOC_POINT && ((k === DOC_EVENT && !events) || (endDate[d] as number) <= now)) return false;
    if (segment.matchAll(d, words) === MATCH_NONE) return false;
    return skip === undefined || !skip(d);
  };
  /**
   * About how many documents match, from an even sample of all the candidates: the rarest word's
   * postings (a document with several of its terms weighs 1/terms, so it counts once), or when
   * browsing the documents of the bounds' runs. The sample depends on the query only, not on the page.
   */
  const estimateCount = (): number => {
    if (browsing) {
      const stride = Math.max(1, Math.floor(runDocs / BROWSE_SAMPLE));
      let sampled = 0;
      let found = 0;
      const each = (from: number, to: number, start: number) => {
        let i = from + start;
        for (; i < to; i += stride) {
          sampled++;
          if (matches(i)) found++;
        }
        return i - to;
      };
      let carry = 0;
      if (whole) each(0, segment.size, 0);
      else
        for (let r = 0; r < runs.length; r += 2)
          carry = each(runs[r] as number, runs[r + 1] as number, carry);
      return sampled === 0 ? 0 : Math.round((found / sampled) * runDocs);
    }
    const r = rarest.ranges;
    const { offsets, postings, forward, fwdStart } = segment;
    const total = rarest.cost;
    const stride = Math.max(1, Math.floor(total / ESTIMATE_SAMPLE));
    let sampled = 0;
    let found = 0;
    let carry = 0;
    for (let i = 0; i < r.length; i += 2) {
      const from = offsets[r[i] as number] as number;
      const to = offsets[r[i + 1] as number] as number;
      let p = from + carry;
      for (; p < to; p += stride) {
        sampled++;
        const d = postings[p] as number;
        if (!matches(d)) continue;
        let terms = 0;
        for (let j = fwdStart[d] as number; j < (fwdStart[d + 1] as number); j++)
          if (inRanges(r, forward[j] as number)) terms++;
        found += 1 / Math.max(1, terms);
      }
      carry = p - to;
    }
    return sampled === 0 ? 0 : Math.round((found / sampled) * total);
  };
  /**
   * How the matches are counted, decided from the query alone so that every page of it says the same
   * total: one by one when that visits at most `countLimit` candidates, when a first page would read
   * the rarest word's postings anyway, or when the estimate would be small (below ESTIMATE_MIN, unless
   * counting would visit more than COUNT_FALLBACK_FACTOR times the limit); else estimated. -1: counted.
   * (Deciding per page had a deep page read the postings and count 3,420 where page 1 estimated 3,430,
   * and the pager's end moved.)
   */
  let estimate = -1;
  if (needCount) {
    const rest = browsing ? runDocs : textCost;
    if (rest > countLimit && !(!browsing && textPlan(COUNT_PLAN_PAGE))) {
      const e = estimateCount();
      if (e >= ESTIMATE_MIN || rest > countLimit * COUNT_FALLBACK_FACTOR) estimate = e;
    }
  }
  /** Says the estimate, unless the walk ran out of matches before the page filled: then it visited
   * every candidate, and its count is exact (the page is past the end an estimate above the truth
   * promised, or the last one). */
  const counted = () => {
    if (estimate < 0 || !top.full) return;
    stats.count = estimate;
    stats.estimated = true;
  };

  /**
   * Once the results are complete: the rest of the matches are counted one by one, unless the count
   * is estimated. False when the scan must go on (browsing counts by scanning every document of the
   * bounds).
   */
  let countingAll = false;
  const complete = () => {
    if (countingAll || !top.full) return false;
    if (!needCount || estimate >= 0) return true;
    if (browsing) {
      // on through every level: each visit counts
      countingAll = true;
      return false;
    }
    readRarest();
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

  let spaceBudget = Number.POSITIVE_INFINITY;
  if (!browsing) {
    if (textPlan(top.capacity)) {
      readRarest();
      return counted();
    }
    // The space cost assumes matches spread evenly over the levels; when they gather in the lower
    // ones (help requests have no rating), space would visit far more. Past this many documents from
    // space, the postings are cheaper after all, and the search switches to them.
    spaceBudget = textCost / TEXT_PER_SPACE;
  }
  walk();
  counted();

  /** The walk through space, best first, until the results are complete (and counted). */
  function walk(): void {
    // 1. exact titles, which outrank everything: one lookup of the query's whole title
    let exactAll = !browsing;
    for (const w of words) if (w.exact < 0) exactAll = false;
    if (exactAll) {
      const hash = titleHash(words.map((w) => w.exact));
      const list = segment.titleHashDocs;
      for (let p = lowerBoundIn(segment.titleHashes, hash); p < list.length; p++) {
        if (segment.titleHashes[p] !== hash) break;
        const d = list[p] as number;
        if (segment.tierOf(d, words) === TIER_EXACT_TITLE && visit(d)) stats.count++;
      }
    }

    // 2. titles that start with the query: their first word is the query's first word (or, for a
    // one-word query, starts with it), so they are one slice of the first-title-word postings
    const first = words[0];
    const m = words.length;
    const firstLo = first === undefined ? -1 : m === 1 ? first.prefixLo : first.exact;
    const firstHi = first === undefined ? -1 : m === 1 ? first.prefixHi : first.exact + 1;
    if (first !== undefined && firstLo >= 0 && firstLo < firstHi) {
      const sliceCost = readCost(
        firstHi - firstLo,
        (segment.firstOffsets[firstHi] as number) - (segment.firstOffsets[firstLo] as number),
      );
      const groups = segment.initials.get(first.word[0] as string);
      const prefixOnly = (d: number) => segment.tierOf(d, words) === TIER_TITLE_PREFIX;
      // The initial's kd-trees, best level first, stop once the page is full: about k documents divided
      // by the share of the initial's documents that start with the query, at most all in the bounds.
      // The slice cannot stop early, and every match in it is ranked.
      let initialDocs = 0;
      if (groups) for (const group of groups) if (group) initialDocs += group.docs.length;
      const slice = (segment.firstOffsets[firstHi] as number) - (segment.firstOffsets[firstLo] as number);
      const initialCost = Math.min(
        (inBounds * initialDocs) / Math.max(1, segment.size),
        (top.capacity * initialDocs) / Math.max(1, slice),
      );
      if (!groups || sliceCost <= TEXT_ALWAYS || sliceCost <= TEXT_PER_SPACE * initialCost) {
        readTerms(segment.firstPostings, segment.firstOffsets, firstLo, firstHi, prefixOnly);
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
      const group = segment.levels[lv];
      if (!group) continue;
      if (complete()) return;
      if (scan(group)) return readRarest();
    }
  }
}
