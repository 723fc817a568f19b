import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { openTestApp, type TestApp } from '../support/app';
import { TEST_DIALECTS } from '../support/store';
import { bearer, freshIp, registerUser, signIn, type SignedIn } from '../support/accounts';
import { newPoint } from '../support/factories';

/**
 * POST /v1/webonly/meonmap/requestimmunizationcard and GET /v1/account/inbox through HTTP: a request
 * is stored and delivered to the provider's inbox; bad input is refused with the spec's messages
 * and stores nothing; visitors need the anti-forgery token of their cookie.
 */
const PASSWORD = 'callback-password-1';
const URL = '/v1/webonly/meonmap/requestimmunizationcard';

describe.each(TEST_DIALECTS)('callback requests and the inbox (%s)', (dialect) => {
  let t: TestApp;
  let olivia: SignedIn;
  let uma: SignedIn;
  /** a visitor's xp_af cookie and the token bound to it. */
  let visitor: { cookie: string; token: string };

  beforeAll(async () => {
    t = await openTestApp({ dialect });
    for (const name of ['olivia', 'uma'])
      expect((await registerUser(t, name, PASSWORD)).statusCode).toBe(201);
    olivia = await signIn(t, 'olivia', PASSWORD);
    uma = await signIn(t, 'uma', PASSWORD);
    await t.store.db
      .insertInto('points')
      .values([
        newPoint({
          id: 'svc_olivia',
          supertype: 'service',
          type: 'plumber',
          title: 'Olivia Plumbing',
          owner_userid: olivia.id,
        }),
        newPoint({ id: 'shop_olivia', supertype: 'business', type: 'bakery', owner_userid: olivia.id }),
        newPoint({ id: 'svc_olivia2', supertype: 'service', type: 'heating', owner_userid: olivia.id }),
        newPoint({
          id: 'svc_uma',
          supertype: 'service',
          type: 'tutor',
          title: 'Uma Tutoring',
          owner_userid: uma.id,
        }),
      ])
      .execute();
    const res = await t.app.inject({ method: 'GET', url: '/v1/account/antiforgery' });
    const cookie = res.cookies.find((c) => c.name === 'xp_af');
    if (!cookie) throw new Error('no visitor cookie');
    visitor = { cookie: `xp_af=${cookie.value}`, token: res.json<{ token: string }>().token };
  });
  afterAll(() => t?.close());

  const counts = async () => ({
    requests: Number(
      (
        await t.store.db
          .selectFrom('callback_requests')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    inbox: Number(
      (
        await t.store.db
          .selectFrom('inbox_messages')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  });
  const asVisitor = (payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: URL,
      payload,
      headers: {
        cookie: visitor.cookie,
        requestverificationtoken: visitor.token,
        'x-forwarded-for': freshIp(),
        ...headers,
      },
    });
  const expectError = (res: LightMyRequestResponse, status: number, errorcode: number, error?: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toMatchObject(error ? { errorcode, error } : { errorcode });
  };
  const inbox = async (who: SignedIn, query = '') => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/account/inbox${query}`,
      headers: bearer(who.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('a visitor request is stored and delivered to the provider inbox', async () => {
    const before = await counts();
    const res = await asVisitor({
      to_userid: olivia.id,
      xpointid: 'svc_olivia',
      service_name: 'Olivia Plumbing',
      name: 'Vera Visitor',
      phone: '+1 (212) 555-0199',
      message: 'The sink leaks.',
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      ok: true,
      requestid: expect.stringMatching(/^cb_[A-Za-z0-9_-]+$/),
      duplicate: false,
    });
    expect(await counts()).toEqual({ requests: before.requests + 1, inbox: before.inbox + 1 });
    const stored = await t.store.db
      .selectFrom('callback_requests')
      .selectAll()
      .where('id', '=', body.requestid)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      to_userid: olivia.id,
      xpoint_id: 'svc_olivia',
      service_name: 'Olivia Plumbing',
      from_userid: null,
      name: 'Vera Visitor',
      phone: '+1 (212) 555-0199',
      email: null,
      message: 'The sink leaks.',
    });
    const box = await inbox(olivia);
    expect(box.messages[0]).toMatchObject({
      kind: 'callback_request',
      title: 'Vera Visitor asks you to call back about Olivia Plumbing',
      read_at: null,
      callback: {
        id: body.requestid,
        xpoint_id: 'svc_olivia',
        xpoint_title: 'Olivia Plumbing',
        service_name: 'Olivia Plumbing',
        phone: '+1 (212) 555-0199',
        message: 'The sink leaks.',
        from_userid: null,
      },
    });
    // the requester's own inbox is untouched
    expect((await inbox(uma)).messages).toEqual([]);
  });

  it('a signed-in user needs no phone; the same request within a minute is not stored twice', async () => {
    const before = await counts();
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: URL,
        headers: { ...bearer(uma.token), 'x-forwarded-for': freshIp() },
        payload: { to_userid: olivia.id, xpointid: 'svc_olivia', service_name: 'Olivia Plumbing' },
      });
    const first = await send();
    expect(first.statusCode, first.body).toBe(201);
    const again = await send();
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ok: true, requestid: first.json().requestid, duplicate: true });
    expect(await counts()).toEqual({ requests: before.requests + 1, inbox: before.inbox + 1 });
    const box = await inbox(olivia);
    expect(box.messages[0].callback).toMatchObject({ from_userid: uma.id, from_username: 'uma' });
    expect(box.messages[0].title).toBe('uma asks you to call back about Olivia Plumbing');
  });

  it('refuses bad input with the spec messages and stores nothing', async () => {
    const before = await counts();
    const good = {
      to_userid: olivia.id,
      xpointid: 'svc_olivia',
      service_name: 'Olivia Plumbing',
      email: 'v@example.com',
    };
    const without = (field: string) => Object.fromEntries(Object.entries(good).filter(([k]) => k !== field));
    expectError(await asVisitor(without('to_userid')), 400, 6003);
    expectError(await asVisitor({ ...good, to_userid: '  ' }), 400, 6003);
    expectError(await asVisitor(without('service_name')), 400, 6004, 'Service Name is not defined');
    expectError(await asVisitor(without('xpointid')), 400, 6005, 'Service xpointId is not defined');
    expectError(await asVisitor({ ...good, xpointid: 'bad id' }), 400, 6705, 'Param [xpointId] is invalid!');
    expectError(await asVisitor({ ...good, to_userid: 'nobody' }), 404, 6006);
    expectError(await asVisitor({ ...good, xpointid: 'nope' }), 404, 2010);
    expectError(await asVisitor({ ...good, xpointid: 'svc_uma' }), 400, 6007);
    // a business is not a service: no callbacks through it
    expectError(await asVisitor({ ...good, xpointid: 'shop_olivia' }), 400, 6007);
    expectError(await asVisitor(without('email')), 400, 6009);
    expectError(await asVisitor({ ...good, email: 'not-an-email' }), 400, 6010);
    expectError(await asVisitor({ ...good, phone: 'call me maybe' }), 400, 6010);
    expectError(await asVisitor({ ...good, message: 'x'.repeat(2001) }), 400, 6010);
    expectError(await asVisitor({ ...good, service_name: 42 }), 400, 6010);
    const self = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: { ...bearer(olivia.token), 'x-forwarded-for': freshIp() },
      payload: good,
    });
    expectError(self, 400, 6008);
    expect(await counts()).toEqual(before);
  });

  it('reads the two ids only from text or a number: a list or an object is refused, however deep, and nothing is stored', async () => {
    const before = await counts();
    const good = {
      to_userid: olivia.id,
      xpointid: 'svc_olivia',
      service_name: 'Olivia Plumbing',
      email: 'v@example.com',
    };
    // a one-item list read as its text once reached the provider's inbox
    expectError(await asVisitor({ ...good, to_userid: [olivia.id] }), 400, 6010, 'to_userid: must be text.');
    expectError(
      await asVisitor({ ...good, to_userid: { id: olivia.id } }),
      400,
      6010,
      'to_userid: must be text.',
    );
    expectError(await asVisitor({ ...good, to_userid: true }), 400, 6010, 'to_userid: must be text.');
    expectError(
      await asVisitor({ ...good, xpointid: ['svc_olivia'] }),
      400,
      6705,
      'Param [xpointId] is invalid!',
    );
    // found by the fuzz suite: a list 5,000 levels deep overflowed the stack when read as text (500)
    const deep = `${'['.repeat(5000)}"${olivia.id}"${']'.repeat(5000)}`;
    for (const field of ['to_userid', 'xpointid']) {
      const res = await t.app.inject({
        method: 'POST',
        url: URL,
        headers: { ...bearer(uma.token), 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
        payload: JSON.stringify(good).replace(/}$/, `,"${field}":${deep}}`),
      });
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
    }
    expect(await counts()).toEqual(before);
  });

  it('needs the anti-forgery token from a visitor and from a cookie session', async () => {
    const before = await counts();
    const good = {
      to_userid: olivia.id,
      xpointid: 'svc_olivia',
      service_name: 'Olivia Plumbing',
      email: 'x@example.com',
    };
    expectError(await asVisitor(good, { requestverificationtoken: 'forged' }), 403, 6011);
    const noCookie = await t.app.inject({
      method: 'POST',
      url: URL,
      payload: good,
      headers: { requestverificationtoken: visitor.token, 'x-forwarded-for': freshIp() },
    });
    expectError(noCookie, 403, 6011);
    const cookieSession = await t.app.inject({
      method: 'POST',
      url: URL,
      payload: good,
      headers: { cookie: uma.cookie, 'x-forwarded-for': freshIp() },
    });
    expectError(cookieSession, 403, 2003);
    expect(await counts()).toEqual(before);
    const withToken = await t.app.inject({
      method: 'POST',
      url: URL,
      payload: { ...good, xpointid: 'svc_olivia2', service_name: 'Olivia Heating' },
      headers: {
        cookie: uma.cookie,
        requestverificationtoken: uma.antiforgery,
        'x-forwarded-for': freshIp(),
      },
    });
    expect(withToken.statusCode, withToken.body).toBe(201);
  });

  it('the inbox is for signed-in users, newest first, paged', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/v1/account/inbox' });
    expectError(anonymous, 401, 1010);
    const all = await inbox(olivia);
    expect(all.messages.length).toBeGreaterThanOrEqual(3);
    const ids = all.messages.map((m: { id: number }) => m.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const first = await inbox(olivia, '?limit=1');
    expect(first.messages).toHaveLength(1);
    expect(first.next_before).toBe(ids[0]);
    const second = await inbox(olivia, `?limit=1&before=${first.next_before}`);
    expect(second.messages[0].id).toBe(ids[1]);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/v1/account/inbox?limit=0',
      headers: bearer(olivia.token),
    });
    expectError(bad, 400, 6012);
  });
});
