import { describe, expect, test } from 'vitest';
import { BeamFlag } from '../../shared/domain/beams';
import type { DynamicFeature, EventBeamItem } from '../../shared/api/live';
import {
  MAX_DYNAMIC_SHOWN,
  boundsChanged,
  deviceIdFrom,
  dynamicInput,
  eventBeamInput,
  eventBeamingInputs,
  eventStatusFlag,
  pointBeamInput,
  sampleDynamic,
} from './liveData';

function feature(
  id: string,
  rank: number,
  extra: Partial<DynamicFeature['properties']> = {},
): DynamicFeature {
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [10, 20] },
    properties: {
      appnetid: id,
      title: id,
      class: 'bakery',
      subclass: null,
      streamtype: rank > 0 ? 'hotpoint' : 'other',
      rank,
      clickurl: null,
      impressionurl: null,
      beam: ['hot'],
      hidden: false,
      iconimage: null,
      ...extra,
    },
  };
}

/** A deterministic [0, 1) sequence. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe('dynamic sampling', () => {
  test('at most 50 shown, about 50 of 500, always the top 3 by rank', () => {
    const features = Array.from({ length: 500 }, (_, i) => feature(`b_${i}`, i % 7 === 0 ? i : 0));
    for (const seed of [1, 2, 3, 4, 5]) {
      const shown = sampleDynamic(features, seeded(seed));
      expect(shown.length).toBeLessThanOrEqual(MAX_DYNAMIC_SHOWN);
      expect(shown.length).toBeGreaterThan(30);
      expect(shown.filter((s) => s.top).map((s) => s.feature.properties.rank)).toEqual([497, 490, 483]);
    }
  });

  test('with 50 or fewer, all are shown; hidden ones never', () => {
    const features = [feature('b_1', 4), feature('b_2', 0), feature('b_3', 9, { hidden: true })];
    const shown = sampleDynamic(features, () => 0.999);
    expect(shown.map((s) => s.feature.properties.appnetid)).toEqual(['b_1', 'b_2']);
  });

  test('the probability is 50 / count', () => {
    const features = Array.from({ length: 200 }, (_, i) => feature(`b_${i}`, 0));
    expect(sampleDynamic(features, () => 0.24)).toHaveLength(50);
    expect(sampleDynamic(features, () => 0.26)).toHaveLength(0);
  });

  test('a dynamic feature becomes a beam with its flags and promo click', () => {
    const input = dynamicInput(
      feature('b_1', 3, { beam: ['current', 'incident'], clickurl: '/map/promo/b_1/click' }),
      true,
    );
    expect(input).toMatchObject({
      id: 'b_1',
      lng: 10,
      lat: 20,
      flags: BeamFlag.currentEvent | BeamFlag.incident,
      emphasis: true,
      target: { route: '/x/b_1', promoClickUrl: '/map/promo/b_1/click' },
    });
  });
});

describe('global beams and events', () => {
  test('a point beam shows 4 s with the kind or named flags', () => {
    const base = { id: 'b_1', lat: 1, lon: 2, businesstype: 'bakery' };
    expect(pointBeamInput({ kind: 'soon', properties: base }, 100)).toMatchObject({
      flags: BeamFlag.upcomingEvent,
      expiresAt: 4_100,
      lng: 2,
      lat: 1,
    });
    expect(
      pointBeamInput({ kind: 'hot', properties: { ...base, beam: ['helprequest_urgent'] } }, 0).flags,
    ).toBe(BeamFlag.urgentHelpRequest);
  });

  test('an event beam lands on its point, else on the event', () => {
    const props = { id: 'e_1', lat: 1, lon: 2, businesstype: 'concert' };
    expect(eventBeamInput({ kind: 'open', properties: { ...props, parentid: 'b_9' } }, 0)).toMatchObject({
      id: 'b_9',
      flags: BeamFlag.currentEvent,
      target: { route: '/x/b_9' },
    });
    expect(eventBeamInput({ kind: 'open', properties: { ...props, parentid: null } }, 0).target.route).toBe(
      '/e/e_1',
    );
  });

  test('event status: current in the first interval, upcoming within 120 minutes', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    const item = (start: string, end: string): EventBeamItem => ({
      appnetid: 'b_1',
      title: 'Gig',
      class: 'concert',
      subclass: null,
      eventid: 'e_1',
      event_opening_intervals_utc: [{ start, end }],
      lat: 1,
      lon: 2,
    });
    expect(eventStatusFlag(item('2026-01-01T11:00:00Z', '2026-01-01T13:00:00Z'), now)).toBe(
      BeamFlag.currentEvent,
    );
    expect(eventStatusFlag(item('2026-01-01T13:59:00Z', '2026-01-01T15:00:00Z'), now)).toBe(
      BeamFlag.upcomingEvent,
    );
    expect(eventStatusFlag(item('2026-01-01T14:00:00Z', '2026-01-01T15:00:00Z'), now)).toBe(0);
    expect(eventStatusFlag(item('2026-01-01T10:00:00Z', '2026-01-01T11:00:00Z'), now)).toBe(0);
    expect(eventBeamingInputs([item('2026-01-01T11:00:00Z', '2026-01-01T13:00:00Z')], now)).toMatchObject([
      { id: 'b_1', target: { route: '/x/b_1' } },
    ]);
  });
});

describe('bounds and device id', () => {
  const b = { sw: { lat: 1, lon: 2 }, ne: { lat: 3, lon: 4 } };
  test('bounds changed', () => {
    expect(boundsChanged(null, b)).toBe(true);
    expect(boundsChanged(b, { sw: { ...b.sw }, ne: { ...b.ne } })).toBe(false);
    expect(boundsChanged(b, { ...b, ne: { lat: 3, lon: 4.01 } })).toBe(true);
  });
  test('device id kept when valid, else created', () => {
    expect(deviceIdFrom('abc-1', () => 'new')).toEqual({ id: 'abc-1', fresh: false });
    expect(deviceIdFrom(null, () => '1234-abcd')).toEqual({ id: '1234-abcd', fresh: true });
    expect(deviceIdFrom('bad id!', () => 'x_1')).toEqual({ id: 'x_1', fresh: true });
  });
});
