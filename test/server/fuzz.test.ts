import { randomUUID } from 'node:crypto';
import { newCommentId } from '../../src/server/features/comments/ids';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categoriesFor } from '../../src/shared/domain/categories';
import { MAPPED_SUPERTYPES, POINT_SUPERTYPES } from '../../src/shared/domain/supertypes';
import { POST_CATEGORIES } from '../../src/shared/domain/enums';
import { POST_RESULT_MODES } from '../../src/shared/api/posts';
import { ERRORS } from '../../src/shared/errors';
import { bearer, createAdmin, freshIp, registerUser, signIn, type SignedIn } from '../support/accounts';
import { sourceRenderers } from '../support/ssr';
import { openTestApp, type TestApp } from '../support/app';
import { newPoint } from '../support/factories';
import { linkMapAssets, MAP_ASSETS_DIR } from '../support/map-assets';
import {
  operationsOf,
  rawPathRequests,
  requestsFor,
  type FuzzRequest,
  type Operation,
} from '../support/fuzz/requests';
import { WriteCounter } from '../support/fuzz/writes';
import { toJson } from '../support/fuzz/hostile';
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Issue 16's fuzz suite: requests generated with fast-check from the OpenAPI document that the real
 * app serves, for every operation, as a visitor and signed in (token, and cookie with and without the
 * anti-forgery token), plus mutated addresses. Every answer must be below 500; every 4xx must be the
 * catalogue's `{errorcode, error, field?}` with the status the catalogue gives that code; and a
 * refused write must leave the store as it was. Seeded: FUZZ_SEED=<n> replays a run.
 */
const SEED = Number(process.env['FUZZ_SEED'] ?? 16_016);
/**
 * Requests spread evenly over the documented operations, and to mutated addresses: about 10,000 in
 * all whatever the number of operations (at 155 each, the 100 operations of issue 19 took the suite
 * past its time limit on a loaded machine); at least MIN_PER_OPERATION each.
 */
const OPERATION_REQUESTS = 9_000;
const MIN_PER_OPERATION = 60;
const RAW_PATH_REQUESTS = 1_010;
/** A full garbage collection every this many requests; RSS once warm is measured at the first. */
const GC_EVERY = 1_000;
/** FUZZ_SUMMARY=1 prints each operation's answers (status and catalogue code): what the fuzzer reaches. */
const SUMMARY = Boolean(process.env['FUZZ_SUMMARY']);
const PASSWORD = 'fuzz-password-1';

type Identity = 'visitor' | 'visitor-af' | 'user-token' | 'user-cookie' | 'user-cookie-no-af' | 'admin-token';
const IDENTITIES: readonly Identity[] = [
  'visitor',
  'visitor-af',
  'user-token',
  'user-cookie',
  'user-cookie-no-af',
  'admin-token',
];

/**
 * Tables a refused request may write by design: sessions are touched on use; failed sign-ins and the
 * sign-up's "email taken" answers are counted in the throttle (a refusal is exactly what it counts).
 */
const UNWATCHED_TABLES = ['sessions', 'login_throttle'];
/** A 1x1 PNG, for the avatar and media fields. */
const PNG_1X1 =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/**
 * Defects found by this suite whose fix belongs to work in progress elsewhere (issue 16's HTTP
 * hardening: body nesting, framework errors). Each is as narrow as the defect; remove it when the
 * fix lands, and the suite checks those requests like any other.
 */
interface KnownIssue {
  name: string;
  matches(request: FuzzRequest<Identity>, response: LightMyRequestResponse): boolean;
}
const KNOWN_ISSUES: KnownIssue[] = [];

interface Problem {
  index: number;
  problem: string;
  request: FuzzRequest<Identity>;
  status: number;
  body: string;
}

