import { describe, expect, it } from 'vitest';
import { initialBounds, roundedLocation, sameLocation } from './mapLocation';

const data = (value: unknown) => encodeURIComponent(JSON.stringify(value));

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
