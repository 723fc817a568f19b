import { BeamFlag, beamTypesOf, type BeamType } from '../../../shared/domain/beams';
import { UPCOMING_WINDOW_MS } from '../../../shared/api/live';

/**
 * Beam flags of a point (map-and-search §3): the stored bits combined with what is live now — a hot
 * rank, its events' status, and what the point is (help requests and incidents always beam).
 */

export type EventStatus = 'current' | 'upcoming' | null;

/** §4: current if now lies within the first opening interval; upcoming if it starts within 0 to 120 minutes. */
export function eventStatus(first: { start: number; end: number } | null, now: number): EventStatus {
  if (!first) return null;
  if (now >= first.start && now <= first.end) return 'current';
  if (first.start > now && first.start - now <= UPCOMING_WINDOW_MS) return 'upcoming';
  return null;
}

export interface FlagInputs {
  /** points.beamtype: bits set by owners and writers. */
  stored: number;
  supertype: string;
  /** hot rank from recent activity; > 0 makes the point hot. */
  rank: number;
  /** the status of each of the point's events now. */
  events: EventStatus[];
  /** a chat line about the point was seen recently. */
  chat?: boolean;
}

export function combineFlags(input: FlagInputs): number {
  let flags = Number.isSafeInteger(input.stored) && input.stored > 0 ? input.stored : 0;
  if (input.rank > 0) flags |= BeamFlag.hot;
  if (input.events.includes('current')) flags |= BeamFlag.currentEvent;
  if (input.events.includes('upcoming')) flags |= BeamFlag.upcomingEvent;
  if (input.chat) flags |= BeamFlag.chat;
  if (input.supertype === 'helprequest' && (flags & BeamFlag.urgentHelpRequest) === 0)
    flags |= BeamFlag.helpRequest;
  if (input.supertype === 'incident') flags |= BeamFlag.incident;
  return flags;
}

/** The beam type names of a flag set (chat has no name: it travels as map_activity). */
export function beamsOf(flags: number): BeamType[] {
  return beamTypesOf(flags);
}