describe('fuzzing every operation of /openapi.json', () => {
  let t: TestApp;
  let writes: WriteCounter;
  const sessions = {} as Record<'user' | 'admin', SignedIn>;
  /** the fuzzer may change a password: the suite signs in again with the new one. */
  const passwords = { user: PASSWORD, admin: PASSWORD };
  let visitor: { cookie: string; token: string };
  let mapBuilt = false;

  beforeAll(async () => {
    // the full-screen page and the app's first paints rendered by the web app's own source, as `vite
    // build --ssr` bundles them
    const renderers = await sourceRenderers();
    t = await openTestApp({ pageRenderer: renderers.fullScreen, firstPaint: renderers.firstPaint });
    // the map routes read dist/map when it is built (tiles-map.test.ts builds it; building it here too
    // could race that build); absent, they say so with 503 mapAssetsMissing, which is then their answer
    mapBuilt = fs.existsSync(path.join(MAP_ASSETS_DIR, 'basemap.pmtiles'));
    if (mapBuilt) linkMapAssets(t.config.webDir);
    for (const name of ['fuzzer', 'neighbour', 'victim'])
      expect((await registerUser(t, name, PASSWORD)).statusCode).toBe(201);
    await createAdmin(t, PASSWORD);
    sessions.user = await signIn(t, 'fuzzer', PASSWORD);
    sessions.admin = await signIn(t, 'admin', PASSWORD);
    const neighbour = await signIn(t, 'neighbour', PASSWORD);
    const af = await t.app.inject({ method: 'GET', url: '/v1/account/antiforgery' });
    visitor = {
      cookie: `xp_af=${af.cookies.find((c) => c.name === 'xp_af')?.value ?? ''}`,
      token: af.json<{ token: string }>().token,
    };
    await seedFixtures(t, { fuzzer: sessions.user.id, neighbour: neighbour.id });
    if (t.store.raw.kind !== 'sqlite') throw new Error('the fuzz suite watches writes on SQLite');
    writes = new WriteCounter(
      t.store.raw.database,
      WriteCounter.tablesOf(t.store.raw.database, UNWATCHED_TABLES),
    );
  });
  afterAll(() => t?.close());

  function headersOf(identity: Identity): Record<string, string> {
    switch (identity) {
      case 'visitor':
        return {};
      case 'visitor-af':
        return { cookie: visitor.cookie, requestverificationtoken: visitor.token };
      case 'user-token':
        return bearer(sessions.user.token);
      case 'user-cookie':
        return { cookie: sessions.user.cookie, requestverificationtoken: sessions.user.antiforgery };
      case 'user-cookie-no-af':
        return { cookie: sessions.user.cookie };
      case 'admin-token':
        return bearer(sessions.admin.token);
    }
  }

  async function send(request: FuzzRequest<Identity>): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...headersOf(request.identity), 'x-forwarded-for': freshIp() };
    let payload: string | undefined;
    const body = request.body;
    if (body && 'json' in body) {
      payload = toJson(body.json);
      headers['content-type'] = 'application/json';
    } else if (body && 'form' in body) {
      payload = body.form;
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (body && 'raw' in body) {
      payload = body.raw.payload;
      if (body.raw.contentType) headers['content-type'] = body.raw.contentType;
    }
    return t.app.inject({
      method: request.method as 'GET',
      url: request.url,
      headers,
      ...(payload !== undefined ? { payload } : {}),
    });
  }

  /** A session the fuzzer ended (sign-out, sign-out everywhere, a new password) is opened again. */
  async function keepSignedIn(request: FuzzRequest<Identity>, response: LightMyRequestResponse) {
    if (
      response.statusCode >= 300 ||
      !/^\/v1\/account\/(logout|logout-everywhere|password)\b/.test(request.url)
    )
      return;
    const account =
      request.identity === 'admin-token' ? 'admin' : request.identity.startsWith('user') ? 'user' : null;
    if (!account) return;
    if (request.url.startsWith('/v1/account/password') && request.body && 'json' in request.body)
      passwords[account] = String((request.body.json as { newPassword: string }).newPassword);
    sessions[account] = await signIn(t, account === 'admin' ? 'admin' : 'fuzzer', passwords[account]);
  }

  /** What is wrong with an answer, or null. */
  function problemOf(
    request: FuzzRequest<Identity>,
    response: LightMyRequestResponse,
    operation: Operation | undefined,
    written: Record<string, number>,
  ): string | null {
    const status = response.statusCode;
    if (status === 503 && !mapBuilt) {
      // a HEAD answer has no body to show its code: its path says it is a map route
      const mapRoute = request.method === 'HEAD' && /\/(tiles|home)\//.test(request.url.split('?')[0] ?? '');
      if (mapRoute || codeOf(response) === String(ERRORS.mapAssetsMissing.code)) return null;
    }
    if (status >= 500) return `answered ${status}`;
    if (status < 400) return null;
    if (request.method !== 'GET' && request.method !== 'HEAD' && Object.keys(written).length > 0)
      return `a refused ${request.method} wrote ${JSON.stringify(written)}`;
    if (request.method === 'HEAD') return null;
    const type = String(response.headers['content-type'] ?? '');
    if (!type.startsWith('application/json')) {
      // the web app's pages answer HTML, a missing point's page with a 404 (the app says so)
      // (judged by the path as resolved: /v1/../create is the page /create, as a browser reads it too)
      const resolved = new URL(request.url, 'http://fuzz.invalid').pathname;
      const page = request.method === 'GET' && !/^\/(v1|api|socket|tiles|media)(\/|$)/.test(resolved);
      return page && type.startsWith('text/html')
        ? null
        : `a ${status} answered ${type || 'no content type'}`;
    }
    let body: unknown;
    try {
      body = response.json();
    } catch {
      return `a ${status} answered JSON that does not parse`;
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) return `a ${status} answered a non-object`;
    const { errorcode, error, field, ...rest } = body as Record<string, unknown>;
    if (typeof errorcode !== 'number' || typeof error !== 'string' || error === '')
      return `a ${status} answered without {errorcode: number, error: string}`;
    if (field !== undefined && typeof field !== 'string')
      return `a ${status} answered a field that is not text`;
    const extras = Object.keys(rest).filter(
      (key) => !(operation?.errorExtras[String(status)] ?? []).includes(key),
    );
    if (extras.length > 0) return `a ${status} answered keys beyond the catalogue's: ${extras.join(', ')}`;
    const entry = Object.values(ERRORS).find((definition) => definition.code === errorcode);
    if (!entry) return `errorcode ${errorcode} is not in the catalogue`;
    if (entry.status !== status)
      return `errorcode ${errorcode} answered with ${status}, the catalogue says ${entry.status}`;
    return null;
  }

  it('answers ~10,000 generated requests without a 5xx, always in the catalogue shape, and refused writes store nothing', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(55);
    const pools = await poolsOf(t);
    const perOperation = Math.max(MIN_PER_OPERATION, Math.ceil(OPERATION_REQUESTS / operations.length));
    const plan: { request: FuzzRequest<Identity>; operation?: Operation }[] = [];
    operations.forEach((operation, index) => {
      const examples = goodBodies()[`${operation.method} ${operation.path}`] ?? [];
      for (const request of fc.sample(requestsFor(operation, pools, IDENTITIES, examples), {
        seed: SEED + index,
        numRuns: perOperation,
      }))
        plan.push({ request, operation });
    });
    const paths = operations.map((operation) => operation.path);
    for (const request of fc.sample(rawPathRequests(paths, pools, IDENTITIES), {
      seed: SEED - 1,
      numRuns: RAW_PATH_REQUESTS,
    }))
      plan.push({ request });
    // interleaved, as clients would send them, in an order fixed by the seed
    const order =
      fc.sample(
        fc.shuffledSubarray(
          plan.map((_, index) => index),
          { minLength: plan.length },
        ),
        { seed: SEED, numRuns: 1 },
      )[0] ?? [];

    const started = performance.now();
    collectGarbage();
    const rssStart = process.memoryUsage().rss;
    let rssWarm = rssStart;
    const statuses = new Map<number, number>();
    /** per operation: how many answers of each status and code, for FUZZ_SUMMARY. */
    const outcomes = new Map<string, Map<string, number>>();
    const problems: Problem[] = [];
    const known = new Map<string, number>();
    for (const [sent, index] of order.entries()) {
      // a full collection now and then, as a server's idle moments would: RSS then follows live
      // memory, not how much garbage the collector happened to leave
      if (sent > 0 && sent % GC_EVERY === 0) {
        collectGarbage();
        if (sent === GC_EVERY) rssWarm = process.memoryUsage().rss;
      }
      const { request, operation } = plan[index]!;
      const before = writes.snapshot();
      const response = await send(request);
      const written = WriteCounter.difference(before, writes.snapshot());
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      if (SUMMARY) count(outcomes, request.operation, `${response.statusCode} ${codeOf(response)}`);
      const problem = problemOf(request, response, operation ?? operationAt(operations, request), written);
      if (problem) {
        const issue = KNOWN_ISSUES.find((candidate) => candidate.matches(request, response));
        if (issue) known.set(issue.name, (known.get(issue.name) ?? 0) + 1);
        else
          problems.push({
            index,
            problem,
            request,
            status: response.statusCode,
            body: response.body.slice(0, 300),
          });
      }
      await keepSignedIn(request, response);
    }
    const seconds = (performance.now() - started) / 1000;
    collectGarbage();
    const rssEnd = process.memoryUsage().rss;
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
    const delta = (bytes: number) => `${bytes >= 0 ? '+' : ''}${mb(bytes)}`;

    const report = [
      `fuzz: ${plan.length} requests (${operations.length} operations x ${perOperation}, ${RAW_PATH_REQUESTS} to mutated addresses) in ${seconds.toFixed(1)} s, seed ${SEED}`,
      `fuzz: statuses ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}: ${n}`)
        .join(', ')}`,
      `fuzz: RSS ${mb(rssStart)} at the start, ${mb(rssWarm)} after the first ${GC_EVERY} requests (every kind served once: caches, renderer, image library), ${mb(rssEnd)} at the end (${delta(rssEnd - rssWarm)} since warm, ${delta(rssEnd - rssStart)} since the start)`,
      ...[...known].map(([name, n]) => `fuzz: known issue, not yet fixed: ${name} (${n} requests)`),
      `fuzz: ${problems.length} problems`,
      ...(SUMMARY
        ? [...outcomes]
            .sort(([a], [b]) => a.localeCompare(b))
            .map(
              ([name, counts]) =>
                `  ${name}: ${[...counts]
                  .sort(([a], [b]) => a.localeCompare(b))
                  .map(([outcome, n]) => `${outcome} x${n}`)
                  .join(', ')}`,
            )
        : []),
    ];
    console.log(report.join('\n'));
    // two of each kind of problem, so that one frequent kind does not hide the others
    const kinds = new Map<string, Problem[]>();
    for (const problem of problems) {
      const kind = `${problem.request.operation} ${problem.problem.replace(/\d+/g, 'N')}`;
      kinds.set(kind, [...(kinds.get(kind) ?? []), problem]);
    }
    const shown = [...kinds.values()]
      .flatMap((same) => same.slice(0, 2))
      .slice(0, 30)
      .map(
        ({ index, problem, request, status, body }) =>
          `#${index} ${problem}: ${request.method} ${request.url.slice(0, 200)} as ${request.identity} (${request.mutation}) ` +
          `body ${JSON.stringify(request.body)?.slice(0, 300)} -> ${status} ${body}`,
      );
    expect(shown, `${problems.length} problems; FUZZ_SEED=${SEED} replays this run`).toEqual([]);
    expect(rssEnd - rssWarm, 'RSS growth once warm').toBeLessThan(100 * 1024 * 1024);
  }, 240_000);
});

