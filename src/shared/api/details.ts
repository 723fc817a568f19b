import { z } from 'zod';
import { isValidId } from '../domain/ids';
import { ROOT, domainIssue, withFieldErrors } from './contract';
import { userText } from './text';
import type { EventPermissions, PointPermissions } from '../permissions';
import type { LinkView, OpenNow, TicketOption } from '../details';
import type { EventStatus } from '../details/events';

/**
 * Contracts of the detail calls (map-and-search §3, §7; issue 7): the point and event detail JSON,
 * nearest cities, callback requests, health photos and the inbox. Field names are the spec's wire
 * names where §3 gives them; `*_display` fields are the same values after the display rules of
 * src/shared/details, so a panel can print them as they are.
 */

/** §9: nearest cities returned by default. */
export const CLOSEST_CITIES_DEFAULT = 5;
export const CLOSEST_CITIES_MAX = 100;

/** A number, or a string holding one (forms send strings). */
const numeric = z.union([
  z.number(),
  z
    .string()
    .trim()
    .min(1)
    .regex(/^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$/)
    .transform(Number),
]);

/** POST /v1/map/closestn */
export const closestRequestSchema = z.object({
  lat: numeric.pipe(z.number().finite().min(-90).max(90)),
  /** any finite longitude; values past ±180 (a map panned across the antimeridian) are wrapped. */
  lng: numeric.pipe(z.number().finite().min(-1e6).max(1e6)),
  n: numeric.pipe(z.number().int().min(1).max(CLOSEST_CITIES_MAX)).optional(),
});
export type ClosestRequest = z.infer<typeof closestRequestSchema>;

/** The route's contract: an absent body is an empty one; each field answers with its 6xxx entry. */
export const closestRouteSchema = withFieldErrors(
  z.preprocess((body) => body ?? {}, closestRequestSchema),
  {
    [ROOT]: { error: 'invalidCoordinates', values: { reason: 'must be a JSON object with lat and lng.' } },
    lat: { error: 'invalidCoordinates', values: { reason: 'must be a number from -90 to 90.' } },
    lng: { error: 'invalidCoordinates', values: { reason: 'must be a number (a longitude).' } },
    n: { error: 'invalidCityCount', values: { max: CLOSEST_CITIES_MAX } },
  },
);

export const nearestCitySchema = z.object({
  id: z.number(),
  city: z.string(),
  city_forurl: z.string(),
  state: z.string().nullable(),
  country: z.string(),
  lat: z.number(),
  lon: z.number(),
  distance_m: z.number().meta({ description: 'great-circle distance from the asked point, metres' }),
});

/** Nearest city (§3): id, city, city_forurl, lat, lon; plus state, country and the distance. */
export interface NearestCity {
  id: number;
  city: string;
  city_forurl: string;
  state: string | null;
  country: string;
  lat: number;
  lon: number;
  /** great-circle distance from the asked point, metres. */
  distance_m: number;
}

/** Upper bounds of the callback request's free-text fields. */
export const CALLBACK_LIMITS = {
  service_name: 200,
  name: 100,
  phone: 40,
  email: 254,
  message: 2000,
} as const;

const optionalText = (max: number, options: { multiline?: boolean } = {}) =>
  userText(options)
    .trim()
    .max(max, `must be at most ${max} characters long.`)
    .optional()
    .transform((value) => (value ? value : undefined));

/**
 * POST /v1/webonly/meonmap/requestimmunizationcard (§7: JSON with to_userid). The modal also sends
 * the service's name and point id (§5: it needs both), and, from a visitor, a way to be called back.
 * Presence of to_userid, service_name and xpointid is checked by the service with the spec's messages.
 */
export const callbackRequestSchema = z.object({
  to_userid: z.unknown().optional(),
  xpointid: z.unknown().optional(),
  service_name: z.unknown().optional(),
  name: optionalText(CALLBACK_LIMITS.name),
  phone: optionalText(CALLBACK_LIMITS.phone).refine(
    (value) => value === undefined || /^\+?[\d\s().-]{3,40}$/.test(value),
    'must be a phone number: digits, spaces, + ( ) . and -.',
  ),
  email: optionalText(CALLBACK_LIMITS.email).refine(
    (value) => value === undefined || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value),
    'Please enter a valid email address.',
  ),
  message: optionalText(CALLBACK_LIMITS.message, { multiline: true }),
});
export type CallbackRequestBody = z.infer<typeof callbackRequestSchema>;

