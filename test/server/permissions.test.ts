import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewPoint } from '../../src/server/store/schema';
import { openTestApp, type TestApp } from '../support/app';
import { TEST_DIALECTS } from '../support/store';
import { bearer, registerUser, signIn, createAdmin } from '../support/accounts';
import { newPoint } from '../support/factories';

/**
 * The permission matrix of map-and-search §5 and §6, through HTTP: every role (visitor, plain user,
 * owner, consultant, admin) against every action, on a point of every supertype and on an event.
 * Expected values are written out here, not computed with the module under test.
 */
const PASSWORD = 'matrix-password-1';
const ROLES = ['visitor', 'plain', 'owner', 'consultant', 'admin'] as const;
type Role = (typeof ROLES)[number];
const SUPERTYPES = [
  'business',
  'poi',
  'virtualstore',
  'service',
  'experience',
  'rental',
  'helprequest',
  'incident',
];
const REPORTS = new Set(['helprequest', 'incident']);

/** Per role: who controls a point that has an owner (olivia) and a consultant (carlos). */
const CONTROLS: Record<Role, boolean> = {
  visitor: false,
  plain: false,
  owner: true,
  consultant: true,
  admin: true,
};
/** Per role: who controls an event owned by olivia (the consultant of her points does not). */
const CONTROLS_EVENT: Record<Role, boolean> = {
  visitor: false,
  plain: false,
  owner: true,
  consultant: false,
  admin: true,
};

