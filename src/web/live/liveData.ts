import { BEAM_TYPE_FLAG, BEAM_TYPES, BeamFlag, type BeamType } from '../../shared/domain/beams';
import {
  UPCOMING_WINDOW_MS,
  type ChatActivityItem,
  type DynamicFeature,
  type EventBeamItem,
  type GlobalBeamItem,
} from '../../shared/api/live';
import { CHAT_SHOW_MS, GLOBAL_BEAM_SHOW_MS, type BeamInput } from './beamBoard';

/**
 * What the live feeds mean on the map (map-and-search §3, §4, §9): the pure half of the live
 * engine, from a server's item to a beam, the dynamic-point sampling and the bounds check.
 */

/** At most this many dynamic points are shown (§4 "live activity display"). */
export const MAX_DYNAMIC_SHOWN = 50;
/** The hottest points by rank, always shown and emphasised. */
export const TOP_HOT = 3;

/** The address of a point; the app corrects the supertype prefix once its details load. */
export const pointRoute = (id: string): string => `/x/${encodeURIComponent(id)}`;
export const eventRoute = (id: string): string => `/e/${encodeURIComponent(id)}`;

export function flagsOfTypes(types: readonly string[] | undefined): number {
  let flags = 0;
  for (const type of types ?? []) {
    if ((BEAM_TYPES as readonly string[]).includes(type)) flags |= BEAM_TYPE_FLAG[type as BeamType];
  }
  return flags;
}

/** A global beam's flags: its named beam types when it has some, else its kind (soon, open, hot). */
export function globalBeamFlags(item: GlobalBeamItem): number {
  const named = flagsOfTypes(item.properties.beam);
  if (named !== 0) return named;
  switch (item.kind) {
    case 'soon':
      return BeamFlag.upcomingEvent;
    case 'open':
      return BeamFlag.currentEvent;
    case 'hot':
      return BeamFlag.hot;
    default:
      return BeamFlag.hot;
  }
}

/** `xpoint_activity.beam`: the point beams for 4 s. */
export function pointBeamInput(item: GlobalBeamItem, now: number): BeamInput {
  return {
    id: item.properties.id,
    lng: item.properties.lon,
    lat: item.properties.lat,
    flags: globalBeamFlags(item),
    target: { route: pointRoute(item.properties.id) },
    expiresAt: now + GLOBAL_BEAM_SHOW_MS,
  };
}

/** `event_activity.beam`: drawn on its point (`parentid`) when it has one, else on the event; 4 s. */
export function eventBeamInput(item: GlobalBeamItem, now: number): BeamInput {
  const parent = item.properties.parentid;
  const onPoint = typeof parent === 'string' && parent !== '';
  return {
    id: onPoint ? parent : item.properties.id,
    lng: item.properties.lon,
    lat: item.properties.lat,
    flags: globalBeamFlags(item),
    target: { route: onPoint ? pointRoute(parent) : eventRoute(item.properties.id) },
    expiresAt: now + GLOBAL_BEAM_SHOW_MS,
  };
}

/** `map_activity`: a chat beam on the point, shown 30 s from when it is flushed. */
export function chatBeamInput(item: ChatActivityItem, now: number): BeamInput {
  return {
    id: item.properties.id,
    lng: item.coordinates[0],
    lat: item.coordinates[1],
    flags: BeamFlag.chat,
    target: { route: pointRoute(item.properties.id) },
    expiresAt: now + CHAT_SHOW_MS,
  };
}

/**
 * §4 "event status": current if now lies within the first opening interval, upcoming if it starts
 * within 0 to 120 minutes; anything else beams nothing.
 */
export function eventStatusFlag(item: EventBeamItem, now: number): number {
  const first = item.event_opening_intervals_utc[0];
  if (first === undefined) return 0;
  const start = Date.parse(first.start);
  const end = Date.parse(first.end);
  if (!Number.isFinite(start)) return 0;
  if (now >= start && (!Number.isFinite(end) || now <= end)) return BeamFlag.currentEvent;
  const until = start - now;
  if (until >= 0 && until < UPCOMING_WINDOW_MS) return BeamFlag.upcomingEvent;
  return 0;
}

