import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpeningHours from 'opening_hours';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, TEST_DIALECTS, type TestStore } from '../../../test/support/store';
import { verifyPassword } from '../features/accounts/password';
import { BeamFlag } from '../../shared/domain/beams';
import { categoriesFor } from '../../shared/domain/categories';
import { POST_CATEGORIES, POST_PLACEHOLDERS, USER_STATUSES } from '../../shared/domain/enums';
import { isValidId } from '../../shared/domain/ids';
import { POINT_SUPERTYPES } from '../../shared/domain/supertypes';
import { groupKeyOf } from '../features/notifications/queries';
import { UNPARSEABLE_OPENING_HOURS } from './content';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, checkOpeningHours, seedDemoData, type SeedSummary } from './generate';
import { FIXTURE_CITIES } from './test-cities';

/** A fixed moment, so event timings are exact: Sunday 15 June 2025, 14:07:30 UTC. */
const NOW = Date.UTC(2025, 5, 15, 14, 7, 30);
const POINTS = 500;
const SEED = 42;
const MINUTE = 60_000;

interface Seeded {
  store: TestStore;
  dataDir: string;
  summary: SeedSummary;
}

async function seeded(dialect: (typeof TEST_DIALECTS)[number], seed = SEED): Promise<Seeded> {
  const store = await openTestStore(dialect);
  await store.db.insertInto('cities').values(FIXTURE_CITIES).execute();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-seed-'));
  const summary = await seedDemoData(store, { points: POINTS, seed, now: NOW, dataDir });
  return { store, dataDir, summary };
}

async function dispose(s: Seeded | undefined): Promise<void> {
  if (!s) return;
  await s.store.dispose();
  fs.rmSync(s.dataDir, { recursive: true, force: true });
}

describe('seed opening hours', () => {
  it('parse cleanly, and the deliberately free-text ones do not', () => {
    expect(() => checkOpeningHours()).not.toThrow();
  });
});

