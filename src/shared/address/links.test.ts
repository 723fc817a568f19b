import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as links from './links';
import { successUrlFor } from './links';
import { parseAddress } from './routes';
import { idArbitrary } from './test-arbitraries';
import type { Route } from './types';

const here = '/maps/coffee/data=%7B%22loc%22%3A%7B%22zoom%22%3A12%2C%22lng%22%3A1%2C%22lat%22%3A2%7D%7D';
const hereQuery = encodeURIComponent(here);

/** Every link of §2 "Links the product builds": the builder's output and the route it parses to. */
const LINKS: [string, string, Route][] = [
  ['fullscreenLink', links.fullscreenLink('Pt-1'), { screen: 'fullscreen', id: 'Pt-1' }],
  ['pointLandingLink', links.pointLandingLink('Pt-1'), { screen: 'point-landing', id: 'Pt-1' }],
  [
    'pointLink',
    links.pointLink('Pt-1', 'experience'),
    { screen: 'point', supertype: 'experience', id: 'Pt-1' },
  ],
  ['profileLink', links.profileLink('jane_doe'), { screen: 'profile', username: 'jane_doe' }],
  [
    'postLink',
    links.postLink('0b8f8a52-3c1e-4f55-9a0e-6d1c2b3a4f5e'),
    { screen: 'post', id: '0b8f8a52-3c1e-4f55-9a0e-6d1c2b3a4f5e' },
  ],
  ['cityLink', links.cityLink('new-york'), { screen: 'city', cityForUrl: 'new-york' }],
  ['claimLink', links.claimLink('Pt-1'), { screen: 'claim', id: 'Pt-1' }],
  ['becomeConsultantLink', links.becomeConsultantLink('Pt-1'), { screen: 'become-consultant', id: 'Pt-1' }],
  ['eventLink', links.eventLink('Ev-1'), { screen: 'event-page', id: 'Ev-1' }],
  [
    'eventEditLink',
    links.eventEditLink('Ev-1', here),
    { screen: 'event-edit', id: 'Ev-1', successUrl: here },
  ],
  [
    'eventCopyLink',
    links.eventCopyLink('Ev-1', here),
    { screen: 'event-copy', id: 'Ev-1', successUrl: here },
  ],
  [
    'eventDeleteLink',
    links.eventDeleteLink('Ev-1', here),
    { screen: 'event-delete', id: 'Ev-1', successUrl: here },
  ],
  [
    'pointEditLink',
    links.pointEditLink('Pt-1', 'business', here),
    { screen: 'point-edit', supertype: 'business', id: 'Pt-1', successUrl: here },
  ],
  [
    'serviceEditLink',
    links.serviceEditLink('Pt-1', here),
    { screen: 'service-edit', id: 'Pt-1', successUrl: here },
  ],
  [
    'experienceEditLink',
    links.experienceEditLink('Pt-1', here),
    { screen: 'experience-edit', id: 'Pt-1', successUrl: here },
  ],
  [
    'rentalEditLink',
    links.rentalEditLink('Pt-1', here),
    { screen: 'rental-edit', id: 'Pt-1', successUrl: here },
  ],
  [
    'experienceDeleteLink',
    links.experienceDeleteLink('Pt-1', here),
    { screen: 'experience-delete', id: 'Pt-1', successUrl: here },
  ],
  [
    'rentalDeleteLink',
    links.rentalDeleteLink('Pt-1', here),
    { screen: 'rental-delete', id: 'Pt-1', successUrl: here },
  ],
  [
    'pointDeleteLink',
    links.pointDeleteLink('Pt-1', here),
    { screen: 'delete-redirect', id: 'Pt-1', successUrl: here },
  ],
  [
    'clearConsultantLink',
    links.clearConsultantLink('Pt-1', here),
    { screen: 'clear-consultant', id: 'Pt-1', successUrl: here },
  ],
  [
    'helpRequestCopyLink',
    links.helpRequestCopyLink('Pt-1', here),
    { screen: 'helprequest-copy', id: 'Pt-1', successUrl: here },
  ],
  ['addChildEventLink', links.addChildEventLink('Ev-1'), { screen: 'event-add-child', parentId: 'Ev-1' }],
  ['rentalBookingLink', links.rentalBookingLink('Pt-1'), { screen: 'rental-book', id: 'Pt-1' }],
  ['inviteReviewLink', links.inviteReviewLink('Pt-1'), { screen: 'invite-review', appId: 'Pt-1' }],
];

const EXPECTED: Record<string, string> = {
  fullscreenLink: '/Pt-1',
  pointLandingLink: '/a/Pt-1',
  pointLink: '/exp/Pt-1',
  profileLink: '/u/jane_doe',
  postLink: '/post/0b8f8a52-3c1e-4f55-9a0e-6d1c2b3a4f5e',
  cityLink: '/cads/new-york',
  claimLink: '/business/claim/Pt-1',
  becomeConsultantLink: '/business/becomecm/Pt-1',
  eventLink: '/e/Ev-1',
  eventEditLink: `/e/Ev-1/Edit?successUrl=${hereQuery}`,
  eventCopyLink: `/e/Ev-1/CopyToNew?successUrl=${hereQuery}`,
  eventDeleteLink: `/MyEvents/DeleteFromMap/Ev-1?successUrl=${hereQuery}`,
  pointEditLink: `/b/Pt-1/Edit?successUrl=${hereQuery}`,
  serviceEditLink: `/MeOnMap/Edit?id=Pt-1&successUrl=${hereQuery}`,
  experienceEditLink: `/MyExperience/Edit?id=Pt-1&successUrl=${hereQuery}`,
  rentalEditLink: `/MyRental/Edit?id=Pt-1&successUrl=${hereQuery}`,
  experienceDeleteLink: `/MyExperience/Delete?id=Pt-1&successUrl=${hereQuery}`,
  rentalDeleteLink: `/MyRental/Delete?id=Pt-1&successUrl=${hereQuery}`,
  pointDeleteLink: `/MyXPoints/Delete/Pt-1?successUrl=${hereQuery}`,
  clearConsultantLink: `/business/ClearConsultant/Pt-1?successUrl=${hereQuery}`,
  helpRequestCopyLink: `/h/Pt-1/CopyToNew?successUrl=${hereQuery}`,
  addChildEventLink: '/Event/AddAsChild?parentid=Ev-1',
  rentalBookingLink: '/rental/Pt-1/2',
  inviteReviewLink: '/Review/InviteReview?appid=Pt-1',
};