describe.each(TEST_DIALECTS)('permission matrix over HTTP (%s)', (dialect) => {
  let t: TestApp;
  const headers: Record<Role, Record<string, string>> = {
    visitor: {},
    plain: {},
    owner: {},
    consultant: {},
    admin: {},
  };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await openTestApp({ dialect });
    for (const name of ['olivia', 'carlos', 'uma'])
      expect((await registerUser(t, name, PASSWORD)).statusCode).toBe(201);
    await createAdmin(t, PASSWORD);
    const signed = {
      owner: await signIn(t, 'olivia', PASSWORD),
      consultant: await signIn(t, 'carlos', PASSWORD),
      plain: await signIn(t, 'uma', PASSWORD),
      admin: await signIn(t, 'admin', PASSWORD),
    };
    // API clients use the token, the browser the cookie: both must resolve the same viewer
    headers.owner = bearer(signed.owner.token);
    headers.consultant = { cookie: signed.consultant.cookie };
    headers.plain = bearer(signed.plain.token);
    headers.admin = { cookie: signed.admin.cookie };

    const userId = (username: string) =>
      t.store.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow();
    const olivia = (await userId('olivia')).id;
    const carlos = (await userId('carlos')).id;
    const now = Date.now();
    const rows: NewPoint[] = [];
    const point = (id: string, supertype: string, fields: Partial<NewPoint>): NewPoint =>
      newPoint({
        id,
        supertype,
        type: 'custom',
        lat: 1,
        lon: 1,
        created_at: now,
        updated_at: now,
        ...fields,
      });
    for (const supertype of SUPERTYPES) {
      ids[`${supertype}:managed`] = `pm_${supertype}`;
      rows.push(point(`pm_${supertype}`, supertype, { owner_userid: olivia, consultant_userid: carlos }));
      ids[`${supertype}:unowned`] = `pu_${supertype}`;
      rows.push(point(`pu_${supertype}`, supertype, { owner_userid: null, consultant_userid: null }));
      ids[`${supertype}:closed`] = `pc_${supertype}`;
      rows.push(
        point(`pc_${supertype}`, supertype, {
          owner_userid: olivia,
          consultant_userid: null,
          allow_consulting: 0,
        }),
      );
    }
    await t.store.db.insertInto('points').values(rows).execute();
    await t.store.db
      .insertInto('events')
      .values({
        id: 'ev_olivia',
        xpoint_id: 'pm_business',
        owner_userid: olivia,
        title: 'Olivia’s opening',
        type: 'party',
        start_date: now,
        end_date: now + 3600_000,
        lat: 1,
        lon: 1,
        admission: 'free',
        created_at: now,
        updated_at: now,
      })
      .execute();
  });
  afterAll(() => t?.close());

  const permissions = async (kind: 'xpoint' | 'event', id: string, role: Role) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/${kind}/${id}/permissions`,
      headers: headers[role],
    });
    expect(res.statusCode, `${kind} ${id} as ${role}`).toBe(200);
    return res.json();
  };

  it.each(SUPERTYPES)(
    'a managed %s: owner, consultant and admin control it; others do not',
    async (supertype) => {
      for (const role of ROLES) {
        const p = await permissions('xpoint', ids[`${supertype}:managed`] ?? '', role);
        const controls = CONTROLS[role];
        expect(p, `${supertype} as ${role}`).toMatchObject({
          controllable: controls,
          canEdit: controls,
          // a consultant never deletes (issue 16)
          canDelete: controls && role !== 'consultant',
          canInviteReview: controls,
          canAddChildEvent: controls,
          canSeeExternalSites: controls,
          isOwner: role === 'owner',
          isConsultant: role === 'consultant',
          canStopConsulting: role === 'consultant',
          canDismissConsultant: role === 'owner' || role === 'admin',
          canAnswerConsultantRequests: role === 'owner' || role === 'admin',
          claimPending: false,
          consultRequestPending: false,
          canCopyToNew: supertype === 'helprequest' && controls,
          canUseChat: role !== 'visitor',
          canHaveSites: !REPORTS.has(supertype),
          showFullscreen: !REPORTS.has(supertype),
          showConsultant: !REPORTS.has(supertype),
          showClaimLink: false,
          claimText: false,
          showBecomeConsultant: false,
          showServiceDetails: supertype === 'service',
        });
      }
    },
  );

  it.each(SUPERTYPES)(
    'an unowned %s: claim and become-consultant links for everyone, control only for admin',
    async (supertype) => {
      for (const role of ROLES) {
        const p = await permissions('xpoint', ids[`${supertype}:unowned`] ?? '', role);
        expect(p, `${supertype} as ${role}`).toMatchObject({
          controllable: role === 'admin',
          canEdit: role === 'admin',
          canDelete: role === 'admin',
          canSeeExternalSites: role === 'admin',
          isOwner: false,
          isConsultant: false,
          canStopConsulting: false,
          canCopyToNew: supertype === 'helprequest' && role === 'admin',
          showClaimLink: true,
          claimText: supertype === 'experience' || supertype === 'rental',
          showBecomeConsultant: true,
          showConsultant: !REPORTS.has(supertype),
          canHaveSites: !REPORTS.has(supertype),
          showFullscreen: !REPORTS.has(supertype),
        });
      }
    },
  );

  it.each(SUPERTYPES)(
    'an owned %s without consultant and with consulting off hides the consultant; the owner still controls it',
    async (supertype) => {
      for (const role of ROLES) {
        const p = await permissions('xpoint', ids[`${supertype}:closed`] ?? '', role);
        const controls = role === 'owner' || role === 'admin';
        expect(p, `${supertype} as ${role}`).toMatchObject({
          controllable: controls,
          canSeeExternalSites: controls,
          isConsultant: false,
          canStopConsulting: false,
          showConsultant: false,
          showClaimLink: false,
          showBecomeConsultant: true,
        });
      }
    },
  );

  it('an event: its owner and admins copy, edit and delete it; the point consultant, a user and a visitor do not', async () => {
    for (const role of ROLES) {
      const controls = CONTROLS_EVENT[role];
      expect(await permissions('event', 'ev_olivia', role), role).toEqual({
        controllable: controls,
        canEdit: controls,
        canDelete: controls,
        canCopy: controls,
      });
    }
  });

  it('answers an unknown point or event with 404 and a malformed id with 400', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/v1/xpoint/nope/permissions' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ errorcode: 2010, error: 'There is no point with id nope.' });
    const bad = await t.app.inject({ method: 'GET', url: '/v1/xpoint/bad%20id/permissions' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ errorcode: 6705, error: 'Param [xpointId] is invalid!' });
    const noEvent = await t.app.inject({ method: 'GET', url: '/v1/event/nope/permissions' });
    expect(noEvent.statusCode).toBe(404);
    expect(noEvent.json()).toEqual({ errorcode: 2011, error: 'There is no event with id nope.' });
  });

  it('a tampered token is a 401, not a visitor', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/xpoint/pm_business/permissions',
      headers: bearer('x'.repeat(43) + '.' + 'y'.repeat(43)),
    });
    expect(res.statusCode).toBe(401);
  });
});
