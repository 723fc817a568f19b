import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_DATA_LENGTH, decodeData, encodeData, isEmptyData, normaliseData, roundTo } from './data';
import type { MapData } from './types';
import { mapDataArbitrary } from './test-arbitraries';

const raw = (json: string) => encodeURIComponent(json);
const enc = (value: unknown) => encodeURIComponent(JSON.stringify(value));

describe('encodeData', () => {
  it('writes URL-encoded JSON with the spec names, empty fields dropped', () => {
    const data: MapData = {
      loc: { zoom: 14, lng: -74.006, lat: 40.7128 },
      search: {
        supertype: 'service',
        keywords: 'plumber',
        southwest: { lat: 40, lon: -75 },
        northeast: { lat: 41, lon: -73 },
        paging: { pageNumber: 2, pageSize: 24 },
      },
      event: { id: 'ev-1' },
    };
    const encoded = encodeData(data);
    expect(decodeURIComponent(encoded)).toBe(
      '{"loc":{"zoom":14,"lng":-74.006,"lat":40.7128},"search":{"supertype":"service","keywords":"plumber",' +
        '"southwest":{"lat":40,"lon":-75},"northeast":{"lat":41,"lon":-73},"paging":{"pageNumber":2,"pageSize":24}},' +
        '"event":{"id":"ev-1"}}',
    );
    expect(encoded).not.toMatch(/[{}"/ ]/);
  });

  it('drops empty fields: empty strings, empty objects, undefined', () => {
    const data = {
      search: { keywords: '', supertype: undefined, paging: {} },
      event: { id: '' },
      loc: undefined,
    };
    expect(encodeData(data as MapData)).toBe(enc({}));
    expect(encodeData({ search: { keywords: '  pizza  ' } })).toBe(enc({ search: { keywords: 'pizza' } }));
  });

  it("removes the supertype 'all' (§5) and 'none', and reads meonmap as service", () => {
    expect(encodeData({ search: { supertype: 'all', keywords: 'x' } })).toBe(
      enc({ search: { keywords: 'x' } }),
    );
    expect(encodeData({ search: { supertype: 'all' } })).toBe(enc({}));
    expect(decodeData(enc({ search: { supertype: 'none', keywords: 'x' } }))).toEqual({
      ok: true,
      value: { search: { keywords: 'x' } },
    });
    expect(decodeData(enc({ search: { supertype: 'MeOnMap' } }))).toEqual({
      ok: true,
      value: { search: { supertype: 'service' } },
    });
  });

  it('rounds coordinates to 6 decimals and zoom to 2 (§9)', () => {
    const data: MapData = {
      loc: { zoom: 13.456789, lng: -74.00612345678, lat: 40.71284999999 },
      search: {
        southwest: { lat: 1.0000004, lon: -0.0000004 },
        northeast: { lat: 2.1234565, lon: 3.9999999 },
      },
    };
    expect(normaliseData(data)).toEqual({
      loc: { zoom: 13.46, lng: -74.006123, lat: 40.71285 },
      search: { southwest: { lat: 1, lon: 0 }, northeast: { lat: 2.123457, lon: 4 } },
    });
    expect(Object.is(roundTo(-0.0000001, 6), 0)).toBe(true);
  });

  it('throws on data no address may hold (a programming error)', () => {
    expect(() => encodeData({ event: { id: '../etc' } })).toThrow(/event\.id/);
    expect(() => encodeData({ loc: { zoom: 30, lng: 0, lat: 0 } })).toThrow(/loc\.zoom/);
    expect(() => encodeData({ search: { paging: { pageSize: 13 } } })).toThrow(/pageSize/);
  });

  it('normalising drops a supertype that is not searchable', () => {
    expect(normaliseData({ search: { supertype: 'spaceship' as 'poi', keywords: 'x' } })).toEqual({
      search: { keywords: 'x' },
    });
  });

  it('knows empty data', () => {
    expect(isEmptyData({})).toBe(true);
    expect(isEmptyData({ search: { supertype: 'all', keywords: ' ' } })).toBe(true);
    expect(isEmptyData({ xpoint: { id: 'b1' } })).toBe(false);
  });
});

describe('decodeData', () => {
  it('reads what encodeData wrote, and the xpoint next level', () => {
    const data: MapData = { loc: { zoom: 10, lng: 2.35, lat: 48.85 }, xpoint: { id: 'Abc_12-x' } };
    expect(decodeData(encodeData(data))).toEqual({ ok: true, value: data });
  });

  it('reads the cluster a /cluster list shows: its layer group and cluster id', () => {
    const data: MapData = { loc: { zoom: 3, lng: -74, lat: 40 }, cluster: { group: 'event', id: 0 } };
    expect(decodeURIComponent(encodeData(data))).toBe(
      '{"loc":{"zoom":3,"lng":-74,"lat":40},"cluster":{"group":"event","id":0}}',
    );
    expect(decodeData(encodeData(data))).toEqual({ ok: true, value: data });
  });

  it('reads an empty segment as empty data', () => {
    expect(decodeData('')).toEqual({ ok: true, value: {} });
    expect(decodeData(raw('null'))).toEqual({ ok: true, value: {} });
    expect(decodeData(raw('{}'))).toEqual({ ok: true, value: {} });
  });

  it('ignores unknown fields and drops empty ones', () => {
    const json =
      '{"loc":{"zoom":3,"lng":1,"lat":2,"pitch":40},"extra":[1],"search":{"keywords":"","southwest":null},"event":{}}';
    expect(decodeData(raw(json))).toEqual({ ok: true, value: { loc: { zoom: 3, lng: 1, lat: 2 } } });
  });

  it('ignores what lies deeper than the known structure', () => {
    const json = { loc: { zoom: 1, lng: 1, lat: 1, extra: { a: { b: { c: {} } } } } };
    expect(decodeData(enc(json))).toEqual({ ok: true, value: { loc: { zoom: 1, lng: 1, lat: 1 } } });
    expect(decodeData(enc({ search: { southwest: { lat: { deep: {} }, lon: 1 } } })).ok).toBe(false);
  });

  it('reads unencoded JSON too (a hand-typed address)', () => {
    expect(decodeData('{"event":{"id":"e1"}}')).toEqual({ ok: true, value: { event: { id: 'e1' } } });
  });

  const bad: [string, string, RegExp][] = [
    ['malformed percent-encoding', '%E0%A4%A', /percent-encoding/],
    ['a lone percent sign', '{"a":"%"}', /percent-encoding/],
    ['malformed JSON', raw('{"loc":'), /not valid JSON/],
    ['JSON that is not an object', raw('[1,2]'), /not a JSON object/],
    ['a JSON number', raw('42'), /not a JSON object/],
    ['a string zoom', enc({ loc: { zoom: '3', lng: 1, lat: 2 } }), /loc\.zoom/],
    ['a partial loc', enc({ loc: { zoom: 3 } }), /loc\.lng/],
    ['a latitude out of range', enc({ loc: { zoom: 3, lng: 1, lat: 91 } }), /loc\.lat/],
    ['a longitude out of range', enc({ loc: { zoom: 3, lng: 181, lat: 1 } }), /loc\.lng/],
    ['a negative zoom', enc({ loc: { zoom: -1, lng: 1, lat: 1 } }), /loc\.zoom/],
    ['bounds as an array', enc({ search: { southwest: [1, 2] } }), /search\.southwest/],
    ['an unknown supertype', enc({ search: { supertype: 'spaceship' } }), /search\.supertype/],
    ['a numeric supertype', enc({ search: { supertype: 3 } }), /search\.supertype/],
    ['keywords that are not text', enc({ search: { keywords: ['a'] } }), /search\.keywords/],
    ['very long keywords', enc({ search: { keywords: 'k'.repeat(300) } }), /search\.keywords/],
    ['page 0', enc({ search: { paging: { pageNumber: 0 } } }), /pageNumber/],
    ['a fractional page', enc({ search: { paging: { pageNumber: 1.5 } } }), /pageNumber/],
    ['a page size off the list', enc({ search: { paging: { pageSize: 50 } } }), /pageSize/],
    ['an event id with a slash', enc({ event: { id: 'a/b' } }), /event\.id/],
    ['an event id with ..', enc({ event: { id: '..' } }), /event\.id/],
    ['an event id with a space', enc({ event: { id: 'a b' } }), /event\.id/],
    ['a numeric event id', enc({ event: { id: 12 } }), /event\.id/],
    ['a point id too long', enc({ xpoint: { id: 'a'.repeat(65) } }), /xpoint\.id/],
    ['an event that is a string', enc({ event: 'e1' }), /event/],
    ['a cluster of an unknown group', enc({ cluster: { group: 'spaceship', id: 1 } }), /cluster\.group/],
    ['a fractional cluster id', enc({ cluster: { group: 'poi', id: 1.5 } }), /cluster\.id/],
    ['a negative cluster id', enc({ cluster: { group: 'poi', id: -1 } }), /cluster\.id/],
    ['a cluster id as text', enc({ cluster: { group: 'poi', id: '7' } }), /cluster\.id/],
  ];
  it.each(bad)('rejects %s', (_name, segment, reason) => {
    const result = decodeData(segment);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it('rejects a segment over 8 KB before decoding it', () => {
    const huge = enc({ search: { keywords: 'x' }, pad: 'p'.repeat(MAX_DATA_LENGTH) });
    expect(decodeData(huge)).toEqual({ ok: false, reason: expect.stringMatching(/longer than 8192/) });
  });

  it('rejects input that is not text', () => {
    expect(decodeData(undefined as unknown as string).ok).toBe(false);
  });

  it('ignores __proto__ keys and pollutes nothing', () => {
    const json =
      '{"__proto__":{"polluted":1},"loc":{"__proto__":{"polluted":2},"zoom":1,"lng":1,"lat":1},' +
      '"search":{"constructor":{"prototype":{"polluted":3}},"keywords":"x"}}';
    const result = decodeData(raw(json));
    expect(result).toEqual({
      ok: true,
      value: { loc: { zoom: 1, lng: 1, lat: 1 }, search: { keywords: 'x' } },
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    if (result.ok) {
      expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype);
      expect(Object.keys(result.value)).toEqual(['loc', 'search']);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

describe('data properties', () => {
  it('decode(encode(data)) gives back the normalised data', () => {
    fc.assert(
      fc.property(mapDataArbitrary, (data) => {
        expect(decodeData(encodeData(data))).toEqual({ ok: true, value: normaliseData(data) });
      }),
      { numRuns: 500 },
    );
  });

  it('normalising is idempotent and encoding ignores it', () => {
    fc.assert(
      fc.property(mapDataArbitrary, (data) => {
        const once = normaliseData(data);
        expect(normaliseData(once)).toEqual(once);
        expect(encodeData(once)).toBe(encodeData(data));
      }),
    );
  });

  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'binary-ascii' })),
        (text) => {
          decodeData(text);
          decodeData(encodeURIComponent(text));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never throws on any JSON, and what it accepts is already normal', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.record({
            loc: fc.jsonValue(),
            search: fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue())),
          }),
        ),
        (json) => {
          const result = decodeData(enc(json));
          if (result.ok) {
            expect(normaliseData(result.value)).toEqual(result.value);
            expect(decodeData(encodeData(result.value))).toEqual(result);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
