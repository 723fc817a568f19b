import { LEVELS } from './doc';
import { gridCell } from './grid';
import type { Segment } from './segment';

/**
 * A segment's lookup structures, built once its documents are numbered: the postings (term ->
 * documents) and first-title-word postings, the documents of each level and of each title initial's
 * level, the count grid, and the whole-title hashes.
 */

/**
 * Some documents (a level, or a title initial's level), ascending: as documents are numbered along the
 * Hilbert curve, the ones in an area are found by binary search for each run of the area's cover.
 */
export interface SpatialGroup {
  docs: Uint32Array;
}

/** Postings: a counting pass, then a fill pass in document order (so each list is ascending). */
export function buildPostings(segment: Segment): void {
  const { fwdStart, forward, titleCount, size: n } = segment;
  const t = segment.terms.length;
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
          segment.postings[fill[term] as number] = d;
          fill[term] = (fill[term] as number) + 1;
        }
      }
      if (titleEnd > from) {
        const term = forward[from] as number;
        if (pass === 0) firstOffsets[term + 1] = (firstOffsets[term + 1] as number) + 1;
        else {
          segment.firstPostings[firstFill[term] as number] = d;
          firstFill[term] = (firstFill[term] as number) + 1;
        }
      }
    }
    if (pass === 0) {
      for (let i = 0; i < t; i++) {
        offsets[i + 1] = (offsets[i + 1] as number) + (offsets[i] as number);
        firstOffsets[i + 1] = (firstOffsets[i + 1] as number) + (firstOffsets[i] as number);
      }
      segment.postings = new Uint32Array(offsets[t] as number);
      segment.firstPostings = new Uint32Array(firstOffsets[t] as number);
    }
  }
  segment.offsets = offsets;
  segment.firstOffsets = firstOffsets;
}

/** The documents of each level, and of each title initial's level, ascending; the count grid. */
export function buildSpatial(segment: Segment): void {
  const byLevel: number[][] = Array.from({ length: LEVELS }, () => []);
  const byInitial = new Map<string, number[][]>();
  for (let d = 0; d < segment.size; d++) {
    const cell = gridCell(segment.lat[d] as number, segment.lon[d] as number);
    segment.grid[cell] = (segment.grid[cell] as number) + 1;
    const level = segment.level[d] as number;
    (byLevel[level] as number[]).push(d);
    if ((segment.titleCount[d] as number) === 0) continue;
    const initial = (
      segment.terms[segment.forward[segment.fwdStart[d] as number] as number] as string
    )[0] as string;
    let lists = byInitial.get(initial);
    if (!lists) byInitial.set(initial, (lists = Array.from({ length: LEVELS }, () => [])));
    (lists[level] as number[]).push(d);
  }
  const group = (docs: number[]): SpatialGroup => ({ docs: Uint32Array.from(docs) });
  for (let level = 0; level < LEVELS; level++) {
    const docs = byLevel[level] as number[];
    if (docs.length > 0) segment.levels[level] = group(docs);
  }
  for (const [initial, lists] of byInitial)
    segment.initials.set(
      initial,
      lists.map((docs) => (docs.length > 0 ? group(docs) : undefined)),
    );
}

/** The whole-title hashes (exact-title lookups) and the documents per supertype. */
export function buildTitleIndex(segment: Segment): void {
  const n = segment.size;
  const hashes = new Uint32Array(n);
  const terms: number[] = [];
  let titled = 0;
  for (let d = 0; d < n; d++) {
    const code = segment.supertype[d] as number;
    segment.supertypeCounts[code] = (segment.supertypeCounts[code] as number) + 1;
    const count = segment.titleCount[d] as number;
    if (count === 0) continue;
    const from = segment.fwdStart[d] as number;
    terms.length = 0;
    for (let i = 0; i < count; i++) terms.push(segment.forward[from + i] as number);
    hashes[d] = titleHash(terms);
    titled++;
  }
  // a radix sort of the titled documents by hash: two passes of 16 bits
  let docs = new Uint32Array(titled);
  let keys = new Uint32Array(titled);
  for (let d = 0, i = 0; d < n; d++) {
    if ((segment.titleCount[d] as number) === 0) continue;
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
  segment.titleHashes = keys;
  segment.titleHashDocs = docs;
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
