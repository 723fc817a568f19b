import { describe, expect, it } from 'vitest';
import { EMPTY_DOC, type SearchDoc } from './doc';
import { MemorySearchIndex, type SearchRequest } from './index';
import { ESTIMATE_MIN } from './segment-search';

/**
 * Counts that hold still (issue 21 item 6): the total of a query does not depend on the page asked
 * for, an estimate is said as one and only where counting would be slow, and it is never less than
 * the pages already shown hold.
 */

const NOW = Date.UTC(2026, 5, 1, 12);

const request = (text: string, more: Partial<SearchRequest> = {}): SearchRequest => ({
  text,
  bounds: null,
  supertype: null,
  includeEvents: false,
  offset: 0,
  limit: 12,
  needCount: true,
  now: NOW,
  ...more,
});

/** Documents spread over the world, deterministic: `title(i)` names document i. */
function docs(n: number, title: (i: number) => string, more: (i: number) => Partial<SearchDoc> = () => ({})) {
  return Array.from({ length: n }, (_, i) => ({
    ...EMPTY_DOC,
    id: `d${i}`,
    type: 'shop',
    title: title(i),
    lat: ((i * 7919) % 15_000) / 100 - 70,
    lon: ((i * 104_729) % 35_000) / 100 - 175,
    rating: (i * 31) % 101,
    ...more(i),
  }));
}

const build = (list: SearchDoc[]) => MemorySearchIndex.build((add) => list.forEach(add));

describe('search counts', () => {
  it('counts every match when the page fills from titles that start with the word', async () => {
    // 30 titles start with "street" and fill the page; 2,500 more have it later in the title. The scan
    // stopped once the page was full and answered 30, "estimated" (the bug: "street" reported 23
    // world-wide while New York alone has 202).
    const index = await build(
      docs(60_000, (i) =>
        i % 2000 === 0 ? `Street Food ${i}` : i % 24 === 1 ? `Main Street Deli ${i}` : `Harbour Stall ${i}`,
      ),
    );
    const expected = 30 + 2500;
    const answer = index.search(request('street'));
    expect(answer.docs).toHaveLength(12);
    expect(answer).toMatchObject({ total: expected, estimated: false });
    // the same count on a deep page
    expect(index.search(request('street', { offset: 2496, limit: 12 }))).toMatchObject({
      total: expected,
      estimated: false,
    });
  });

  it('gives the same estimate on every page of a very broad query, close to the truth', async () => {
    // "the" in 30,000 of 60,000 titles; counting past 1,000 candidates estimates
    const n = 60_000;
    const index = await build(docs(n, (i) => (i % 2 === 0 ? `The Corner ${i}` : `Harbour Stall ${i}`)));
    const estimates = new Set<number>();
    for (const offset of [0, 12, 600, 4_800]) {
      const answer = index.search(request('the', { offset, countLimit: 1_000 }));
      expect(answer.estimated).toBe(true);
      expect(answer.docs).toHaveLength(12);
      // never less than what the pages up to this one hold
      expect(answer.total).toBeGreaterThanOrEqual(offset + answer.docs.length);
      estimates.add(answer.total);
    }
    expect(estimates.size).toBe(1);
    const [estimate] = [...estimates] as [number];
    expect(Math.abs(estimate - n / 2) / (n / 2)).toBeLessThan(0.05);
    // at the end of the result window the planner reads every posting anyway, and still says the
    // estimate of page 1: how a query is counted does not depend on the page
    const deep = index.search(request('the', { offset: 9_984, countLimit: 1_000 }));
    expect(deep.docs).toHaveLength(12);
    expect(deep).toMatchObject({ total: estimate, estimated: true });
  });

  it('counts one by one rather than give an estimate small enough for its error to move the last page', async () => {
    // 6,000 matches: below ESTIMATE_MIN, so counted exactly even past the count limit
    const index = await build(docs(60_000, (i) => (i % 10 === 0 ? `The Corner ${i}` : `Harbour Stall ${i}`)));
    expect(6_000).toBeLessThan(ESTIMATE_MIN);
    for (const offset of [0, 5_988]) {
      const answer = index.search(request('the', { offset, countLimit: 3_000 }));
      expect(answer).toMatchObject({ total: 6_000, estimated: false });
      expect(answer.docs).toHaveLength(12);
    }
    // counting after all is bounded (COUNT_FALLBACK_FACTOR times the limit): past it, the estimate,
    // said as one and never below what the pages hold
    const bounded = index.search(request('the', { countLimit: 100 }));
    expect(bounded.estimated).toBe(true);
    expect(bounded.total).toBeGreaterThanOrEqual(12);
    expect(Math.abs(bounded.total - 6_000) / 6_000).toBeLessThan(0.05);
    // a deep page reads the postings (the cheaper plan for 5,000 results) and could count them all,
    // but says page 1's estimate: the pager's end holds still (it had moved from 343 to 342 pages)
    for (const offset of [600, 4_980]) {
      const deep = index.search(request('the', { offset, countLimit: 100 }));
      expect(deep.docs).toHaveLength(12);
      expect(deep).toMatchObject({ total: bounded.total, estimated: true });
    }
    // an address past the estimated end still finds what is there, and counts it
    const past = index.search(request('the', { offset: 5_994, limit: 12, countLimit: 100 }));
    expect(past.total).toBeGreaterThanOrEqual(5_994 + past.docs.length);
    // a page past every match visited them all: its count is exact, whatever the estimate said
    expect(index.search(request('the', { offset: 6_000, countLimit: 100 }))).toMatchObject({
      docs: [],
      total: 6_000,
      estimated: false,
    });
  });

  it('counts a browsed supertype exactly within the limit, and past it estimates it steadily', async () => {
    const index = await build(
      docs(
        60_000,
        (i) => `Place ${i}`,
        (i) => ({ supertype: i % 2 === 0 ? 'rental' : 'business' }),
      ),
    );
    const exact = index.search(request('', { supertype: 'rental', countLimit: 100_000 }));
    expect(exact).toMatchObject({ total: 30_000, estimated: false });
    const first = index.search(request('', { supertype: 'rental', countLimit: 1_000 }));
    const deep = index.search(request('', { supertype: 'rental', countLimit: 1_000, offset: 9_000 }));
    expect(first.estimated).toBe(true);
    expect(deep.total).toBe(first.total);
    expect(Math.abs(first.total - 30_000) / 30_000).toBeLessThan(0.08);
  });
});
