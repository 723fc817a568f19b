import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_OTHER_WORDS, MAX_TITLE_WORDS, addressWords, apostropheWords, typeWords } from './doc';
import { tokenize } from './fold';
import { DocTerms, TypeTerms } from './terms';

/** The words of a document as the index took them before DocTerms: from the string functions alone. */
function reference(title: string, type: readonly string[], address: string | null) {
  const titleWords = tokenize(title).slice(0, MAX_TITLE_WORDS);
  const list = [...titleWords];
  let added = 0;
  for (const words of [apostropheWords(title), type, addressWords(address)]) {
    for (const word of words) {
      if (added >= MAX_OTHER_WORDS) break;
      if (list.includes(word)) continue;
      list.push(word);
      added++;
    }
  }
  return { words: list, titleCount: titleWords.length };
}

function collected(terms: DocTerms) {
  return {
    words: Array.from(terms.ids.subarray(0, terms.length), (id) => terms.table.terms[id] as string),
    titleCount: terms.titleCount,
  };
}

/** Characters that exercise every path: ASCII, separators fold() leaves alone, accents, marks, letters spelled out, case that depends on context. */
const CHARACTERS = [
  ...'abcxyzABCXYZ0189',
  ...' ,.-_/&#()!?:;@+',
  "'",
  '`',
  '\u2019',
  '\u2018',
  '\u2013',
  '\u2014',
  '\u00a0',
  '\u00b7',
  ...'éÉèçñÑåÅüÜāōĀ',
  '\u0301',
  '\u0308',
  ...'ßẞæÆœøØłŁđĐðþıİ',
  ...'ΣσςΑΒ',
  '\u212a', // Kelvin sign: lower-cases to ASCII k
  ...'日本中',
  '한',
  '\ud83c\udf55', // a pizza: a surrogate pair
  '\ud800', // a lone surrogate
  '²',
  '٣',
  'ﬁ',
  '\u037e', // Greek question mark: decomposes to ';'
];
const text = fc.oneof(
  fc.array(fc.constantFrom(...CHARACTERS), { maxLength: 60 }).map((chars) => chars.join('')),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  // many words: past MAX_TITLE_WORDS and MAX_OTHER_WORDS
  fc
    .array(fc.constantFrom('a', 'Bb', 'cc', "d'e", 'f\u2019g', 'Éh', 'i-j', '12', 'Σx'), {
      minLength: 20,
      maxLength: 90,
    })
    .map((words) => words.join(' ')),
);
const TYPES = [
  typeWords('business', 'cafe', null),
  typeWords('business', 'restaurant', 'italian'),
  typeWords('service', 'language_teacher', null),
  typeWords('poi', 'monument', null),
  ['s', 'joes', 'main'],
  [],
];

describe('DocTerms', () => {
  it('takes exactly the words tokenize() and doc.ts give, in their order', () => {
    const terms = new DocTerms();
    fc.assert(
      fc.property(
        text,
        fc.constantFrom(...TYPES),
        fc.oneof(text, fc.constant(null), fc.constant('40.7128, -74.0060')),
        (title, type, address) => {
          terms.collect(title, new TypeTerms(type), address);
          expect(collected(terms)).toEqual(reference(title, type, address));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('makes terms of the words it takes and of nothing else', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(text, fc.constantFrom(...TYPES), fc.option(text)), { maxLength: 30 }),
        (docs) => {
          const terms = new DocTerms();
          const expected = new Set<string>();
          for (const [title, type, address] of docs) {
            terms.collect(title, new TypeTerms(type), address);
            for (const word of reference(title, type, address).words) expected.add(word);
          }
          expect([...terms.table.terms].sort()).toEqual([...expected].sort());
          expect(new Set(terms.table.terms).size).toBe(terms.table.terms.length);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('handles the usual cases', () => {
    const terms = new DocTerms();
    const type = new TypeTerms(typeWords('business', 'cafe', null));
    const cases: [string, string | null][] = [
      ['', null],
      ["Joe's Café-Bar", '12 Main St, New York'],
      ['Lena\u2019s Massage \u2013 Spa', '789 Greenwich Blvd, Anqing'],
      ['ΟΔΟΣ Σ ΑΣ\u2019Α', 'Straße 5, Łódź'],
      ['New New York New', '40.7,-74.0'],
      ['x'.repeat(5000), 'y '.repeat(200)],
      [Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '), null],
    ];
    for (const [title, address] of cases) {
      terms.collect(title, type, address);
      expect(collected(terms)).toEqual(reference(title, type.words, address));
    }
  });
});
