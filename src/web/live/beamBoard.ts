import { BeamFlag, type BeamSource } from '../../shared/domain/beams';

/**
 * The beams on the map (map-and-search §3 "beam flags", §4 "map beams"), kept per point: each
 * source (globalbeam, chat, dynamic, event) adds flags that may expire; a point's flags are the
 * combination of its sources'. Adding a flag updates the point and moves it when its coordinates
 * changed; clearing the last flag removes it, and `force` removes it outright. Pure: the clock is
 * passed in, so the timing is testable.
 */

/** How long the beams of each source are shown (§4): chat 30 s, global beams 4 s. */
export const CHAT_SHOW_MS = 30_000;
export const GLOBAL_BEAM_SHOW_MS = 4_000;
/** The last part of a timed beam fades out. */
export const FADE_MS = 1_000;

/** The colour kinds of beam markers, one per flag, in the order a point shows them (most urgent first). */
export const BEAM_KINDS_BY_PRIORITY = [
  ['incident', BeamFlag.incident],
  ['urgent', BeamFlag.urgentHelpRequest],
  ['helprequest', BeamFlag.helpRequest],
  ['current', BeamFlag.currentEvent],
  ['upcoming', BeamFlag.upcomingEvent],
  ['hot', BeamFlag.hot],
  ['chat', BeamFlag.chat],
] as const;
export type BeamKindName = (typeof BEAM_KINDS_BY_PRIORITY)[number][0];

/** The kind a flag set is drawn as: its most urgent flag; null for none. */
export function dominantKind(flags: number): BeamKindName | null {
  for (const [kind, flag] of BEAM_KINDS_BY_PRIORITY) if ((flags & flag) !== 0) return kind;
  return null;
}

/** Where a click on a beam leads, and what to count first. */
export interface BeamTarget {
  /** the app route to open (a point's or an event's address). */
  route: string;
  /** a promoted point's click counter, POSTed `{deviceid}` on click. */
  promoClickUrl?: string;
}

export interface BeamInput {
  id: string;
  lng: number;
  lat: number;
  flags: number;
  title?: string;
  target: BeamTarget;
  /** shown until then (epoch ms); omitted: until the source is replaced or cleared. */
  expiresAt?: number;
  /** a top-3 hot point, drawn larger. */
  emphasis?: boolean;
}

interface SourceEntry {
  flags: number;
  expiresAt: number;
  emphasis: boolean;
}

export interface BoardPoint {
  id: string;
  lng: number;
  lat: number;
  title: string;
  target: BeamTarget;
  sources: Map<BeamSource, SourceEntry>;
}

/** One beam as drawn: a point with its combined flags. */
export interface DrawnBeam {
  id: string;
  lng: number;
  lat: number;
  title: string;
  flags: number;
  kind: BeamKindName;
  emphasis: boolean;
  /** 1 while fully shown, falling to 0 over the last FADE_MS of its time. */
  opacity: number;
  /** a beam of the moment (a global beam, a chat): it pulses; steady beams (dynamic, events) do not. */
  pulsing: boolean;
  target: BeamTarget;
}

export class BeamBoard {
  private readonly points = new Map<string, BoardPoint>();

  get size(): number {
    return this.points.size;
  }

  has(id: string): boolean {
    return this.points.has(id);
  }

  /** The point's combined flags (0 when it is not on the board). */
  flagsOf(id: string, now: number): number {
    const point = this.points.get(id);
    return point === undefined ? 0 : combined(point, now);
  }

