import { describe, expect, it } from 'vitest';
import { encodeData } from './data';
import {
  MAX_ADDRESS_LENGTH,
  buildAddress,
  canonicalPointPath,
  isSafeReturnPath,
  needsPrefixCorrection,
  parseAddress,
} from './routes';
import { ID_SCREENS, SUCCESS_URL_SCREENS } from './test-arbitraries';
import type { Route } from './types';

const enc = (value: unknown) => encodeURIComponent(JSON.stringify(value));
const loc = { zoom: 12.5, lng: -73.985, lat: 40.748 };
const bounds = { southwest: { lat: 40.7, lon: -74.02 }, northeast: { lat: 40.8, lon: -73.93 } };
const back = '/b/abc123';
const backQuery = encodeURIComponent(back);

/**
 * Every route of §2 and every link of "Links the product builds": the address, the route it
 * parses to, and (when the address is not already canonical) the address the route builds.
 */
const TABLE: { address: string; route: Route; built?: string }[] = [
  // '' and /home
  { address: '', route: { screen: 'landing' }, built: '/' },
  { address: '/', route: { screen: 'landing' } },
  { address: '/home', route: { screen: 'landing' }, built: '/' },
  { address: '/Home/', route: { screen: 'landing' }, built: '/' },
  // /search/{keywords}/data={json}
  {
    address: `/search/pizza/data=${enc({ loc })}`,
    route: { screen: 'landing-search', keywords: 'pizza', data: { loc } },
  },
  {
    address: `/search/service=plumber/data=${enc({ loc, search: { supertype: 'service', keywords: 'plumber' } })}`,
    route: {
      screen: 'landing-search',
      keywords: 'plumber',
      supertype: 'service',
      data: { loc, search: { supertype: 'service', keywords: 'plumber' } },
    },
  },
  {
    address: '/search/new%20york%20pizza',
    route: { screen: 'landing-search', keywords: 'new york pizza', data: {} },
  },
  {
    address: '/search/virtualstore=shoes',
    route: { screen: 'landing-search', keywords: 'shoes', supertype: 'virtualstore', data: {} },
  },
  {
    address: '/search/all=shoes',
    route: { screen: 'landing-search', keywords: 'shoes', data: {} },
    built: '/search/shoes',
  },
  {
    address: '/search/MeOnMap=cleaner',
    route: { screen: 'landing-search', keywords: 'cleaner', supertype: 'service', data: {} },
    built: '/search/service=cleaner',
  },
  {
    address: '/search/a%3Db',
    route: { screen: 'landing-search', keywords: 'a=b', data: {} },
  },
  {
    address: '/search/color=red',
    route: { screen: 'landing-search', keywords: 'color=red', data: {} },
    built: '/search/color%3Dred',
  },
  {
    address: '/search/a%2Fb%20c',
    route: { screen: 'landing-search', keywords: 'a/b c', data: {} },
  },
  { address: '/search/%2E%2E', route: { screen: 'landing-search', keywords: '..', data: {} } },
  // /maps
  { address: '/maps', route: { screen: 'map' } },
  {
    address: `/maps/coffee/data=${enc({ loc, search: { keywords: 'coffee', ...bounds, paging: { pageNumber: 2, pageSize: 24 } } })}`,
    route: {
      screen: 'map-search',
      keywords: 'coffee',
      data: { loc, search: { keywords: 'coffee', ...bounds, paging: { pageNumber: 2, pageSize: 24 } } },
    },
  },
  {
    address: `/maps/incident=fire/data=${enc({ loc })}`,
    route: { screen: 'map-search', keywords: 'fire', supertype: 'incident', data: { loc } },
  },
  {
    address: `/maps/data=${enc({ loc, search: { keywords: 'tacos' } })}`,
    route: { screen: 'map-search', keywords: '', data: { loc, search: { keywords: 'tacos' } } },
  },
  {
    address: `/maps/rental=/data=${enc({ loc })}`,
    route: { screen: 'map-search', keywords: '', supertype: 'rental', data: { loc } },
  },
  {
    address: `/maps/coffee/data=${enc({ loc, xpoint: { id: 'b-42' } })}`,
    route: { screen: 'map-search', keywords: 'coffee', data: { loc, xpoint: { id: 'b-42' } } },
  },
  {
    address: `/maps/jazz/data=${enc({ loc, event: { id: 'ev9' } })}`,
    route: { screen: 'map-search', keywords: 'jazz', data: { loc, event: { id: 'ev9' } } },
  },
  { address: '/maps/coffee', route: { screen: 'map-search', keywords: 'coffee', data: {} } },
  // /maps/data={event id json}
  {
    address: `/maps/data=${enc({ event: { id: 'ev_1' } })}`,
    route: { screen: 'event', eventId: 'ev_1', data: {} },
  },
  {
    address: `/maps/data=${enc({ loc, event: { id: 'ev_1' } })}`,
    route: { screen: 'event', eventId: 'ev_1', data: { loc } },
  },
  // point prefixes
  { address: '/x/p1', route: { screen: 'point', supertype: 'none', id: 'p1' } },
  { address: '/b/p1', route: { screen: 'point', supertype: 'business', id: 'p1' } },
  { address: '/p/p1', route: { screen: 'point', supertype: 'poi', id: 'p1' } },
  { address: '/s/p1', route: { screen: 'point', supertype: 'virtualstore', id: 'p1' } },
  { address: '/m/p1', route: { screen: 'point', supertype: 'service', id: 'p1' } },
  { address: '/h/p1', route: { screen: 'point', supertype: 'helprequest', id: 'p1' } },
  { address: '/i/p1', route: { screen: 'point', supertype: 'incident', id: 'p1' } },
  { address: '/exp/p1', route: { screen: 'point', supertype: 'experience', id: 'p1' } },
  { address: '/rent/p1', route: { screen: 'point', supertype: 'rental', id: 'p1' } },
  {
    address: '/B/Abc-9_/',
    route: { screen: 'point', supertype: 'business', id: 'Abc-9_' },
    built: '/b/Abc-9_',
  },
  // full screen
  { address: '/f/Abc-9_', route: { screen: 'fullscreen', id: 'Abc-9_' }, built: '/Abc-9_' },
  { address: '/Abc-9_', route: { screen: 'fullscreen', id: 'Abc-9_' } },
  { address: '/f/home', route: { screen: 'fullscreen', id: 'home' } },
  { address: '/f/B', route: { screen: 'fullscreen', id: 'B' } },
  // clusters
  { address: `/cluster/data=${enc({ loc })}`, route: { screen: 'cluster', data: { loc } } },
  { address: `/momcluster/data=${enc({ loc })}`, route: { screen: 'momcluster', data: { loc } } },
  { address: '/cluster', route: { screen: 'cluster', data: {} } },
  {
    address: `/cluster/data=${enc({ loc, cluster: { group: 'business', id: 123456 } })}`,
    route: { screen: 'cluster', data: { loc, cluster: { group: 'business', id: 123456 } } },
  },
  // add-new
  { address: '/new', route: { screen: 'add-new' } },
  { address: '/new/rental', route: { screen: 'add-new', supertype: 'rental' } },
  { address: '/new/service/plumber', route: { screen: 'add-new', supertype: 'service', type: 'plumber' } },
  {
    address: '/new/MeOnMap/plumber',
    route: { screen: 'add-new', supertype: 'service', type: 'plumber' },
    built: '/new/service/plumber',
  },
  {
    address: '/new/virtualstore/online_shop',
    route: { screen: 'add-new', supertype: 'virtualstore', type: 'online_shop' },
  },
  { address: '/new/experience/x', route: { screen: 'add-new', supertype: 'experience', type: 'x' } },
  // buttons and redirects
  { address: '/MyXPoints/Delete/p1', route: { screen: 'delete-redirect', id: 'p1' } },
  {
    address: '/myxpoints/DELETE/p1',
    route: { screen: 'delete-redirect', id: 'p1' },
    built: '/MyXPoints/Delete/p1',
  },
  {
    address: `/MyXPoints/Delete/p1?successUrl=${backQuery}`,
    route: { screen: 'delete-redirect', id: 'p1', successUrl: back },
  },
  { address: '/MeOnMap/Index', route: { screen: 'meonmap' } },
  { address: '/MyHelpRequests', route: { screen: 'myhelprequests' } },
  { address: '/myhelprequests/', route: { screen: 'myhelprequests' }, built: '/MyHelpRequests' },
  // links the product builds
  { address: '/a/p1', route: { screen: 'point-landing', id: 'p1' } },
  { address: '/u/jane_doe', route: { screen: 'profile', username: 'jane_doe' } },
  {
    address: '/post/0b8f8a52-3c1e-4f55-9a0e-6d1c2b3a4f5e',
    route: { screen: 'post', id: '0b8f8a52-3c1e-4f55-9a0e-6d1c2b3a4f5e' },
  },
  { address: '/cads/new-york', route: { screen: 'city', cityForUrl: 'new-york' } },
  { address: '/cads/s%C3%A3o-paulo', route: { screen: 'city', cityForUrl: 'são-paulo' } },
  { address: '/cads/st.-louis', route: { screen: 'city', cityForUrl: 'st.-louis' } },
  { address: '/business/claim/p1', route: { screen: 'claim', id: 'p1' } },
  { address: '/business/becomecm/p1', route: { screen: 'become-consultant', id: 'p1' } },
  { address: '/e/ev1', route: { screen: 'event-page', id: 'ev1' } },
  {
    address: `/e/ev1/Edit?successUrl=${backQuery}`,
    route: { screen: 'event-edit', id: 'ev1', successUrl: back },
  },
  {
    address: `/e/ev1/CopyToNew?successUrl=${backQuery}`,
    route: { screen: 'event-copy', id: 'ev1', successUrl: back },
  },
  {
    address: `/MyEvents/DeleteFromMap/ev1?successUrl=${backQuery}`,
    route: { screen: 'event-delete', id: 'ev1', successUrl: back },
  },
  {
    address: `/b/p1/Edit?successUrl=${backQuery}`,
    route: { screen: 'point-edit', supertype: 'business', id: 'p1', successUrl: back },
  },
  {
    address: '/rent/p1/edit',
    route: { screen: 'point-edit', supertype: 'rental', id: 'p1' },
    built: '/rent/p1/Edit',
  },
  {
    address: `/MeOnMap/Edit?id=p1&successUrl=${backQuery}`,
    route: { screen: 'service-edit', id: 'p1', successUrl: back },
  },
  {
    address: `/MyExperience/Edit?id=p1&successUrl=${backQuery}`,
    route: { screen: 'experience-edit', id: 'p1', successUrl: back },
  },
  {
    address: `/MyRental/Edit?id=p1&successUrl=${backQuery}`,
    route: { screen: 'rental-edit', id: 'p1', successUrl: back },
  },
  {
    address: `/MyExperience/Delete?id=p1&successUrl=${backQuery}`,
    route: { screen: 'experience-delete', id: 'p1', successUrl: back },
  },
  {
    address: `/MyRental/Delete?id=p1&successUrl=${backQuery}`,
    route: { screen: 'rental-delete', id: 'p1', successUrl: back },
  },
  { address: '/MyRental/Delete?id=p1', route: { screen: 'rental-delete', id: 'p1' } },
  {
    address: `/business/ClearConsultant/p1?successUrl=${backQuery}`,
    route: { screen: 'clear-consultant', id: 'p1', successUrl: back },
  },
  { address: '/business/ClearConsultant/p1', route: { screen: 'clear-consultant', id: 'p1' } },
  {
    address: `/h/p1/CopyToNew?successUrl=${backQuery}`,
    route: { screen: 'helprequest-copy', id: 'p1', successUrl: back },
  },
  { address: '/Event/AddAsChild?parentid=ev1', route: { screen: 'event-add-child', parentId: 'ev1' } },
  { address: '/rental/p1/2', route: { screen: 'rental-book', id: 'p1' } },
  { address: '/Review/InviteReview?appid=p1', route: { screen: 'invite-review', appId: 'p1' } },
];

