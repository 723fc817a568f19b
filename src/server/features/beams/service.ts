import {
  UPCOMING_WINDOW_MS,
  type BeamRequest,
  type DynamicFeature,
  type DynamicFeatureCollection,
  type EventBeamItem,
  type GlobalBeamItem,
} from '../../../shared/api/live';
import { isValidId } from '../../../shared/domain/ids';
import { AppError } from '../../../shared/errors';
import { canControlEvent, canControlPoint, type Viewer } from '../../../shared/permissions';
import type { Bus } from '../../realtime/bus';
import type { Store } from '../../store/store';
import { lonRanges } from '../../store/geo';
import { findEventSubject, findPointSubject } from '../permissions/queries';
import { beamsOf, combineFlags, eventStatus, type EventStatus } from './flags';
import {
  countPromo,
  eventIntervals,
  findEvent,
  findPoint,
  findPoints,
  flaggedPointsIn,
  hotRanks,
  liveEvents,
  isKnownDevice,
  recordActivity,
  type BeamPointRow,
  type Box,
} from './queries';

/** Dynamic points answered per call; the client samples at most 50 of them (§4). */
const DYNAMIC_MAX = 500;
/** Activity in the last hour makes a point hot. */
export const HOT_WINDOW_MS = 3_600_000;
/** Hot points considered per call and per scheduler tick. */
const HOT_MAX = 100;

export function boxOf(body: {
  southwest: { lat: number; lon: number };
  northeast: { lat: number; lon: number };
}): Box {
  return {
    south: body.southwest.lat,
    west: body.southwest.lon,
    north: body.northeast.lat,
    east: body.northeast.lon,
  };
}

export function pointBeam(
  kind: GlobalBeamItem['kind'],
  point: Pick<BeamPointRow, 'id' | 'lat' | 'lon' | 'type'>,
): GlobalBeamItem {
  return { kind, properties: { id: point.id, lat: point.lat, lon: point.lon, businesstype: point.type } };
}

export function eventBeam(
  kind: GlobalBeamItem['kind'],
  event: { id: string; xpoint_id: string | null; lat: number; lon: number; type: string },
): GlobalBeamItem {
  return {
    kind,
    properties: {
      id: event.id,
      parentid: event.xpoint_id,
      lat: event.lat,
      lon: event.lon,
      businesstype: event.type,
    },
  };
}

/** The rules of live activity: who may beam, what the map's dynamic layers show, promo counting. */
export class BeamService {
  constructor(
    private readonly store: Store,
    private readonly bus: Bus,
  ) {}

  /** POST /api/user/x_point/beam: the point's controllers (owner, consultant, admin) only. */
  async beamPoint(viewer: Viewer, request: BeamRequest): Promise<void> {
    if (!isValidId(request.identifier)) throw new AppError('invalidParam');
    const [point, subject] = await Promise.all([
      findPoint(this.store, request.identifier),
      findPointSubject(this.store, request.identifier),
    ]);
    if (!point || !subject) throw new AppError('pointNotFound', { id: request.identifier });
    if (!canControlPoint(viewer, subject)) throw new AppError('beamForbidden', { id: request.identifier });
    this.bus.publish({ type: 'xpoint_beam', beam: pointBeam(request.kind, point) });
  }

  /** POST /api/user/x_event/beam: the event's owner or an admin, or whoever controls its point. */
  async beamEvent(viewer: Viewer, request: BeamRequest): Promise<void> {
    if (!isValidId(request.identifier)) throw new AppError('invalidEventId');
    const event = await findEvent(this.store, request.identifier);
    if (!event) throw new AppError('eventNotFound', { id: request.identifier });
    const subject = await findEventSubject(this.store, event.id);
    const pointSubject = event.xpoint_id ? await findPointSubject(this.store, event.xpoint_id) : undefined;
    const allowed =
      (subject && canControlEvent(viewer, subject)) ||
      (pointSubject && canControlPoint(viewer, pointSubject));
    if (!allowed) throw new AppError('beamForbidden', { id: request.identifier });
    this.bus.publish({ type: 'event_beam', beam: eventBeam(request.kind, event) });
  }

