/** Demo events: hosted by points or standalone, past, running now, starting soon and later. */
import type { Category } from '../../shared/domain/categories';
import { eventDescription, makeCtx } from './content';
import { eventTitle } from './event-content';
import { approximateOffsetMs, slugOf, streetAddress, type SeedCity } from './places';
import { makeId, type Random } from './random';
import type { PointRow } from './tables';
import {
  TICKET_OPTIONS,
  MIN_EVENTS,
  EVENT_TIMINGS,
  MINUTE,
  HOUR,
  DAY,
  type EventTiming,
  type SeedWorld,
  type Batch,
} from './world';

export function hostedEvents(
  w: SeedWorld,
  point: PointRow,
  owner: number,
  city: SeedCity,
  venue: string,
  batch: Batch,
  /** the event types that fit the host (event-content.ts eventTypesFor); empty: any. */
  types: readonly string[] = [],
): void {
  const rng = w.relatedRng;
  const count = rng.chance(0.8) ? 1 : rng.int(2, 3);
  let parent: string | null = null;
  for (let k = 0; k < count; k++) {
    const id = event(w, batch, {
      xpointId: point.id,
      ownerIndex: owner >= 0 ? owner : w.someUser(rng),
      lat: point.lat,
      lon: point.lon,
      fullAddress: point.full_address ?? null,
      city,
      venue,
      parentId: k > 0 && parent && rng.chance(0.3) ? parent : null,
      types,
    });
    parent ??= id;
  }
}

/** Adds standalone events until there are at least MIN_EVENTS. */
export function topUpEvents(w: SeedWorld, batch: Batch): void {
  while (w.eventCount < MIN_EVENTS) standaloneEvent(w, batch);
}

export function standaloneEvent(w: SeedWorld, batch: Batch): void {
  const rng = w.relatedRng;
  const city = w.cities[w.pickCity(rng)] as SeedCity;
  const position = w.place(rng, city);
  const address = streetAddress(rng, city);
  event(w, batch, {
    xpointId: null,
    ownerIndex: w.someUser(rng),
    lat: position.lat,
    lon: position.lon,
    fullAddress: address.full,
    city,
    venue: `${rng.pick(['Community Hall', 'the Old Library', 'Town Square', 'Riverside Park', 'the Warehouse'])}`,
    parentId: null,
  });
}

