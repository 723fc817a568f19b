import { z } from 'zod';
import { CONTACT_ROLES, type ContactRole } from '../domain/enums';
import { findCategory } from '../domain/categories';
import { POINT_SUPERTYPES, type PointSupertype } from '../domain/supertypes';
import { ERRORS } from '../errors';
import { MAX_HEALTH_PHOTOS, MAX_SCREENSHOTS, type OpeningHoursWarning } from '../validation/points';
import {
  ADDRESS_MAX_LENGTH,
  DESCRIPTION_MAX_LENGTH,
  SUBTYPE_MAX_LENGTH,
  addDomainIssue,
  blankToNull,
  emailLink,
  flagSchema,
  idSchema,
  latSchema,
  lonSchema,
  mediaDataSchema,
  mediaFileSchema,
  numeric,
  optionalDate,
  optionalText,
  phoneLink,
  price,
  text,
  titleSchema,
  versionSchema,
  webLink,
  type DomainIssue,
} from './writes';

/**
 * Request and response contracts of the point write API (issue 8):
 * /v1/xpoint/{create,duplicates,update,delete,claim,becomeconsultant,clearconsultant,media},
 * GET /v1/xpoint/{id}/edit and GET /v1/account/mypoints (a person's points and events). Events are
 * in events.ts; what both share (field schemas, domain issues, the parse) in writes.ts. The server
 * validates every body with these schemas; the add-new and edit forms use the same ones, so a rule
 * is written once.
 *
 * Wire names follow map-and-search §3 (supertype, type, title, lat, lon, address, street, city,
 * region, postalcode, country; link_email, ...). In request bodies an absent field means "unchanged"
 * (update) or "none" (create); null or '' clears a field.
 */

// ---------------------------------------------------------------------------------------------
// limits (spec §9 where it gives them; the rest are bounds on what a person types)

export const TAGLINE_MAX_LENGTH = 160;
export const ADDRESS_PART_MAX_LENGTH = 120;
export const POSTALCODE_MAX_LENGTH = 20;
export const MAX_CONTACTS = 20;
export const CONTACT_NAME_MAX_LENGTH = 60;
export const OPENING_HOURS_MAX_LENGTH = 500;
export const CLAIM_TEXT_MAX_LENGTH = 2000;
/** A year of minutes: the longest task a help request may describe. */
export const MAX_TASK_MINUTES = 525_600;

/** Supertypes only a signed-in user may add: a help request needs someone helpers can answer. */
export const ACCOUNT_ONLY_SUPERTYPES: readonly PointSupertype[] = ['helprequest'];
/** Fields that only points of some supertypes have (spec §3, §6). */
export const SUPERTYPE_ONLY_FIELDS = {
  helprequestdata: ['helprequest'],
  meonmap_enabled: ['service'],
  xpointService: ['service'],
  owner_callchat_priceperminute: ['service'],
} as const satisfies Record<string, readonly PointSupertype[]>;

// ---------------------------------------------------------------------------------------------
// domain issues: rules with their own error codes (7xxx), usable with or without zod

export function supertypeIssue(supertype: string): DomainIssue | null {
  if ((POINT_SUPERTYPES as readonly string[]).includes(supertype)) return null;
  return {
    error: 'unknownSupertype',
    field: 'supertype',
    params: { value: supertype, allowed: POINT_SUPERTYPES.join(', ') },
  };
}

/** The type must be one of the supertype's categories (spec §3), `custom` ones included. */
export function typeIssue(supertype: string, type: string): DomainIssue | null {
  if (findCategory(supertype, type)) return null;
  return { error: 'unknownType', field: 'type', params: { value: type, supertype } };
}

/** Fields given for a supertype that does not have them (a task budget on a bakery). */
export function supertypeFieldIssue(supertype: string, fields: Record<string, unknown>): DomainIssue | null {
  for (const [field, supertypes] of Object.entries(SUPERTYPE_ONLY_FIELDS)) {
    if (fields[field] === undefined) continue;
    if (!(supertypes as readonly string[]).includes(supertype))
      return { error: 'fieldNotForSupertype', field, params: { field, supertypes: supertypes.join(', ') } };
  }
  return null;
}

/** Spec §5: a pickup needs its date and time. */
export function pickupIssue(
  destination: string | null | undefined,
  time: number | null | undefined,
): DomainIssue | null {
  return destination && time == null
    ? { error: 'pickupNeedsTime', field: 'pickup_date_time', params: {} }
    : null;
}

const CONTACT_ROLE_CODES = Object.keys(CONTACT_ROLES) as [ContactRole, ...ContactRole[]];