describe('the table of §2', () => {
  it.each(TABLE)('$address', ({ address, route, built }) => {
    const parsed = parseAddress(address);
    expect(parsed.route).toEqual(route);
    expect(parsed.problem).toBeUndefined();
    expect(parsed.replaceWith).toBeUndefined();
    expect(buildAddress(route)).toBe(built ?? address);
  });

  it('covers every screen', () => {
    const screens = new Set(TABLE.map((row) => row.route.screen));
    const all: Route['screen'][] = [
      'landing',
      'landing-search',
      'map',
      'map-search',
      'event',
      'point',
      'point-edit',
      ...ID_SCREENS,
      ...SUCCESS_URL_SCREENS,
      'cluster',
      'momcluster',
      'add-new',
      'meonmap',
      'myhelprequests',
      'profile',
      'post',
      'city',
      'event-add-child',
      'invite-review',
    ];
    expect([...screens].sort()).toEqual([...all].sort());
  });

  it('reads a query given apart from the path, and ignores the hash', () => {
    expect(parseAddress('/MeOnMap/Edit', '?id=p1').route).toEqual({ screen: 'service-edit', id: 'p1' });
    expect(parseAddress('/MeOnMap/Edit?id=zz', 'id=p1').route).toEqual({ screen: 'service-edit', id: 'p1' });
    expect(parseAddress('/b/p1#14/40.7/-74').route).toEqual({
      screen: 'point',
      supertype: 'business',
      id: 'p1',
    });
    expect(parseAddress('/Event/AddAsChild?ParentId=ev1').route).toEqual({
      screen: 'event-add-child',
      parentId: 'ev1',
    });
  });

  it('tolerates doubled and trailing slashes', () => {
    expect(parseAddress('//b//p1//').route).toEqual({ screen: 'point', supertype: 'business', id: 'p1' });
    expect(parseAddress(`/maps/coffee/data=${enc({ loc })}/`).route).toEqual({
      screen: 'map-search',
      keywords: 'coffee',
      data: { loc },
    });
  });

  it('keeps the case of ids', () => {
    expect(parseAddress('/B/AbC').route).toEqual({ screen: 'point', supertype: 'business', id: 'AbC' });
    expect(parseAddress('/AbC').route).toEqual({ screen: 'fullscreen', id: 'AbC' });
  });
});

