import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewPoint } from '../../src/server/store/schema';
import { openTestApp, type TestApp } from '../support/app';
import { TEST_DIALECTS } from '../support/store';
import { bearer, registerUser, signIn, createAdmin } from '../support/accounts';
import { newPoint } from '../support/factories';

/**
 * GET /v1/webonly/xpointdetails/{id}, GET /v1/webonly/eventdetails/{id} and
 * POST /v1/webonly/xpointdetails/healthphoto through HTTP, on a point of every supertype, as every
 * role (visitor, signed-in stranger, owner, consultant, admin). Expected values are written out
 * here (or computed with Intl for time zones), not with the display modules under test.
 */
const PASSWORD = 'details-password-1';
const ROLES = ['visitor', 'stranger', 'owner', 'consultant', 'admin'] as const;
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
] as const;
const REPORTS = new Set<string>(['helprequest', 'incident']);
const CONTROLS: Record<Role, boolean> = {
  visitor: false,
  stranger: false,
  owner: true,
  consultant: true,
  admin: true,
};
const PREFIX: Record<string, string> = {
  business: 'b',
  poi: 'p',
  virtualstore: 's',
  service: 'm',
  experience: 'exp',
  rental: 'rent',
  helprequest: 'h',
  incident: 'i',
};
const SITES = [{ icon: 'instagram', title: 'Instagram', url: 'https://instagram.example/shop' }];
const LONG_DESCRIPTION = `${'Fresh bread every morning. '.repeat(11)}The end.`; // 305 characters
const MIN = 60_000;
const NYC_CITY = 5128581;