/** The route's contract: an absent body is an empty one (the service then names what is missing). */
export const callbackRouteSchema = withFieldErrors(
  z.preprocess((body) => body ?? {}, callbackRequestSchema),
  {},
  'invalidCallbackField',
);

export const callbackResponseSchema = z.object({
  ok: z.literal(true),
  requestid: z.string(),
  duplicate: z.boolean().meta({ description: 'the same request was made in the last minute' }),
});

/**
 * POST /v1/webonly/xpointdetails/healthphoto: `{id}` of a point. Missing and malformed ids answer
 * the spec's two messages, checked before the schema below (which documents the field).
 */
export const healthPhotoRequestSchema = z.preprocess(
  (body, ctx) => {
    const id = body && typeof body === 'object' ? (body as { id?: unknown }).id : undefined;
    if (id === undefined || id === null || id === '')
      ctx.addIssue(domainIssue('healthPhotoIdMissing', {}, ['id']));
    else if (!isValidId(id)) ctx.addIssue(domainIssue('invalidParam', {}, ['id']));
    return { id };
  },
  z.object({ id: z.string().meta({ description: 'the point id', examples: ['p_2f9c1a'] }) }),
);

export const healthPhotosResponseSchema = z.object({
  id: z.string(),
  status: z.number().meta({ description: 'HealthStatus: 0 undefined, 1 verification pending, 2 verified' }),
  photos: z.record(z.string(), z.object({ url: z.string() })).meta({
    description: "by position ('1', '2', ...): only a verified point has any",
  }),
});

export interface CallbackResponse {
  ok: true;
  /** the stored request. */
  requestid: string;
  /** true when the same request was already made in the last minute: nothing new was stored. */
  duplicate: boolean;
}

/** POST /v1/webonly/xpointdetails/healthphoto: §7 'photos: a map of entries with url'. */
export interface HealthPhotosResponse {
  id: string;
  /** HealthStatus: 0 undefined, 1 verification pending, 2 verified. */
  status: number;
  /** by position ('1', '2', ...): only a verified point has any. */
  photos: Record<string, { url: string }>;
}

/** GET /v1/account/inbox */
export const INBOX_PAGE_DEFAULT = 20;
export const INBOX_PAGE_MAX = 100;

/** A query number: digits only (a repeated field is refused), within min..max. */
const pagingNumber = (min: number, max: number) => {
  const reason = `must be a whole number from ${min} to ${max}.`;
  return z
    .string({ error: reason })
    .regex(/^\d{1,16}$/, reason)
    .transform(Number)
    .pipe(z.number().min(min, reason).max(max, reason));
};

/** ?limit= (1..100, default 20) and ?before= (the next_before of the previous page). */
export const inboxQuerySchema = withFieldErrors(
  z.object({
    limit: pagingNumber(1, INBOX_PAGE_MAX).default(INBOX_PAGE_DEFAULT),
    before: pagingNumber(1, Number.MAX_SAFE_INTEGER).nullable().default(null),
  }),
  {},
  'invalidInboxPaging',
);
export type InboxQuery = z.output<typeof inboxQuerySchema>;
export const inboxMessageSchema = z.object({
  id: z.number(),
  kind: z.literal('callback_request'),
  title: z.string(),
  created_at: z.number(),
  read_at: z.number().nullable(),
  callback: z
    .object({
      id: z.string(),
      xpoint_id: z.string().nullable(),
      xpoint_title: z.string().nullable(),
      service_name: z.string(),
      from_userid: z.string().nullable(),
      from_username: z.string().nullable(),
      name: z.string().nullable(),
      phone: z.string().nullable(),
      email: z.string().nullable(),
      message: z.string().nullable(),
    })
    .nullable(),
});
export type InboxMessage = z.infer<typeof inboxMessageSchema>;
export const inboxResponseSchema = z.object({
  messages: z.array(inboxMessageSchema),
  /** pass as ?before= for the next (older) page; null on the last page. */
  next_before: z.number().nullable().meta({ description: 'pass as ?before= for the next (older) page' }),
});
export type InboxResponse = z.infer<typeof inboxResponseSchema>;

