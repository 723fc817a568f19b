import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseData } from './data';
import {
  MAP_LOCATION_COOKIE,
  buildMapHash,
  decodeLocationCookie,
  encodeLocationCookie,
  parseMapHash,
} from './location';
import { mapDataArbitrary } from './test-arbitraries';
import type { MapLocation } from './types';

const loc: MapLocation = { zoom: 14, lng: -74.006, lat: 40.7128 };
const locations = mapDataArbitrary
  .map((data) => normaliseData(data).loc)
  .filter((value): value is MapLocation => value !== undefined);

describe('map hash', () => {
  it('writes MapLibre order zoom/lat/lng, rounded', () => {
    expect(buildMapHash(loc)).toBe('#14/40.7128/-74.006');
    expect(buildMapHash({ zoom: 3.14159, lng: 1.23456789, lat: -0.0000001 })).toBe('#3.14/0/1.234568');
  });

  it('reads its own hash and MapLibre forms', () => {
    expect(parseMapHash('#14/40.7128/-74.006')).toEqual(loc);
    expect(parseMapHash('14/40.7128/-74.006/30/60')).toEqual(loc);
    expect(parseMapHash('#map=14/40.7128/-74.006&layer=x')).toEqual(loc);
    expect(parseMapHash('#.5/1./-2')).toEqual({ zoom: 0.5, lat: 1, lng: -2 });
  });

  it.each([
    '',
    '#',
    '#14/40',
    '#a/b/c',
    '#14/95/0',
    '#25/0/0',
    '#1/2/3/4/5/6',
    '#1e3/0/0',
    '#x=1',
    'x'.repeat(600),
  ])('reads %j as no location', (hash) => {
    expect(parseMapHash(hash)).toBeNull();
  });

  it('refuses to write a location off the map', () => {
    expect(() => buildMapHash({ zoom: 1, lng: 200, lat: 0 })).toThrow(/Not a map location/);
  });

  it('round-trips any location and never throws', () => {
    fc.assert(
      fc.property(locations, (value) => {
        expect(parseMapHash(buildMapHash(value))).toEqual(value);
      }),
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        parseMapHash(text);
      }),
    );
  });
});

describe(`cookie ${MAP_LOCATION_COOKIE}`, () => {
  it('holds the loc JSON, URL-encoded', () => {
    expect(encodeLocationCookie(loc)).toBe(encodeURIComponent('{"zoom":14,"lng":-74.006,"lat":40.7128}'));
    expect(decodeLocationCookie(encodeLocationCookie(loc))).toEqual(loc);
    expect(decodeLocationCookie('{"zoom":14,"lng":-74.006,"lat":40.7128,"extra":1}')).toEqual(loc);
  });

  it.each(['', '%E0%A4%A', '{"zoom":14}', 'null', '{"zoom":"14","lng":0,"lat":0}', 'x'.repeat(600)])(
    'reads %j as no location',
    (value) => {
      expect(decodeLocationCookie(value)).toBeNull();
    },
  );

  it('refuses to write a location off the map', () => {
    expect(() => encodeLocationCookie({ zoom: Number.NaN, lng: 0, lat: 0 })).toThrow(/Not a map location/);
  });

  it('round-trips any location and never throws', () => {
    fc.assert(
      fc.property(locations, (value) => {
        expect(decodeLocationCookie(encodeLocationCookie(value))).toEqual(value);
      }),
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        decodeLocationCookie(text);
      }),
    );
  });
});
