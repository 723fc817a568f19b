/**
 * Term number ranges of a segment's sorted dictionary: the ranges of the strings one edit from a query
 * word (the typo lookup), and the sets of [lo, hi) ranges a compiled word matches with.
 */

/**
 * Adds to `out` the non-empty prefix ranges of the strings one edit from `word`: a letter left out,
 * two neighbours swapped, a letter replaced or one added before position i (letters of TYPO_ALPHABET).
 * Every such string starts with word[0..i), so the search for each stays within the terms sharing that
 * prefix, and a replaced or added letter is tried only where some term has it at position i.
 */
export function typoRanges(terms: readonly string[], word: string, out: [number, number][]): void {
  const n = word.length;
  const add = (variant: string, lo: number, hi: number) => {
    const from = termLowerBound(terms, variant, lo, hi);
    const to = termLowerBound(terms, `${variant}\uffff`, from, hi);
    if (from < to) out.push([from, to]);
  };
  // [lo, hi): the terms that start with word[0..i)
  let lo = 0;
  let hi = terms.length;
  for (let i = 0; i < n && lo < hi; i++) {
    const head = word.slice(0, i);
    add(head + word.slice(i + 1), lo, hi);
    if (i + 1 < n && word[i] !== word[i + 1])
      add(head + (word[i + 1] as string) + (word[i] as string) + word.slice(i + 2), lo, hi);
    // each letter some term has at position i: its block of terms, then the replacement and the insertion
    let at = lo;
    while (at < hi) {
      const code = charAt(terms[at] as string, i);
      const end = charBlockEnd(terms, at, hi, i, code);
      if (code >= 0 && TYPO_ALPHABET.includes(String.fromCharCode(code))) {
        const letter = String.fromCharCode(code);
        if (letter !== word[i]) add(head + letter + word.slice(i + 1), at, end);
        add(head + letter + word.slice(i), at, end);
      }
      at = end;
    }
    const next = word.charCodeAt(i);
    const from = charBlockStart(terms, lo, hi, i, next);
    hi = charBlockEnd(terms, from, hi, i, next);
    lo = from;
  }
}

/** The first term in [lo, hi) that is >= word. */
export function termLowerBound(terms: readonly string[], word: string, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((terms[mid] as string) < word) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Within terms [lo, hi) that share their first i characters: the first whose character i is >= code. */
function charBlockStart(terms: readonly string[], lo: number, hi: number, i: number, code: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (charAt(terms[mid] as string, i) < code) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Within terms [lo, hi) that share their first i characters: the first whose character i is > code. */
function charBlockEnd(terms: readonly string[], lo: number, hi: number, i: number, code: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (charAt(terms[mid] as string, i) <= code) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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
