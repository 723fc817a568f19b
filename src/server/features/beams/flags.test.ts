import { describe, expect, it } from 'vitest';
import { BeamFlag } from '../../../shared/domain/beams';
import { beamsOf, combineFlags, eventStatus } from './flags';

const MIN = 60_000;

describe('eventStatus (§4)', () => {
  const now = 1_700_000_000_000;
  it('is current within the first opening interval, edges included', () => {
    expect(eventStatus({ start: now - MIN, end: now + MIN }, now)).toBe('current');
    expect(eventStatus({ start: now, end: now }, now)).toBe('current');
  });
  it('is upcoming when it starts within 0 to 120 minutes', () => {
    expect(eventStatus({ start: now + 1, end: now + 10 * MIN }, now)).toBe('upcoming');
    expect(eventStatus({ start: now + 120 * MIN, end: now + 200 * MIN }, now)).toBe('upcoming');
    expect(eventStatus({ start: now + 120 * MIN + 1, end: now + 200 * MIN }, now)).toBe(null);
  });
  it('is nothing once over, or without an interval', () => {
    expect(eventStatus({ start: now - 10 * MIN, end: now - 1 }, now)).toBe(null);
    expect(eventStatus(null, now)).toBe(null);
  });
});

describe('combineFlags (§3: flags combine per point)', () => {
  it('keeps the stored bits and adds what is live', () => {
    const flags = combineFlags({
      stored: BeamFlag.incident,
      supertype: 'business',
      rank: 3,
      events: ['upcoming', 'current'],
    });
    expect(flags).toBe(BeamFlag.incident | BeamFlag.hot | BeamFlag.upcomingEvent | BeamFlag.currentEvent);
    expect(beamsOf(flags)).toEqual(['hot', 'current', 'upcoming', 'incident']);
  });
  it('makes help requests and incidents beam by what they are', () => {
    expect(combineFlags({ stored: 0, supertype: 'helprequest', rank: 0, events: [] })).toBe(
      BeamFlag.helpRequest,
    );
    expect(
      combineFlags({ stored: BeamFlag.urgentHelpRequest, supertype: 'helprequest', rank: 0, events: [] }),
    ).toBe(BeamFlag.urgentHelpRequest);
    expect(combineFlags({ stored: 0, supertype: 'incident', rank: 0, events: [null] })).toBe(
      BeamFlag.incident,
    );
  });
  it('ignores nonsense stored values and names no chat beam', () => {
    expect(combineFlags({ stored: -5, supertype: 'business', rank: 0, events: [] })).toBe(0);
    const chat = combineFlags({ stored: 0, supertype: 'business', rank: 0, events: [], chat: true });
    expect(chat).toBe(BeamFlag.chat);
    expect(beamsOf(chat)).toEqual([]);
  });
});