/** A contact with a role code (spec §3): ADMN, _CEO, OWNR, or CUST with its own role text. */
export const contactSchema = z
  .object({
    roleid: z.enum(CONTACT_ROLE_CODES, { error: `must be one of ${CONTACT_ROLE_CODES.join(', ')}.` }),
    roleoverride: optionalText(CONTACT_NAME_MAX_LENGTH),
    contact_firstname: optionalText(CONTACT_NAME_MAX_LENGTH),
    contact_lastname: optionalText(CONTACT_NAME_MAX_LENGTH),
    /** a user of ours, shown with their avatar and a link to their profile. */
    contact_username: optionalText(32),
  })
  .superRefine((contact, ctx) => {
    if (contact.roleid === 'CUST' && !contact.roleoverride)
      ctx.addIssue({
        code: 'custom',
        path: ['roleoverride'],
        message: 'is required for a custom role (CUST).',
      });
    if (!contact.contact_firstname && !contact.contact_lastname && !contact.contact_username)
      ctx.addIssue({
        code: 'custom',
        path: ['contact_firstname'],
        message: 'a contact needs a first name, a last name or a username.',
      });
  });
export type ContactInput = z.infer<typeof contactSchema>;

/** Spec §3 helprequestdata. */
export const helpRequestDataSchema = z.object({
  taskduration_minutes: z.preprocess(
    (v) => numeric(blankToNull(v)),
    z
      .number({ error: 'must be a number.' })
      .int('must be a whole number of minutes.')
      .min(1, 'must be at least 1 minute.')
      .max(MAX_TASK_MINUTES, `must be at most ${MAX_TASK_MINUTES} minutes.`)
      .nullable()
      .optional(),
  ),
  taskbudget: price(),
  taskstart: optionalDate(),
  canacceptjob: flagSchema.optional(),
  canquote: flagSchema.optional(),
});
export type HelpRequestDataInput = z.infer<typeof helpRequestDataSchema>;

/** The add-new form's address fields (spec §3); every one optional. */
const addressFields = {
  address: optionalText(ADDRESS_MAX_LENGTH),
  street: optionalText(ADDRESS_PART_MAX_LENGTH),
  city: optionalText(ADDRESS_PART_MAX_LENGTH),
  region: optionalText(ADDRESS_PART_MAX_LENGTH),
  postalcode: optionalText(POSTALCODE_MAX_LENGTH),
  country: optionalText(ADDRESS_PART_MAX_LENGTH),
};

/** Every editable field of a point (spec §3), each optional: absent is "unchanged". */
export const pointFieldsSchema = z.object({
  title: titleSchema.optional(),
  type: text().trim().min(1, 'is required.').max(SUBTYPE_MAX_LENGTH).optional(),
  subtype: optionalText(SUBTYPE_MAX_LENGTH),
  tagline: optionalText(TAGLINE_MAX_LENGTH),
  description: optionalText(DESCRIPTION_MAX_LENGTH, { multiline: true }),
  lat: latSchema.optional(),
  lon: lonSchema.optional(),
  ...addressFields,
  link_email: emailLink,
  link_phone: phoneLink,
  link_website: webLink,
  link_facebook: webLink,
  /** the whole list: replaces the point's contacts, in this order. [] removes them all. */
  contacts: z.array(contactSchema).max(MAX_CONTACTS, `at most ${MAX_CONTACTS} contacts.`).optional(),
  /** OpenStreetMap opening_hours syntax, checked with the opening_hours library; null clears. */
  opening_hours: optionalText(OPENING_HOURS_MAX_LENGTH),
  /** da_xpoint_settings.allow_consulting: the owner's (or an admin's) choice. */
  allow_consulting: flagSchema.optional(),
  // service points (spec §3, §6)
  meonmap_enabled: flagSchema.optional(),
  xpointService: optionalText(ADDRESS_PART_MAX_LENGTH),
  owner_callchat_priceperminute: price(),
  // help requests
  helprequestdata: helpRequestDataSchema.optional(),
  // pickup and delivery (spec §3, §5: a pickup needs pickup_date_time)
  pickup_destination: optionalText(ADDRESS_MAX_LENGTH),
  pickup_date_time: optionalDate(),
  delivery_lat: z.preprocess((v) => numeric(blankToNull(v)), latSchema.nullable().optional()),
  delivery_lng: z.preprocess((v) => numeric(blankToNull(v)), lonSchema.nullable().optional()),
});
export type PointFields = z.infer<typeof pointFieldsSchema>;

// ---------------------------------------------------------------------------------------------
// points

