import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CALLBACK_BODY_LIMIT_BYTES,
  DEFAULT_BODY_LIMIT_BYTES,
  FORM_BODY_LIMIT_BYTES,
  MAX_JSON_DEPTH,
} from '../../src/server/http/limits';
import { CLAIM_TEXT_MAX_LENGTH, MAX_CONTACTS } from '../../src/shared/api/points';
import { MAX_EVENT_INTERVALS, MAX_EVENT_TICKETS } from '../../src/shared/api/events';
import { DESCRIPTION_MAX_LENGTH } from '../../src/shared/api/writes';
import { CALLBACK_LIMITS } from '../../src/shared/api/details';
import { bearer, registerUser, signIn, type SignedIn } from '../support/accounts';
import { openTestApp, type TestApp } from '../support/app';

/**
 * Every route has the smallest body limit that fits it (issue 16, finding 2): the largest legitimate
 * body of the form routes (every field at its maximum length, every character escaped as \uXXXX, as
 * Python's json.dumps writes non-ASCII text) is accepted, and one byte past a route's limit is the
 * catalogue's 413 naming the limit. A deeply nested body is refused before it is parsed (finding 5).
 */
let t: TestApp;
let user: SignedIn;

beforeAll(async () => {
  t = await openTestApp();
  await registerUser(t, 'limits');
  user = await signIn(t, 'limits', 'correct-horse-1');
});
afterAll(() => t.close());

/** JSON with every character of every string as \uXXXX: the most bytes a client may spend on a text. */
function escapedJson(value: unknown): string {
  return JSON.stringify(value).replace(/"((?:[^"\\]|\\.)*)"/g, (_whole, inner: string) => {
    const text = JSON.parse(`"${inner}"`) as string;
    let out = '';
    for (let i = 0; i < text.length; i++) out += `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return `"${out}"`;
  });
}

const fill = (length: number, word = 'é') => word.repeat(Math.ceil(length / word.length)).slice(0, length);

/** A point with every field of the form at its longest (src/shared/api/points.ts). */
function longestPoint(): Record<string, unknown> {
  return {
    supertype: 'business',
    type: 'bakery',
    title: fill(120),
    subtype: fill(60),
    tagline: fill(160),
    description: fill(DESCRIPTION_MAX_LENGTH),
    lat: 48.8566123456789,
    lon: 2.3522123456789,
    address: fill(300),
    street: fill(120),
    city: fill(120),
    region: fill(120),
    postalcode: fill(20, '7'),
    country: fill(120),
    link_email: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`,
    link_phone: '+33 1 23 45 67 89',
    link_website: `https://example.com/${'p'.repeat(480)}`,
    link_facebook: `https://facebook.com/${'q'.repeat(470)}`,
    contacts: Array.from({ length: MAX_CONTACTS }, () => ({
      roleid: 'CUST',
      roleoverride: fill(60),
      contact_firstname: fill(60),
      contact_lastname: fill(60),
      contact_username: 'limits',
    })),
    opening_hours: 'Mo-Fr 08:00-18:00; Sa 09:00-13:00; '
      .repeat(14)
      .slice(0, 490)
      .replace(/; [^;]*$/, ''),
    allow_consulting: true,
    pickup_destination: fill(300),
    pickup_date_time: '2030-01-01T10:00:00.000+01:00',
    delivery_lat: 48.8566123456789,
    delivery_lng: 2.3522123456789,
    confirmNotDuplicate: true,
  };
}

/** An event with every field at its longest (src/shared/api/events.ts). */
function longestEvent(): Record<string, unknown> {
  const start = Date.UTC(2030, 0, 1);
  const day = 86_400_000;
  return {
    title: fill(120),
    type: 'concert',
    subtype: fill(60),
    start_date: new Date(start).toISOString(),
    end_date: new Date(start + (MAX_EVENT_INTERVALS + 1) * day).toISOString(),
    event_opening_intervals_utc: Array.from({ length: MAX_EVENT_INTERVALS }, (_, i) => ({
      start: new Date(start + i * day).toISOString(),
      end: new Date(start + i * day + 3_600_000).toISOString(),
    })),
    admission: 'paid',
    admissionprice: 999999.99,
    tickets: Array.from({ length: MAX_EVENT_TICKETS }, () => ({
      name: fill(80),
      unit_price: 999999.99,
      max_quantity: 10000,
    })),
    website: `https://example.com/${'w'.repeat(480)}`,
    description: fill(DESCRIPTION_MAX_LENGTH),
    lat: 48.8566123456789,
    lon: 2.3522123456789,
    address: fill(300),
  };
}

