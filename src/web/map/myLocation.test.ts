import { describe, expect, it } from 'vitest';
import { GEOLOCATION_MESSAGES, geolocationMessage } from './myLocation';

describe('my location messages', () => {
  it('says a refusal, a timeout, a failure and a browser without geolocation apart', () => {
    expect(geolocationMessage(1)).toBe(GEOLOCATION_MESSAGES.denied);
    expect(geolocationMessage(2)).toBe(GEOLOCATION_MESSAGES.unavailable);
    expect(geolocationMessage(3)).toBe(GEOLOCATION_MESSAGES.timeout);
    expect(geolocationMessage(null)).toBe(GEOLOCATION_MESSAGES.unsupported);
  });
});
