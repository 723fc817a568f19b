import { describe, expect, it } from 'vitest';
import {
  resultCountText,
  paginationItems,
  readResultMode,
  resultModeCookie,
  searchData,
  searchQueryOf,
  updateOnMoveDefault,
} from './searchView';
import { resultType } from './resultType';

describe('paginationItems (§9)', () => {
  it('shows every page below 8', () => {
    expect(paginationItems(1, 0)).toEqual([]);
    expect(paginationItems(1, 1)).toEqual([1]);
    expect(paginationItems(3, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('shows a window with the first and last pages from 8 on', () => {
    expect(paginationItems(1, 8)).toEqual([1, 2, 3, 'gap', 8]);
    expect(paginationItems(5, 20)).toEqual([1, 'gap', 3, 4, 5, 6, 7, 'gap', 20]);
    expect(paginationItems(20, 20)).toEqual([1, 'gap', 18, 19, 20]);
    expect(paginationItems(4, 8)).toEqual([1, 2, 3, 4, 5, 6, 'gap', 8]);
  });

  it('clamps a page out of range', () => {
    expect(paginationItems(99, 10)).toEqual([1, 'gap', 8, 9, 10]);
  });
});

describe('the result mode cookie', () => {
  it('is tile by default and reads list', () => {
    expect(readResultMode('')).toBe('tile');
    expect(readResultMode('a=1; search.resultmode=list')).toBe('list');
    expect(readResultMode('search.resultmode=grid')).toBe('tile');
    expect(resultModeCookie('list')).toMatch(/^search\.resultmode=list; Path=\//);
  });
});

describe('update on move', () => {
  it('is off below 640 px', () => {
    expect(updateOnMoveDefault(375)).toBe(false);
    expect(updateOnMoveDefault(639)).toBe(false);
    expect(updateOnMoveDefault(640)).toBe(true);
  });
});

describe('search addresses', () => {
  it('reads the prefix before the data supertype and fills defaults', () => {
    expect(searchQueryOf('bakery', 'business', { search: { supertype: 'service' } })).toEqual({
      keywords: 'bakery',
      supertype: 'business',
      pageNumber: 1,
      pageSize: 12,
    });
    expect(
      searchQueryOf('', undefined, {
        search: { keywords: 'cafe', supertype: 'all', paging: { pageNumber: 3 } },
      }),
    ).toMatchObject({
      keywords: 'cafe',
      supertype: null,
      pageNumber: 3,
    });
  });

  it('leaves defaults out of the data segment', () => {
    const southwest = { lat: 1, lon: 2 };
    const northeast = { lat: 3, lon: 4 };
    expect(
      searchData({ keywords: 'x', supertype: null, pageNumber: 1, pageSize: 12, southwest, northeast }),
    ).toEqual({
      search: { southwest, northeast },
    });
    expect(searchData({ keywords: 'x', supertype: 'rental', pageNumber: 2, pageSize: 48 })).toEqual({
      search: { supertype: 'rental', paging: { pageNumber: 2, pageSize: 48 } },
    });
  });
});

describe('resultType', () => {
  it("names a result's type as people say it, else its supertype", () => {
    expect(resultType({ class: 'business', subclass: 'cafe' })).toBe('Cafe');
    expect(resultType({ class: 'business', subclass: 'pharmacy' })).toBe('Pharmacy');
    expect(resultType({ class: 'business', subclass: 'home_brewing_shop' })).toBe('home brewing shop');
    expect(resultType({ class: 'help_request', subclass: '' })).toBe('help request');
  });
});

describe('the result count', () => {
  it('says an exact count as it is, and an estimate as one, rounded to two figures', () => {
    expect(resultCountText(1)).toBe('1 place');
    expect(resultCountText(214, true)).toBe('214 places');
    expect(resultCountText(2_049, true)).toBe('2,049 places');
    expect(resultCountText(20_493, false)).toBe('about 20,000 places');
    expect(resultCountText(148_760, false)).toBe('about 150,000 places');
  });
});
