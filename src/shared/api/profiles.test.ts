import { describe, expect, it } from 'vitest';
import { parsePagingValue, parseProfileQuery } from './profiles';

describe('profile paging (social §2: page 1 of 12 by default)', () => {
  it('defaults to page 1 of 12', () => {
    expect(parseProfileQuery({})).toEqual({ pagenumber: 1, pagesize: 12 });
  });

  it('keeps valid values and the supertype filter', () => {
    expect(parseProfileQuery({ pagenumber: '3', pagesize: '48', supertype: 'helprequest' })).toEqual({
      pagenumber: 3,
      pagesize: 48,
      supertype: 'helprequest',
    });
  });

  it.each([['0'], ['49'], ['-1'], ['1.5'], [''], ['12abc'], ['1e2'], [undefined], [['2', '3']]])(
    'falls back to the default for %j',
    (raw) => {
      expect(parsePagingValue(raw, 12, 48)).toBe(12);
    },
  );

  it('ignores a supertype that is not a point supertype', () => {
    expect(parseProfileQuery({ supertype: 'event' })).toEqual({ pagenumber: 1, pagesize: 12 });
  });
});