/**
 * POST /v1/xpoint/create: the add-new form's fields (spec §3: supertype, type, title, lat, lon, address,
 * street, city, region, postalcode, country), optionally any editable field (copy-to-new sends them),
 * and `confirmNotDuplicate: true` once the person has seen the possible duplicates and says theirs is
 * another place.
 */
export const createPointRequestSchema = pointFieldsSchema
  .extend({
    supertype: text().trim().toLowerCase().min(1, 'is required.'),
    type: text().trim().min(1, 'is required.').max(SUBTYPE_MAX_LENGTH),
    title: titleSchema,
    lat: latSchema,
    lon: lonSchema,
    confirmNotDuplicate: flagSchema.optional(),
  })
  .superRefine((point, ctx) => {
    const supertype = supertypeIssue(point.supertype);
    addDomainIssue(ctx, supertype);
    if (supertype) return;
    addDomainIssue(ctx, typeIssue(point.supertype, point.type));
    addDomainIssue(ctx, supertypeFieldIssue(point.supertype, point));
    addDomainIssue(ctx, pickupIssue(point.pickup_destination, point.pickup_date_time));
  });
export type CreatePointRequest = z.infer<typeof createPointRequestSchema>;

export const openingHoursWarningSchema = z.object({
  type: z.string(),
  message: z.string(),
  position: z.number().nullable(),
});
export type { OpeningHoursWarning };

/** 201 to create, 200 to update: where the point lives now and the version to send with the next edit. */
export const pointWriteResponseSchema = z.object({
  id: z.string(),
  supertype: z.string(),
  /** the point's page: /{prefix}/{id} (spec §2). */
  url: z.string(),
  version: z.number(),
  /** the opening_hours library's warnings about the saved value, to show beside the field. */
  openingHoursWarnings: z.array(openingHoursWarningSchema),
});
export type PointWriteResponse = z.infer<typeof pointWriteResponseSchema>;

/** POST /v1/xpoint/duplicates: the same or similar names within 100 m of (lat, lon). */
export const duplicatesRequestSchema = z.object({ title: titleSchema, lat: latSchema, lon: lonSchema });
export type DuplicatesRequest = z.infer<typeof duplicatesRequestSchema>;

export const duplicateCandidateSchema = z.object({
  id: z.string(),
  title: z.string(),
  supertype: z.string(),
  type: z.string(),
  url: z.string(),
  distance_m: z.number(),
});
export type DuplicateCandidate = z.infer<typeof duplicateCandidateSchema>;
export const duplicatesResponseSchema = z.object({ candidates: z.array(duplicateCandidateSchema) });
/** The 409 of create when candidates exist and confirmNotDuplicate was not sent: the error plus the candidates. */
export const duplicateErrorSchema = z.object({
  errorcode: z.literal(ERRORS.possibleDuplicate.code),
  error: z.string(),
  candidates: z.array(duplicateCandidateSchema),
});

/** POST /v1/xpoint/update: `{id, version, ...fields}`; a stale version is a 409 and nothing is written. */
export const updatePointRequestSchema = pointFieldsSchema.extend({
  id: idSchema(),
  version: versionSchema,
  /** a point keeps its supertype; sending another one is refused (supertypeChange). */
  supertype: text().trim().toLowerCase().optional(),
});
export type UpdatePointRequest = z.infer<typeof updatePointRequestSchema>;

export const pointIdRequestSchema = z.object({ id: idSchema() });
export type PointIdRequest = z.infer<typeof pointIdRequestSchema>;

/** POST /v1/xpoint/claim: `text` only for experiences and rentals (spec §6). */
export const claimRequestSchema = z.object({
  id: idSchema(),
  text: optionalText(CLAIM_TEXT_MAX_LENGTH, { multiline: true }),
});
export type ClaimRequest = z.infer<typeof claimRequestSchema>;

/**
 * Claim, become consultant and stop consulting answer with the point's people as they are now, and
 * whether the call took effect (`done`) or was recorded as a request someone decides (`pending`, with
 * status 202): every claim waits for an admin, a request to consult an owned point for its owner.
 */
export const pointPeopleResponseSchema = z.object({
  id: z.string(),
  url: z.string(),
  owner_username: z.string().nullable(),
  consultant_username: z.string().nullable(),
  version: z.number(),
  status: z.enum(['done', 'pending']),
});
export type PointPeopleResponse = z.infer<typeof pointPeopleResponseSchema>;

/** POST /v1/xpoint/consultantrequest/{accept,decline}: the point and who asked. */
export const consultantRequestAnswerSchema = z.object({
  id: idSchema(),
  username: z.string().trim().min(1).max(64),
});
export type ConsultantRequestAnswer = z.infer<typeof consultantRequestAnswerSchema>;