function event(
  w: SeedWorld,
  batch: Batch,
  at: {
    xpointId: string | null;
    ownerIndex: number;
    lat: number;
    lon: number;
    fullAddress: string | null;
    city: SeedCity;
    venue: string;
    parentId: string | null;
    types?: readonly string[];
  },
): string {
  const rng = w.relatedRng;
  const n = w.eventCount++;
  const id = makeId(w.seed, 'event', n);
  const fitting = (at.types ?? [])
    .map((key) => w.eventTypes.find((t) => t.key === key))
    .filter((t): t is Category => t !== undefined);
  const type = fitting.length > 0 ? rng.pick(fitting) : w.pickEventType(rng);
  const c = makeCtx(rng, at.city.city, type.name);
  const intervals = eventIntervals(w, rng, EVENT_TIMINGS[n % EVENT_TIMINGS.length] as EventTiming, at.lon);
  const start = intervals[0]?.[0] ?? w.now;
  const title = eventTitle({
    rng,
    type: type.key,
    typeName: type.name,
    venue: at.venue,
    city: at.city.city,
    person: `${c.first} ${c.last}`,
    localStart: new Date(start + approximateOffsetMs(at.lon)),
  });
  const description = eventDescription(rng, title, at.venue, c, rng.chance(0.3));
  const end = intervals[intervals.length - 1]?.[1] ?? start;
  const admission = w.pickAdmission(rng);
  const price =
    admission === 'paid'
      ? rng.pick([5, 8, 10, 12, 15, 20, 25, 35, 45, 60, 85, 120]) - (rng.chance(0.3) ? 0.01 : 0)
      : admission === 'donation'
        ? rng.chance(0.6)
          ? rng.pick([5, 10, 20])
          : null
        : null;
  const cover = rng.chance(0.85)
    ? (w.images.coverByKind.get(`event/${type.key}`) ??
      w.images.coverByIcon.get(type.icon) ??
      rng.pick(w.images.covers.event))
    : null;
  const created = Math.min(start, w.now) - rng.int(1, 60) * DAY;
  batch.events.push({
    id,
    xpoint_id: at.xpointId,
    parent_id: at.parentId,
    owner_userid: w.userInfo[at.ownerIndex]?.id ?? null,
    title,
    cover_url: cover,
    type: type.key,
    subtype: null,
    start_date: start,
    end_date: end,
    lat: at.lat,
    lon: at.lon,
    full_address: at.fullAddress,
    city_id: at.city.id,
    admission,
    admissionprice: price,
    website: rng.chance(0.4) ? `https://${slugOf(title, 'event')}.example.com` : null,
    description,
    marker: null,
    created_at: created,
    updated_at: created + Math.floor((w.now - created) * rng.next() * 0.5),
  });
  for (const [s, e] of intervals) batch.intervals.push({ event_id: id, start_at: s, end_at: e });
  if (admission === 'paid' && price !== null && rng.chance(0.6)) {
    // General admission at the listed price, then up to two other options priced around it
    batch.tickets.push({
      event_id: id,
      name: 'General admission',
      unit_price: price,
      max_quantity: rng.pick([4, 6, 8, 10]),
    });
    for (const k of rng.distinct(rng.int(0, 2), TICKET_OPTIONS.length)) {
      const option = TICKET_OPTIONS[k] as (typeof TICKET_OPTIONS)[number];
      batch.tickets.push({
        event_id: id,
        name: option.name,
        unit_price: Math.max(1, Math.round(price * option.factor)) - 0.01,
        max_quantity: rng.pick([1, 2, 4, 6]),
      });
    }
  }
  return id;
}

/** Opening intervals for one event; the first decides whether it is current (map-and-search §4). */
function eventIntervals(w: SeedWorld, rng: Random, timing: EventTiming, lon: number): [number, number][] {
  const now = w.now;
  const offset = approximateOffsetMs(lon);
  const localDay = Math.floor((now + offset) / DAY) * DAY;
  const duration = rng.pick([60, 90, 120, 120, 180, 180, 240]) * MINUTE;
  const days = rng.chance(0.2) ? rng.int(2, 3) : 1;
  let first: [number, number];
  switch (timing) {
    case 'current': {
      // started 5 minutes to 2 hours ago, ends 30 minutes to 4 hours from now
      const startedAgo = rng.int(1, 24) * 5 * MINUTE;
      const start = Math.floor((now - startedAgo) / (5 * MINUTE)) * 5 * MINUTE;
      first = [start, Math.ceil((now + rng.int(6, 48) * 5 * MINUTE) / (5 * MINUTE)) * 5 * MINUTE];
      break;
    }
    case 'upcoming': {
      // starts within the next 120 minutes, on a five-minute mark
      const start = Math.ceil(now / (5 * MINUTE)) * 5 * MINUTE + rng.int(1, 21) * 5 * MINUTE;
      first = [start, start + duration];
      break;
    }
    case 'later': {
      const start =
        localDay +
        rng.int(1, 60) * DAY +
        rng.pick([10, 11, 12, 14, 17, 18, 19, 19.5, 20, 21]) * HOUR -
        offset;
      first = [start, start + duration];
      break;
    }
    case 'past': {
      // single intervals ending before local midnight of yesterday: always over
      const start =
        localDay - rng.int(1, 120) * DAY + rng.pick([9, 10, 12, 14, 16, 18, 19, 20]) * HOUR - offset;
      return [[start, start + Math.min(duration, 4 * HOUR)]];
    }
  }
  const intervals: [number, number][] = [first];
  for (let d = 1; d < days; d++) intervals.push([first[0] + d * DAY, first[1] + d * DAY]);
  return intervals;
}
