import { describe, expect, test } from 'vitest';
import { MAP_PATH, returnAfterDelete, returnAfterSave, withCurrentSuccessUrl } from './returnPath';

describe('where an owner page goes when done', () => {
  test('a save returns to a same-site successUrl, else to the fallback', () => {
    expect(returnAfterSave('/MeOnMap/Index', '/e/ev_1')).toBe('/MeOnMap/Index');
    expect(returnAfterSave(undefined, '/e/ev_1')).toBe('/e/ev_1');
    expect(returnAfterSave('//evil.example/', '/e/ev_1')).toBe('/e/ev_1');
    expect(returnAfterSave('https://evil.example/', '/e/ev_1')).toBe('/e/ev_1');
  });

  test('a deletion never returns to the page of what was deleted', () => {
    expect(returnAfterDelete('/b/hall_1', 'hall_1')).toBe(MAP_PATH);
    expect(returnAfterDelete('/hall_1', 'hall_1')).toBe(MAP_PATH);
    expect(returnAfterDelete('/e/ev_1', 'ev_1', '/b/hall_1')).toBe('/b/hall_1');
    expect(returnAfterDelete('/maps/data={"event":{"id":"ev_1"}}', 'ev_1')).toBe(MAP_PATH);
  });

  test('a deletion returns to any other page it was asked from', () => {
    expect(returnAfterDelete('/MyHelpRequests', 'h_1')).toBe('/MyHelpRequests');
    expect(returnAfterDelete('/b/hall_1', 'ev_1', '/maps')).toBe('/b/hall_1');
    expect(returnAfterDelete('/u/olivia?pagenumber=2&pagesize=12', 'hall_1')).toBe(
      '/u/olivia?pagenumber=2&pagesize=12',
    );
    expect(returnAfterDelete(undefined, 'hall_1')).toBe(MAP_PATH);
  });
});

describe('control links carry where the visitor is', () => {
  const search = `/maps/coffee/data=${encodeURIComponent(JSON.stringify({ search: { supertype: 'business' }, xpoint: { id: 'cafe_1' } }))}`;

  test('edit returns to the current path, the result list the point was opened from', () => {
    const href = withCurrentSuccessUrl('/b/cafe_1/Edit?successUrl=%2Fb%2Fcafe_1', search, 'cafe_1');
    expect(new URL(href, 'http://x').searchParams.get('successUrl')).toBe(search);
    expect(href.startsWith('/b/cafe_1/Edit?')).toBe(true);
  });

  test('delete returns to the list without the deleted point open', () => {
    const href = withCurrentSuccessUrl(
      '/MyXPoints/Delete/cafe_1?successUrl=%2Fb%2Fcafe_1',
      search,
      'cafe_1',
      true,
    );
    const back = new URL(href, 'http://x').searchParams.get('successUrl') ?? '';
    expect(back.startsWith('/maps/coffee/data=')).toBe(true);
    expect(decodeURIComponent(back)).not.toContain('xpoint');
  });

  test('a link without successUrl and an unsafe current path are left alone', () => {
    expect(withCurrentSuccessUrl('/business/claim/cafe_1', search, 'cafe_1')).toBe('/business/claim/cafe_1');
    expect(withCurrentSuccessUrl('/b/cafe_1/Edit?successUrl=%2Fb%2Fcafe_1', '//evil', 'cafe_1')).toBe(
      '/b/cafe_1/Edit?successUrl=%2Fb%2Fcafe_1',
    );
  });
});