/** GET /v1/xpoint/consultantrequests?id=: the pending requests to consult a point, oldest first. */
export const consultantRequestsResponseSchema = z.object({
  id: z.string(),
  items: z.array(
    z.object({
      username: z.string(),
      fullname: z.string(),
      avatar_url: z.string().nullable(),
      /** epoch milliseconds */
      created_at: z.number(),
    }),
  ),
});
export type ConsultantRequestsResponse = z.infer<typeof consultantRequestsResponseSchema>;

/** GET /v1/admin/claims: the pending claims, oldest first (at most CLAIM_QUEUE_MAX). */
export const CLAIM_QUEUE_MAX = 200;
export const claimQueueResponseSchema = z.object({
  items: z.array(
    z.object({
      id: z.number(),
      point_id: z.string(),
      point_title: z.string(),
      supertype: z.string(),
      /** the point's page */
      url: z.string(),
      username: z.string(),
      fullname: z.string(),
      text: z.string().nullable(),
      /** epoch milliseconds */
      created_at: z.number(),
    }),
  ),
});
export type ClaimQueueResponse = z.infer<typeof claimQueueResponseSchema>;
export type ClaimInQueue = ClaimQueueResponse['items'][number];

/** POST /v1/admin/claims/{approve,decline}: the claim's id from the queue. */
export const claimDecisionRequestSchema = z.object({ id: z.coerce.number().int().positive() });
export type ClaimDecisionRequest = z.infer<typeof claimDecisionRequestSchema>;
export const claimDecisionResponseSchema = z.object({
  id: z.number(),
  status: z.enum(['approved', 'declined']),
  point_id: z.string(),
  url: z.string(),
  owner_username: z.string().nullable(),
});
export type ClaimDecisionResponse = z.infer<typeof claimDecisionResponseSchema>;

/** Media slots of a point (spec §3 media fields). */
/**
 * The point media slots (spec §3): cover image or video, logo, screenshots 1..14, and the health
 * photos 1..20 (§3 healthdata, §7 healthphoto: shown once the point's health status is verified).
 */
export const MEDIA_SLOTS = ['cover_image', 'cover_video', 'logo', 'screenshot', 'health'] as const;
export type MediaSlot = (typeof MEDIA_SLOTS)[number];
/** The slots that hold many files, each at a position. */
export const POSITIONED_SLOTS = { screenshot: MAX_SCREENSHOTS, health: MAX_HEALTH_PHOTOS } as const;
export function isPositionedSlot(slot: MediaSlot): slot is keyof typeof POSITIONED_SLOTS {
  return slot === 'screenshot' || slot === 'health';
}

const pointMediaFields = {
  id: idSchema(),
  version: versionSchema,
  slot: z.enum(MEDIA_SLOTS, { error: `must be one of ${MEDIA_SLOTS.join(', ')}.` }),
  position: z.preprocess(
    numeric,
    z
      .number({ error: 'must be a number.' })
      .int('must be a whole number.')
      .min(1, 'must be 1 or more.')
      .optional(),
  ),
};
function onlyScreenshotsHavePositions(
  media: { slot: MediaSlot; position?: number | undefined },
  ctx: z.RefinementCtx,
) {
  if (media.position === undefined) return;
  if (!isPositionedSlot(media.slot))
    ctx.addIssue({
      code: 'custom',
      path: ['position'],
      message: 'only screenshots and health photos have a position.',
    });
  else if (media.position > POSITIONED_SLOTS[media.slot])
    ctx.addIssue({
      code: 'custom',
      path: ['position'],
      message: `must be between 1 and ${POSITIONED_SLOTS[media.slot]}.`,
    });
}

/**
 * POST /v1/xpoint/media as JSON: one image as a base64 data URL (`data:image/png;base64,...`, at most
 * 10 MB), or null to remove the slot's file. Screenshots take a `position` 1..14; without one a new
 * screenshot goes to the first free place. A video is refused here: it comes as multipart.
 */
export const pointMediaRequestSchema = z
  .object({ ...pointMediaFields, data: mediaDataSchema })
  .superRefine((media, ctx) => {
    onlyScreenshotsHavePositions(media, ctx);
    if (media.data === null && isPositionedSlot(media.slot) && media.position === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['position'],
        message: `is required to remove a ${media.slot === 'health' ? 'health photo' : 'screenshot'}.`,
      });
  });
/**
 * POST /v1/xpoint/media as multipart/form-data: the same fields as text parts, then the file (any
 * slot, videos too) in a part named `file`. The fields are checked before the file is read.
 */