/**
 * The documented operation a mutated address still reaches (`/../myposts/save` and `/myposts/save/`
 * are `/myposts/save` as the router resolves them), so its answer is judged by that operation's documented error bodies.
 */
function operationAt(operations: Operation[], request: FuzzRequest<Identity>): Operation | undefined {
  let pathname: string;
  try {
    pathname = new URL(request.url, 'http://fuzz.invalid').pathname;
  } catch {
    return undefined;
  }
  return operations.find((operation) => {
    if (operation.method !== request.method) return false;
    const pattern = operation.path
      .split(/\{[^}]+\}/)
      .map((piece) => piece.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
      .join('[^/]+');
    // the router ignores a trailing slash (routerOptions.ignoreTrailingSlash)
    return new RegExp(`^${pattern}/?$`).test(pathname);
  });
}

function count(outcomes: Map<string, Map<string, number>>, operation: string, outcome: string): void {
  const counts = outcomes.get(operation) ?? new Map<string, number>();
  counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
  outcomes.set(operation, counts);
}

/** The catalogue code of an error answer, or '' for a success or a body that is not JSON. */
function codeOf(response: LightMyRequestResponse): string {
  if (response.statusCode < 400) return '';
  try {
    return String(response.json<{ errorcode?: number }>().errorcode ?? '');
  } catch {
    return '';
  }
}

