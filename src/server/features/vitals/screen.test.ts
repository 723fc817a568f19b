import { describe, expect, it } from 'vitest';
import { screenOf } from './screen';

describe('screenOf', () => {
  it.each([
    ['/', 'landing'],
    ['/maps', 'map'],
    ['/f/AbCdEf123', 'fullscreen'],
    ['/search/coffee', 'landing-search'],
    ['/cads/London', 'city'],
    ['/u/olivia', 'profile'],
    ['/signin', 'signin'],
    ['/admin/claims', 'admin'],
  ])('given %s, when counted, then it is the %s screen', (page, screen) => {
    expect(screenOf(page)).toBe(screen);
  });

  it('given a path no screen answers, when counted, then it is not-found and keeps nothing of the path', () => {
    expect(screenOf('/no/such/page/with/secret')).toBe('not-found');
  });
});
