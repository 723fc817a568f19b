import { z } from 'zod';
import type { EventPermissions, PointPermissions } from '../permissions';
import type { EventDetails, PointDetails } from './details';

/**
 * The detail JSON as contracts, for the OpenAPI document: the point and event panels' answers
 * (PointDetails and EventDetails in details.ts, which the service builds). The checks at the end
 * fail to compile when a field is added to one and not to the other.
 */

const nullableText = z.string().nullable();
const linkViewSchema = z.object({ text: z.string(), href: nullableText });
const intervalSchema = z.object({ start: z.number(), end: z.number() });
const descriptionDisplay = z.object({ preview: z.string(), collapsible: z.boolean() });

export const eventSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  cover_url: nullableText,
  type: z.string(),
  subtype: nullableText,
  start_date: z.number().meta({ description: 'epoch ms' }),
  end_date: z.number().meta({ description: 'epoch ms' }),
  status: z.enum(['current', 'upcoming', 'later', 'past']),
  minutes_to_start: z.number(),
  first_interval: intervalSchema.nullable(),
  admission: z.string(),
  admissionprice: z.number().nullable(),
  url: nullableText,
});

export const pointPermissionsSchema = z.object({
  controllable: z.boolean(),
  isOwner: z.boolean(),
  isConsultant: z.boolean(),
  canEdit: z.boolean(),
  canDelete: z.boolean(),
  canCopyToNew: z.boolean(),
  canInviteReview: z.boolean(),
  canAddChildEvent: z.boolean(),
  canSeeExternalSites: z.boolean(),
  canHaveSites: z.boolean(),
  showFullscreen: z.boolean(),
  showConsultant: z.boolean(),
  showClaimLink: z.boolean(),
  claimText: z.boolean(),
  showBecomeConsultant: z.boolean(),
  canStopConsulting: z.boolean(),
  canDismissConsultant: z.boolean(),
  canAnswerConsultantRequests: z.boolean(),
  claimPending: z.boolean(),
  consultRequestPending: z.boolean(),
  showServiceDetails: z.boolean(),
  canUseChat: z.boolean(),
});
export const eventPermissionsSchema = z.object({
  controllable: z.boolean(),
  canEdit: z.boolean(),
  canDelete: z.boolean(),
  canCopy: z.boolean(),
});

const contactSchema = z.object({
  roleid: z.string(),
  roleoverride: nullableText,
  role_text: z.string(),
  contact_firstname: nullableText,
  contact_lastname: nullableText,
  contact_username: nullableText,
  avatar_url: nullableText,
});

const controlsSchema = z
  .object({
    edit: nullableText,
    delete: nullableText,
    copy_to_new: nullableText,
    add_child_event: nullableText,
    invite_review: nullableText,
    claim: nullableText,
    claim_text: z.boolean(),
    become_consultant: nullableText,
    stop_consulting: nullableText,
    dismiss_consultant: nullableText,
    consultant_requests: z.boolean(),
    claim_pending: z.boolean(),
    consult_request_pending: z.boolean(),
    fullscreen: nullableText,
    book: nullableText,
  })
  .meta({ description: "the viewer's controls as links to their routes; null where not given" });

const counts = <T extends z.ZodType>(value: T) =>
  z.object({ total: value, prev_month: value, this_month: value, today: value });

const openNowSchema = z.object({
  text: z.string(),
  time_zone_name: z.string(),
  state: z.enum(['open', 'closed', 'unknown']),
  open: z.boolean().nullable(),
  comment: nullableText,
  next_change: nullableText,
  warnings: z.array(z.string()),
  error: nullableText,
  opening_hours_string: z.string(),
});

