/**
 * Beam flags (map-and-search §3): combinable bits, a point can carry several at once.
 * Stored as an integer bit set in `points.beamtype`.
 */
export const BeamFlag = {
  none: 0,
  hot: 1,
  currentEvent: 2,
  upcomingEvent: 4,
  chat: 8,
  helpRequest: 16,
  urgentHelpRequest: 32,
  incident: 64,
} as const;
export type BeamFlagName = keyof typeof BeamFlag;

/** Beam types by name, as they travel in dynamic map features and beam items. */
export const BEAM_TYPES = [
  'hot',
  'current',
  'upcoming',
  'incident',
  'helprequest',
  'helprequest_urgent',
] as const;
export type BeamType = (typeof BEAM_TYPES)[number];

export const BEAM_TYPE_FLAG: Readonly<Record<BeamType, number>> = {
  hot: BeamFlag.hot,
  current: BeamFlag.currentEvent,
  upcoming: BeamFlag.upcomingEvent,
  incident: BeamFlag.incident,
  helprequest: BeamFlag.helpRequest,
  helprequest_urgent: BeamFlag.urgentHelpRequest,
};

export const BEAM_SOURCES = ['globalbeam', 'chat', 'dynamic', 'event'] as const;
export type BeamSource = (typeof BEAM_SOURCES)[number];

/** Kinds accepted by the beam API (social §3, §5). */
export const BEAM_KINDS = ['soon', 'open', 'hot'] as const;
export type BeamKind = (typeof BEAM_KINDS)[number];

export function hasFlag(flags: number, flag: number): boolean {
  return (flags & flag) === flag && flag !== 0;
}

/** The beam type names carried by a flag set, in the order of BEAM_TYPES. */
export function beamTypesOf(flags: number): BeamType[] {
  return BEAM_TYPES.filter((type) => hasFlag(flags, BEAM_TYPE_FLAG[type]));
}
