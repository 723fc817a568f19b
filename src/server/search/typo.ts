/**
 * One typo, as people make them: a letter left out, one too many, a wrong letter, or two neighbours
 * swapped (Damerau-Levenshtein distance 1). Only words of TYPO_MIN_LENGTH letters or more get this
 * tolerance: in shorter words one edit turns almost any word into another ('cafe' -> 'care').
 */
export const TYPO_MIN_LENGTH = 5;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Every string one edit away from `word` (deletions, transpositions, substitutions, insertions), not
 * `word` itself, without duplicates. Bounded: at most 2·36·(n+1) + 2n strings for a word of n letters.
 * The definition of one typo: the index (Segment.compileWord) finds the prefix ranges of exactly these
 * strings in its dictionary without making them all, and its tests hold it to this list.
 */
export function typoNeighbourhood(word: string): string[] {
  const out = new Set<string>();
  const n = word.length;
  for (let i = 0; i < n; i++) out.add(word.slice(0, i) + word.slice(i + 1));
  for (let i = 0; i + 1 < n; i++) {
    if (word[i] === word[i + 1]) continue;
    out.add(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
  }
  for (let i = 0; i < n; i++) {
    for (const letter of ALPHABET) {
      if (letter !== word[i]) out.add(word.slice(0, i) + letter + word.slice(i + 1));
    }
  }
  // an insertion at the end is already covered by the prefix match of the word itself
  for (let i = 0; i < n; i++) {
    for (const letter of ALPHABET) out.add(word.slice(0, i) + letter + word.slice(i));
  }
  out.delete(word);
  return [...out];
}

/** True when `a` and `b` are at most one edit apart (Damerau-Levenshtein, adjacent swaps count as one). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // substitution
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // swap
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/**
 * True when some prefix of `term` is at most one edit from `word`: the typo-tolerant version of
 * `term.startsWith(word)`, used where no dictionary is at hand (documents written since the last build).
 */
export function prefixWithinOneEdit(word: string, term: string): boolean {
  if (term.startsWith(word)) return true;
  for (let length = word.length - 1; length <= word.length + 1; length++) {
    if (length < 1 || length > term.length) continue;
    if (withinOneEdit(word, term.slice(0, length))) return true;
  }
  return false;
}
