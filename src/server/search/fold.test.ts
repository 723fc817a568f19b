import { describe, expect, it } from 'vitest';
import { fold, isCoordinateAddress, phrase, tokenize } from './fold';

describe('fold', () => {
  it('lower-cases and removes accents', () => {
    expect(fold('Crème Brûlée')).toBe('creme brulee');
    expect(fold('ÉCOLE Señor Ångström')).toBe('ecole senor angstrom');
  });

  it('spells out letters that do not decompose', () => {
    expect(fold('Straße')).toBe('strasse');
    expect(fold('Ørsted Łódź Æsir')).toBe('orsted lodz aesir');
  });

  it('leaves plain ASCII as it is, apart from case', () => {
    expect(fold('Main St, New York')).toBe('main st, new york');
  });
});

describe('tokenize', () => {
  it('splits on anything that is not a letter or a digit, and drops empty words', () => {
    expect(tokenize("  O'Brien's Café-Bar, 12th Ave.  ")).toEqual([
      'o',
      'brien',
      's',
      'cafe',
      'bar',
      '12th',
      'ave',
    ]);
  });

  it('keeps letters of any script', () => {
    expect(tokenize('Кафе «Пушкин» 東京')).toEqual(['кафе', 'пушкин', '東京']);
  });

  it('gives nothing for nothing', () => {
    expect(tokenize(null)).toEqual([]);
    expect(tokenize(' - ')).toEqual([]);
  });

  it('makes a phrase of the words, for exact and prefix title matches', () => {
    expect(phrase('The  Golden Fox!')).toBe('the golden fox');
  });
});

describe('isCoordinateAddress', () => {
  it('recognises "lat,lon" addresses', () => {
    expect(isCoordinateAddress('40.712800,-74.006000')).toBe(true);
    expect(isCoordinateAddress(' -33.8, 151.2 ')).toBe(true);
    expect(isCoordinateAddress('12 Main St, Springfield')).toBe(false);
    expect(isCoordinateAddress(null)).toBe(false);
  });
});
