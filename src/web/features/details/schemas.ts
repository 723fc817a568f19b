import { z } from 'zod';

/**
 * The parts of the detail calls' JSON the panels read (map-and-search §3; the full contract is
 * `PointDetails` / `EventDetails` in src/shared/api/details.ts). Lenient where the server may leave a
 * field out, so one missing field never turns a whole panel into an error.
 */

const text = z.string().nullish();
const flag = z.boolean().nullish();

export const eventSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  cover_url: text,
  type: z.string().nullish(),
  start_date: z.number(),
  end_date: z.number(),
  status: z.enum(['current', 'upcoming', 'later', 'past']),
  minutes_to_start: z.number(),
  first_interval: z.object({ start: z.number(), end: z.number() }).nullish(),
  admission: text,
  admissionprice: z.number().nullish(),
});
export type EventItem = z.output<typeof eventSummarySchema>;

const events = z.array(eventSummarySchema).default([]);

const controlsSchema = z.object({
  edit: text,
  delete: text,
  copy_to_new: text,
  add_child_event: text,
  invite_review: text,
  claim: text,
  claim_text: z.boolean().default(false),
  become_consultant: text,
  stop_consulting: text,
  dismiss_consultant: text,
  consultant_requests: z.boolean().default(false),
  claim_pending: z.boolean().default(false),
  consult_request_pending: z.boolean().default(false),
  fullscreen: text,
  book: text,
});
export type PointControlLinks = z.output<typeof controlsSchema>;

const stats = z.object({
  total: z.string(),
  prev_month: z.string(),
  this_month: z.string(),
  today: z.string(),
});

export const pointDetailsSchema = z.object({
  id: z.string(),
  supertype: z.string(),
  type: z.string(),
  title: z.string(),
  tagline: text,
  description: text,
  owner_userid: text,
  owner_username: text,
  owner_fullname: text,
  owner_avatar: text,
  owner_status: text,
  consultant_username: text,
  consultant_fullname: text,
  consultant_avatar: text,
  location: z.object({ city: text, country: text, city_forurl: text }).nullish(),
  lat: z.number(),
  lon: z.number(),
  full_address: text,
  link_email: text,
  link_phone: text,
  link_website: text,
  link_facebook: text,
  carousel: z
    .array(z.object({ kind: z.enum(['video', 'image']), url: z.string(), poster: text }))
    .default([]),
  rating_display: text,
  rating_count: z.number().default(0),
  contacts: z
    .array(
      z.object({
        roleid: z.string(),
        roleoverride: text,
        contact_firstname: text,
        contact_lastname: text,
        contact_username: text,
        avatar_url: text,
      }),
    )
    .default([]),
  healthdata: z.object({ status: z.number() }).nullish(),
  xsites_json: z
    .object({ data: z.array(z.object({ icon: z.string(), title: z.string(), url: z.string() })) })
    .nullish(),
  xpStats_display: stats.nullish(),
  opening_hours: z
    .object({
      opening_hours_string: z.string(),
      time_zone_name: z.string(),
      state: z.enum(['open', 'closed', 'unknown']),
      comment: text,
      next_change: text,
      error: text,
    })
    .nullish(),
  pickup: z
    .object({
      pickup_destination: text,
      pickup_date_time: z.number(),
      delivery_lat: z.number().nullish(),
      delivery_lng: z.number().nullish(),
    })
    .nullish(),
  helprequestdata: z
    .object({
      taskduration_display: text,
      taskbudget_display: text,
      taskstart: z.number().nullish(),
      canacceptjob: z.boolean(),
      canquote: z.boolean(),
    })
    .nullish(),
  meonmap_enabled: flag,
  xpointService: text,
  owner_dynamic_last_update: z.number().nullish(),
  owner_callchat_priceperminute_display: text,
  events: z
    .object({ upcoming: events, current: events, later: events, past: events, past_total: z.number() })
    .nullish(),
  permissions: z.object({ isOwner: z.boolean(), controllable: z.boolean() }).nullish(),
  controls: controlsSchema.nullish(),
  /** the point's IANA zone: the full-screen page writes times in it. */
  time_zone_name: text,
});
export type PointDetails = z.output<typeof pointDetailsSchema>;

export const eventDetailsSchema = eventSummarySchema.extend({
  description: text,
  owner_username: text,
  owner_fullname: text,
  owner_avatar: text,
  xpoint_id: text,
  xpoint_title: text,
  xpoint_url: text,
  location: z
    .object({ lat: z.number(), lon: z.number(), full_address: text, city: text, country: text })
    .nullish(),
  admissionprice_display: text,
  website: text,
  tickets: z
    .array(
      z.object({
        id: z.number(),
        name: z.string(),
        unit_price_display: z.string(),
        options: z.array(z.object({ quantity: z.number(), display: z.string() })),
      }),
    )
    .default([]),
  controls: z.object({ edit: text, copy: text, delete: text }).nullish(),
});
export type EventDetails = z.output<typeof eventDetailsSchema>;

/** POST /v1/webonly/xpointdetails/healthphoto: photos by position. */
export const healthPhotosSchema = z.object({
  photos: z.record(z.string(), z.object({ url: z.string() })),
});

/** POST /v1/webonly/meonmap/requestimmunizationcard: any ok answer is success (§7). */
export const callbackAnswerSchema = z.unknown();
