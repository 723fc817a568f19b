import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../support/app';
import { TEST_DIALECTS } from '../support/store';

/**
 * Real-user timings (issue 23): POST /v1/webonly/vitals counts a page view's Core Web Vitals per
 * screen, GET sums them. Over HTTP on a real store, both engines.
 */
describe.each(TEST_DIALECTS)('real-user timings (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp({ dialect });
  });
  afterAll(() => t?.close());

  let address = 0;
  /** Each report from its own address, as page views of many visitors are, unless `from` is given. */
  const report = (payload: unknown, from = `198.51.100.${(address += 1)}`) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/webonly/vitals',
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      // sendBeacon's Blob type; no cookie, no anti-forgery token
      headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    });
  const summary = async (query = '') => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/webonly/vitals${query}` });
    expect(res.statusCode).toBe(200);
    return res.json<{
      days: number;
      since: string;
      screens: {
        screen: string;
        metrics: {
          name: string;
          count: number;
          p50: number;
          p75: number;
          p95: number;
          good: number;
          poor: number;
        }[];
      }[];
    }>();
  };
  const rowCount = async () =>
    Number(
      (
        await t.store.db
          .selectFrom('web_vitals')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('given no page view yet, when the sums are read, then there are no screens', async () => {
    const body = await summary();
    expect(body.days).toBe(28);
    expect(body.screens).toEqual([]);
  });

  it('given 100 page views of full-screen pages, when the sums are read, then p75 and the shares are those of the values sent', async () => {
    // LCP 1..100 × 40 ms: p50 2,000, p75 3,000, p95 3,800; 62 good (≤ 2,500), 38 needing improvement
    for (let view = 1; view <= 100; view += 1) {
      const res = await report({
        page: `/f/point${view}`,
        metrics: [
          { name: 'LCP', value: view * 40 },
          { name: 'CLS', value: view <= 90 ? 0 : 0.3 },
        ],
      });
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ screen: 'fullscreen', recorded: 2 });
    }
    const fullscreen = (await summary()).screens.find((entry) => entry.screen === 'fullscreen');
    const lcp = fullscreen?.metrics.find((metric) => metric.name === 'LCP');
    expect(lcp?.count).toBe(100);
    expect(Math.abs((lcp?.p50 ?? 0) - 2000) / 2000).toBeLessThan(0.05);
    expect(Math.abs((lcp?.p75 ?? 0) - 3000) / 3000).toBeLessThan(0.05);
    expect(Math.abs((lcp?.p95 ?? 0) - 3800) / 3800).toBeLessThan(0.05);
    expect(lcp?.good).toBe(0.62);
    expect(lcp?.poor).toBe(0);
    const cls = fullscreen?.metrics.find((metric) => metric.name === 'CLS');
    expect(cls).toMatchObject({ count: 100, p50: 0, p75: 0, good: 0.9, poor: 0.1 });
    // nothing of the paths was kept: only the screen
    const stored = await t.store.db.selectFrom('web_vitals').select('screen').distinct().execute();
    expect(stored.map((row) => row.screen)).toEqual(['fullscreen']);
  });

  it('given views of two screens, when the sums are read, then the screen with more views comes first', async () => {
    for (let view = 0; view < 3; view += 1)
      expect((await report({ page: '/maps', metrics: [{ name: 'TTFB', value: 120 }] })).statusCode).toBe(202);
    const screens = (await summary()).screens.map((entry) => entry.screen);
    expect(screens).toEqual(['fullscreen', 'map']);
  });

  it.each([
    ['an unknown metric', { page: '/', metrics: [{ name: 'FID', value: 10 }] }, 1003],
    ['a negative value', { page: '/', metrics: [{ name: 'LCP', value: -1 }] }, 1003],
    ['a value past its range', { page: '/', metrics: [{ name: 'CLS', value: 101 }] }, 23101],
    ['no metrics', { page: '/', metrics: [] }, 1003],
    ['eleven metrics', { page: '/', metrics: Array(11).fill({ name: 'TTFB', value: 1 }) }, 1003],
    [
      'a page that is not a path',
      { page: 'https://elsewhere.test/', metrics: [{ name: 'LCP', value: 1 }] },
      1003,
    ],
  ])('given %s, when reported, then 400 with its error and nothing counted', async (_what, payload, code) => {
    const before = await rowCount();
    const res = await report(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errorcode: number; error: string }>().errorcode).toBe(code);
    expect(await rowCount()).toBe(before);
  });

  it('given a body that is not JSON, when reported, then 400 and nothing counted', async () => {
    const before = await rowCount();
    const res = await report('{"page": "/", "metrics": [');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty('errorcode');
    expect(await rowCount()).toBe(before);
  });

  it('given a value past its range, when refused, then the error names the metric and its bound', async () => {
    const res = await report({ page: '/', metrics: [{ name: 'LCP', value: 700_000 }] });
    expect(res.json()).toMatchObject({ errorcode: 23101, error: 'value: LCP is at most 600000.' });
  });

  it('given days outside 1 to 90, when the sums are read, then 400', async () => {
    for (const days of ['0', '91', 'week']) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/webonly/vitals?days=${days}` });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ errorcode: number }>().errorcode).toBe(1003);
    }
  });

  it('given 31 reports from one address in a minute, when the last is sent, then it is refused with 429', async () => {
    const statuses: number[] = [];
    for (let sent = 0; sent < 31; sent += 1)
      statuses.push(
        (await report({ page: '/', metrics: [{ name: 'FCP', value: 900 }] }, '203.0.113.7')).statusCode,
      );
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(202));
    expect(statuses[30]).toBe(429);
  });
});
