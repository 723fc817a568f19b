import { describe, expect, it } from 'vitest';
import { DEFAULT_LOCATION, initialLocation, readCookie } from './startView';

const data = (value: unknown) => encodeURIComponent(JSON.stringify(value));
const cookie = (loc: unknown) => `other=1; mapbox_loc_json=${encodeURIComponent(JSON.stringify(loc))}; x=y`;

describe('initialLocation', () => {
  it('takes the hash first', () => {
    expect(
      initialLocation({
        hash: '#5.5/48.85/2.35',
        pathname: `/cluster/data=${data({ loc: { zoom: 3, lng: 1, lat: 1 } })}`,
        cookies: cookie({ zoom: 9, lng: 9, lat: 9 }),
      }),
    ).toEqual({ zoom: 5.5, lat: 48.85, lng: 2.35 });
  });

  it('then the loc of the data segment', () => {
    expect(
      initialLocation({
        hash: '#not/a/hash',
        pathname: `/maps/data=${data({ loc: { zoom: 3, lng: 1, lat: 2 } })}`,
        cookies: cookie({ zoom: 9, lng: 9, lat: 9 }),
      }),
    ).toEqual({ zoom: 3, lng: 1, lat: 2 });
  });

  it('also of a location-only link, which the app replaces by the map with the location in the hash', () => {
    expect(
      initialLocation({
        hash: '',
        pathname: `/maps/data=${data({ loc: { zoom: 11, lng: -0.1276, lat: 51.5072 } })}`,
        cookies: cookie({ zoom: 9, lng: 9, lat: 9 }),
      }),
    ).toEqual({ zoom: 11, lng: -0.1276, lat: 51.5072 });
  });

  it('then the mapbox_loc_json cookie', () => {
    expect(
      initialLocation({ hash: '', pathname: '/b/abc', cookies: cookie({ zoom: 9, lng: 9, lat: 9 }) }),
    ).toEqual({
      zoom: 9,
      lng: 9,
      lat: 9,
    });
  });

  it('else New York at zoom 14, also when every source is bad', () => {
    expect(initialLocation({ hash: '', pathname: '/', cookies: '' })).toEqual(DEFAULT_LOCATION);
    expect(DEFAULT_LOCATION).toEqual({ zoom: 14, lng: -74.006, lat: 40.7128 });
    expect(
      initialLocation({
        hash: '#99/0/0',
        pathname: '/cluster/data=%7Bbroken',
        cookies: 'mapbox_loc_json=%7B%22zoom%22%3A-4%7D',
      }),
    ).toEqual(DEFAULT_LOCATION);
  });
});

describe('readCookie', () => {
  it('finds one cookie by exact name', () => {
    expect(readCookie('a=1; mapbox_loc_json=v; b=2', 'mapbox_loc_json')).toBe('v');
    expect(readCookie('xmapbox_loc_json=v', 'mapbox_loc_json')).toBeUndefined();
    expect(readCookie('', 'mapbox_loc_json')).toBeUndefined();
  });
});
