import { describe, expect, test } from 'vitest';
import { MAP_PATH, returnAfterDelete, returnAfterSave } from './returnPath';

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
