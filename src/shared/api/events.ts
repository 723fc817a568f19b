import { z } from 'zod';
import { findCategory } from '../domain/categories';
import { ADMISSIONS } from '../domain/enums';
import {
  ADDRESS_MAX_LENGTH,
  DESCRIPTION_MAX_LENGTH,
  MAX_PRICE,
  SUBTYPE_MAX_LENGTH,
  addDomainIssue,
  blankToNull,
  dateSchema,
  idSchema,
  latSchema,
  lonSchema,
  mediaDataSchema,
  mediaFileSchema,
  numeric,
  optionalText,
  price,
  text,
  titleSchema,
  versionSchema,
  webLink,
  type DomainIssue,
} from './writes';

/**
 * Request and response contracts of the event write API (issue 8): /v1/event/{create,update,delete,media}
 * and GET /v1/event/{id}/edit. Shared field schemas and the parse are in writes.ts; the event form
 * uses the same schemas, so a rule is written once. Social §5: no dates before 1901.
 */

// ---------------------------------------------------------------------------------------------
// limits

export const MAX_EVENT_INTERVALS = 100;
export const MAX_EVENT_TICKETS = 20;
export const TICKET_MAX_QUANTITY = 10_000;

// ---------------------------------------------------------------------------------------------
// domain issues