/** An event as listed on a point's panel and as the head of the event panel. */
export interface EventSummary {
  id: string;
  title: string;
  cover_url: string | null;
  type: string;
  subtype: string | null;
  start_date: number;
  end_date: number;
  /** §4 status at `evaluated_at`. */
  status: EventStatus;
  /** whole minutes until the first opening interval starts (negative once started). */
  minutes_to_start: number;
  first_interval: { start: number; end: number } | null;
  admission: string;
  admissionprice: number | null;
  /** /e/{id} */
  url: string | null;
}

export interface PointEventLists {
  /** starts within 0-120 minutes (§4), soonest first. */
  upcoming: EventSummary[];
  /** now inside the first opening interval (§4). */
  current: EventSummary[];
  /** not ended, neither current nor upcoming (starts later, or between intervals), soonest first. */
  later: EventSummary[];
  /** ended, most recent first; at most POINT_PAST_EVENTS_MAX of them. */
  past: EventSummary[];
  /** how many past events the point has in all. */
  past_total: number;
}
/** The most past events the point JSON carries (the panel shows 8, then 16, then all of these). */
export const POINT_PAST_EVENTS_MAX = 200;

export interface ContactView {
  roleid: string;
  roleoverride: string | null;
  /** 'Administrator', 'CEO', 'Business owner', or the CUST text. */
  role_text: string;
  contact_firstname: string | null;
  contact_lastname: string | null;
  contact_username: string | null;
  avatar_url: string | null;
}

/** The §6 controls as links to their routes; null when the viewer does not get that control. */
export interface PointControls {
  edit: string | null;
  /** needs a confirmation dialog (§5). */
  delete: string | null;
  copy_to_new: string | null;
  add_child_event: string | null;
  invite_review: string | null;
  claim: string | null;
  /** §6: the claim text shows only for experiences and rentals. */
  claim_text: boolean;
  become_consultant: string | null;
  /** needs a confirmation dialog (§5). */
  stop_consulting: string | null;
  /** the owner's (or an admin's) "Remove consultant", a page that asks first (§5). */
  dismiss_consultant: string | null;
  /** the owner (or an admin) sees the pending requests to consult, with Accept and Decline. */
  consultant_requests: boolean;
  /** the viewer's claim waits for an admin: "Verification pending" instead of the claim link. */
  claim_pending: boolean;
  /** the viewer asked to consult and waits for the owner: "Request sent — waiting for the owner". */
  consult_request_pending: boolean;
  /** null for help requests and incidents (§6). */
  fullscreen: string | null;
  /** rentals: /rental/{id}/2 */
  book: string | null;
}

