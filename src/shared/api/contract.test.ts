import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../errors';
import {
  bodyContract,
  catalogueParser,
  contractError,
  domainIssue,
  formBoolean,
  formNumber,
  formText,
  parseContract,
  withFieldErrors,
} from './contract';
import { pagedSearchRequestSchema, suggestionRequestSchema } from './search';

function bodyOf(schema: z.ZodType, input: unknown) {
  try {
    parseContract(schema, input);
  } catch (error) {
    if (error instanceof AppError) return error.toBody();
    throw error;
  }
  throw new Error('expected the contract to refuse the input');
}

describe('contractError: one translation from a zod issue to the catalogue', () => {
  const contract = withFieldErrors(
    z
      .object({ q: z.string().min(1, 'type at least 1 character.'), size: z.number().int() })
      .superRefine((value, ctx) => {
        if (value.q === 'past') ctx.addIssue(domainIssue('dateBefore1901', {}, ['when']));
      }),
    { q: 'searchQueryInvalid' },
  );

  it('answers a field the contract maps with its own entry, the issue message as reason', () => {
    expect(bodyOf(contract, { q: '', size: 1 })).toEqual({
      errorcode: 5001,
      error: 'q: type at least 1 character.',
      field: 'q',
    });
  });

  it('answers other fields with invalidField and the path as field', () => {
    expect(bodyOf(contract, { q: 'x', size: 1.5 })).toMatchObject({ errorcode: 1003, field: 'size' });
  });

  it('answers a domain issue with the entry it names, filling in the field from its path', () => {
    expect(bodyOf(contract, { q: 'past', size: 1 })).toEqual({
      errorcode: 7011,
      error: 'when: dates before 1901 are invalid.',
      field: 'when',
    });
  });

  it('says the body must be an object when it is not one', () => {
    expect(bodyOf(contract, 'text')).toEqual({ errorcode: 1003, error: 'body: must be a JSON object.' });
  });

  it('uses the fallback entry of a contract for fields it does not list', () => {
    const withFallback = withFieldErrors(z.object({ flag: z.boolean() }), {}, 'searchFieldInvalid');
    const error = contractError(withFallback, withFallback.safeParse({ flag: 'x' }).error as z.ZodError);
    expect(error.code).toBe(5007);
  });
});

describe('catalogueParser and bodyContract', () => {
  it("answers a parser's own catalogue error as it is, values and all", () => {
    const glyphs = z.object({ range: z.string() }).transform(
      catalogueParser(({ range }) => {
        if (!/^\d+-\d+\.pbf$/.test(range)) throw new AppError('badGlyphRequest', { reason: 'not a range' });
        return range;
      }),
    );
    expect(bodyOf(glyphs, { range: 'x' })).toEqual({
      errorcode: 3006,
      error: 'Bad glyph request: not a range',
    });
    expect(parseContract(glyphs, { range: '0-255.pbf' })).toBe('0-255.pbf');
  });

  it('reads an absent body as an empty one, so the missing field is named', () => {
    const login = bodyContract(z.object({ login: z.string({ error: 'is required.' }) }));
    expect(bodyOf(login, undefined)).toEqual({
      errorcode: 1003,
      error: 'login: is required.',
      field: 'login',
    });
  });
});

describe('lenient form values', () => {
  it('reads numbers, booleans and repeated fields from text', () => {
    expect(formNumber('12')).toBe(12);
    expect(formNumber(['3'])).toBe(3);
    expect(formNumber('')).toBeUndefined();
    expect(formNumber('abc')).toBe('abc');
    expect(formBoolean('on')).toBe(true);
    expect(formBoolean('No')).toBe(false);
    expect(formBoolean('maybe')).toBe('maybe');
    expect(formText(['golden'])).toBe('golden');
    expect(formText(7)).toBe('7');
  });
});

describe('search contracts', () => {
  it('read a form post: nested corners, a "lat,lon" corner, numbers and booleans as text', () => {
    expect(
      suggestionRequestSchema.parse({
        q: '  golden ',
        maxresults: '3',
        includeevents: '1',
        'southwest[lat]': '40',
        'southwest[lon]': '-74',
        northeast: '41,-73',
      }),
    ).toEqual({
      q: 'golden',
      maxresults: 3,
      includeevents: true,
      bounds: { southwest: { lat: 40, lon: -74 }, northeast: { lat: 41, lon: -73 } },
    });
  });

  it('fill in defaults', () => {
    expect(suggestionRequestSchema.parse({ q: 'x' })).toEqual({
      q: 'x',
      maxresults: 10,
      includeevents: false,
      bounds: null,
    });
    expect(pagedSearchRequestSchema.parse({ keywords: 'service=plumber', pageSize: 7 })).toEqual({
      keywords: 'plumber',
      supertype: 'service',
      bounds: null,
      near: null,
      pageNumber: 1,
      pageSize: 24,
    });
  });

  it.each([
    [{ q: 'x', southwest: '1,2,3', northeast: '1,2' }, 'southwest: must be {lat, lon} or "lat,lon".'],
    [{ q: 'x', southwest: { lat: 'a', lon: 1 }, northeast: '1,2' }, 'southwest: lat must be a number.'],
    [{ q: 'x', southwest: { lat: 1 }, northeast: '1,2' }, 'southwest: needs both lat and lon.'],
    [{ q: ['a', 'b'] }, 'q: must be text.'],
  ])('refuse %j with the old message', (input, error) => {
    expect(bodyOf(suggestionRequestSchema, input).error).toBe(error);
  });
});