describe.each(TEST_DIALECTS)('point and event details over HTTP (%s)', (dialect) => {
  let t: TestApp;
  let now = 0;
  const headers: Record<Role, Record<string, string>> = {
    visitor: {},
    stranger: {},
    owner: {},
    consultant: {},
    admin: {},
  };
  const userIds: Record<string, string> = {};

  beforeAll(async () => {
    t = await openTestApp({ dialect });
    for (const name of ['olivia', 'carlos', 'uma'])
      expect((await registerUser(t, name, PASSWORD)).statusCode).toBe(201);
    await createAdmin(t, PASSWORD);
    const owner = await signIn(t, 'olivia', PASSWORD);
    const consultant = await signIn(t, 'carlos', PASSWORD);
    const stranger = await signIn(t, 'uma', PASSWORD);
    const admin = await signIn(t, 'admin', PASSWORD);
    headers.owner = bearer(owner.token);
    headers.consultant = { cookie: consultant.cookie };
    headers.stranger = bearer(stranger.token);
    headers.admin = { cookie: admin.cookie };
    for (const [name, s] of Object.entries({ olivia: owner, carlos: consultant, uma: stranger, admin }))
      userIds[name] = s.id;
    await t.store.db
      .updateTable('users')
      .set({ avatar_url: '/media/olivia.webp', status: 'busy' })
      .where('id', '=', owner.id)
      .execute();

    await t.store.db
      .insertInto('cities')
      .values({
        id: NYC_CITY,
        city: 'New York City',
        city_forurl: 'new-york-city-us',
        state: 'New York',
        country: 'United States',
        iso2: 'US',
        lat: 40.71,
        lon: -74.0,
        population: 8_000_000,
        time_zone: 'America/New_York',
      })
      .execute();

    now = Date.now();
    const rows: NewPoint[] = [];
    for (const supertype of SUPERTYPES) {
      rows.push(
        newPoint({
          id: `pm_${supertype}`,
          supertype,
          type: 'custom',
          subtype: 'sub',
          title: `Managed ${supertype}`,
          tagline: 'The best one',
          description: LONG_DESCRIPTION,
          has_app: 1,
          owner_userid: owner.id,
          consultant_userid: consultant.id,
          city_id: NYC_CITY,
          full_address: '40.712778,-74.006111',
          lat: 40.712778,
          lon: -74.006111,
          link_email: 'hello@shop.example',
          link_phone: '+1 212 555 0100',
          link_website: 'https://shop.example',
          link_facebook: 'facebook.example/shop',
          rating: 86,
          rating_count: 7,
          xsites_json: JSON.stringify(SITES),
          stats_total: 12,
          stats_prev_month: 0,
          stats_this_month: -1,
          stats_today: 3,
          opening_hours: '24/7',
          time_zone_name: 'America/New_York',
          resellerid: 'r1',
          beamtype: 1 | 4,
          url_icon_or_logo: '/media/logo.webp',
          url_cover_video: supertype === 'business' ? '/media/cover.mp4' : null,
          url_cover_image: '/media/cover.webp',
          help_taskduration_minutes: 90,
          help_taskbudget: 25.5,
          help_taskstart: now + 86_400_000,
          help_canacceptjob: 1,
          help_canquote: 0,
          meonmap_enabled: 1,
          meonmap_xpointid: `pm_${supertype}`,
          xpoint_service: 'Plumbing',
          owner_dynamic_last_update: now - 5 * MIN,
          owner_callchat_priceperminute: 1.5,
          pickup_destination: 'Back door',
          pickup_date_time: supertype === 'virtualstore' ? now + 3_600_000 : null,
          delivery_lat: 40.7,
          delivery_lng: -73.9,
          updated_at: now - 1000,
        }),
        newPoint({ id: `pu_${supertype}`, supertype, type: 'custom' }),
        newPoint({
          id: `pc_${supertype}`,
          supertype,
          type: 'custom',
          owner_userid: owner.id,
          consultant_userid: null,
          allow_consulting: 0,
        }),
      );
    }
    rows.push(
      newPoint({
        id: 'street_addr',
        full_address: '12 Main St, Springfield',
        description: 'Short.',
        opening_hours: 'whenever the owner feels like it',
        link_website: 'www.shop.example',
        link_facebook: 'javascript:alert(1)',
      }),
      // no zone of its own, no city: the zone comes from its coordinates (Tokyo)
      newPoint({ id: 'tokyo', lat: 35.6762, lon: 139.6503, opening_hours: 'Mo-Su 00:00-12:00' }),
      newPoint({ id: 'pending_health', health_status: 1 }),
    );
    await t.store.db.insertInto('points').values(rows).execute();
    await t.store.db
      .insertInto('point_screenshots')
      .values([
        { point_id: 'pm_business', position: 2, url: '/media/s2.webp' },
        { point_id: 'pm_business', position: 1, url: '/media/s1.webp' },
        { point_id: 'pm_business', position: 14, url: '/media/s14.webp' },
      ])
      .execute();
    await t.store.db
      .insertInto('contacts')
      .values([
        {
          point_id: 'pm_business',
          roleid: 'CUST',
          roleoverride: 'Head chef',
          contact_firstname: 'Ana',
          position: 4,
        },
        { point_id: 'pm_business', roleid: 'ADMN', contact_firstname: 'Ben', position: 1 },
        {
          point_id: 'pm_business',
          roleid: '_CEO',
          contact_firstname: 'Cy',
          contact_username: 'cy',
          position: 2,
        },
        {
          point_id: 'pm_business',
          roleid: 'OWNR',
          contact_firstname: 'Di',
          avatar_url: '/media/di.webp',
          position: 3,
        },
      ])
      .execute();
    await t.store.db
      .updateTable('points')
      .set({ health_status: 2 })
      .where('id', '=', 'pm_business')
      .execute();
    await t.store.db
      .insertInto('point_health_photos')
      .values([
        { point_id: 'pm_business', position: 2, url: '/media/h2.webp', verified_at: now },
        { point_id: 'pm_business', position: 1, url: '/media/h1.webp', verified_at: now },
        { point_id: 'pending_health', position: 1, url: '/media/hidden.webp', verified_at: null },
      ])
      .execute();

    const event = (id: string, startMin: number, endMin: number, fields: Record<string, unknown> = {}) => ({
      id,
      xpoint_id: 'pm_business',
      owner_userid: owner.id,
      title: `Event ${id}`,
      type: 'concert',
      start_date: now + startMin * MIN,
      end_date: now + endMin * MIN,
      lat: 40.712778,
      lon: -74.006111,
      admission: 'free',
      created_at: now,
      updated_at: now,
      ...fields,
    });
    await t.store.db
      .insertInto('events')
      .values([
        event('e_cur', -30, 120, {
          admission: 'paid',
          admissionprice: 12.5,
          website: 'https://tickets.example/e',
          description: LONG_DESCRIPTION,
          full_address: '40.712778,-74.006111',
          city_id: NYC_CITY,
          cover_url: '/media/ev.webp',
        }),
        event('e_up', 60, 180),
        event('e_later', 3 * 24 * 60, 3 * 24 * 60 + 60),
        // first interval closed yesterday, the second runs now: not current by §4
        event('e_multi', -24 * 60, 60),
        ...Array.from({ length: 10 }, (_, i) =>
          event(`e_past${i}`, -(i + 2) * 24 * 60, -(i + 2) * 24 * 60 + 60),
        ),
      ])
      .execute();
    // more past events than the JSON carries
    await t.store.db
      .insertInto('points')
      .values(newPoint({ id: 'many_past' }))
      .execute();
    await t.store.db
      .insertInto('events')
      .values(
        Array.from({ length: 205 }, (_, i) => ({
          ...event(`mp${i}`, -(i + 1) * 60, -(i + 1) * 60 + 30),
          xpoint_id: 'many_past',
        })),
      )
      .execute();
    await t.store.db
      .insertInto('event_intervals')
      .values([
        { event_id: 'e_cur', start_at: now - 30 * MIN, end_at: now + 120 * MIN },
        { event_id: 'e_multi', start_at: now - 30 * MIN, end_at: now + 60 * MIN },
        { event_id: 'e_multi', start_at: now - 24 * 60 * MIN, end_at: now - 23 * 60 * MIN },
      ])
      .execute();
    await t.store.db
      .insertInto('event_tickets')
      .values([
        { event_id: 'e_cur', name: 'Standard', unit_price: 12.5, max_quantity: 3 },
        { event_id: 'e_cur', name: 'Cheap', unit_price: 0.1, max_quantity: 3 },
      ])
      .execute();
  });
  afterAll(() => t?.close());

  const get = async (url: string, role: Role = 'visitor') => {
    const res = await t.app.inject({ method: 'GET', url, headers: headers[role] });
    return res;
  };
  const point = async (id: string, role: Role = 'visitor') => {
    const res = await get(`/v1/webonly/xpointdetails/${id}`, role);
    expect(res.statusCode, `${id} as ${role}: ${res.body}`).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    return res.json();
  };

  it('answers every §3 field of a business', async () => {
    const p = await point('pm_business');
    expect(p).toMatchObject({
      id: 'pm_business',
      supertype: 'business',
      type: 'custom',
      subtype: 'sub',
      title: 'Managed business',
      tagline: 'The best one',
      description: LONG_DESCRIPTION,
      description_display: { collapsible: true },
      url: '/b/pm_business',
      has_app: true,
      owner_userid: userIds['olivia'],
      owner_username: 'olivia',
      owner_fullname: 'olivia Tester',
      owner_avatar: '/media/olivia.webp',
      owner_status: 'busy',
      consultant_username: 'carlos',
      consultant_fullname: 'carlos Tester',
      location: { country: 'United States', city: 'New York City', city_forurl: 'new-york-city-us' },
      full_address: '40.712778,-74.006111',
      full_address_display: '40°42′46″N 74°00′22″W',
      link_email: 'hello@shop.example',
      links: {
        email: { href: 'mailto:hello@shop.example' },
        phone: { href: 'tel:+12125550100' },
        website: { text: 'https://shop.example', href: 'https://shop.example' },
        facebook: { text: 'facebook.example/shop', href: null },
      },
      url_icon_or_logo: '/media/logo.webp',
      url_cover_video: '/media/cover.mp4',
      url_cover_image: '/media/cover.webp',
      rating: 86,
      rating_count: 7,
      rating_display: '4.3',
      healthdata: {
        status: 2,
        status_name: 'verified',
        photos: [
          { position: 1, url: '/media/h1.webp' },
          { position: 2, url: '/media/h2.webp' },
        ],
      },
      xpStats: { total: 12, prev_month: 0, this_month: -1, today: 3 },
      xpStats_display: { total: '12', prev_month: '0', this_month: '0', today: '3' },
      opening_hours: {
        opening_hours_string: '24/7',
        time_zone_name: 'America/New_York',
        state: 'open',
        open: true,
        error: null,
      },
      resellerid: 'r1',
      time_zone_name: 'America/New_York',
      lastmodified: now - 1000,
      beamtype: 5,
      beamtypes: ['hot', 'upcoming'],
      marker: {
        id: 'pm_business',
        lat: 40.712778,
        lng: -74.006111,
        title: 'Managed business',
        data: { hotpointclickurl: '/b/pm_business' },
      },
      pickup: null,
      helprequestdata: null,
      meonmap_enabled: null,
      xpointService: null,
      owner_callchat_priceperminute: null,
      da_xpoint_settings: { allow_consulting: true },
    });
    expect(p.description_display.preview).toBe(`${LONG_DESCRIPTION.slice(0, 250).trimEnd()}…`);
    expect(p.screenshots.url_screenshot_1).toBe('/media/s1.webp');
    expect(p.screenshots.url_screenshot_2).toBe('/media/s2.webp');
    expect(p.screenshots.url_screenshot_3).toBeNull();
    expect(p.screenshots.url_screenshot_14).toBe('/media/s14.webp');
    expect(Object.keys(p.screenshots)).toHaveLength(14);
    expect(p.carousel).toEqual([
      { kind: 'video', url: '/media/cover.mp4', poster: '/media/cover.webp' },
      { kind: 'image', url: '/media/s1.webp' },
      { kind: 'image', url: '/media/s2.webp' },
      { kind: 'image', url: '/media/s14.webp' },
    ]);
    expect(p.contacts).toEqual([
      expect.objectContaining({ roleid: 'ADMN', role_text: 'Administrator', contact_firstname: 'Ben' }),
      expect.objectContaining({ roleid: '_CEO', role_text: 'CEO', contact_username: 'cy' }),
      expect.objectContaining({ roleid: 'OWNR', role_text: 'Business owner', avatar_url: '/media/di.webp' }),
      expect.objectContaining({ roleid: 'CUST', roleoverride: 'Head chef', role_text: 'Head chef' }),
    ]);
  });

  it('splits the events per §4: upcoming within 120 minutes, current in the first interval, past', async () => {
    const { events } = await point('pm_business');
    const ids = (list: { id: string }[]) => list.map((e) => e.id);
    expect(ids(events.current)).toEqual(['e_cur']);
    expect(ids(events.upcoming)).toEqual(['e_up']);
    expect(ids(events.later)).toEqual(['e_multi', 'e_later']);
    expect(ids(events.past)).toEqual(Array.from({ length: 10 }, (_, i) => `e_past${i}`));
    expect(events.past_total).toBe(10);
    expect(events.upcoming[0]).toMatchObject({ status: 'upcoming', url: '/e/e_up', minutes_to_start: 59 });
    expect(events.current[0]).toMatchObject({
      status: 'current',
      admission: 'paid',
      admissionprice: 12.5,
      first_interval: { start: now - 30 * MIN, end: now + 120 * MIN },
    });
    expect(events.later[0]).toMatchObject({ first_interval: { start: now - 24 * 60 * MIN } });
  });

  it('carries the 200 most recent past events and counts them all', async () => {
    const { events } = await point('many_past');
    expect(events.past).toHaveLength(200);
    expect(events.past_total).toBe(205);
    expect(events.past[0].id).toBe('mp0');
    expect(events.past[199].id).toBe('mp199');
  });

  it.each(SUPERTYPES)('a managed %s: fields and controls for every role', async (supertype) => {
    for (const role of ROLES) {
      const p = await point(`pm_${supertype}`, role);
      const controls = CONTROLS[role];
      const report = REPORTS.has(supertype);
      const here = `/${PREFIX[supertype]}/pm_${supertype}`;
      expect(p.url).toBe(here);
      expect(p.permissions, `${supertype} as ${role}`).toMatchObject({
        controllable: controls,
        isOwner: role === 'owner',
        isConsultant: role === 'consultant',
      });
      // §6: only owner, consultant (and admin) see sites; reports never have them
      expect(p.xsites_json, `sites of ${supertype} as ${role}`).toEqual(
        controls && !report ? { data: SITES } : null,
      );
      // §5: the consultant is hidden on reports
      expect(p.consultant_username).toBe(report ? null : 'carlos');
      const success = `successUrl=${encodeURIComponent(here)}`;
      const edit =
        supertype === 'service'
          ? `/MeOnMap/Edit?id=pm_service&${success}`
          : supertype === 'experience'
            ? `/MyExperience/Edit?id=pm_experience&${success}`
            : supertype === 'rental'
              ? `/MyRental/Edit?id=pm_rental&${success}`
              : `${here}/Edit?${success}`;
      const remove =
        supertype === 'experience'
          ? `/MyExperience/Delete?id=pm_experience&${success}`
          : supertype === 'rental'
            ? `/MyRental/Delete?id=pm_rental&${success}`
            : `/MyXPoints/Delete/pm_${supertype}?${success}`;
      expect(p.controls, `controls of ${supertype} as ${role}`).toEqual({
        edit: controls ? edit : null,
        // a consultant never deletes (issue 16)
        delete: controls && role !== 'consultant' ? remove : null,
        copy_to_new:
          controls && supertype === 'helprequest' ? `/h/pm_helprequest/CopyToNew?${success}` : null,
        add_child_event: controls ? `/Event/AddAsChild?parentid=pm_${supertype}` : null,
        invite_review: controls ? `/Review/InviteReview?appid=pm_${supertype}` : null,
        claim: null,
        claim_text: false,
        become_consultant: null,
        stop_consulting:
          role === 'consultant' ? `/business/ClearConsultant/pm_${supertype}?${success}` : null,
        // the owner (or an admin) removes the consultant, on the same confirming page
        dismiss_consultant:
          role === 'owner' || role === 'admin'
            ? `/business/ClearConsultant/pm_${supertype}?${success}`
            : null,
        consultant_requests: role === 'owner' || role === 'admin',
        claim_pending: false,
        consult_request_pending: false,
        fullscreen: report ? null : `/pm_${supertype}`,
        book: supertype === 'rental' ? '/rental/pm_rental/2' : null,
      });
      // service fields only on services (§6)
      if (supertype === 'service') {
        expect(p).toMatchObject({
          owner_status: 'busy',
          meonmap_enabled: true,
          meonmap_xpointid: 'pm_service',
          xpointService: 'Plumbing',
          owner_dynamic_last_update: now - 5 * MIN,
          owner_callchat_priceperminute: 1.5,
          owner_callchat_priceperminute_display: '1.50',
        });
      } else {
        expect(p.meonmap_enabled).toBeNull();
        expect(p.owner_callchat_priceperminute_display).toBeNull();
      }
      // help-request data only on help requests, duration in hours
      expect(p.helprequestdata).toEqual(
        supertype === 'helprequest'
          ? {
              taskduration_minutes: 90,
              taskduration_hours: 1.5,
              taskduration_display: '1.5',
              taskbudget: 25.5,
              taskbudget_display: '25.50',
              taskstart: now + 86_400_000,
              canacceptjob: true,
              canquote: false,
            }
          : null,
      );
      // pickup only with its date and time (§5)
      expect(p.pickup).toEqual(
        supertype === 'virtualstore'
          ? {
              pickup_destination: 'Back door',
              pickup_date_time: now + 3_600_000,
              delivery_lat: 40.7,
              delivery_lng: -73.9,
            }
          : null,
      );
      expect(p.carousel[0]).toEqual(
        supertype === 'business'
          ? { kind: 'video', url: '/media/cover.mp4', poster: '/media/cover.webp' }
          : { kind: 'image', url: '/media/cover.webp' },
      );
    }
  });

  it.each(SUPERTYPES)(
    'an unowned %s offers claim (text for experience and rental) and become-consultant',
    async (supertype) => {
      for (const role of ROLES) {
        const p = await point(`pu_${supertype}`, role);
        const report = REPORTS.has(supertype);
        expect(p.owner_username).toBeNull();
        expect(p.controls.claim).toBe(`/business/claim/pu_${supertype}`);
        expect(p.controls.claim_text).toBe(supertype === 'experience' || supertype === 'rental');
        expect(p.controls.become_consultant).toBe(report ? null : `/business/becomecm/pu_${supertype}`);
        expect(p.controls.edit).toEqual(role === 'admin' ? expect.stringContaining('pu_') : null);
        expect(p.opening_hours).toBeNull();
        // no zone of its own, no city: from its coordinates (0, 0 is at sea)
        expect(p.time_zone_name).toBe('Etc/GMT');
        expect(p.location).toBeNull();
        expect(p.rating_display).toBeNull();
        expect(p.xpStats_display).toEqual({ total: '0', prev_month: '0', this_month: '0', today: '0' });
      }
    },
  );

  it.each(SUPERTYPES)(
    'an owned %s with consulting off and no consultant hides the consultant (§5)',
    async (supertype) => {
      const p = await point(`pc_${supertype}`, 'owner');
      expect(p.consultant_username).toBeNull();
      expect(p.permissions.showConsultant).toBe(false);
      expect(p.controls.become_consultant).toBeNull();
      expect(p.da_xpoint_settings).toEqual({ allow_consulting: false });
    },
  );

  it('shows a street address as written, unsafe links as plain text, and an unparseable opening hours string', async () => {
    const p = await point('street_addr');
    expect(p.full_address_display).toBe('12 Main St, Springfield');
    expect(p.description_display).toEqual({ preview: 'Short.', collapsible: false });
    expect(p.links.website).toEqual({ text: 'www.shop.example', href: null });
    expect(p.links.facebook).toEqual({ text: 'javascript:alert(1)', href: null });
    expect(p.opening_hours).toMatchObject({
      opening_hours_string: 'whenever the owner feels like it',
      text: 'whenever the owner feels like it',
      state: 'unknown',
      open: null,
    });
    expect(p.opening_hours.error).toEqual(expect.any(String));
    expect(p.healthdata).toEqual({ status: 0, status_name: 'undefined', photos: [] });
  });

  it('evaluates opening hours in the zone of the point coordinates when it has none', async () => {
    const p = await point('tokyo');
    const tokyoHour = Number(
      new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Tokyo', hour: '2-digit', hourCycle: 'h23' }).format(
        new Date(),
      ),
    );
    expect(p.opening_hours.time_zone_name).toBe('Asia/Tokyo');
    expect(p.time_zone_name).toBe('Asia/Tokyo');
    expect(p.opening_hours.open).toBe(tokyoHour < 12);
    expect(p.opening_hours.next_change).toMatch(tokyoHour < 12 ? /T12:00$/ : /T00:00$/);
  });

  it('pending health status has no photos, even if some are stored', async () => {
    const p = await point('pending_health');
    expect(p.healthdata).toEqual({ status: 1, status_name: 'verificationpending', photos: [] });
  });

  it('answers 400 for a malformed id and 404 for an unknown one, as JSON', async () => {
    for (const bad of ['bad$id', 'a.b', 'x'.repeat(65), '%C3%A9t%C3%A9']) {
      const res = await get(`/v1/webonly/xpointdetails/${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toEqual({ errorcode: 6705, error: 'Param [xpointId] is invalid!' });
    }
    const missing = await get('/v1/webonly/xpointdetails/nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ errorcode: 2010, error: 'There is no point with id nope.' });
    expect(missing.headers['content-type']).toContain('application/json');
  });

  describe('event details', () => {
    const event = async (id: string, role: Role = 'visitor') => {
      const res = await get(`/v1/webonly/eventdetails/${id}`, role);
      expect(res.statusCode, `${id}: ${res.body}`).toBe(200);
      return res.json();
    };

    it('answers every §3 event field', async () => {
      const e = await event('e_cur');
      expect(e).toMatchObject({
        id: 'e_cur',
        title: 'Event e_cur',
        cover_url: '/media/ev.webp',
        type: 'concert',
        start_date: now - 30 * MIN,
        end_date: now + 120 * MIN,
        status: 'current',
        owner_username: 'olivia',
        owner_fullname: 'olivia Tester',
        xpoint_id: 'pm_business',
        xpoint_title: 'Managed business',
        xpoint_url: '/b/pm_business',
        admission: 'paid',
        admissionprice: 12.5,
        admissionprice_display: '12.50',
        website: 'https://tickets.example/e',
        website_link: { href: 'https://tickets.example/e' },
        description_display: { collapsible: true },
        url: '/e/e_cur',
        location: {
          lat: 40.712778,
          lon: -74.006111,
          full_address_display: '40°42′46″N 74°00′22″W',
          city: 'New York City',
          city_forurl: 'new-york-city-us',
        },
        intervals: [{ start: now - 30 * MIN, end: now + 120 * MIN }],
      });
      // tickets: quantity x unit price, cheapest first
      expect(e.tickets).toEqual([
        expect.objectContaining({
          name: 'Cheap',
          unit_price: 0.1,
          unit_price_display: '0.10',
          max_quantity: 3,
          options: [
            { quantity: 1, total: 0.1, display: '0.10' },
            { quantity: 2, total: 0.2, display: '0.20' },
            { quantity: 3, total: 0.3, display: '0.30' },
          ],
        }),
        expect.objectContaining({
          name: 'Standard',
          options: [
            { quantity: 1, total: 12.5, display: '12.50' },
            { quantity: 2, total: 25, display: '25.00' },
            { quantity: 3, total: 37.5, display: '37.50' },
          ],
        }),
      ]);
    });

    it('upcoming, later and the first interval rule', async () => {
      expect((await event('e_up')).status).toBe('upcoming');
      expect((await event('e_later')).status).toBe('later');
      const multi = await event('e_multi');
      expect(multi.status).toBe('later');
      expect(multi.intervals).toHaveLength(2);
      expect((await event('e_past0')).status).toBe('past');
    });

    it('controls for the event owner and admins only', async () => {
      for (const role of ROLES) {
        const e = await event('e_cur', role);
        const controls = role === 'owner' || role === 'admin';
        const success = `successUrl=${encodeURIComponent('/e/e_cur')}`;
        expect(e.controls, role).toEqual({
          edit: controls ? `/e/e_cur/Edit?${success}` : null,
          copy: controls ? `/e/e_cur/CopyToNew?${success}` : null,
          delete: controls ? `/MyEvents/DeleteFromMap/e_cur?${success}` : null,
        });
      }
    });

    it('answers 400 and 404 as JSON', async () => {
      const bad = await get('/v1/webonly/eventdetails/bad$id');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ errorcode: 2012, error: 'Param [eventId] is invalid!' });
      const missing = await get('/v1/webonly/eventdetails/nope');
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ errorcode: 2011, error: 'There is no event with id nope.' });
    });
  });

  describe('health photos', () => {
    const photos = (payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/webonly/xpointdetails/healthphoto',
        payload: payload as object,
      });

    it('answers the verified photos as a map of entries with url', async () => {
      const res = await photos({ id: 'pm_business' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        id: 'pm_business',
        status: 2,
        photos: { '1': { url: '/media/h1.webp' }, '2': { url: '/media/h2.webp' } },
      });
    });
    it('answers no photos while verification is pending', async () => {
      expect((await photos({ id: 'pending_health' })).json()).toEqual({
        id: 'pending_health',
        status: 1,
        photos: {},
      });
    });
    it('refuses a missing, malformed or unknown id', async () => {
      const missing = await photos({});
      expect(missing.statusCode).toBe(400);
      expect(missing.json().errorcode).toBe(6013);
      const bad = await photos({ id: 'a b' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errorcode).toBe(6705);
      const unknown = await photos({ id: 'nope' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().errorcode).toBe(2010);
    });
  });
});