export function eventTypeIssue(type: string): DomainIssue | null {
  if (findCategory('event', type)) return null;
  return { error: 'unknownType', field: 'type', params: { value: type, supertype: 'event' } };
}
/** An event's dates: end after start, nothing before 1901 (social §5), intervals inside the event. */
export function eventDatesIssue(
  start: number,
  end: number,
  intervals: readonly { start: number; end: number }[] = [],
): DomainIssue | null {
  if (end <= start)
    return { error: 'endBeforeStart', field: 'end_date', params: { field: 'end_date', after: 'start_date' } };
  for (const [index, interval] of intervals.entries()) {
    const field = `event_opening_intervals_utc.${index}`;
    if (interval.end <= interval.start)
      return {
        error: 'endBeforeStart',
        field: `${field}.end`,
        params: { field: `${field}.end`, after: 'its start' },
      };
    if (interval.start < start || interval.end > end)
      return {
        error: 'endBeforeStart',
        field: `${field}.start`,
        params: { field, after: 'start_date and end before end_date (an opening lies within its event)' },
      };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// contracts

const intervalSchema = z.object({ start: dateSchema(), end: dateSchema() });
const ticketSchema = z.object({
  name: text().trim().min(1, 'is required.').max(80, 'must be at most 80 characters long.'),
  unit_price: z.preprocess(
    numeric,
    z
      .number({ error: 'must be a number.' })
      .min(0, 'may not be negative.')
      .max(MAX_PRICE, `must be at most ${MAX_PRICE}.`),
  ),
  max_quantity: z.preprocess(
    numeric,
    z
      .number({ error: 'must be a number.' })
      .int('must be a whole number.')
      .min(1, 'must be at least 1.')
      .max(TICKET_MAX_QUANTITY, `must be at most ${TICKET_MAX_QUANTITY}.`),
  ),
});
export type TicketInput = z.infer<typeof ticketSchema>;

/** Every editable field of an event (spec §3), each optional. */
export const eventFieldsSchema = z.object({
  title: titleSchema.optional(),
  type: text().trim().min(1, 'is required.').optional(),
  subtype: optionalText(SUBTYPE_MAX_LENGTH),
  start_date: dateSchema().optional(),
  end_date: dateSchema().optional(),
  /** opening intervals in UTC, each inside start_date..end_date; the first decides "current" (spec §4). */
  event_opening_intervals_utc: z
    .array(intervalSchema)
    .max(MAX_EVENT_INTERVALS, `at most ${MAX_EVENT_INTERVALS} intervals.`)
    .optional(),
  admission: z.enum(ADMISSIONS, { error: `must be one of ${ADMISSIONS.join(', ')}.` }).optional(),
  admissionprice: price(),
  /** ticket options: the price shown is quantity times unit price (spec §9). */
  tickets: z
    .array(ticketSchema)
    .max(MAX_EVENT_TICKETS, `at most ${MAX_EVENT_TICKETS} ticket options.`)
    .optional(),
  website: webLink,
  description: optionalText(DESCRIPTION_MAX_LENGTH, { multiline: true }),
  lat: latSchema.optional(),
  lon: lonSchema.optional(),
  address: optionalText(ADDRESS_MAX_LENGTH),
});
export type EventFields = z.infer<typeof eventFieldsSchema>;

/** POST /v1/event/create; `xpoint_id` adds it as a child of that point (/Event/AddAsChild?parentid=). */
export const createEventRequestSchema = eventFieldsSchema
  .extend({
    title: titleSchema,
    type: text().trim().min(1, 'is required.'),
    start_date: dateSchema(),
    end_date: dateSchema(),
    xpoint_id: z.preprocess(blankToNull, idSchema().nullable().optional()),
  })
  .superRefine((event, ctx) => {
    addDomainIssue(ctx, eventTypeIssue(event.type));
    addDomainIssue(ctx, eventDatesIssue(event.start_date, event.end_date, event.event_opening_intervals_utc));
    if (event.admission === 'paid' && event.admissionprice == null)
      addDomainIssue(ctx, { error: 'paidNeedsPrice', field: 'admissionprice', params: {} });
    if (!event.xpoint_id && (event.lat === undefined || event.lon === undefined))
      addDomainIssue(ctx, { error: 'eventNeedsLocation', field: 'lat', params: {} });
  });
export type CreateEventRequest = z.infer<typeof createEventRequestSchema>;

export const updateEventRequestSchema = eventFieldsSchema.extend({ id: idSchema(), version: versionSchema });
export type UpdateEventRequest = z.infer<typeof updateEventRequestSchema>;

/** POST /v1/event/delete. */
export const eventIdRequestSchema = z.object({ id: idSchema() });
export type EventIdRequest = z.infer<typeof eventIdRequestSchema>;

export const eventWriteResponseSchema = z.object({
  id: z.string(),
  /** /e/{id} */
  url: z.string(),
  version: z.number(),
  xpoint_id: z.string().nullable(),
});
export type EventWriteResponse = z.infer<typeof eventWriteResponseSchema>;

/** GET /v1/event/{id}/edit: the event's editable fields, for the edit and copy-to-new forms. */
export const editableEventSchema = z.object({
  id: z.string(),
  title: z.string(),
  type: z.string(),
  subtype: z.string().nullable(),
  start_date: z.number(),
  end_date: z.number(),
  event_opening_intervals_utc: z.array(z.object({ start: z.number(), end: z.number() })),
  admission: z.string(),
  admissionprice: z.number().nullable(),
  tickets: z.array(z.object({ name: z.string(), unit_price: z.number(), max_quantity: z.number() })),
  website: z.string().nullable(),
  description: z.string().nullable(),
  lat: z.number(),
  lon: z.number(),
  address: z.string().nullable(),
  xpoint_id: z.string().nullable(),
  cover_url: z.string().nullable(),
  owner_username: z.string().nullable(),
  version: z.number(),
  url: z.string(),
});
export type EditableEvent = z.infer<typeof editableEventSchema>;

/**
 * POST /v1/event/media: the event's cover image (spec §3 cover_url) as JSON, a base64 data URL (at most
 * 10 MB) or null to remove it; or as multipart/form-data, the id and version as text parts, then the
 * image in a part named `file`.
 */
export const eventMediaRequestSchema = z.object({
  id: idSchema(),
  version: versionSchema,
  data: mediaDataSchema,
});
export const eventMediaFormFieldsSchema = z.object({ id: idSchema(), version: versionSchema });
export type EventMediaFormFields = z.infer<typeof eventMediaFormFieldsSchema>;
/** The multipart body as the OpenAPI document shows it. */
export const eventMediaFormSchema = z.object({
  id: idSchema(),
  version: versionSchema,
  file: mediaFileSchema,
});
export type EventMediaRequest = z.infer<typeof eventMediaRequestSchema>;
export const eventMediaResponseSchema = z.object({
  id: z.string(),
  /** /media/<sha256>.webp, or null when removed. */
  cover_url: z.string().nullable(),
  version: z.number(),
});
export type EventMediaResponse = z.infer<typeof eventMediaResponseSchema>;
