import { describe, expect, it } from 'vitest';
import { checkOpeningHours } from './openingHours';
import {
  MIN_DATE_MS,
  dateProblem,
  distanceM,
  editDistance,
  foldPointName,
  isValidPhone,
  normaliseLink,
  parseDate,
  parseFlag,
  similarNames,
} from './points';

describe('parseFlag (social §5 boolean words)', () => {
  it.each([
    [true, true],
    ['1', true],
    ['true', true],
    ['ON', true],
    ['checked', true],
    [' yes ', true],
    [1, true],
    [false, false],
    ['0', false],
    ['false', false],
    ['off', false],
    ['No', false],
    [0, false],
  ])('%j is %j', (value, expected) => {
    expect(parseFlag(value)).toBe(expected);
  });
  it.each([['maybe'], [''], [2], [null], [undefined], [{}]])('%j is not a boolean', (value) => {
    expect(parseFlag(value)).toBeUndefined();
  });
});

describe('dates', () => {
  it('reads epoch milliseconds and ISO 8601', () => {
    expect(parseDate(1_700_000_000_000)).toBe(1_700_000_000_000);
    expect(parseDate('1700000000000')).toBe(1_700_000_000_000);
    expect(parseDate('2030-06-01')).toBe(Date.UTC(2030, 5, 1));
    expect(parseDate('2030-06-01T18:00:00Z')).toBe(Date.UTC(2030, 5, 1, 18));
    expect(parseDate('2030-06-01T18:00:00+02:00')).toBe(Date.UTC(2030, 5, 1, 16));
    expect(parseDate('2030-06-01T18:00:00.250Z')).toBe(Date.UTC(2030, 5, 1, 18, 0, 0, 250));
  });
  it.each([['next friday'], ['01/06/2030'], [''], [Number.NaN], [Infinity], [null], [true]])(
    'refuses %j',
    (value) => {
      expect(parseDate(value)).toBeUndefined();
    },
  );
  it('puts nothing before 1901 (social §5)', () => {
    expect(MIN_DATE_MS).toBe(Date.UTC(1901, 0, 1));
    expect(dateProblem(Date.UTC(1900, 11, 31, 23, 59, 59, 999))).toBe('before1901');
    expect(dateProblem(Date.UTC(1901, 0, 1))).toBeNull();
    expect(dateProblem(Date.UTC(10000, 0, 1))).toBe('tooLate');
  });
});

describe('checkOpeningHours', () => {
  it('accepts a clean value with no warnings', () => {
    expect(checkOpeningHours('Mo-Fr 08:00-18:00; Sa 10:00-14:00')).toEqual({
      ok: true,
      warnings: [],
      prettified: 'Mo-Fr 08:00-18:00; Sa 10:00-14:00',
    });
  });
  it('corrects wrong words with a warning each, placed in the value (spec §5)', () => {
    const check = checkOpeningHours('Monday-Friday 08:00-18:00');
    expect(check).toEqual({
      ok: true,
      prettified: 'Mo-Fr 08:00-18:00',
      warnings: [
        {
          type: 'word_error_correction',
          message: 'Please use the English abbreviation "Mo" for "monday".',
          position: 6,
        },
        {
          type: 'word_error_correction',
          message: 'Please use the English abbreviation "Fr" for "friday".',
          position: 13,
        },
      ],
    });
  });
  it.each([
    ['minutes past 59', 'Mo 08:00-18:60', /Minutes are greater than 59/],
    ['an hour past 24', 'Mo 25:00-26:00', /./],
    ['nothing meaningful', ';;', /./],
    ['week 54', 'week 54 Mo 08:00-12:00', /./],
  ])('refuses %s', (_name, value, message) => {
    const check = checkOpeningHours(value);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.error).toMatch(message);
  });
  it('warns, not fails, when public holidays are unknown for the place', () => {
    const germany = checkOpeningHours('Mo-Fr 08:00-18:00; PH off', {
      lat: 48.14,
      lon: 11.58,
      countryCode: 'DE',
      state: 'Bayern',
    });
    expect(germany).toMatchObject({ ok: true, warnings: [] });
    const unknown = checkOpeningHours('Mo-Fr 08:00-18:00; PH off', { lat: 0, lon: 0, countryCode: 'ZZ' });
    expect(unknown.ok).toBe(true);
    if (unknown.ok) {
      expect(unknown.warnings).toHaveLength(1);
      expect(unknown.warnings[0]?.type).toBe('evaluation');
      expect(unknown.warnings[0]?.message).toMatch(/no holidays \(PH\) defined for country zz/);
      expect(unknown.warnings[0]?.message).not.toMatch(/pull request/);
    }
  });
});

describe('similar names (the possible-duplicate check)', () => {
  it('folds case, accents and punctuation', () => {
    expect(foldPointName("  Café  de l'Opéra! ")).toBe('cafe de lopera');
    expect(foldPointName('Straße 1')).toBe('strasse 1');
  });
  it('measures edit distance, and stops past the bound', () => {
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
    expect(editDistance('kitten', 'sitting', 2)).toBe(3);
    expect(editDistance('same', 'same', 0)).toBe(0);
  });
  it.each([
    ["Joe's Pizza", 'Joes Pizza'],
    ['Café Central', 'cafe central'],
    ['Cafe Central', 'Café Centrale'],
    ['Blue Bottle Coffee', 'Blue Botle Coffee'],
    ['Central Café', 'Café Central Tour'],
    ['McDonalds', 'Mc Donalds'],
  ])('%j is like %j', (a, b) => {
    expect(similarNames(a, b)).toBe(true);
    expect(similarNames(b, a)).toBe(true);
  });
  it.each([
    ['Bare bike', 'Bare boat'],
    ['Pizza Hut', 'Burger King'],
    ['Bar', 'Car'],
    ['The Park', 'The Bank'],
    ['', ''],
    ['!!!', '???'],
  ])('%j is not like %j', (a, b) => {
    expect(similarNames(a, b)).toBe(false);
  });
  it('measures metres on the globe', () => {
    expect(Math.round(distanceM(48.2104, 16.3655, 48.21085, 16.3655))).toBe(50);
    expect(distanceM(0, 0, 0, 0)).toBe(0);
  });
});

describe('links', () => {
  it.each([
    ['https://example.com', 'https://example.com'],
    ['http://example.com/a?b=c', 'http://example.com/a?b=c'],
    ['example.com', 'https://example.com'],
    ['www.facebook.com/some.page', 'https://www.facebook.com/some.page'],
  ])('%j is the link %j', (value, expected) => {
    expect(normaliseLink(value)).toBe(expected);
  });
  it.each([
    ['javascript:alert(1)'],
    ['mailto:me@example.com'],
    ['not a link'],
    ['https://'],
    ['ftp://x.org'],
  ])('%j is no link', (value) => {
    expect(normaliseLink(value)).toBeNull();
  });
  it('checks phone numbers as people write them', () => {
    expect(isValidPhone('+44 20 7946 0958')).toBe(true);
    expect(isValidPhone('(555) 123-4567')).toBe(true);
    expect(isValidPhone('call me')).toBe(false);
    expect(isValidPhone('+-')).toBe(false);
  });
});