const post = (url: string, payload: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(user.token), 'content-type': 'application/json', ...headers },
    payload,
  });

describe('body limits per route', () => {
  it('accepts the longest point and event a form can send, escaped, and they fit the form limit', async () => {
    const point = escapedJson(longestPoint());
    const event = escapedJson(longestEvent());
    const sizes = { point: Buffer.byteLength(point), event: Buffer.byteLength(event) };
    console.log(`longest bodies: point ${sizes.point} bytes, event ${sizes.event} bytes escaped`);
    expect(sizes.point).toBeGreaterThan(DEFAULT_BODY_LIMIT_BYTES);
    expect(sizes.point).toBeLessThan(FORM_BODY_LIMIT_BYTES);
    expect(sizes.event).toBeLessThan(FORM_BODY_LIMIT_BYTES);
    const created = await post('/v1/xpoint/create', point);
    expect(created.statusCode, created.body).toBe(201);
    const { id, version } = created.json<{ id: string; version: number }>();
    const updated = await post('/v1/xpoint/update', escapedJson({ ...longestPoint(), id, version }));
    expect(updated.statusCode, updated.body).toBe(200);
    const createdEvent = await post('/v1/event/create', event);
    expect(createdEvent.statusCode, createdEvent.body).toBe(201);
  });

  it('accepts the longest claim, escaped, under the default limit', async () => {
    const claim = escapedJson({ id: 'p_nothere', text: fill(CLAIM_TEXT_MAX_LENGTH) });
    console.log(`longest claim: ${Buffer.byteLength(claim)} bytes escaped`);
    expect(Buffer.byteLength(claim)).toBeLessThan(DEFAULT_BODY_LIMIT_BYTES);
    const res = await post('/v1/xpoint/claim', claim);
    expect(res.statusCode).not.toBe(413);
  });

  it('accepts the longest callback request, escaped, under its own limit', async () => {
    const callback = escapedJson({
      to_userid: 'u'.repeat(12),
      xpointid: 'p'.repeat(12),
      service_name: fill(CALLBACK_LIMITS.service_name),
      name: fill(CALLBACK_LIMITS.name),
      phone: fill(CALLBACK_LIMITS.phone, '5'),
      email: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`,
      message: fill(CALLBACK_LIMITS.message),
    });
    console.log(`longest callback: ${Buffer.byteLength(callback)} bytes escaped`);
    expect(Buffer.byteLength(callback)).toBeLessThan(CALLBACK_BODY_LIMIT_BYTES);
    const res = await post('/v1/webonly/meonmap/requestimmunizationcard', callback);
    expect(res.statusCode).not.toBe(413);
  });

  it.each([
    ['/v1/account/login', DEFAULT_BODY_LIMIT_BYTES, '16 KiB'],
    ['/v1/app/searchsuggestions', DEFAULT_BODY_LIMIT_BYTES, '16 KiB'],
    ['/v1/webonly/meonmap/requestimmunizationcard', CALLBACK_BODY_LIMIT_BYTES, '24 KiB'],
    ['/api/user/x_point/beam', DEFAULT_BODY_LIMIT_BYTES, '16 KiB'],
    ['/v1/xpoint/update', FORM_BODY_LIMIT_BYTES, '128 KiB'],
    ['/v1/event/create', FORM_BODY_LIMIT_BYTES, '128 KiB'],
  ])('refuses a body past the limit of %s with the catalogue 413', async (url, limit, text) => {
    const payload = JSON.stringify({ pad: 'x'.repeat(limit) });
    const res = await post(url, payload);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ errorcode: 1004, error: `The request is too large (at most ${text}).` });
  });
});

describe('JSON nesting', () => {
  // arrays: 5,000 levels in 10 KB, under every route's limit, so the nesting is what is refused
  const deep = (levels: number) => '['.repeat(levels) + '1' + ']'.repeat(levels);

  it.each([
    ['the callback request', '/v1/webonly/meonmap/requestimmunizationcard'],
    ['a beam', '/api/user/x_point/beam'],
    ['a point update', '/v1/xpoint/update'],
  ])('answers a 5,000-level body on %s with the catalogue 400', async (_name, url) => {
    const res = await post(url, `{"message":${deep(5000)}}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      errorcode: 1030,
      error: `The request could not be read: the JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`,
    });
  });

  it('still reads a body at the nesting limit', async () => {
    const res = await post(
      '/api/user/x_point/beam',
      `{"identifier":"p_x","kind":"soon","x":${deep(MAX_JSON_DEPTH - 1)}}`,
    );
    expect(res.statusCode).not.toBe(400);
  });
});