describe.each(TEST_DIALECTS)('seedDemoData on %s', (dialect) => {
  let main: Seeded | undefined;
  const s = () => main as Seeded;
  const db = () => s().store.db;

  beforeAll(async () => {
    main = await seeded(dialect);
  });
  afterAll(async () => {
    await dispose(main);
  });

  it('reports the rows it wrote', async () => {
    const { summary } = s();
    const count = async (
      table: 'points' | 'users' | 'events' | 'posts' | 'reviews' | 'comments' | 'likes' | 'follows',
    ) =>
      Number(
        (
          await db()
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(summary.points).toBe(POINTS);
    expect(await count('points')).toBe(POINTS);
    expect(await count('users')).toBe(summary.users);
    expect(await count('events')).toBe(summary.events);
    expect(await count('posts')).toBe(summary.posts);
    expect(await count('reviews')).toBe(summary.reviews);
    expect(await count('comments')).toBe(summary.comments);
    expect(await count('likes')).toBe(summary.likes);
    expect(await count('follows')).toBe(summary.follows);
    expect(summary.users).toBeGreaterThanOrEqual(DEMO_ACCOUNTS.length + 20);
    expect(summary.events).toBeGreaterThanOrEqual(20);
    expect(summary.posts).toBeGreaterThanOrEqual(30);
    expect(summary.reviews).toBeGreaterThanOrEqual(30);
    expect(summary.screenshots).toBeLessThanOrEqual(POINTS * 0.5);
    expect(summary.contacts).toBeGreaterThan(0);
    expect(summary.eventTickets).toBeGreaterThan(0);
  });

  it('has every supertype, with types from its categories', async () => {
    const rows = await db().selectFrom('points').select(['supertype', 'type']).execute();
    for (const supertype of POINT_SUPERTYPES) {
      const keys = new Set(categoriesFor(supertype).map((c) => c.key));
      const ofType = rows.filter((r) => r.supertype === supertype);
      expect(ofType.length, supertype).toBeGreaterThan(0);
      for (const row of ofType) expect(keys.has(row.type), `${supertype}/${row.type}`).toBe(true);
    }
    const business = rows.filter((r) => r.supertype === 'business').length;
    expect(business / rows.length).toBeGreaterThan(0.5);
    expect(business / rows.length).toBeLessThan(0.75);
  });

  it('puts points near their city, with New York well represented', async () => {
    const points = await db()
      .selectFrom('points')
      .select(['city_id', 'lat', 'lon', 'full_address', 'street', 'time_zone_name', 'country'])
      .execute();
    const cities = new Map(FIXTURE_CITIES.map((c) => [c.id, c]));
    for (const p of points) {
      const city = cities.get(p.city_id ?? -1);
      expect(city).toBeDefined();
      expect(Math.abs(p.lat - (city?.lat ?? 0))).toBeLessThan(0.3);
      expect(p.time_zone_name).toBe(city?.time_zone);
      expect(p.country).toBe(city?.country);
    }
    expect(points.filter((p) => p.city_id === 5128581).length).toBeGreaterThanOrEqual(POINTS * 0.05);
    const asCoordinates = points.filter((p) => /^-?\d+\.\d{6},-?\d+\.\d{6}$/.test(p.full_address ?? ''));
    expect(asCoordinates.length).toBeGreaterThan(0);
    expect(asCoordinates.every((p) => p.street === null)).toBe(true);
    expect(
      points.filter((p) => p.street !== null && p.full_address?.startsWith(p.street)).length,
    ).toBeGreaterThan(POINTS * 0.9);
  });

  it('creates the demo accounts first, with the demo password', async () => {
    const users = await db().selectFrom('users').selectAll().orderBy('created_at').execute();
    for (const account of DEMO_ACCOUNTS) {
      const user = users.find((u) => u.username === account.username);
      expect(user, account.username).toBeDefined();
      expect(user?.fullname).toBe(account.fullname);
      expect(user?.email).toBe(`${account.username}@example.com`);
      expect(user?.is_admin).toBe(account.isAdmin ? 1 : 0);
      expect(await verifyPassword(DEMO_PASSWORD, user?.password_hash ?? '')).toBe(true);
      expect(await verifyPassword('wrong', user?.password_hash ?? '')).toBe(false);
    }
    expect(users.filter((u) => u.is_admin === 1).map((u) => u.username)).toEqual(['admin']);
    const byName = (name: string) => users.find((u) => u.username === name)?.id ?? '';
    const owned = await db()
      .selectFrom('points')
      .select('owner_userid')
      .where('owner_userid', '=', byName('olivia'))
      .execute();
    const consulted = await db()
      .selectFrom('points')
      .select('id')
      .where('consultant_userid', '=', byName('carlos'))
      .execute();
    expect(owned.length).toBeGreaterThanOrEqual(10);
    expect(consulted.length).toBeGreaterThanOrEqual(10);
    const umaOwns = await db()
      .selectFrom('points')
      .select('id')
      .where('owner_userid', '=', byName('uma'))
      .execute();
    expect(umaOwns).toHaveLength(0);
    expect(new Set(users.map((u) => u.username.toLowerCase())).size).toBe(users.length);
    // usernames follow the accounts rule: letters, digits, underscore and hyphen
    expect(users.filter((u) => !/^[A-Za-z0-9_-]+$/.test(u.username)).map((u) => u.username)).toEqual([]);
    expect(users.every((u) => (USER_STATUSES as readonly string[]).includes(u.status))).toBe(true);
    expect(users.every((u) => isValidId(u.id))).toBe(true);
  });

  it('owns about 70% of points and gives some a consultant', async () => {
    const points = await db()
      .selectFrom('points')
      .select(['supertype', 'owner_userid', 'consultant_userid'])
      .execute();
    const owned = points.filter((p) => p.owner_userid !== null).length / points.length;
    const consulted = points.filter((p) => p.consultant_userid !== null).length / points.length;
    expect(owned).toBeGreaterThan(0.6);
    expect(owned).toBeLessThan(0.85);
    expect(consulted).toBeGreaterThan(0.08);
    expect(consulted).toBeLessThan(0.25);
    const noConsultant = points.filter((p) => p.supertype === 'helprequest' || p.supertype === 'incident');
    expect(noConsultant.every((p) => p.consultant_userid === null)).toBe(true);
    expect(points.every((p) => p.owner_userid === null || p.owner_userid !== p.consultant_userid)).toBe(true);
  });

  it('has pending claims on unowned places (verification pending) and requests to consult an owned one', async () => {
    const { summary } = s();
    const claims = await db()
      .selectFrom('point_claims')
      .innerJoin('points', 'points.id', 'point_claims.point_id')
      .innerJoin('users', 'users.id', 'point_claims.user_id')
      .select([
        'point_claims.status',
        'point_claims.text',
        'points.supertype',
        'points.owner_userid',
        'points.consultant_userid',
        'points.health_status',
        'users.id as user_id',
        'users.username',
        'users.status as user_status',
      ])
      .orderBy('point_claims.created_at')
      .execute();
    expect(claims).toHaveLength(summary.claims);
    expect(summary.claims).toBe(3);
    expect(claims.map((c) => c.username).slice(0, 2)).toEqual(['uma', 'carlos']);
    for (const claim of claims) {
      expect(claim).toMatchObject({
        status: 'pending',
        owner_userid: null,
        health_status: 1,
        user_status: 'active',
      });
      expect(claim.consultant_userid).not.toBe(claim.user_id);
      // §6: claim text only for experiences and rentals
      expect(claim.text === null).toBe(!['experience', 'rental'].includes(claim.supertype));
    }
    const requests = await db()
      .selectFrom('consultant_requests')
      .innerJoin('points', 'points.id', 'consultant_requests.point_id')
      .innerJoin('users as owner', 'owner.id', 'points.owner_userid')
      .innerJoin('users as asker', 'asker.id', 'consultant_requests.user_id')
      .select([
        'consultant_requests.status',
        'points.allow_consulting',
        'points.consultant_userid',
        'owner.username as owner',
        'asker.username as asker',
      ])
      .orderBy('consultant_requests.created_at')
      .execute();
    expect(requests).toHaveLength(summary.consultRequests);
    expect(requests.map((r) => r.owner)).toEqual(['olivia', 'olivia']);
    expect(requests[0]?.asker).toBe('carlos');
    expect(requests.every((r) => r.status === 'pending' && r.allow_consulting === 1)).toBe(true);
    expect(requests.every((r) => r.consultant_userid === null)).toBe(true);
  });

  it('writes descriptions both short and over 250 characters', async () => {
    const rows = await db().selectFrom('points').select(['description']).execute();
    const long = rows.filter((r) => (r.description ?? '').length > 250).length;
    expect(long / rows.length).toBeGreaterThan(0.15);
    expect(long / rows.length).toBeLessThan(0.45);
    expect(rows.filter((r) => (r.description ?? '').length < 200).length).toBeGreaterThan(rows.length / 2);
  });

  it('has links, including websites without a scheme', async () => {
    const rows = await db()
      .selectFrom('points')
      .select(['link_website', 'link_facebook', 'link_email', 'link_phone', 'xsites_json'])
      .execute();
    const websites = rows.map((r) => r.link_website).filter((w): w is string => w !== null);
    expect(websites.some((w) => w.startsWith('https://'))).toBe(true);
    expect(websites.some((w) => !/^https?:\/\//.test(w))).toBe(true);
    expect(rows.some((r) => r.link_facebook?.startsWith('https://facebook.com/'))).toBe(true);
    expect(rows.some((r) => r.link_email?.includes('@'))).toBe(true);
    expect(rows.some((r) => r.link_phone?.startsWith('+'))).toBe(true);
    for (const r of rows.filter((x) => x.xsites_json !== null)) {
      const sites = JSON.parse(r.xsites_json ?? '[]') as { icon: string; title: string; url: string }[];
      expect(sites.length).toBeGreaterThan(0);
      for (const site of sites) expect(site.url).toMatch(/^https:\/\//);
    }
  });

  it('writes opening hours that parse, except a few free-text ones', async () => {
    const rows = await db()
      .selectFrom('points')
      .select('opening_hours')
      .where('opening_hours', 'is not', null)
      .execute();
    expect(rows.length).toBeGreaterThan(POINTS / 2);
    const distinct = new Set(rows.map((r) => r.opening_hours as string));
    for (const value of distinct) {
      if (UNPARSEABLE_OPENING_HOURS.includes(value)) {
        expect(() => new OpeningHours(value), value).toThrow();
      } else {
        expect(() => new OpeningHours(value), value).not.toThrow();
      }
    }
    const deliberate = rows.filter((r) =>
      UNPARSEABLE_OPENING_HOURS.includes(r.opening_hours as string),
    ).length;
    expect(deliberate).toBeLessThan(rows.length * 0.05);
  });

  it('keeps ratings, stats and health consistent', async () => {
    const points = await db()
      .selectFrom('points')
      .select([
        'id',
        'rating',
        'rating_count',
        'stats_total',
        'stats_prev_month',
        'stats_this_month',
        'stats_today',
        'health_status',
      ])
      .execute();
    const reviews = await db().selectFrom('reviews').select(['point_id', 'user_id', 'stars']).execute();
    const byPoint = new Map<string, number[]>();
    for (const r of reviews) byPoint.set(r.point_id, [...(byPoint.get(r.point_id) ?? []), r.stars]);
    for (const p of points) {
      const stars = byPoint.get(p.id) ?? [];
      expect(p.rating_count).toBe(stars.length);
      if (stars.length === 0) expect(p.rating).toBeNull();
      else expect(p.rating).toBe(Math.round((stars.reduce((a, b) => a + b, 0) / stars.length) * 20));
      expect(p.stats_total).toBeGreaterThanOrEqual(p.stats_prev_month);
      expect(p.stats_total).toBeGreaterThanOrEqual(p.stats_this_month);
      expect(p.stats_this_month).toBeGreaterThanOrEqual(p.stats_today);
      expect([0, 1, 2]).toContain(p.health_status);
    }
    expect(new Set(points.map((p) => p.health_status)).size).toBe(3);
    expect(points.some((p) => p.stats_total === 0)).toBe(true);
    expect(new Set(reviews.map((r) => `${r.point_id}/${r.user_id}`)).size).toBe(reviews.length);
    expect(reviews.every((r) => r.stars >= 1 && r.stars <= 5)).toBe(true);
  });

  it('fills the fields of help requests, incidents and services', async () => {
    const points = await db().selectFrom('points').selectAll().execute();
    const help = points.filter((p) => p.supertype === 'helprequest');
    for (const p of help) {
      expect(p.beamtype & BeamFlag.helpRequest).toBe(BeamFlag.helpRequest);
      expect(p.help_taskduration_minutes).toBeGreaterThan(0);
      expect(p.help_taskbudget).toBeGreaterThan(0);
      expect(p.help_taskstart).not.toBeNull();
      expect([0, 1]).toContain(p.help_canacceptjob);
      expect([0, 1]).toContain(p.help_canquote);
      if (p.pickup_destination !== null) {
        expect(p.pickup_date_time).not.toBeNull();
        expect(p.delivery_lat).not.toBeNull();
        expect(p.delivery_lng).not.toBeNull();
      }
    }
    for (const p of points.filter((x) => x.supertype === 'incident')) {
      expect(p.beamtype & BeamFlag.incident).toBe(BeamFlag.incident);
    }
    const services = points.filter((p) => p.supertype === 'service');
    for (const p of services) {
      expect(p.xpoint_service).toBeTruthy();
      expect(p.owner_callchat_priceperminute).toBeGreaterThanOrEqual(0.5);
      expect(p.owner_callchat_priceperminute).toBeLessThanOrEqual(4.99);
      expect(p.owner_dynamic_last_update).toBeLessThanOrEqual(NOW);
    }
    expect(services.some((p) => p.meonmap_enabled === 1)).toBe(true);
    expect(points.some((p) => (p.beamtype & BeamFlag.hot) !== 0)).toBe(true);
  });

  it('has events past, running now, starting within 120 minutes and later', async () => {
    const events = await db().selectFrom('events').selectAll().execute();
    const intervals = await db()
      .selectFrom('event_intervals')
      .selectAll()
      .orderBy('start_at')
      .orderBy('id')
      .execute();
    const byEvent = new Map<string, { start_at: number; end_at: number }[]>();
    for (const i of intervals) byEvent.set(i.event_id, [...(byEvent.get(i.event_id) ?? []), i]);
    const kinds = { past: 0, current: 0, upcoming: 0, later: 0 };
    for (const e of events) {
      const list = byEvent.get(e.id) ?? [];
      expect(list.length, e.id).toBeGreaterThan(0);
      const first = list[0] as { start_at: number; end_at: number };
      const last = list[list.length - 1] as { start_at: number; end_at: number };
      expect(e.start_date).toBe(first.start_at);
      expect(e.end_date).toBe(last.end_at);
      if (last.end_at < NOW) kinds.past++;
      else if (first.start_at <= NOW && NOW <= first.end_at) kinds.current++;
      else if (first.start_at > NOW && first.start_at - NOW <= 120 * MINUTE) kinds.upcoming++;
      else if (first.start_at > NOW + 120 * MINUTE) kinds.later++;
      expect(['free', 'paid', 'donation']).toContain(e.admission);
      if (e.admission === 'paid') expect(e.admissionprice).toBeGreaterThan(0);
      if (e.admission === 'free') expect(e.admissionprice).toBeNull();
    }
    expect(kinds.past).toBeGreaterThan(0);
    expect(kinds.current).toBeGreaterThan(0);
    expect(kinds.upcoming).toBeGreaterThan(0);
    expect(kinds.later).toBeGreaterThan(0);
    expect(kinds.past + kinds.current + kinds.upcoming + kinds.later).toBe(events.length);
    const types = new Set(categoriesFor('event').map((c) => c.key));
    expect(events.every((e) => types.has(e.type))).toBe(true);
    expect(events.some((e) => e.xpoint_id === null)).toBe(true);
    expect(events.filter((e) => e.xpoint_id !== null).length).toBeGreaterThan(events.length / 2);
    // the host point's owner organises its events
    const owners = new Map(
      (await db().selectFrom('points').select(['id', 'owner_userid']).execute()).map((p) => [
        p.id,
        p.owner_userid,
      ]),
    );
    for (const e of events.filter((x) => x.xpoint_id !== null && owners.get(x.xpoint_id ?? '') !== null)) {
      expect(e.owner_userid).toBe(owners.get(e.xpoint_id ?? ''));
    }
    const tickets = await db().selectFrom('event_tickets').selectAll().execute();
    const paid = new Set(events.filter((e) => e.admission === 'paid').map((e) => e.id));
    expect(tickets.every((t) => paid.has(t.event_id) && t.unit_price > 0 && t.max_quantity > 0)).toBe(true);
  });

  it('has posts of every category, with expiry unset, past and future', async () => {
    const posts = await db().selectFrom('posts').selectAll().execute();
    expect(new Set(posts.map((p) => p.type))).toEqual(new Set(POST_CATEGORIES));
    expect(posts.some((p) => p.expires_at === null)).toBe(true);
    expect(posts.some((p) => p.expires_at !== null && p.expires_at <= NOW)).toBe(true);
    expect(posts.some((p) => p.expires_at !== null && p.expires_at > NOW)).toBe(true);
    for (const p of posts) {
      expect(p.city_id).not.toBeNull();
      expect(p.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      if (p.image_url) expect(p.file_resource_bitmask & 1).toBe(1);
      else expect(POST_PLACEHOLDERS as readonly string[]).toContain(p.image_placeholder);
      if (p.expires_at !== null) expect(p.created_at).toBeLessThan(p.expires_at);
    }
  });

  it('puts posts on a point at its place on the map, and the others nowhere on it', async () => {
    const rows = await db()
      .selectFrom('posts')
      .leftJoin('points', 'points.id', 'posts.xpoint_id')
      .select([
        'posts.xpoint_id',
        'posts.lat',
        'posts.lon',
        'points.lat as pointLat',
        'points.lon as pointLon',
      ])
      .execute();
    expect(rows.some((r) => r.xpoint_id !== null)).toBe(true);
    for (const r of rows) {
      if (r.xpoint_id === null) expect([r.lat, r.lon]).toEqual([null, null]);
      else expect([r.lat, r.lon]).toEqual([r.pointLat, r.pointLon]);
    }
  });

  it('has comments, likes and follows that respect their rules', async () => {
    const posts = new Set((await db().selectFrom('posts').select('id').execute()).map((p) => p.id));
    const comments = await db().selectFrom('comments').selectAll().execute();
    const likes = await db().selectFrom('likes').selectAll().execute();
    const follows = await db().selectFrom('follows').selectAll().execute();
    expect(comments.length).toBeGreaterThan(0);
    expect(comments.every((c) => c.object_type === 'P' && posts.has(c.object_id) && c.text.length > 0)).toBe(
      true,
    );
    expect(likes.length).toBeGreaterThan(0);
    expect(
      likes.every(
        (l) => l.object_type === 'P' && posts.has(l.object_id) && (l.like_type === 0 || l.like_type === 1),
      ),
    ).toBe(true);
    expect(new Set(likes.map((l) => `${l.user_id}/${l.object_type}/${l.object_id}`)).size).toBe(likes.length);
    expect(likes.some((l) => l.like_type === 1)).toBe(true);
    // each post's like counters (what its card shows) are its likes, counted
    const counted = new Map<string, { up: number; down: number }>();
    for (const l of likes) {
      const c = counted.get(l.object_id) ?? { up: 0, down: 0 };
      if (Number(l.like_type) === 0) c.up++;
      else c.down++;
      counted.set(l.object_id, c);
    }
    const counters = await db().selectFrom('like_counts').selectAll().execute();
    expect(new Map(counters.map((c) => [c.object_id, { up: Number(c.up), down: Number(c.down) }]))).toEqual(
      counted,
    );
    expect(follows.length).toBeGreaterThanOrEqual(20);
    expect(follows.every((f) => f.follower_id !== f.followee_id)).toBe(true);
    expect(new Set(follows.map((f) => `${f.follower_id}/${f.followee_id}`)).size).toBe(follows.length);
  });

  it('answers some reviews of owned points as their owner or consultant would, after the review', async () => {
    const rows = await db()
      .selectFrom('reviews')
      .innerJoin('points', 'points.id', 'reviews.point_id')
      .select([
        'reviews.user_id',
        'reviews.stars',
        'reviews.created_at',
        'reviews.reply_text',
        'reviews.reply_user_id',
        'reviews.reply_at',
        'reviews.reply_updated_at',
        'points.owner_userid',
        'points.consultant_userid',
      ])
      .execute();
    const answered = rows.filter((r) => r.reply_text !== null);
    expect(answered.length).toBe(s().summary.reviewReplies);
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.length).toBeLessThan(rows.length);
    for (const r of answered) {
      expect([r.owner_userid, r.consultant_userid]).toContain(r.reply_user_id);
      expect(r.reply_user_id).not.toBe(r.user_id);
      expect(Number(r.reply_at)).toBeGreaterThan(Number(r.created_at));
      expect(Number(r.reply_at)).toBeLessThan(NOW);
      expect(r.reply_updated_at).toBe(r.reply_at);
      expect(r.reply_text!.length).toBeGreaterThan(10);
      expect(r.reply_text).not.toContain('{name}');
    }
    // only owned points are answered, and a review with no answer has none of its fields
    expect(rows.filter((r) => r.owner_userid === null).every((r) => r.reply_text === null)).toBe(true);
    expect(
      rows
        .filter((r) => r.reply_text === null)
        .every((r) => r.reply_user_id === null && r.reply_at === null && r.reply_updated_at === null),
    ).toBe(true);
  });

  it('fills the demo accounts’ bells with notifications of rows that exist, the newest unread', async () => {
    const demo = await db()
      .selectFrom('users')
      .select(['id', 'username'])
      .where(
        'username',
        'in',
        DEMO_ACCOUNTS.map((a) => a.username),
      )
      .execute();
    const demoIds = new Set(demo.map((u) => u.id));
    const rows = await db().selectFrom('notifications').selectAll().orderBy('id').execute();
    expect(rows.length).toBe(s().summary.notifications);
    for (const user of demo) {
      const own = rows.filter((r) => r.recipient_id === user.id);
      expect(own.length, user.username).toBeGreaterThan(0);
      expect(own.filter((r) => r.read_at === null).length, user.username).toBeGreaterThanOrEqual(1);
    }
    const actions = new Set(rows.map((r) => r.action));
    for (const action of ['like', 'comment', 'review', 'follow'])
      expect(actions.has(action), action).toBe(true);
    const key = (...parts: unknown[]) => parts.join('|');
    const follows = new Set(
      (await db().selectFrom('follows').selectAll().execute()).map((f) => key(f.follower_id, f.followee_id)),
    );
    const likes = new Set(
      (
        await db()
          .selectFrom('likes')
          .innerJoin('posts', 'posts.id', 'likes.object_id')
          .select(['likes.user_id', 'likes.object_id', 'posts.user_id as author'])
          .execute()
      ).map((l) => key(l.user_id, l.object_id, l.author)),
    );
    const comments = new Set(
      (
        await db()
          .selectFrom('comments')
          .innerJoin('posts', 'posts.id', 'comments.object_id')
          .select(['comments.user_id', 'comments.object_id', 'posts.user_id as author'])
          .execute()
      ).map((c) => key(c.user_id, c.object_id, c.author)),
    );
    const reviews = await db()
      .selectFrom('reviews')
      .innerJoin('points', 'points.id', 'reviews.point_id')
      .select([
        'reviews.id',
        'reviews.user_id',
        'reviews.point_id',
        'reviews.reply_user_id',
        'points.owner_userid',
        'points.consultant_userid',
      ])
      .execute();
    const reviewed = new Set(
      reviews.flatMap((r) => [
        key(r.user_id, r.point_id, r.owner_userid),
        key(r.user_id, r.point_id, r.consultant_userid),
      ]),
    );
    const answered = new Set(reviews.map((r) => key(r.reply_user_id, r.id, r.user_id)));
    // a demo account's answered review is news to them
    expect(actions.has('review_reply')).toBe(
      reviews.some((r) => r.reply_user_id !== null && demoIds.has(r.user_id)),
    );
    const once = new Set<string>();
    for (const r of rows) {
      const what = key(r.recipient_id, r.action, r.object_type, r.object_id, r.actor_id);
      expect(once.has(what), what).toBe(false);
      once.add(what);
      expect(demoIds.has(r.recipient_id)).toBe(true);
      expect(r.actor_id).not.toBe(r.recipient_id);
      expect(Number(r.created_at)).toBeLessThan(NOW);
      expect(r.read_at === null || Number(r.read_at) <= NOW).toBe(true);
      expect(r.group_key).toBe(
        groupKeyOf({
          action: r.action,
          objectType: r.object_type,
          objectId: r.object_id,
          actorId: r.actor_id,
          at: Number(r.created_at),
        }),
      );
      const real = {
        follow: () =>
          r.object_type === 'U' && r.object_id === r.actor_id && follows.has(key(r.actor_id, r.recipient_id)),
        like: () => r.object_type === 'P' && likes.has(key(r.actor_id, r.object_id, r.recipient_id)),
        comment: () => r.object_type === 'P' && comments.has(key(r.actor_id, r.object_id, r.recipient_id)),
        review: () => r.object_type === 'X' && reviewed.has(key(r.actor_id, r.object_id, r.recipient_id)),
        review_reply: () =>
          r.object_type === 'R' && answered.has(key(r.actor_id, r.object_id, r.recipient_id)),
      }[r.action];
      expect(real?.(), what).toBe(true);
    }
  });

  it("keeps each post's comments_count equal to its comments, whose ids sort by time (features/comments)", async () => {
    const counted = new Map<string, number>();
    const comments = await db().selectFrom('comments').select(['id', 'object_id', 'created_at']).execute();
    for (const c of comments) counted.set(c.object_id, (counted.get(c.object_id) ?? 0) + 1);
    const posts = await db().selectFrom('posts').select(['id', 'comments_count']).execute();
    expect(posts.every((p) => Number(p.comments_count) === (counted.get(p.id) ?? 0))).toBe(true);
    expect(posts.some((p) => Number(p.comments_count) > 0)).toBe(true);
    const byId = [...comments].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const times = byId.map((c) => Number(c.created_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('uses only URL-safe ids, none repeated', async () => {
    for (const table of ['points', 'users', 'events', 'reviews', 'comments', 'likes'] as const) {
      const ids = (await db().selectFrom(table).select('id').execute()).map((r) => r.id);
      expect(new Set(ids).size, table).toBe(ids.length);
      expect(ids.every(isValidId), table).toBe(true);
    }
  });

  it('links only media it generated: real WebP files under dataDir/media', async () => {
    const urls = new Set<string>();
    const add = (values: (string | null)[]) => values.forEach((v) => v !== null && urls.add(v));
    const points = await db()
      .selectFrom('points')
      .select(['url_cover_image', 'url_icon_or_logo', 'url_cover_video'])
      .execute();
    add(points.map((p) => p.url_cover_image));
    add(points.map((p) => p.url_icon_or_logo));
    add(points.map((p) => p.url_cover_video));
    add((await db().selectFrom('point_screenshots').select('url').execute()).map((r) => r.url));
    add((await db().selectFrom('users').select('avatar_url').execute()).map((r) => r.avatar_url));
    add((await db().selectFrom('contacts').select('avatar_url').execute()).map((r) => r.avatar_url));
    add((await db().selectFrom('events').select('cover_url').execute()).map((r) => r.cover_url));
    add((await db().selectFrom('posts').select('image_url').execute()).map((r) => r.image_url));
    // kinds with no fitting picture (a dentist, a courthouse) go without rather than show another kind's
    expect(points.filter((p) => p.url_cover_image !== null).length).toBeGreaterThan(POINTS * 0.5);
    expect(urls.size).toBeGreaterThan(20);
    const assets = new Map(
      (await db().selectFrom('media_assets').selectAll().execute()).map((a) => [a.id, a]),
    );
    for (const url of urls) {
      const match = /^\/media\/([0-9a-f]{64})\.webp$/.exec(url);
      expect(match, url).not.toBeNull();
      const id = match?.[1] ?? '';
      const file = path.join(s().dataDir, 'media', `${id}.webp`);
      expect(fs.existsSync(file), file).toBe(true);
      const meta = await sharp(file).metadata();
      expect(meta.format).toBe('webp');
      expect(assets.get(id)?.mime).toBe('image/webp');
      expect(assets.get(id)?.bytes).toBe(fs.statSync(file).size);
      expect(assets.get(id)?.width).toBe(meta.width);
    }
    const screenshots = await db().selectFrom('point_screenshots').selectAll().execute();
    expect(screenshots.every((r) => r.position >= 1 && r.position <= 14)).toBe(true);
  });

  it('leaves the search indexes complete and their triggers in place', async () => {
    const raw = s().store.raw;
    if (raw.kind === 'postgres') {
      // the seed drops the secondary indexes of points while it writes and rebuilds them before commit
      const { rows } = await raw.pool.query<{ indexname: string }>(
        "select indexname from pg_indexes where schemaname = current_schema() and tablename = 'points' order by 1",
      );
      expect(rows.map((r) => r.indexname)).toEqual(
        expect.arrayContaining([
          'points_beamtype',
          'points_city',
          'points_consultant',
          'points_geo',
          'points_owner',
          'points_supertype_type',
          'points_text',
          'points_title_trgm',
        ]),
      );
      return;
    }
    const database = raw.database;
    const triggers = database
      .prepare("select name from sqlite_master where type = 'trigger' and tbl_name = 'points' order by name")
      .all() as { name: string }[];
    expect(triggers.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        'points_ad',
        'points_ai',
        'points_au_geo',
        'points_au_text',
        // the change feed's, silenced during the seed and restored
        'points_changes_ad',
        'points_changes_ai',
        'points_changes_au',
      ]),
    );
    const count = (sql: string) => (database.prepare(sql).get() as { n: number }).n;
    expect(count('select count(*) as n from points_rtree')).toBe(POINTS);
    expect(
      count(
        'select count(*) as n from points_rtree r join points p on p.seq = r.seq and r.min_lat <= p.lat and r.max_lat >= p.lat',
      ),
    ).toBe(POINTS);
    const sample = database.prepare('select seq, title from points order by seq limit 1 offset 17').get() as {
      seq: number;
      title: string;
    };
    const word = (sample.title.match(/[A-Za-z]{4,}/) ?? ['']).at(0) ?? '';
    const hits = database
      .prepare('select rowid from points_fts where points_fts match ?')
      .all(`"${word}"`) as { rowid: number }[];
    expect(hits.map((h) => h.rowid)).toContain(sample.seq);
    expect(count("select count(*) as n from points_fts where points_fts match 'type:restaurant'")).toBe(
      count("select count(*) as n from points where type = 'restaurant'"),
    );
    database.exec("insert into points_fts (points_fts, rank) values ('integrity-check', 1)");
    expect(database.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  // Last test on the main store: it snapshots the rows and closes the store before opening others,
  // so only one test store per dialect is open at a time.
  it('gives identical rows for the same seed and now, and different ones for another seed', async () => {
    const tables = [
      'users',
      'events',
      'posts',
      'reviews',
      'likes',
      'comments',
      'point_claims',
      'consultant_requests',
      'notifications',
    ] as const;
    const snapshot = async (x: Seeded) => {
      const out: Record<string, unknown[]> = {
        points: await x.store.db.selectFrom('points').selectAll().orderBy('seq').execute(),
        follows: await x.store.db
          .selectFrom('follows')
          .selectAll()
          .orderBy('follower_id')
          .orderBy('followee_id')
          .execute(),
      };
      for (const table of tables) {
        const rows = await x.store.db.selectFrom(table).selectAll().orderBy('id').execute();
        // password hashes are salted at random: the only column that differs between runs
        out[table] = rows.map((row) => ('password_hash' in row ? { ...row, password_hash: null } : row));
      }
      return out;
    };
    const first = await snapshot(s());
    await dispose(main);
    main = undefined;

    const again = await seeded(dialect);
    try {
      const second = await snapshot(again);
      expect(second['points']).toEqual(first['points']);
      for (const table of [...tables, 'follows']) expect(second[table], table).toEqual(first[table]);
    } finally {
      await dispose(again);
    }
    const other = await seeded(dialect, SEED + 1);
    try {
      const ids = (await other.store.db.selectFrom('points').select('id').orderBy('seq').execute()).map(
        (r) => r.id,
      );
      expect(ids).not.toEqual((first['points'] as { id: string }[]).map((r) => r.id));
    } finally {
      await dispose(other);
    }
  });

  it('replaces content when asked to wipe, rolls back a failed seed, and refuses an empty cities table', async () => {
    const x = await seeded(dialect);
    try {
      const summary = await seedDemoData(x.store, {
        points: 60,
        seed: 3,
        now: NOW,
        dataDir: x.dataDir,
        wipe: true,
      });
      const n = async (table: 'points' | 'users' | 'posts') =>
        Number(
          (
            await x.store.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await n('points')).toBe(60);
      expect(await n('users')).toBe(summary.users);
      expect(await n('posts')).toBe(summary.posts);
    } finally {
      await dispose(x);
    }
    // a failure (or a kill) mid-seed leaves nothing behind: one transaction
    const broken = await openTestStore(dialect);
    const brokenDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-seed-'));
    try {
      await broken.db.insertInto('cities').values(FIXTURE_CITIES).execute();
      const failing = seedDemoData(broken, {
        points: 300,
        seed: 5,
        now: NOW,
        dataDir: brokenDir,
        batchSize: 100,
        progress: (done) => {
          if (done >= 200) throw new Error('interrupted');
        },
      });
      await expect(failing).rejects.toThrow('interrupted');
      for (const table of ['points', 'users', 'events', 'media_assets'] as const) {
        expect(await broken.db.selectFrom(table).select('id').execute(), table).toHaveLength(0);
      }
      if (broken.raw.kind === 'sqlite') {
        const trigger = broken.raw.database
          .prepare("select name from sqlite_master where name = 'points_ai'")
          .get();
        expect(trigger).toBeDefined();
        expect(broken.raw.database.pragma('foreign_keys', { simple: true })).toBe(1);
      }
      const summary = await seedDemoData(broken, { points: 50, seed: 5, now: NOW, dataDir: brokenDir });
      expect(summary.points).toBe(50);
    } finally {
      await broken.dispose();
      fs.rmSync(brokenDir, { recursive: true, force: true });
    }
    const empty = await openTestStore(dialect);
    try {
      await expect(
        seedDemoData(empty, { points: 10, seed: 1, now: NOW, dataDir: os.tmpdir() }),
      ).rejects.toThrow(/cities/);
      expect(await empty.db.selectFrom('points').select('id').execute()).toHaveLength(0);
    } finally {
      await empty.dispose();
    }
  });
});