describe('links the product builds (§2)', () => {
  it.each(LINKS)('%s builds %s', (name, link, route) => {
    expect(link).toBe(EXPECTED[name]);
    const parsed = parseAddress(link);
    expect(parsed.route).toEqual(route);
    expect(parsed.problem).toBeUndefined();
  });

  it('has a builder for every link and no other', () => {
    const builders = Object.keys(links).filter((name) => name.endsWith('Link'));
    expect(builders.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it('writes a fullscreen link to a route word as /f/{id}', () => {
    expect(links.fullscreenLink('maps')).toBe('/f/maps');
    expect(links.fullscreenLink('Exp')).toBe('/f/Exp');
  });

  it('writes a point link by the actual supertype, x when unknown', () => {
    expect(links.pointLink('p1', 'none')).toBe('/x/p1');
    expect(links.pointLink('p1', 'service')).toBe('/m/p1');
    expect(links.pointLink('p1', 'virtualstore')).toBe('/s/p1');
  });

  it('leaves successUrl out of a clear-consultant link without one', () => {
    expect(links.clearConsultantLink('p1')).toBe('/business/ClearConsultant/p1');
  });

  it('encodes a city with letters of any script', () => {
    expect(links.cityLink('são-paulo')).toBe('/cads/s%C3%A3o-paulo');
  });

  it.each([
    ['fullscreenLink', () => links.fullscreenLink('a/b')],
    ['pointLandingLink', () => links.pointLandingLink('')],
    ['pointLink', () => links.pointLink('a b', 'business')],
    ['profileLink', () => links.profileLink('../admin')],
    ['postLink', () => links.postLink('../admin')],
    ['cityLink', () => links.cityLink('..')],
    ['eventEditLink', () => links.eventEditLink('e/1', '/')],
    ['pointEditLink', () => links.pointEditLink('p1', 'business', 'https://evil.example')],
    ['serviceEditLink', () => links.serviceEditLink('p1&x=1', '/')],
    ['addChildEventLink', () => links.addChildEventLink('e?1')],
    ['inviteReviewLink', () => links.inviteReviewLink('a#b')],
    ['rentalBookingLink', () => links.rentalBookingLink('x'.repeat(65))],
  ])('%s throws a clear error on an invalid id or successUrl', (_name, build) => {
    expect(build).toThrow(/Invalid|successUrl/);
  });

  it('gives back id and successUrl for any valid id and path', () => {
    fc.assert(
      fc.property(
        idArbitrary,
        fc.string().map((text) => `/${text.replace(/^[/\\]+/, '')}`),
        (id, path) => {
          const successUrl = successUrlFor(path);
          const parsed = parseAddress(links.experienceDeleteLink(id, successUrl));
          expect(parsed.route).toEqual({ screen: 'experience-delete', id, successUrl });
        },
      ),
    );
  });
});

describe('successUrlFor', () => {
  it('is the current path, without the query', () => {
    expect(successUrlFor('/b/p1', '?createpost=open')).toBe('/b/p1');
    expect(successUrlFor(here)).toBe(here);
  });

  it('keeps pagenumber and pagesize on profile pages, with defaults 1 and 12 (social §2)', () => {
    expect(successUrlFor('/u/jane/profile/posts', '?pagenumber=3&pagesize=24&x=1')).toBe(
      '/u/jane/profile/posts?pagenumber=3&pagesize=24',
    );
    expect(successUrlFor('/u/jane/Profile/')).toBe('/u/jane/Profile/?pagenumber=1&pagesize=12');
    // our profile pages are /u/{username}
    expect(successUrlFor('/u/olivia', '?pagenumber=2&pagesize=24')).toBe(
      '/u/olivia?pagenumber=2&pagesize=24',
    );
    expect(successUrlFor('/u/olivia/')).toBe('/u/olivia/?pagenumber=1&pagesize=12');
    expect(successUrlFor('/users/olivia', '?pagenumber=2')).toBe('/users/olivia');
    expect(successUrlFor('/u/jane/profile/', '?pagenumber=-1&pagesize=abc')).toBe(
      '/u/jane/profile/?pagenumber=1&pagesize=12',
    );
  });

  it('falls back to / for a path that is not same-site', () => {
    expect(successUrlFor('//evil.example')).toBe('/');
    expect(successUrlFor('')).toBe('/');
  });

  it('drops the paging rather than go over the length limit', () => {
    const long = `/profile/${'a'.repeat(4080)}`;
    expect(successUrlFor(long)).toBe(long);
  });
});
