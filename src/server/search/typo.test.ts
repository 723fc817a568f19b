import { describe, expect, it } from 'vitest';
import { prefixWithinOneEdit, typoNeighbourhood, withinOneEdit } from './typo';

describe('typoNeighbourhood', () => {
  const around = typoNeighbourhood('bakry');

  it('holds every kind of single edit', () => {
    expect(around).toContain('bakery'); // a letter left out
    expect(around).toContain('baky'); // one too many
    expect(around).toContain('bakri'); // a wrong letter
    expect(around).toContain('abkry'); // neighbours swapped
  });

  it('never holds the word itself, nor anything two edits away', () => {
    expect(around).not.toContain('bakry');
    expect(around).not.toContain('bakeries');
    expect(around).not.toContain('barky'.split('').reverse().join(''));
    expect(new Set(around).size).toBe(around.length);
  });

  it('is bounded by the length of the word', () => {
    const n = 'restaurant'.length;
    expect(typoNeighbourhood('restaurant').length).toBeLessThanOrEqual(2 * 36 * (n + 1) + 2 * n);
  });
});

describe('withinOneEdit', () => {
  it.each([
    ['bakery', 'bakery', true],
    ['bakery', 'bakry', true],
    ['bakry', 'bakery', true],
    ['bakery', 'bakary', true],
    ['bakery', 'abkery', true],
    ['bakery', 'bkaery', true],
    ['bakery', 'brkary', false],
    ['bakery', 'bak', false],
    ['pizza', 'pizzas', true],
  ])('%s ~ %s: %s', (a, b, expected) => {
    expect(withinOneEdit(a, b)).toBe(expected);
  });
});

describe('prefixWithinOneEdit', () => {
  it('accepts a word that is one edit from a prefix of the term', () => {
    expect(prefixWithinOneEdit('resturan', 'restaurant')).toBe(true);
    expect(prefixWithinOneEdit('restaurnt', 'restaurant')).toBe(true);
    expect(prefixWithinOneEdit('rest', 'restaurant')).toBe(true);
    expect(prefixWithinOneEdit('rastuarnt', 'restaurant')).toBe(false);
  });
});