describe('query flags (social §2)', () => {
  it('reads createpost=open and posts=1 on any page', () => {
    expect(parseAddress('/b/p1', '?createpost=open&posts=1')).toMatchObject({
      createPost: true,
      scrollToPosts: true,
    });
    expect(parseAddress('/?CreatePost=OPEN')).toMatchObject({ createPost: true, scrollToPosts: false });
    expect(parseAddress('/b/p1?posts=2&createpost=closed')).toMatchObject({
      createPost: false,
      scrollToPosts: false,
    });
  });
});

describe('addresses the app cannot use as they stand', () => {
  it('returns to the landing page from /search with a data segment alone, replacing the address with /', () => {
    for (const address of [
      `/search/data=${enc({ loc })}`,
      '/search',
      '/search/',
      '/search/%20%20',
      '/search/service=',
    ]) {
      const parsed = parseAddress(address);
      expect(parsed.route).toEqual({ screen: 'landing' });
      expect(parsed.replaceWith).toBe('/');
      expect(parsed.problem).toBeUndefined();
    }
  });

  it('shows just the map for a /maps link with nothing to search for, its loc moved to the hash', () => {
    const cases: Array<[string, string]> = [
      ['/maps/data=', '/maps'],
      ['/maps/data=%7B%7D', '/maps'],
      [`/maps/data=${enc({ loc: { zoom: 11, lng: -0.1276, lat: 51.5072 } })}`, '/maps#11/51.5072/-0.1276'],
      [`/maps/data=${enc({ loc: { zoom: 11, lng: 2.35, lat: 48.85 }, search: {} })}`, '/maps#11/48.85/2.35'],
    ];
    for (const [address, replaceWith] of cases) {
      const parsed = parseAddress(address);
      expect(parsed.route).toEqual({ screen: 'map' });
      expect(parsed.replaceWith).toBe(replaceWith);
      expect(parsed.problem).toBeUndefined();
    }
  });

  it('closes the side panel (map mode) and reports bad data', () => {
    for (const address of [
      '/maps/data=%7B%22loc%22',
      '/maps/coffee/data=%E0%A4%A',
      `/search/pizza/data=${enc({ event: { id: 'a b' } })}`,
      `/cluster/data=${enc({ loc: { zoom: 'far' } })}`,
      `/momcluster/data=${enc([1])}`,
      `/maps/data=${enc({ event: { id: '../x' } })}`,
      '/search/%E0%A4%A',
      '/maps/%E0%A4%A',
      '/search/service=%E0%A4%A',
      '/search/%E0%A4%A=plumber',
    ]) {
      const parsed = parseAddress(address);
      expect(parsed.route, address).toEqual({ screen: 'map' });
      expect(parsed.problem, address).toMatchObject({ kind: 'bad-data', detail: expect.any(String) });
    }
  });

  it('reports an invalid /new supertype and starts the flow at step 1', () => {
    for (const address of ['/new/invalidtype', '/new/business/bakery', '/new/event', '/new/%E0%A4%A']) {
      const parsed = parseAddress(address);
      expect(parsed.route).toEqual({ screen: 'add-new' });
      expect(parsed.problem).toMatchObject({ kind: 'bad-supertype' });
    }
  });

  it('keeps the supertype and reports an invalid type', () => {
    const parsed = parseAddress('/new/service/bad%20type');
    expect(parsed.route).toEqual({ screen: 'add-new', supertype: 'service' });
    expect(parsed.problem).toMatchObject({ kind: 'bad-type' });
  });

  it.each([
    '/b/a%20b',
    '/b/a%2Fb',
    '/b/..',
    '/b/%2E%2E',
    '/b/%41',
    '/%41bc',
    '/f/a.b',
    '/a.b',
    '/u/jane%20doe',
    '/cads/.hidden',
    '/e/a%2Fb/Edit',
    '/MyXPoints/Delete/a%20b',
    '/MeOnMap/Edit',
    '/MeOnMap/Edit?id=a/b',
    '/MyRental/Delete?id=',
    '/Event/AddAsChild?parentid=..',
    '/Review/InviteReview',
    '/rental/a%20b/2',
    '/business/claim/a%2Fb',
    `/b/${'x'.repeat(65)}`,
  ])('rejects the invalid id in %s', (address) => {
    const parsed = parseAddress(address);
    expect(parsed.route).toEqual({ screen: 'not-found', path: address.split('?')[0] });
    expect(parsed.problem).toMatchObject({ kind: 'bad-id' });
  });

  it.each([
    '/nowhere/at/all',
    '/home/mapboxstyle.json',
    '/b',
    '/b/p1/Delete',
    '/b/p1/Edit/more',
    '/p/p1/CopyToNew',
    '/e/ev1/Delete',
    '/e',
    '/f',
    '/a/p1/x',
    '/cluster/x',
    '/new/service/plumber/extra',
    '/search/a/b',
    '/maps/a/b',
    '/MyXPoints/Remove/p1',
    '/MeOnMap',
    '/MeOnMap/Other',
    '/MyExperience/View?id=p1',
    '/MyRental',
    '/MyEvents/DeleteFromMap',
    '/MyHelpRequests/x',
    '/u',
    '/cads',
    '/business/claim',
    '/business/other/p1',
    '/Event/Other?parentid=ev1',
    '/rental/p1/3',
    '/Review/Other?appid=p1',
    '/tiles',
    '/signin',
    '/signup',
    '/account',
    '/search-x/y',
    `/b/p1/data=${enc({ loc })}`,
    `/data=${enc({ loc })}`,
    `/home/data=${enc({ loc })}`,
  ])('finds no screen at %s', (address) => {
    const parsed = parseAddress(address);
    expect(parsed.route.screen).toBe('not-found');
    expect(parsed.problem?.kind).toBe('not-found');
  });

  it('refuses an address longer than 16 KB before reading it', () => {
    const parsed = parseAddress(`/maps/${'a'.repeat(MAX_ADDRESS_LENGTH)}`);
    expect(parsed).toMatchObject({ route: { screen: 'not-found' }, problem: { kind: 'not-found' } });
  });

  it('drops an unsafe successUrl (no open redirect)', () => {
    for (const url of [
      '//evil.example',
      'https://evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '/a\nb',
      '',
    ]) {
      const parsed = parseAddress(`/b/p1/Edit?successUrl=${encodeURIComponent(url)}`);
      expect(parsed.route).toEqual({ screen: 'point-edit', supertype: 'business', id: 'p1' });
    }
  });

  it('never builds a not-found route into a foreign address', () => {
    expect(buildAddress({ screen: 'not-found', path: '/nowhere' })).toBe('/nowhere');
    expect(buildAddress({ screen: 'not-found', path: '//evil.example' })).toBe('/');
  });

  it('reads a non-string input as the landing page', () => {
    expect(parseAddress(undefined as unknown as string, 42 as unknown as string).route).toEqual({
      screen: 'landing',
    });
  });
});

