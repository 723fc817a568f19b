import type { FastifyInstance } from 'fastify';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/shared/errors';
import { openTestApp, type TestApp } from '../support/app';

describe('the HTTP application', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp({
      prepare(app) {
        app.post('/v1/test/echo', async (request) => ({ got: request.body }));
        app.get('/v1/test/forbidden', async () => {
          throw new AppError('forbidden');
        });
        app.get('/v1/test/crash', async () => {
          throw new Error('secret internal detail');
        });
      },
    });
  });
  afterAll(() => t.close());

  it('answers /healthz with ok while the store answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers an unknown API path with a JSON 404 naming the call', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/nope/never', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ errorcode: 1001, error: 'There is no POST /v1/nope/never in this API.' });
  });

  it('serves the web app for page routes, so deep links and reloads work', async () => {
    for (const url of ['/', '/maps', '/b/abc123', '/search/coffee/data=%7B%7D', '/u/olivia?tab=posts']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('answers a missing file with a JSON 404 rather than the app', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/missing-123.js' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ errorcode: 1000 });
  });

  it('serves hashed assets with a year-long immutable cache and gzip', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/assets/app-3f9a1c.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  it('sends the precompressed brotli file of a hashed asset as it is', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/assets/app-3f9a1c.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['vary']).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toContain('console.log');
  });

  it('sends security headers on every response', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeDefined();
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('lets the page frame https sites (the site viewer) and connect only to itself and its socket', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    const directives = Object.fromEntries(
      String(res.headers['content-security-policy'])
        .split(';')
        .map((directive) => directive.trim().split(/\s+/))
        .map(([name = '', ...values]) => [name, values]),
    );
    expect(directives['frame-src']).toEqual(["'self'", 'https:']);
    // the test app's PUBLIC_URL is http://127.0.0.1:8080
    expect(directives['connect-src']).toEqual(["'self'", 'ws://127.0.0.1:8080']);
  });

  it('answers malformed JSON with a 400 error body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      errorcode: 1002,
      error: 'The request could not be read: the body is not valid JSON.',
    });
  });

  it.each(['/v1/webonly/xpointdetails/%E0%A4%A', '/b/%ZZ'])(
    'answers a malformed percent-encoding in %s with the catalogue 400',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        errorcode: 1002,
        error: 'The request could not be read: the address is not valid percent-encoding.',
      });
    },
  );

  it('answers an oversized body with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ big: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ errorcode: 1004 });
  });

  it('answers an unsupported content type with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/test/echo',
      headers: { 'content-type': 'application/x-unknown' },
      payload: 'hello',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ errorcode: 1005 });
  });

  it('answers a catalogued error with its status, code and message', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/test/forbidden' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ errorcode: 1011, error: 'You are not allowed to do this.' });
  });

  it('answers an unexpected failure with a generic 500 that leaks nothing', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/test/crash' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      errorcode: 1500,
      error: 'Something went wrong on our side. Please try again.',
    });
    expect(res.body).not.toContain('secret');
  });
});

describe('client addresses', () => {
  // a new name each time, so that only the per-address limit counts (not the per-account lock)
  const signIn = (app: FastifyInstance, forwardedFor: string) =>
    app.inject({
      method: 'POST',
      url: '/v1/account/login',
      headers: { 'x-forwarded-for': forwardedFor },
      payload: { login: `nobody-${forwardedFor}`, password: 'wrong password' },
    });

  it('believes no X-Forwarded-For by default: rotating it does not escape the per-address sign-in limit', async () => {
    const t = await openTestApp({ trustProxy: '' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 32; i++) statuses.push((await signIn(t.app, `203.0.113.${i}`)).statusCode);
      // 30 sign-ins a minute per address (accounts/routes.ts), all counted for the one real address
      expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
      expect(statuses.slice(30)).toEqual([429, 429]);
    } finally {
      await t.close();
    }
  });

  it('believes the configured proxy (TRUST_PROXY): each forwarded client has its own limit', async () => {
    const t = await openTestApp({ trustProxy: '127.0.0.1' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 32; i++) statuses.push((await signIn(t.app, `203.0.113.${i}`)).statusCode);
      expect(new Set(statuses)).toEqual(new Set([401]));
    } finally {
      await t.close();
    }
  });
});

describe('/healthz when the store is gone', () => {
  it('answers 503 with the store error', async () => {
    const t = await openTestApp();
    await t.store.close();
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ errorcode: 1503, error: 'The store is not answering.' });
    await t.app.close();
  });
});
