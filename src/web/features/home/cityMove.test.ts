import { describe, expect, it } from 'vitest';
import { cityLocation, shouldMoveMap } from './cityMove';

describe('choosing a city (social §5, §9)', () => {
  it('centres the map on the city at zoom 9.7', () => {
    expect(cityLocation({ lat: 38.72, lon: -9.14 })).toEqual({ lng: -9.14, lat: 38.72, zoom: 9.7 });
  });

  it('moves the map only for a usable option whose location is not the device', () => {
    expect(shouldMoveMap({ city_forurl: 'lisbon-pt' }, 0)).toBe(true);
    expect(shouldMoveMap({ city_forurl: 'lisbon-pt' }, 1)).toBe(false);
    expect(shouldMoveMap({ city_forurl: 'lisbon-pt' }, 2)).toBe(false);
    expect(shouldMoveMap({ city_forurl: '  ' }, 0)).toBe(false);
  });
});