describe('prefix correction (§2 "a mismatched prefix is silently corrected")', () => {
  it('names the canonical path for the actual supertype', () => {
    expect(canonicalPointPath('p1', 'business')).toBe('/b/p1');
    expect(canonicalPointPath('p1', 'rental')).toBe('/rent/p1');
    expect(canonicalPointPath('p1', 'event')).toBe('/e/p1');
    expect(canonicalPointPath('p1', 'none')).toBe('/x/p1');
    expect(canonicalPointPath('p1', 'spaceship')).toBe('/x/p1');
    expect(() => canonicalPointPath('a/b', 'business')).toThrow(/Invalid point id/);
  });

  it('says when a point route needs correcting', () => {
    const route = parseAddress('/x/p1').route;
    expect(needsPrefixCorrection(route, 'business')).toBe(true);
    expect(needsPrefixCorrection(route, 'none')).toBe(false);
    expect(needsPrefixCorrection(parseAddress('/b/p1').route, 'business')).toBe(false);
    expect(needsPrefixCorrection(parseAddress('/b/p1/Edit').route, 'poi')).toBe(true);
    expect(needsPrefixCorrection(parseAddress('/p1').route, 'poi')).toBe(false);
  });
});

describe('buildAddress refuses invalid routes', () => {
  const invalid: [string, Route][] = [
    ['a point id with a slash', { screen: 'point', supertype: 'business', id: 'a/b' }],
    ['a point id of ..', { screen: 'fullscreen', id: '..' }],
    ['an event id with a space', { screen: 'event', eventId: 'a b', data: {} }],
    ['a supertype that is no point', { screen: 'point', supertype: 'event' as 'none', id: 'p1' }],
    ['empty landing keywords', { screen: 'landing-search', keywords: '  ', data: {} }],
    [
      'an unknown keyword supertype',
      { screen: 'map-search', keywords: 'x', supertype: 'all' as 'poi', data: {} },
    ],
    ['bad data', { screen: 'cluster', data: { loc: { zoom: 99, lng: 0, lat: 0 } } }],
    ['an add-new type without supertype', { screen: 'add-new', type: 'bakery' }],
    ['an add-new supertype that cannot be added', { screen: 'add-new', supertype: 'business' as 'rental' }],
    ['an add-new type with a slash', { screen: 'add-new', supertype: 'rental', type: 'a/b' }],
    ['a username with a space', { screen: 'profile', username: 'a b' }],
    ['a city with a slash', { screen: 'city', cityForUrl: 'a/b' }],
    ['a parent id of ..', { screen: 'event-add-child', parentId: '..' }],
    ['an app id with a quote', { screen: 'invite-review', appId: "a'" }],
    ['an unsafe successUrl', { screen: 'event-edit', id: 'e1', successUrl: '//evil.example' }],
    ['a relative successUrl', { screen: 'point-edit', supertype: 'poi', id: 'e1', successUrl: 'b/p1' }],
  ];
  it.each(invalid)('throws on %s', (_name, route) => {
    expect(() => buildAddress(route)).toThrow(Error);
  });

  it('escapes keywords that a browser would resolve or misread', () => {
    expect(buildAddress({ screen: 'landing-search', keywords: '.', data: {} })).toBe('/search/%2E');
    expect(buildAddress({ screen: 'landing-search', keywords: ' a?b#c ', data: {} })).toBe(
      '/search/a%3Fb%23c',
    );
    expect(buildAddress({ screen: 'map-search', keywords: 'x\uD800', data: {} })).toBe('/maps/x%EF%BF%BD');
  });

  it('reads the event route even if its data names another event', () => {
    const route = { screen: 'event', eventId: 'e1', data: { event: { id: 'e2' } } } as Route;
    expect(buildAddress(route)).toBe(`/maps/data=${encodeData({ event: { id: 'e1' } })}`);
  });
});

describe('isSafeReturnPath', () => {
  it('accepts same-site paths only', () => {
    expect(isSafeReturnPath('/')).toBe(true);
    expect(isSafeReturnPath('/maps/data=%7B%7D?x=1')).toBe(true);
    expect(isSafeReturnPath('//x')).toBe(false);
    expect(isSafeReturnPath('/\u007f')).toBe(false);
    expect(isSafeReturnPath('/\uDC00')).toBe(false);
    expect(isSafeReturnPath(`/${'a'.repeat(5000)}`)).toBe(false);
    expect(isSafeReturnPath(3)).toBe(false);
  });
});
