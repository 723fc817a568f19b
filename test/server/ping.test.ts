import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestApp, type TestApp } from '../support/app';
import { TEST_DIALECTS } from '../support/store';

/** POST /v1/webonly/ping (social §4, §7): the connection pinger's call, over HTTP on a real store. */
describe.each(TEST_DIALECTS)('the connection ping (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp({ dialect });
  });
  afterAll(() => t?.close());
  afterEach(() => vi.restoreAllMocks());

  const ping = (payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/webonly/ping',
      ...(payload === undefined
        ? { headers }
        : { payload: JSON.stringify(payload), headers: { 'content-type': 'application/json', ...headers } }),
    });

  it("answers 503 with the store's text while the store does not answer (the banner's detail)", async () => {
    const down = vi.spyOn(t.store, 'ping').mockResolvedValue(false);
    const res = await ping({});
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ errorcode: 1503, error: 'The store is not answering.' });
    expect(down).toHaveBeenCalledTimes(1);
  });

  it('answers ok with the server time to the empty JSON body, never cached', async () => {
    // the failed answer above counts for a second: then the store is asked again
    await vi.waitFor(
      async () => {
        expect((await ping({})).statusCode).toBe(200);
      },
      { timeout: 3000, interval: 100 },
    );
    const before = Date.now();
    const res = await ping({});
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json<{ status: string; time: string }>();
    expect(body.status).toBe('ok');
    expect(Date.parse(body.time)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(body.time)).toBeLessThanOrEqual(Date.now());
  });

  it('takes no body at all too, and needs no anti-forgery token (a visitor with a stale cookie pings)', async () => {
    expect((await ping()).statusCode).toBe(200);
    expect((await ping({}, { cookie: 'xp_session=stale' })).statusCode).toBe(200);
  });

  it('asks the store at most once for many pings at once', async () => {
    const asked = vi.spyOn(t.store, 'ping');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const answers = await Promise.all(Array.from({ length: 50 }, () => ping({})));
    expect(answers.map((res) => res.statusCode)).toEqual(Array(50).fill(200));
    expect(asked).toHaveBeenCalledTimes(1);
  });

  it('refuses a body with fields (19401, naming the field) and a body that is not an object', async () => {
    const fields = await ping({ lat: 1 });
    expect(fields.statusCode).toBe(400);
    expect(fields.json()).toEqual({
      errorcode: 19401,
      error: 'lat: the ping takes an empty JSON body ({}), with no fields.',
      field: 'lat',
    });
    const list = await ping([]);
    expect(list.statusCode).toBe(400);
    expect(list.json()).toMatchObject({ errorcode: 1003 });
  });

  it('answers hostile bodies in the catalogue shape, never 5xx', async () => {
    const send = (type: string, payload: string) =>
      t.app.inject({ method: 'POST', url: '/v1/webonly/ping', headers: { 'content-type': type }, payload });
    const answers = await Promise.all([
      send('application/json', '{'),
      send('application/json', '{"__proto__":{"polluted":1}}'),
      send('application/json', '"ping"'),
      send('text/plain', 'ping'),
      send('application/x-www-form-urlencoded', 'a=1'),
    ]);
    expect(answers.map((res) => [res.statusCode, res.json<{ errorcode: number }>().errorcode])).toEqual([
      [400, 1002],
      [400, 1002],
      [400, 1003],
      [400, 1003],
      [415, 1005],
    ]);
  });

  it('is a POST only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/webonly/ping' });
    expect(res.statusCode).toBe(405);
  });
});
