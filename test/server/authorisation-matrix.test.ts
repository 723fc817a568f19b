import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/shared/errors';
import {
  ACTIONS,
  ROLES,
  STATES,
  decide,
  possible,
  type Action,
  type ResourceState,
  type Role,
} from '../../src/shared/permissions';
import { openTestApp, type TestApp } from '../support/app';
import { TEST_DIALECTS } from '../support/store';
import { bearer, createAdmin, registerUser, signIn } from '../support/accounts';
import { newPoint } from '../support/factories';

/**
 * The authorisation table (src/shared/permissions/matrix.ts), every cell through the real HTTP routes on
 * a real temporary store: for each state of a point, each role that can exist there and each write, a
 * fresh point is set up in that state, the call is made as that role, and the answer's status and
 * errorcode must be the table's. A refused write must leave the point as it was, and where the
 * permissions endpoint has a flag for the action it must say the same.
 *
 * Fixtures per point: owned points are olivia's; carlos consults when the state has a consultant; an
 * unowned point has clara's pending claim; an owned place open to consulting without a consultant has
 * rita's pending request; the point has an event, olivia's (owned) or eve's (unowned).
 */
const PASSWORD = 'matrix-password-1';
const USERS = ['olivia', 'carlos', 'clara', 'rita', 'uma', 'eve'] as const;
type Headers = Record<string, string>;

/** The HTTP status of an allowed call. */
const OK_STATUS: Partial<Record<Action, number>> = { create: 201, addChildEvent: 201 };

/** The permissions endpoint's flag for an action, where it has one. */
const FLAG: Partial<Record<Action, string>> = {
  update: 'canEdit',
  delete: 'canDelete',
  addChildEvent: 'canAddChildEvent',
  inviteReview: 'canInviteReview',
};

const stateName = (s: ResourceState) =>
  [
    s.owned ? 'owned' : 'unowned',
    s.consulting ? 'consulting allowed' : 'consulting off',
    s.report ? 'report' : 'place',
    s.consultant ? 'with consultant' : 'no consultant',
  ].join(', ');

