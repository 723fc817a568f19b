import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, freshIp, registerUser, signIn, type SignedIn } from '../support/accounts';
import { newPoint } from '../support/factories';
import { openTestApp, type TestApp } from '../support/app';

/**
 * Text is normalised at the contract (issue 16, finding 5): one kind of input per test, through the
 * API, read back from the store. Control characters are removed, NFC is applied, bidirectional
 * controls and lone surrogates are refused with the field's error and nothing is stored.
 */
let t: TestApp;
let user: SignedIn;

beforeAll(async () => {
  t = await openTestApp();
  await registerUser(t, 'typist');
  user = await signIn(t, 'typist', 'correct-horse-1');
  await t.store.db
    .insertInto('points')
    .values(newPoint({ id: 'svc_typist', supertype: 'service', type: 'plumber', owner_userid: user.id }))
    .execute();
});
afterAll(() => t.close());

/** JSON text as a client may write it: `\uD800` stays an escape, which JSON.stringify would also write. */
const post = (url: string, body: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(user.token), 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
    payload: body,
  });

const createPoint = (fields: Record<string, unknown>) =>
  post(
    '/v1/xpoint/create',
    JSON.stringify({
      supertype: 'business',
      type: 'bakery',
      lat: 48.85,
      lon: 2.35,
      confirmNotDuplicate: true,
      ...fields,
    }),
  );

async function storedPoint(id: string) {
  return t.store.db
    .selectFrom('points')
    .select(['title', 'tagline', 'description'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

const pointCount = async () =>
  Number(
    (
      await t.store.db
        .selectFrom('points')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('text normalisation at the contract', () => {
  it('removes control characters; a one-line field gets a space for a line break', async () => {
    const res = await createPoint({
      title: 'Bakery\u0000 de la\nPaix\u0007',
      tagline: '\u001bFresh\u0085 bread',
      description: 'Line one\r\nLine two\tand a tab\u000b',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await storedPoint(res.json<{ id: string }>().id)).toEqual({
      title: 'Bakery de la Paix',
      tagline: 'Fresh bread',
      description: 'Line one\nLine two\tand a tab',
    });
  });

  it('stores text in NFC', async () => {
    const res = await createPoint({ title: 'Cafe\u0301 Noe\u0308l' });
    expect(res.statusCode, res.body).toBe(201);
    const { title } = await storedPoint(res.json<{ id: string }>().id);
    expect(title).toBe('Café Noël');
    expect(title).toBe(title.normalize('NFC'));
  });

  it('refuses a right-to-left override in a title with 1003 naming the field, and stores nothing', async () => {
    const before = await pointCount();
    const res = await createPoint({ title: 'Invoice \u202Efdp.exe' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      errorcode: 1003,
      error: 'title: may not contain bidirectional control characters (U+202A to U+202E, U+2066 to U+2069).',
      field: 'title',
    });
    expect(await pointCount()).toBe(before);
  });

  it('refuses a lone surrogate in a contact name', async () => {
    const res = await post(
      '/v1/xpoint/create',
      '{"supertype":"business","type":"bakery","lat":48.85,"lon":2.35,"title":"Ok","confirmNotDuplicate":true,' +
        '"contacts":[{"roleid":"OWNR","contact_firstname":"Jo\\ud800"}]}',
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errorcode: 1003,
      error: 'contacts.0.contact_firstname: is not valid Unicode text (a lone surrogate).',
    });
  });

  it("refuses a bidi isolate in a callback message with the callback's own error (6010)", async () => {
    const res = await post(
      '/v1/webonly/meonmap/requestimmunizationcard',
      JSON.stringify({
        to_userid: 'someone',
        xpointid: 'svc_typist',
        service_name: 'Plumbing',
        message: 'call me \u2067back\u2069',
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errorcode: 6010, field: 'message' });
  });

  it('refuses a bidi override in a full name at sign-up', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/account/register',
      headers: { 'x-forwarded-for': freshIp() },
      payload: {
        username: 'mallory',
        email: 'mallory@example.com',
        fullname: 'Mal\u202Dlory',
        password: 'correct-horse-1',
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errorcode: 1003, field: 'fullname' });
  });
});
