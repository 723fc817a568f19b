import { z } from 'zod';
import { BEAM_KINDS, type BeamKind, type BeamType } from '../domain/beams';

/**
 * Live activity (issue 9): the map data calls, the beam API and the realtime messages, shared by the
 * server (which validates with these schemas) and the web client (which reads the same shapes).
 */

/** Wire names and timings of the realtime connection (map-and-search §4, §7, §9). */
export const SOCKET_PATH = '/socket';
export const DEVICE_TOPIC_PREFIX = 'device:';
/** A chat about a point: `chat:{point id}`, joined with the user's token. */
export const CHAT_TOPIC_PREFIX = 'chat:';
export const IQ_EVENT = 'iq';
/** A chat line, pushed by a member and broadcast to every member of the topic. */
export const CHAT_MESSAGE_EVENT = 'msg';
export const BOUNDS_SEND_EVERY_MS = 10_000;
export const DYNAMIC_REFRESH_MS = 60_000;
export const EVENT_BEAMING_REFRESH_MS = 30_000;
export const EVENT_BEAMING_LIMIT = 50;
/** Events starting within this window are upcoming ("soon"). */
export const UPCOMING_WINDOW_MS = 120 * 60_000;

const finite = () =>
  z.number({ error: 'must be a number.' }).refine(Number.isFinite, 'must be a finite number.');

export const latLonSchema = z.object({
  lat: finite().refine((v) => v >= -90 && v <= 90, 'must be between -90 and 90.'),
  // map libraries report longitudes beyond ±180 when the world repeats; one extra turn is accepted
  lon: finite().refine((v) => v >= -540 && v <= 540, 'must be between -540 and 540.'),
});
export type LatLon = z.infer<typeof latLonSchema>;

/** A viewport by its corners; sw.lat may not exceed ne.lat, and sw.lon > ne.lon crosses the antimeridian. */
export const boxSchema = z
  .object({ southwest: latLonSchema, northeast: latLonSchema })
  .refine((b) => b.southwest.lat <= b.northeast.lat, {
    message: 'must not exceed northeast.lat.',
    path: ['southwest', 'lat'],
  });

export const dynamicByBboxRequest = boxSchema;
export type DynamicByBboxRequest = z.infer<typeof dynamicByBboxRequest>;

export const eventBeamingRequest = z
  .object({
    southwest: latLonSchema,
    northeast: latLonSchema,
    zoomlevel: finite()
      .refine((v) => v >= 0 && v <= 24, 'must be between 0 and 24.')
      .optional(),
    limit: z
      .number({ error: 'must be a number.' })
      .int('must be an integer.')
      .min(1, 'must be at least 1.')
      .max(EVENT_BEAMING_LIMIT, `must be at most ${EVENT_BEAMING_LIMIT}.`)
      .optional(),
  })
  .refine((b) => b.southwest.lat <= b.northeast.lat, {
    message: 'must not exceed northeast.lat.',
    path: ['southwest', 'lat'],
  });
export type EventBeamingRequest = z.infer<typeof eventBeamingRequest>;

/** Social §3 and §5: a beam is an identifier and a kind (soon, open or hot). */
export const beamRequest = z.object({
  identifier: z.string({ error: 'is required.' }).min(1, 'is required.').max(64, 'is at most 64 characters.'),
  kind: z.enum(BEAM_KINDS, { error: 'Beam kind must be soon, open or hot.' }),
});
export type BeamRequest = z.infer<typeof beamRequest>;

export const promoRequest = z.object({
  deviceid: z
    .string({ error: 'is required.' })
    .regex(/^[A-Za-z0-9_-]{1,64}$/, '1 to 64 letters, digits, _ or -.'),
});

/** map-and-search §3 "dynamic map feature". */
export interface DynamicFeature {
  type: 'Feature';
  geometry: { type: 'Point'; coordinates: [lon: number, lat: number] };
  properties: {
    appnetid: string;
    title: string;
    class: string;
    subclass: string | null;
    streamtype: 'hotpoint' | 'other';
    /** higher is hotter; 0 for points with no recent activity. */
    rank: number;
    /** POST here with {deviceid} when the point is clicked; null unless promoted. */
    clickurl: string | null;
    /** POST here with {deviceid} when the point is shown; null unless promoted. */
    impressionurl: string | null;
    beam: BeamType[];
    hidden: boolean;
    iconimage: string | null;
  };
}
export interface DynamicFeatureCollection {
  type: 'FeatureCollection';
  features: DynamicFeature[];
}

/** map-and-search §3 "event beam item"; interval times are ISO 8601 UTC. */
export interface EventBeamItem {
  appnetid: string;
  title: string;
  class: string;
  subclass: string | null;
  eventid: string;
  event_opening_intervals_utc: { start: string; end: string }[];
  lat: number;
  lon: number;
}

/** map-and-search §3 "global beam item": pushed as xpoint_activity.beam or event_activity.beam. */
export interface GlobalBeamItem {
  kind: BeamKind;
  properties: {
    /** the point, or for an event the event itself. */
    id: string;
    /** for an event: the point it takes place at, if any. */
    parentid?: string | null;
    lat: number;
    lon: number;
    /** the point's type, or the event's type. */
    businesstype: string;
    /** for a new incident or help request: its beam types (incident, helprequest, helprequest_urgent). */
    beam?: BeamType[];
  };
}

/** map-and-search §3 "chat activity item": pushed as map_activity. */
export interface ChatActivityItem {
  properties: { id: string; mag: number; last_stamp: number };
  coordinates: [lon: number, lat: number];
}

/** An `iq` the server pushes on `device:{id}`: exactly one of the activity fields is present. */
export type ActivityIq =
  | { id: string; type: 'set'; xpoint_activity: { beam: GlobalBeamItem } }
  | { id: string; type: 'set'; event_activity: { beam: GlobalBeamItem } }
  | { id: string; type: 'set'; map_activity: ChatActivityItem };