  /** POST /map/dynamic/bybbox: the points in the box that beam now, with their combined flags. */
  async dynamicByBbox(box: Box, now = Date.now()): Promise<DynamicFeatureCollection> {
    const [flagged, ranks, events] = await Promise.all([
      flaggedPointsIn(this.store, box, DYNAMIC_MAX),
      hotRanks(this.store, now - HOT_WINDOW_MS, HOT_MAX),
      liveEvents(this.store, now, UPCOMING_WINDOW_MS, box, DYNAMIC_MAX),
    ]);
    const statuses = await this.statusesOf(events, now);
    const byPoint = new Map<string, EventStatus[]>();
    for (const event of events) {
      const status = statuses.get(event.id) ?? null;
      if (!event.xpoint_id || !status) continue;
      const list = byPoint.get(event.xpoint_id) ?? [];
      list.push(status);
      byPoint.set(event.xpoint_id, list);
    }
    const known = new Set(flagged.map((p) => p.id));
    const missing = [...ranks.keys(), ...byPoint.keys()].filter((id) => !known.has(id));
    const extra = (await findPoints(this.store, [...new Set(missing)])).filter((p) =>
      inBox(box, p.lat, p.lon),
    );
    const features: DynamicFeature[] = [];
    for (const point of [...flagged, ...extra].slice(0, DYNAMIC_MAX)) {
      const rank = ranks.get(point.id) ?? 0;
      const flags = combineFlags({
        stored: point.beamtype,
        supertype: point.supertype,
        rank,
        events: byPoint.get(point.id) ?? [],
      });
      const promoted = point.is_promo === 1;
      features.push({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [point.lon, point.lat] },
        properties: {
          appnetid: point.id,
          title: point.title,
          class: point.type,
          subclass: point.subtype,
          streamtype: rank > 0 || promoted ? 'hotpoint' : 'other',
          rank,
          clickurl: promoted ? promoUrl(point.id, 'click') : null,
          impressionurl: promoted ? promoUrl(point.id, 'impression') : null,
          beam: beamsOf(flags),
          // a service whose owner switched "visible on map" off
          hidden: point.supertype === 'service' && point.meonmap_enabled === 0,
          iconimage: point.url_icon_or_logo,
        },
      });
    }
    features.sort((a, b) => b.properties.rank - a.properties.rank);
    return { type: 'FeatureCollection', features };
  }

  /** POST /event/rbeamingbybbox: events in the box that are upcoming or current, soonest first. */
  async eventBeaming(box: Box, limit: number, now = Date.now()): Promise<{ features: EventBeamItem[] }> {
    // read more than asked: some candidates turn out neither upcoming nor current (a later interval)
    const events = await liveEvents(this.store, now, UPCOMING_WINDOW_MS, box, limit * 4);
    const intervals = await eventIntervals(
      this.store,
      events.map((e) => e.id),
    );
    const features: EventBeamItem[] = [];
    for (const event of events) {
      const list = intervals.get(event.id) ?? [{ start: event.start_date, end: event.end_date }];
      if (!eventStatus(list[0] ?? null, now)) continue;
      features.push({
        appnetid: event.xpoint_id ?? event.id,
        title: event.title,
        class: event.type,
        subclass: event.subtype,
        eventid: event.id,
        event_opening_intervals_utc: list.map((i) => ({
          start: new Date(i.start).toISOString(),
          end: new Date(i.end).toISOString(),
        })),
        lat: event.lat,
        lon: event.lon,
      });
      if (features.length >= limit) break;
    }
    return { features };
  }

  /**
   * A promo impression or click: counted once per device per point per hour, and only for a device
   * the live server has met on a socket in the last week (issue 16, finding 4): an invented device id
   * counts nothing. The routes also limit each address (routes.ts).
   */
  async promo(
    pointId: string,
    deviceId: string,
    kind: 'impression' | 'click',
    now = Date.now(),
  ): Promise<{ counted: boolean }> {
    if (!isValidId(pointId)) throw new AppError('invalidParam');
    const point = await findPoint(this.store, pointId);
    if (!point) throw new AppError('pointNotFound', { id: pointId });
    if (point.is_promo !== 1) throw new AppError('promoNotPromoted', { id: pointId });
    if (!(await isKnownDevice(this.store, deviceId, now - KNOWN_DEVICE_MS))) return { counted: false };
    const counted = await recordActivity(this.store, { pointId, deviceId, kind, now });
    if (counted) await countPromo(this.store, { pointId, deviceId, kind, now });
    return { counted };
  }

  /** The status of each event now, by its first opening interval (or its start and end dates). */
  async statusesOf(
    events: { id: string; start_date: number; end_date: number }[],
    now: number,
  ): Promise<Map<string, EventStatus>> {
    const intervals = await eventIntervals(
      this.store,
      events.map((e) => e.id),
    );
    const out = new Map<string, EventStatus>();
    for (const event of events) {
      const first = intervals.get(event.id)?.[0] ?? { start: event.start_date, end: event.end_date };
      out.set(event.id, eventStatus(first, now));
    }
    return out;
  }
}

/** How long a device stays known after its last live socket opened. */
export const KNOWN_DEVICE_MS = 7 * 24 * 3_600_000;

export function promoUrl(pointId: string, kind: 'impression' | 'click'): string {
  return `/map/promo/${encodeURIComponent(pointId)}/${kind}`;
}

function inBox(box: Box, lat: number, lon: number): boolean {
  if (lat < box.south || lat > box.north) return false;
  return lonRanges(box.west, box.east).some((range) => lon >= range.west && lon <= range.east);
}