export const pointDetailsSchema = z.object({
  id: z.string(),
  supertype: z.string(),
  type: z.string(),
  subtype: nullableText,
  title: z.string(),
  tagline: nullableText,
  description: nullableText,
  description_display: descriptionDisplay,
  url: z.string(),
  has_app: z.boolean(),
  owner_userid: nullableText,
  owner_username: nullableText,
  owner_fullname: nullableText,
  owner_avatar: nullableText,
  owner_status: nullableText,
  consultant_username: nullableText,
  consultant_fullname: nullableText,
  consultant_avatar: nullableText,
  location: z
    .object({ country: z.string(), city: z.string(), city_forurl: z.string(), state: nullableText })
    .nullable(),
  lat: z.number(),
  lon: z.number(),
  full_address: nullableText,
  full_address_display: z.string(),
  link_email: nullableText,
  link_phone: nullableText,
  link_website: nullableText,
  link_facebook: nullableText,
  links: z.object({
    email: linkViewSchema,
    phone: linkViewSchema,
    website: linkViewSchema,
    facebook: linkViewSchema,
  }),
  url_icon_or_logo: nullableText,
  url_cover_video: nullableText,
  url_cover_image: nullableText,
  screenshots: z
    .record(z.templateLiteral(['url_screenshot_', z.number()]), nullableText)
    .meta({ description: 'url_screenshot_1 .. url_screenshot_14' }),
  carousel: z.array(
    z.object({ kind: z.enum(['video', 'image']), url: z.string(), poster: nullableText.optional() }),
  ),
  rating: z.number().nullable().meta({ description: 'average on a 0-100 scale' }),
  rating_count: z.number(),
  rating_display: nullableText,
  contacts: z.array(contactSchema),
  healthdata: z.object({
    status: z.number(),
    status_name: z.enum(['undefined', 'verificationpending', 'verified']),
    photos: z.array(z.object({ position: z.number(), url: z.string() })),
  }),
  xsites_json: z
    .object({ data: z.array(z.object({ icon: z.string(), title: z.string(), url: z.string() })) })
    .nullable(),
  xpStats: counts(z.number()),
  xpStats_display: counts(z.string()),
  time_zone_name: z.string(),
  opening_hours: openNowSchema.nullable(),
  resellerid: nullableText,
  lastmodified: z.number(),
  beamtype: z.number(),
  beamtypes: z.array(z.string()),
  marker: z.object({
    id: z.string(),
    lng: z.number(),
    lat: z.number(),
    title: z.string(),
    type: z.string(),
    subtype: nullableText,
    classes: z.string(),
    select: z.boolean(),
    data: z.object({ hotpointclickurl: z.string() }),
  }),
  pickup: z
    .object({
      pickup_destination: nullableText,
      pickup_date_time: z.number(),
      delivery_lat: z.number().nullable(),
      delivery_lng: z.number().nullable(),
    })
    .nullable(),
  helprequestdata: z
    .object({
      taskduration_minutes: z.number().nullable(),
      taskduration_hours: z.number().nullable(),
      taskduration_display: nullableText,
      taskbudget: z.number().nullable(),
      taskbudget_display: nullableText,
      taskstart: z.number().nullable(),
      canacceptjob: z.boolean(),
      canquote: z.boolean(),
    })
    .nullable(),
  meonmap_enabled: z.boolean().nullable(),
  meonmap_xpointid: nullableText,
  xpointService: nullableText,
  owner_dynamic_last_update: z.number().nullable(),
  owner_callchat_priceperminute: z.number().nullable(),
  owner_callchat_priceperminute_display: nullableText,
  da_xpoint_settings: z.object({ allow_consulting: z.boolean() }),
  events: z.object({
    upcoming: z.array(eventSummarySchema),
    current: z.array(eventSummarySchema),
    later: z.array(eventSummarySchema),
    past: z.array(eventSummarySchema),
    past_total: z.number(),
  }),
  permissions: pointPermissionsSchema,
  controls: controlsSchema,
  evaluated_at: z.number().meta({ description: 'when open-now and event statuses were evaluated, epoch ms' }),
});

export const eventDetailsSchema = eventSummarySchema.extend({
  description: nullableText,
  description_display: descriptionDisplay,
  owner_username: nullableText,
  owner_fullname: nullableText,
  owner_avatar: nullableText,
  xpoint_id: nullableText,
  xpoint_title: nullableText,
  xpoint_url: nullableText,
  intervals: z.array(intervalSchema),
  location: z.object({
    lat: z.number(),
    lon: z.number(),
    full_address: nullableText,
    full_address_display: z.string(),
    city: nullableText,
    country: nullableText,
    city_forurl: nullableText,
  }),
  admissionprice_display: nullableText,
  website: nullableText,
  website_link: linkViewSchema,
  marker: nullableText,
  tickets: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      unit_price: z.number(),
      unit_price_display: z.string(),
      max_quantity: z.number(),
      options: z.array(z.object({ quantity: z.number(), total: z.number(), display: z.string() })),
    }),
  ),
  permissions: eventPermissionsSchema,
  controls: z.object({ edit: nullableText, copy: nullableText, delete: nullableText }),
  evaluated_at: z.number(),
});

// the contracts and the interfaces describe the same JSON, both ways
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agree = <T extends true>(value: T) => value;
agree<Same<z.output<typeof pointDetailsSchema>, PointDetails>>(true);
agree<Same<z.output<typeof eventDetailsSchema>, EventDetails>>(true);
agree<Same<z.output<typeof pointPermissionsSchema>, PointPermissions>>(true);
agree<Same<z.output<typeof eventPermissionsSchema>, EventPermissions>>(true);
