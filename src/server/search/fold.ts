/**
 * Text folding and tokenising shared by the index and the queries, so that both sides agree on what a
 * word is: lower case, accents removed ('Crème Brûlée' -> 'creme brulee'), letters that do not
 * decompose spelled out ('Straße' -> 'strasse', 'Ørsted' -> 'orsted'), and words split on anything
 * that is not a letter or a digit ('Café-Bar' -> 'cafe', 'bar'; "O'Brien's" -> 'o', 'brien', 's').
 */

/** Letters that NFD does not split into a base letter and a mark. */
const SPELLED: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
};
const SPELLED_PATTERN = /[ßæœøłđðþıħ]/g;
const MARKS = /\p{M}+/gu;
/** Nothing outside 7-bit ASCII. */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}
const NON_WORD_ASCII = /[^a-z0-9]+/;
const NON_WORD = /[^\p{L}\p{N}]+/u;

/** Lower case without accents; keeps everything else (spaces, punctuation) as it is. */
export function fold(text: string): string {
  const lower = text.toLowerCase();
  // most names and addresses are plain ASCII: skip the (slow) Unicode normalisation for them
  if (isAscii(lower)) return lower;
  return lower
    .normalize('NFD')
    .replace(MARKS, '')
    .replace(SPELLED_PATTERN, (letter) => SPELLED[letter] ?? letter)
    .normalize('NFC');
}

/** The folded words of a text, in order, repeats kept; empty words dropped. */
export function tokenize(text: string | null | undefined): string[] {
  if (!text) return [];
  const folded = fold(text);
  const words = folded.split(isAscii(folded) ? NON_WORD_ASCII : NON_WORD);
  const out: string[] = [];
  for (const word of words) if (word.length > 0) out.push(word);
  return out;
}

/** The title as one folded phrase of its words ('The Golden  Fox!' -> 'the golden fox'), for exact and prefix title matches. */
export function phrase(text: string | null | undefined): string {
  return tokenize(text).join(' ');
}

/** 'lat,lon' addresses (spec §3: full_address may be coordinates): not words anyone types. */
const COORDINATES = /^\s*-?\d+(\.\d+)?\s*,\s*-?\d+(\.\d+)?\s*$/;
export function isCoordinateAddress(address: string | null | undefined): boolean {
  return !!address && COORDINATES.test(address);
}