export const pointMediaFormFieldsSchema = z
  .object(pointMediaFields)
  .superRefine(onlyScreenshotsHavePositions);
export type PointMediaFormFields = z.infer<typeof pointMediaFormFieldsSchema>;
/** The multipart body as the OpenAPI document shows it. */
export const pointMediaFormSchema = z.object({ ...pointMediaFields, file: mediaFileSchema });
export type PointMediaRequest = z.infer<typeof pointMediaRequestSchema>;

export const pointMediaResponseSchema = z.object({
  id: z.string(),
  slot: z.enum(MEDIA_SLOTS),
  position: z.number().nullable(),
  /** /media/<sha256>.<ext>, or null when removed. */
  url: z.string().nullable(),
  version: z.number(),
});
export type PointMediaResponse = z.infer<typeof pointMediaResponseSchema>;

/** GET /v1/xpoint/{id}/edit: every editable field as stored, for the edit and copy-to-new forms. */
export const editablePointSchema = z.object({
  id: z.string(),
  supertype: z.string(),
  type: z.string(),
  subtype: z.string().nullable(),
  title: z.string(),
  tagline: z.string().nullable(),
  description: z.string().nullable(),
  lat: z.number(),
  lon: z.number(),
  address: z.string().nullable(),
  street: z.string().nullable(),
  city: z.string().nullable(),
  region: z.string().nullable(),
  postalcode: z.string().nullable(),
  country: z.string().nullable(),
  link_email: z.string().nullable(),
  link_phone: z.string().nullable(),
  link_website: z.string().nullable(),
  link_facebook: z.string().nullable(),
  contacts: z.array(
    z.object({
      roleid: z.string(),
      roleoverride: z.string().nullable(),
      contact_firstname: z.string().nullable(),
      contact_lastname: z.string().nullable(),
      contact_username: z.string().nullable(),
    }),
  ),
  opening_hours: z.string().nullable(),
  time_zone_name: z.string().nullable(),
  allow_consulting: z.boolean(),
  meonmap_enabled: z.boolean(),
  xpointService: z.string().nullable(),
  owner_callchat_priceperminute: z.number().nullable(),
  helprequestdata: z.object({
    taskduration_minutes: z.number().nullable(),
    taskbudget: z.number().nullable(),
    taskstart: z.number().nullable(),
    canacceptjob: z.boolean(),
    canquote: z.boolean(),
  }),
  pickup_destination: z.string().nullable(),
  pickup_date_time: z.number().nullable(),
  delivery_lat: z.number().nullable(),
  delivery_lng: z.number().nullable(),
  url_icon_or_logo: z.string().nullable(),
  url_cover_image: z.string().nullable(),
  url_cover_video: z.string().nullable(),
  screenshots: z.array(z.object({ position: z.number(), url: z.string() })),
  /** §3 healthdata: 0 undefined, 1 verification pending, 2 verified (health photos show then). */
  health_status: z.number(),
  /** the health photos by position, whatever the status (the owner sees what they sent). */
  health_photos: z.array(z.object({ position: z.number(), url: z.string() })),
  owner_username: z.string().nullable(),
  consultant_username: z.string().nullable(),
  version: z.number(),
  url: z.string(),
});
export type EditablePoint = z.infer<typeof editablePointSchema>;

// ---------------------------------------------------------------------------------------------
// my points

/** GET /v1/account/mypoints: `supertype` filters (a point supertype, or 'event'); paging like profiles. */
export const MYPOINTS_DEFAULT_PAGESIZE = 12;
export const MYPOINTS_MAX_PAGESIZE = 96;

export const myPointSchema = z.object({
  kind: z.enum(['point', 'event']),
  id: z.string(),
  supertype: z.string(),
  type: z.string(),
  title: z.string(),
  /** /{prefix}/{id} or /e/{id} */
  url: z.string(),
  /**
   * owner or consultant (events: owner); claimant: the user's claim waits for an admin; requester: the
   * user's request to consult waits for the owner. Neither of the last two controls the point yet.
   */
  role: z.enum(['owner', 'consultant', 'claimant', 'requester']),
  cover: z.string().nullable(),
  version: z.number(),
  /** epoch milliseconds */
  updated_at: z.number(),
  /** events only: epoch milliseconds */
  start_date: z.number().nullable(),
});
export type MyPoint = z.infer<typeof myPointSchema>;
export const myPointsResponseSchema = z.object({
  items: z.array(myPointSchema),
  total: z.number(),
  pagenumber: z.number(),
  pagesize: z.number(),
});
export type MyPointsResponse = z.infer<typeof myPointsResponseSchema>;