export interface PointDetails {
  id: string;
  supertype: string;
  type: string;
  subtype: string | null;
  title: string;
  tagline: string | null;
  description: string | null;
  description_display: { preview: string; collapsible: boolean };
  /** /{prefix}/{id} */
  url: string;
  has_app: boolean;
  owner_userid: string | null;
  owner_username: string | null;
  owner_fullname: string | null;
  owner_avatar: string | null;
  owner_status: string | null;
  /** null when §5 hides the consultant, or there is none. */
  consultant_username: string | null;
  consultant_fullname: string | null;
  consultant_avatar: string | null;
  location: { country: string; city: string; city_forurl: string; state: string | null } | null;
  lat: number;
  lon: number;
  full_address: string | null;
  /** 'lat,lon' in degrees, any other address as written (§5). */
  full_address_display: string;
  link_email: string | null;
  link_phone: string | null;
  link_website: string | null;
  link_facebook: string | null;
  /** href null = plain text (§5). */
  links: { email: LinkView; phone: LinkView; website: LinkView; facebook: LinkView };
  url_icon_or_logo: string | null;
  url_cover_video: string | null;
  url_cover_image: string | null;
  /** url_screenshot_1 .. url_screenshot_14, null where there is none. */
  screenshots: Record<`url_screenshot_${number}`, string | null>;
  /** the carousel in order: the cover video, else the cover image, then the screenshots. */
  carousel: { kind: 'video' | 'image'; url: string; poster?: string | null }[];
  /** average on a 0-100 scale, or null. */
  rating: number | null;
  rating_count: number;
  /** average/20 with one decimal ('4.3'), or null. */
  rating_display: string | null;
  contacts: ContactView[];
  healthdata: {
    status: number;
    status_name: 'undefined' | 'verificationpending' | 'verified';
    /** the verified photos; empty unless status is verified. */
    photos: { position: number; url: string }[];
  };
  /** only for the owner, the consultant and admins, and never on help requests or incidents (§6). */
  xsites_json: { data: { icon: string; title: string; url: string }[] } | null;
  xpStats: { total: number; prev_month: number; this_month: number; today: number };
  /** '0' for values that are not positive (§5). */
  xpStats_display: { total: string; prev_month: string; this_month: string; today: string };
  /** the point's IANA time zone: its own, else its city's, else from its coordinates. */
  time_zone_name: string;
  /** null when the point has no opening hours. */
  opening_hours: (OpenNow & { opening_hours_string: string }) | null;
  resellerid: string | null;
  /** epoch ms */
  lastmodified: number;
  beamtype: number;
  beamtypes: string[];
  marker: {
    id: string;
    lng: number;
    lat: number;
    title: string;
    type: string;
    subtype: string | null;
    classes: string;
    select: boolean;
    data: { hotpointclickurl: string };
  };
  /** present only when the pickup has its date and time (§5). */
  pickup: {
    pickup_destination: string | null;
    pickup_date_time: number;
    delivery_lat: number | null;
    delivery_lng: number | null;
  } | null;
  /** help requests only. */
  helprequestdata: {
    taskduration_minutes: number | null;
    /** minutes/60 */
    taskduration_hours: number | null;
    taskduration_display: string | null;
    taskbudget: number | null;
    taskbudget_display: string | null;
    taskstart: number | null;
    canacceptjob: boolean;
    canquote: boolean;
  } | null;
  /** service points only (§6): owner status above, these below; all null elsewhere. */
  meonmap_enabled: boolean | null;
  meonmap_xpointid: string | null;
  xpointService: string | null;
  owner_dynamic_last_update: number | null;
  owner_callchat_priceperminute: number | null;
  /** two decimals */
  owner_callchat_priceperminute_display: string | null;
  da_xpoint_settings: { allow_consulting: boolean };
  events: PointEventLists;
  permissions: PointPermissions;
  controls: PointControls;
  /** the instant open-now and event statuses were evaluated at, epoch ms. */
  evaluated_at: number;
}

export interface EventDetails extends EventSummary {
  description: string | null;
  description_display: { preview: string; collapsible: boolean };
  owner_username: string | null;
  owner_fullname: string | null;
  owner_avatar: string | null;
  xpoint_id: string | null;
  xpoint_title: string | null;
  /** /{prefix}/{id} of the hosting point */
  xpoint_url: string | null;
  intervals: { start: number; end: number }[];
  location: {
    lat: number;
    lon: number;
    full_address: string | null;
    full_address_display: string;
    city: string | null;
    country: string | null;
    city_forurl: string | null;
  };
  admissionprice_display: string | null;
  website: string | null;
  website_link: LinkView;
  marker: string | null;
  tickets: {
    id: number;
    name: string;
    unit_price: number;
    unit_price_display: string;
    max_quantity: number;
    options: TicketOption[];
  }[];
  permissions: EventPermissions;
  controls: { edit: string | null; copy: string | null; delete: string | null };
  evaluated_at: number;
}

/** GET /v1/webonly/xpointdetails/{id}: where a point's details are read (the app caches them by it). */
export function pointDetailsPath(id: string): string {
  return `/v1/webonly/xpointdetails/${encodeURIComponent(id)}`;
}