  /** Adds a source's flags to a point: its marker is updated and moves to the given place. */
  add(source: BeamSource, input: BeamInput): void {
    if (input.flags === 0 || !Number.isFinite(input.lng) || !Number.isFinite(input.lat)) return;
    let point = this.points.get(input.id);
    if (point === undefined) {
      point = {
        id: input.id,
        lng: input.lng,
        lat: input.lat,
        title: input.title ?? '',
        target: input.target,
        sources: new Map(),
      };
      this.points.set(input.id, point);
    }
    point.lng = input.lng;
    point.lat = input.lat;
    if (input.title !== undefined && input.title !== '') point.title = input.title;
    // an event's beam on a point must not take over the point's own (promoted) target
    if (source !== 'event' || point.sources.size === 0) point.target = input.target;
    const expiresAt = input.expiresAt ?? Infinity;
    const previous = point.sources.get(source);
    point.sources.set(source, {
      flags: (previous?.flags ?? 0) | input.flags,
      expiresAt: previous === undefined ? expiresAt : Math.max(previous.expiresAt, expiresAt),
      emphasis: input.emphasis ?? previous?.emphasis ?? false,
    });
  }

  /**
   * Clears flags a source gave a point; a point left with no flags is removed. `force` removes the
   * point outright, whatever flags it still has.
   */
  clear(id: string, source: BeamSource, flags: number, force = false): void {
    const point = this.points.get(id);
    if (point === undefined) return;
    if (force) {
      this.points.delete(id);
      return;
    }
    const entry = point.sources.get(source);
    if (entry !== undefined) {
      entry.flags &= ~flags;
      if (entry.flags === 0) point.sources.delete(source);
    }
    if (point.sources.size === 0) this.points.delete(id);
  }

  /** Replaces everything one source shows (a dynamic or event-beaming refresh) with `inputs`. */
  replaceSource(source: BeamSource, inputs: readonly BeamInput[]): void {
    for (const point of [...this.points.values()]) {
      const entry = point.sources.get(source);
      if (entry !== undefined) this.clear(point.id, source, entry.flags);
    }
    for (const input of inputs) this.add(source, input);
  }

  /** Drops flags whose time is up; true when anything was dropped. */
  expire(now: number): boolean {
    let changed = false;
    for (const point of [...this.points.values()]) {
      for (const [source, entry] of [...point.sources]) {
        if (entry.expiresAt <= now) {
          point.sources.delete(source);
          changed = true;
        }
      }
      if (point.sources.size === 0) this.points.delete(point.id);
    }
    return changed;
  }

  /** The beams to draw at `now`. */
  drawn(now: number): DrawnBeam[] {
    const beams: DrawnBeam[] = [];
    for (const point of this.points.values()) {
      const flags = combined(point, now);
      const kind = dominantKind(flags);
      if (kind === null) continue;
      let until = 0;
      let emphasis = false;
      let pulsing = false;
      for (const entry of point.sources.values()) {
        if (entry.expiresAt <= now) continue;
        until = Math.max(until, entry.expiresAt);
        emphasis ||= entry.emphasis;
        pulsing ||= Number.isFinite(entry.expiresAt);
      }
      beams.push({
        id: point.id,
        lng: point.lng,
        lat: point.lat,
        title: point.title,
        flags,
        kind,
        emphasis,
        opacity: fadeAt(until, now),
        pulsing,
        target: point.target,
      });
    }
    return beams;
  }

  /** The latest time at which a timed beam's fade still changes, or null when nothing fades. */
  nextExpiry(now: number): number | null {
    let next: number | null = null;
    for (const point of this.points.values())
      for (const entry of point.sources.values())
        if (Number.isFinite(entry.expiresAt) && entry.expiresAt > now)
          next = next === null ? entry.expiresAt : Math.min(next, entry.expiresAt);
    return next;
  }
}

function combined(point: BoardPoint, now: number): number {
  let flags = 0;
  for (const entry of point.sources.values()) if (entry.expiresAt > now) flags |= entry.flags;
  return flags;
}

/** 1 until the last FADE_MS before `until`, then linearly down to 0. */
export function fadeAt(until: number, now: number): number {
  if (!Number.isFinite(until)) return 1;
  const left = until - now;
  if (left <= 0) return 0;
  return Math.min(1, left / FADE_MS);
}