/** A full garbage collection, so that RSS before and after compare live memory, not garbage not yet collected. */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

/** Posts to aim at: the fuzzer's own and a neighbour's (issue 17). */
const FIXTURE_POSTS = ['0f0f0f0f-0000-4000-8000-000000000001', '0f0f0f0f-0000-4000-8000-000000000002'];

/** Points and events to aim at: the fuzzer's own, a neighbour's, unowned ones, a promoted one. */
const FIXTURE_POINTS = {
  own: ['fzOwnPoint01', 'fzOwnPoint02', 'fzOwnPoint03'],
  neighbours: ['fzNeighbour1', 'fzNeighbour2'],
  unowned: ['fzUnowned001', 'fzUnowned002'],
  promoted: ['fzPromoted01'],
};
const eventIds: string[] = [];

async function seedFixtures(t: TestApp, users: { fuzzer: string; neighbour: string }): Promise<void> {
  const rows = [
    ...FIXTURE_POINTS.own.map((id, i) =>
      newPoint({ id, type: 'bakery', lat: 48.85 + i * 0.01, lon: 2.35, owner_userid: users.fuzzer }),
    ),
    ...FIXTURE_POINTS.neighbours.map((id, i) =>
      newPoint({
        id,
        type: 'bar',
        lat: 48.9 + i * 0.01,
        lon: 2.3,
        owner_userid: users.neighbour,
        allow_consulting: i,
      }),
    ),
    ...FIXTURE_POINTS.unowned.map((id, i) =>
      newPoint({ id, supertype: 'poi', type: 'museum', lat: 48.8, lon: 2.3 + i * 0.01 }),
    ),
    ...FIXTURE_POINTS.promoted.map((id) =>
      newPoint({ id, type: 'cafe', lat: 48.86, lon: 2.34, is_promo: 1, owner_userid: users.neighbour }),
    ),
  ];
  await t.store.db.insertInto('points').values(rows).execute();
  const now = Date.now();
  await t.store.db
    .insertInto('posts')
    .values(
      FIXTURE_POSTS.map((id, i) => ({
        id,
        user_id: i === 0 ? users.fuzzer : users.neighbour,
        title: `Fuzz post ${i}`,
        description: 'A post to aim at.',
        type: 'deal',
        xpoint_id: FIXTURE_POINTS.own[0] ?? null,
        file_resource_bitmask: 0,
        created_at: now,
        updated_at: now,
        listed_at: now,
      })),
    )
    .execute();
  const start = Date.UTC(2030, 5, 1, 18);
  for (const [title, token] of [
    ['Fuzz fair', 'user'],
    ['Neighbour night', 'neighbour'],
  ] as const) {
    const who =
      token === 'user' ? await signIn(t, 'fuzzer', PASSWORD) : await signIn(t, 'neighbour', PASSWORD);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/event/create',
      headers: bearer(who.token),
      payload: {
        title,
        type: 'party',
        start_date: start,
        end_date: start + 7_200_000,
        lat: 48.87,
        lon: 2.33,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    eventIds.push(res.json<{ id: string }>().id);
  }
}

/** Whole bodies that succeed for the right person, where fields depend on each other. */
function goodBodies(): Record<string, unknown[]> {
  const start = Date.UTC(2030, 5, 1, 18);
  const [ownEvent = 'none'] = eventIds;
  return {
    'POST /v1/xpoint/create': [
      {
        supertype: 'service',
        type: 'dog_walking',
        title: 'Walkies',
        lat: 40.71,
        lon: -74.0,
        confirmNotDuplicate: true,
      },
      {
        supertype: 'business',
        type: 'bakery',
        title: 'Crumbs',
        lat: 48.85,
        lon: 2.35,
        link_email: 'crumbs@example.com',
        link_website: 'https://example.com',
        opening_hours: 'Mo-Sa 07:00-19:00',
        contacts: [{ roleid: 'OWNR', contact_firstname: 'Ada' }],
        confirmNotDuplicate: true,
      },
      { supertype: 'poi', type: 'museum', title: 'Hall', lat: -33.9, lon: 151.2 },
    ],
    'POST /v1/xpoint/update': FIXTURE_POINTS.own.map((id, i) => ({
      id,
      version: 1 + i,
      title: `Renamed ${i}`,
    })),
    'POST /v1/event/create': [
      {
        title: 'Fuzz gig',
        type: 'party',
        start_date: start,
        end_date: start + 7_200_000,
        lat: 48.87,
        lon: 2.33,
      },
      {
        title: 'Ticketed',
        type: 'party',
        start_date: start,
        end_date: start + 3_600_000,
        lat: 48.87,
        lon: 2.33,
        admission: 'paid',
        admissionprice: 12.5,
        tickets: [{ name: 'Standing', unit_price: 12.5, max_quantity: 10 }],
        xpoint_id: FIXTURE_POINTS.own[0],
      },
    ],
    'POST /v1/event/update': [
      { id: ownEvent, version: 1, title: 'Renamed fair' },
      { id: ownEvent, version: 2, title: 'Again' },
    ],
    'POST /v1/xpoint/media': FIXTURE_POINTS.own.map((id) => ({
      id,
      version: 1,
      slot: 'logo',
      data: PNG_1X1,
    })),
    'POST /v1/event/media': [{ id: ownEvent, version: 1, data: PNG_1X1 }],
    'POST /myposts/save': [
      { id: randomUUID(), title: 'Fuzz deal', description: 'Half price.', type: 'deal' },
      {
        id: randomUUID(),
        title: 'On a point',
        description: 'With a cover.',
        type: 'gig',
        xpointid: FIXTURE_POINTS.own[0],
        expireson: '2031-01-01',
        cover_image: PNG_1X1.slice(PNG_1X1.indexOf(',') + 1),
      },
      { id: FIXTURE_POSTS[0], version: 1, title: 'Edited', description: 'Again.', type: 'deal' },
    ],
    'POST /myposts/new': [{ id: randomUUID(), resultMode: 'ReturnJson', returnUrl: '/u/fuzzer' }],
    'POST /v1/reviews/add': FIXTURE_POINTS.neighbours.map((appid, i) => ({
      appid,
      stars: 1 + i,
      text: 'Fine.',
    })),
  };
}

/** Known good values by field or parameter name, so generated requests reach past the first check. */
async function poolsOf(t: TestApp) {
  const users = await t.store.db.selectFrom('users').select(['id', 'username']).execute();
  const pointIds = Object.values(FIXTURE_POINTS).flat();
  const ids = [
    ...pointIds,
    ...eventIds,
    ...FIXTURE_POSTS,
    randomUUID(),
    'doesNotExist',
    'p_2f9c1a',
    'A'.repeat(64),
  ];
  const types = [...POINT_SUPERTYPES, 'event' as const]
    .flatMap((supertype) =>
      categoriesFor(supertype)
        .slice(0, 3)
        .map((category) => category.key),
    )
    .concat(POST_CATEGORIES);
  return {
    id: ids,
    identifier: ids,
    xpoint_id: [...pointIds, null],
    xpointid: pointIds,
    appid: pointIds,
    stars: [1, 3, 5],
    username: users.map((user) => user.username).concat(['nobody-here']),
    // never the fuzzer's own name: failed sign-ins would lock the account the suite signs in with
    login: ['victim', 'victim@example.com', 'neighbour', 'nobody-here'],
    to_userid: users.map((user) => user.id),
    user_id: users.map((user) => user.id).concat(['nobody-here']),
    supertype: [...MAPPED_SUPERTYPES],
    type: types,
    group: [...MAPPED_SUPERTYPES],
    email: fc.emailAddress(),
    newPassword: ['another-fuzz-password-2'],
    currentPassword: [PASSWORD],
    n: [1, 5, 20],
    zoomlevel: [3, 12, 16],
    position: [1, 2],
    deviceid: ['fuzzDevice01', 'fuzzDevice02'],
    link_email: ['owner@example.com', null],
    link_website: ['https://example.com/shop', null],
    link_facebook: ['https://facebook.com/example', null],
    link_phone: ['+1 555 0100', null],
    phone: ['+1 555 0100'],
    opening_hours: ['Mo-Fr 09:00-17:00', '24/7', null],
    start_date: [Date.UTC(2030, 5, 1, 18), '2030-06-01T18:00:00Z'],
    end_date: [Date.UTC(2030, 5, 2, 2), '2030-06-02T02:00:00Z'],
    version: [1, 2, 3],
    image: [PNG_1X1],
    data: [PNG_1X1, null],
    lat: [48.85, 48.9, -33.9, 0],
    lon: [2.35, 2.3, 151.2, 0],
    lng: [2.35, 151.2],
    z: ['0', '3', '12', '14'],
    x: ['0', '4', '2074'],
    y: ['0', '2', '1409.mvt', '1409'],
    fontstack: ['Noto Sans Regular', 'Noto Sans Bold,Noto Sans Regular'],
    range: ['0-255.pbf', '256-511.pbf'],
    clusterId: ['1', '33', '999999'],
    kind: ['soon', 'open', 'hot', 'impression', 'click'],
    '*': ['logo.webp', 'a/b.webp', 'missing.png'],
    fullscreen: ['true', 'false', '1'],
    // posts (issue 17)
    resultMode: [...POST_RESULT_MODES],
    returnUrl: ['/u/fuzzer', '', '//elsewhere.example'],
    expireson: ['', '3000-01-01', '2031-01-01', Date.UTC(2031, 0, 1), '1900-01-01'],
    torenew: [true, false],
    hidden: [true, false],
    max_locations: [1, 30],
    cover_image: [PNG_1X1.slice(PNG_1X1.indexOf(',') + 1), 'EMPTY'],
    // likes and comments (issue 18)
    objectid: [...FIXTURE_POSTS, 'doesNotExist', randomUUID()],
    objecttype: ['P', 'R', 'C'],
    liketype: [0, 1],
    newliketype: [0, 1],
    likeid: [randomUUID(), 'doesNotExist'],
    commentid: [newCommentId(), 'not an id'],
    beforeid: ['', newCommentId()],
  };
}