/** Event beaming: one beam per event's point (or per event without one), until the next refresh. */
export function eventBeamingInputs(items: readonly EventBeamItem[], now: number): BeamInput[] {
  const inputs: BeamInput[] = [];
  for (const item of items) {
    const flags = eventStatusFlag(item, now);
    if (flags === 0) continue;
    const onPoint = item.appnetid !== item.eventid;
    inputs.push({
      id: item.appnetid,
      lng: item.lon,
      lat: item.lat,
      flags,
      title: item.title,
      target: { route: onPoint ? pointRoute(item.appnetid) : eventRoute(item.eventid) },
    });
  }
  return inputs;
}

/**
 * The dynamic points to show (§4): hidden ones never; the top 3 hot points by rank always; the
 * others each kept with probability 50/count, at most 50 in all. `random` returns [0, 1).
 */
export function sampleDynamic(
  features: readonly DynamicFeature[],
  random: () => number = Math.random,
): { feature: DynamicFeature; top: boolean }[] {
  const visible = features.filter((f) => !f.properties.hidden);
  const top = visible
    .filter((f) => f.properties.streamtype === 'hotpoint' && f.properties.rank > 0)
    .sort((a, b) => b.properties.rank - a.properties.rank)
    .slice(0, TOP_HOT);
  const topSet = new Set(top);
  const shown = top.map((feature) => ({ feature, top: true }));
  const probability = Math.min(1, MAX_DYNAMIC_SHOWN / Math.max(1, visible.length));
  for (const feature of visible) {
    if (shown.length >= MAX_DYNAMIC_SHOWN) break;
    if (topSet.has(feature)) continue;
    if (random() < probability) shown.push({ feature, top: false });
  }
  return shown;
}

export function dynamicInput(feature: DynamicFeature, top: boolean): BeamInput {
  const p = feature.properties;
  // a point with no flag of its own still beams as hot when it is among the hottest
  const flags = flagsOfTypes(p.beam) || (p.streamtype === 'hotpoint' ? BeamFlag.hot : 0);
  return {
    id: p.appnetid,
    lng: feature.geometry.coordinates[0],
    lat: feature.geometry.coordinates[1],
    flags,
    title: p.title,
    emphasis: top,
    target: {
      route: pointRoute(p.appnetid),
      ...(p.clickurl !== null ? { promoClickUrl: p.clickurl } : {}),
    },
  };
}

/** The bounds the device channel takes (§7 `map_state.visible_bounds`). */
export interface VisibleBounds {
  sw: { lat: number; lon: number };
  ne: { lat: number; lon: number };
}

/** True when the bounds differ from those last sent (none sent yet counts as changed). */
export function boundsChanged(previous: VisibleBounds | null, next: VisibleBounds): boolean {
  if (previous === null) return true;
  const same = (a: number, b: number) => Math.abs(a - b) < 1e-6;
  return !(
    same(previous.sw.lat, next.sw.lat) &&
    same(previous.sw.lon, next.sw.lon) &&
    same(previous.ne.lat, next.ne.lat) &&
    same(previous.ne.lon, next.ne.lon)
  );
}

const DEVICE_ID = /^[A-Za-z0-9_-]{1,64}$/;
export const DEVICE_ID_KEY = 'xpoint.deviceId';

/** The browser's device id: the stored one when valid, else a new one (kept by the caller). */
export function deviceIdFrom(stored: string | null, create: () => string): { id: string; fresh: boolean } {
  if (stored !== null && DEVICE_ID.test(stored)) return { id: stored, fresh: false };
  return {
    id: create()
      .replace(/[^A-Za-z0-9_-]/g, '')
      .slice(0, 64),
    fresh: true,
  };
}