describe.each(TEST_DIALECTS)('the authorisation table over HTTP (%s)', (dialect) => {
  let t: TestApp;
  const ids = {} as Record<(typeof USERS)[number] | 'admin', string>;
  const headers = {} as Record<Role, Headers>;
  let made = 0;

  beforeAll(async () => {
    t = await openTestApp({ dialect });
    for (const name of USERS) expect((await registerUser(t, name, PASSWORD)).statusCode).toBe(201);
    await createAdmin(t, PASSWORD);
    const signed = Object.fromEntries(
      await Promise.all([...USERS, 'admin' as const].map(async (n) => [n, await signIn(t, n, PASSWORD)])),
    ) as Record<(typeof USERS)[number] | 'admin', Awaited<ReturnType<typeof signIn>>>;
    for (const [name, s] of Object.entries(signed)) ids[name as keyof typeof ids] = s.id;
    const visitor = await t.app.inject({ method: 'GET', url: '/v1/account/antiforgery' });
    headers.visitor = {
      cookie: `xp_af=${visitor.cookies.find((c) => c.name === 'xp_af')?.value}`,
      requestverificationtoken: visitor.json<{ token: string }>().token,
    };
    headers.stranger = bearer(signed.uma.token);
    headers.claimant = bearer(signed.clara.token);
    headers.requester = bearer(signed.rita.token);
    // the browser's way too: cookie and anti-forgery token
    headers.consultant = {
      cookie: signed.carlos.cookie,
      requestverificationtoken: signed.carlos.antiforgery,
    };
    headers.owner = bearer(signed.olivia.token);
    headers.admin = { cookie: signed.admin.cookie, requestverificationtoken: signed.admin.antiforgery };
  });
  afterAll(() => t?.close());

  /** A fresh point in `state` with its fixtures; answers its id, its event's id and the claim's id. */
  async function setUp(state: ResourceState) {
    made += 1;
    const id = `mx_${made}`;
    const now = Date.now();
    await t.store.db
      .insertInto('points')
      .values(
        newPoint({
          id,
          supertype: state.report ? 'helprequest' : 'business',
          type: state.report ? 'tasks' : 'bakery',
          title: `Matrix point ${made}`,
          lat: 30 + made * 0.001,
          lon: 30,
          owner_userid: state.owned ? ids.olivia : null,
          consultant_userid: state.consultant ? ids.carlos : null,
          allow_consulting: state.consulting ? 1 : 0,
          health_status: state.owned ? 0 : 1,
        }),
      )
      .execute();
    let claimId = 999_999_999;
    if (!state.owned) {
      const claim = await t.store.db
        .insertInto('point_claims')
        .values({
          point_id: id,
          user_id: ids.clara,
          text: null,
          created_at: now,
          status: 'pending',
          previous_health_status: 0,
          decided_at: null,
          decided_by: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      claimId = Number(claim.id);
    }
    if (possible('requester', state))
      await t.store.db
        .insertInto('consultant_requests')
        .values({ point_id: id, user_id: ids.rita, status: 'pending', created_at: now, decided_at: null })
        .execute();
    const eventId = `mxe_${made}`;
    await t.store.db
      .insertInto('events')
      .values({
        id: eventId,
        xpoint_id: id,
        owner_userid: state.owned ? ids.olivia : ids.eve,
        title: `Matrix event ${made}`,
        type: 'party',
        start_date: now + 86_400_000,
        end_date: now + 90_000_000,
        lat: 30,
        lon: 30,
        admission: 'free',
        created_at: now,
        updated_at: now,
      })
      .execute();
    return { id, eventId, claimId };
  }

  /** The one call of each action on the point (or its event, or its claim). */
  function call(
    action: Action,
    state: ResourceState,
    f: { id: string; eventId: string; claimId: number },
    as: Headers,
  ): Promise<LightMyRequestResponse> {
    const post = (url: string, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url, payload, headers: as });
    const start = Date.now() + 172_800_000;
    switch (action) {
      case 'create':
        return post(
          '/v1/xpoint/create',
          state.report
            ? {
                supertype: 'helprequest',
                type: 'tasks',
                title: 'Help with a sofa',
                lat: 5,
                lon: 5,
                confirmNotDuplicate: true,
              }
            : {
                supertype: 'business',
                type: 'bakery',
                title: `Bakery ${made}`,
                lat: 5,
                lon: 5,
                confirmNotDuplicate: true,
              },
        );
      case 'update':
        return post('/v1/xpoint/update', { id: f.id, version: 1, title: 'Renamed' });
      case 'setAllowConsulting':
        return post('/v1/xpoint/update', { id: f.id, version: 1, allow_consulting: false });
      case 'delete':
        return post('/v1/xpoint/delete', { id: f.id });
      case 'media':
        return post('/v1/xpoint/media', { id: f.id, version: 1, slot: 'cover_image', data: null });
      case 'claim':
        return post('/v1/xpoint/claim', { id: f.id });
      case 'becomeConsultant':
        return post('/v1/xpoint/becomeconsultant', { id: f.id });
      case 'acceptRequest':
        return post('/v1/xpoint/consultantrequest/accept', { id: f.id, username: 'rita' });
      case 'declineRequest':
        return post('/v1/xpoint/consultantrequest/decline', { id: f.id, username: 'rita' });
      case 'clearConsultant':
        return post('/v1/xpoint/clearconsultant', { id: f.id });
      case 'addChildEvent':
        return post('/v1/event/create', {
          xpoint_id: f.id,
          title: 'A child event',
          type: 'party',
          start_date: start,
          end_date: start + 3_600_000,
        });
      case 'copyToNew':
      case 'inviteReview':
        // copy-to-new opens the edit fields to send them to create; inviting reviews has no call of its
        // own (its flag is checked below): both are the controllers'
        return t.app.inject({ method: 'GET', url: `/v1/xpoint/${f.id}/edit`, headers: as });
      case 'eventUpdate':
        return post('/v1/event/update', { id: f.eventId, version: 1, title: 'Renamed event' });
      case 'eventDelete':
        return post('/v1/event/delete', { id: f.eventId });
      case 'eventMedia':
        return post('/v1/event/media', { id: f.eventId, version: 1, data: null });
      case 'approveClaim':
        return post('/v1/admin/claims/approve', { id: f.claimId });
      case 'declineClaim':
        return post('/v1/admin/claims/decline', { id: f.claimId });
    }
  }

  const people = (id: string) =>
    t.store.db
      .selectFrom('points')
      .select(['owner_userid', 'consultant_userid', 'version', 'health_status', 'allow_consulting'])
      .where('id', '=', id)
      .executeTakeFirst();

  it.each(STATES.map((s) => [stateName(s), s] as const))('%s', async (_name, state) => {
    let cells = 0;
    for (const action of ACTIONS)
      for (const role of ROLES) {
        if (!possible(role, state)) continue;
        // inviteReview's call is copy-to-new's; only its flag differs
        const outcome = decide(action, role, state);
        const fixtures = await setUp(state);
        const before = await people(fixtures.id);
        const res = await call(action, state, fixtures, headers[role]);
        const where = `${action} as ${role} (${stateName(state)}): ${res.body}`;
        if (outcome === 'ok') expect(res.statusCode, where).toBe(OK_STATUS[action] ?? 200);
        else if (outcome === 'pending') {
          expect(res.statusCode, where).toBe(202);
          expect(res.json().status, where).toBe('pending');
        } else {
          expect(res.statusCode, where).toBe(ERRORS[outcome].status);
          expect(res.json().errorcode, where).toBe(ERRORS[outcome].code);
          expect(await people(fixtures.id), `${where}: refused, and nothing changed`).toEqual(before);
        }
        // a pending call changes who owns or consults nothing
        if (outcome === 'pending') {
          const after = await people(fixtures.id);
          expect([after?.owner_userid, after?.consultant_userid], where).toEqual([
            before?.owner_userid,
            before?.consultant_userid,
          ]);
        }
        const flag = FLAG[action];
        if (flag) {
          const fresh = await setUp(state);
          const p = await t.app.inject({
            method: 'GET',
            url: `/v1/xpoint/${fresh.id}/permissions`,
            headers: headers[role],
          });
          expect(p.json()[flag], `${flag} for ${where}`).toBe(outcome === 'ok');
        }
        cells += 1;
      }
    expect(cells).toBeGreaterThan(ACTIONS.length * 3);
  });
});
