import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LOCATION,
  initialBounds,
  initialLocation,
  readCookie,
  roundedLocation,
  sameLocation,
} from './mapLocation';

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

describe('roundedLocation and sameLocation', () => {
  it('round to 6 decimals and zoom to 2, and compare the rounded values', () => {
    const a = roundedLocation(5.123456, 2.3522123456, 48.8566123456);
    expect(a).toEqual({ zoom: 5.12, lng: 2.352212, lat: 48.856612 });
    expect(sameLocation(a, roundedLocation(5.1249, 2.3522119, 48.8566121))).toBe(true);
    expect(sameLocation(a, roundedLocation(5.13, 2.352212, 48.856612))).toBe(false);
    expect(roundedLocation(25, 0, 0)).toBeNull();
  });
});

describe('initialBounds', () => {
  const search = { southwest: { lat: 48.83, lon: 2.28 }, northeast: { lat: 48.89, lon: 2.4 } };

  it("opens a shared search link on the search's bounds", () => {
    expect(initialBounds({ hash: '', pathname: `/maps/cafe/data=${data({ search })}` })).toEqual([
      [2.28, 48.83],
      [2.4, 48.89],
    ]);
  });

  it('leaves the view to the hash or the loc when the address has one', () => {
    expect(
      initialBounds({ hash: '#12/40.7/-74', pathname: `/maps/cafe/data=${data({ search })}` }),
    ).toBeNull();
    const loc = { zoom: 3, lng: 1, lat: 2 };
    expect(initialBounds({ hash: '', pathname: `/maps/cafe/data=${data({ search, loc })}` })).toBeNull();
  });

  it('ignores bounds that are missing a corner or have no area', () => {
    const { southwest } = search;
    expect(
      initialBounds({ hash: '', pathname: `/maps/cafe/data=${data({ search: { southwest } })}` }),
    ).toBeNull();
    const flat = { southwest, northeast: { lat: 48.83, lon: 2.4 } };
    expect(initialBounds({ hash: '', pathname: `/maps/cafe/data=${data({ search: flat })}` })).toBeNull();
    expect(initialBounds({ hash: '', pathname: '/maps' })).toBeNull();
  });
});
