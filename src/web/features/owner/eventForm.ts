import { z } from 'zod';
import {
  eventFieldsSchema,
  MAX_EVENT_INTERVALS,
  MAX_EVENT_TICKETS,
  TICKET_MAX_QUANTITY,
  type EditableEvent,
} from '../../../shared/api/events';
import { MAX_PRICE } from '../../../shared/api/writes';
import { parseLatLonAddress } from '../../../shared/details/text';
import { findCategory } from '../../../shared/domain/categories';
import { ADMISSIONS, type Admission } from '../../../shared/domain/enums';
import { MAX_DATE_MS, MIN_DATE_MS } from '../../../shared/validation/points';

/**
 * The event form's state and rules (issue 8; map-and-search §3 event fields, social §5 dates): the
 * text the owner types, the checks the server makes (so a mistake is shown beside its field before
 * anything is sent), the `POST /v1/event/create` and `/update` bodies, and the request fields a
 * refusal names mapped to the form's. Pure: EventForm.tsx wires these into react-hook-form.
 *
 * Dates are typed as a local date and a local time (the owner's clock), sent as epoch milliseconds.
 */

export interface DateTimeValues {
  /** YYYY-MM-DD, as a date input gives it */
  date: string;
  /** HH:MM, as a time input gives it */
  time: string;
}

export interface IntervalValues {
  start: DateTimeValues;
  end: DateTimeValues;
}

export interface TicketValues {
  name: string;
  unit_price: string;
  max_quantity: string;
}

export interface EventFormValues {
  title: string;
  type: string;
  subtype: string;
  start: DateTimeValues;
  end: DateTimeValues;
  /** extra opening intervals; none means the event is open from its start to its end. */
  intervals: IntervalValues[];
  lat: string;
  lon: string;
  address: string;
  admission: Admission;
  admissionprice: string;
  tickets: TicketValues[];
  website: string;
  description: string;
}

/**
 * Where a message is shown: a top-level field, or `intervals.{i}.start|end`,
 * `tickets.{i}.name|unit_price|max_quantity`, and `cover` for the image.
 */
export type FieldErrors = Record<string, string>;

export const MESSAGES = {
  required: 'This is required.',
  badDate: 'Enter a date and a time.',
  before1901: 'Dates before 1901 are invalid.',
  tooLate: 'Dates after the year 9999 are invalid.',
  endBeforeStart: 'The end must be after the start.',
  intervalOutside: 'An opening must lie within the event’s start and end.',
  unknownType: 'Choose one of the event types.',
  place: 'Give the latitude and longitude of the place, or add the event to one of your XPoints.',
  lat: 'A latitude is a number between -90 and 90.',
  lon: 'A longitude is a number between -180 and 180.',
  bothCoordinates: 'Give both the latitude and the longitude, or neither.',
  paidNeedsPrice: 'A paid event needs its admission price.',
  price: `A price is a number from 0 to ${MAX_PRICE}.`,
  quantity: `A quantity is a whole number from 1 to ${TICKET_MAX_QUANTITY}.`,
  stale:
    'Someone else changed this event since you opened it, so it was not saved. Open it again to see their changes, then make yours.',
} as const;

/** An hour in milliseconds: a new event starts on the next full hour and lasts two. */
const HOUR_MS = 3_600_000;
const NEW_EVENT_HOURS = 2;

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** An instant as the owner's local date and time. */
export function splitLocal(ms: number): DateTimeValues {
  const at = new Date(ms);
  return {
    date: `${pad(at.getFullYear(), 4)}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`,
    time: `${pad(at.getHours())}:${pad(at.getMinutes())}`,
  };
}

/**
 * A local date and time as epoch milliseconds, or null when either is missing or not a real date
 * (31 February). Years before 100 are taken as written, not as 19xx.
 */
export function joinLocal({ date, time }: DateTimeValues): number | null {
  const d = /^(\d{4,5})-(\d{2})-(\d{2})$/.exec(date.trim());
  const t = /^(\d{2}):(\d{2})(?::\d{2})?$/.exec(time.trim());
  if (!d || !t) return null;
  const [year, month, day, hour, minute] = [d[1], d[2], d[3], t[1], t[2]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return null;
  const at = new Date(2000, 0, 1, hour, minute);
  at.setFullYear(year, month - 1, day);
  if (at.getDate() !== day || at.getMonth() !== month - 1) return null;
  return at.getTime();
}

/** A blank form: starts on the next full hour after `now`, ends two hours later. */
export function emptyEventValues(now: number): EventFormValues {
  const start = Math.ceil((now + 1) / HOUR_MS) * HOUR_MS;
  return {
    title: '',
    type: '',
    subtype: '',
    start: splitLocal(start),
    end: splitLocal(start + NEW_EVENT_HOURS * HOUR_MS),
    intervals: [],
    lat: '',
    lon: '',
    address: '',
    admission: 'free',
    admissionprice: '',
    tickets: [],
    website: '',
    description: '',
  };
}

const isAdmission = (value: string): value is Admission => (ADMISSIONS as readonly string[]).includes(value);
const numberText = (value: number | null) => (value === null ? '' : String(value));

/**
 * The form filled from `GET /v1/event/{id}/edit` (edit and copy to new). The one default opening
 * (start to end) is not listed: it follows the dates, as the server keeps it. An address that is only
 * the coordinates is left blank, so it follows the place.
 */
export function valuesFromEditable(event: EditableEvent): EventFormValues {
  const onlyDefault =
    event.event_opening_intervals_utc.length === 1 &&
    event.event_opening_intervals_utc[0]?.start === event.start_date &&
    event.event_opening_intervals_utc[0]?.end === event.end_date;
  return {
    title: event.title,
    type: event.type,
    subtype: event.subtype ?? '',
    start: splitLocal(event.start_date),
    end: splitLocal(event.end_date),
    intervals: onlyDefault
      ? []
      : event.event_opening_intervals_utc.map((i) => ({
          start: splitLocal(i.start),
          end: splitLocal(i.end),
        })),
    lat: String(event.lat),
    lon: String(event.lon),
    address: parseLatLonAddress(event.address) ? '' : (event.address ?? ''),
    admission: isAdmission(event.admission) ? event.admission : 'free',
    admissionprice: numberText(event.admissionprice),
    tickets: event.tickets.map((t) => ({
      name: t.name,
      unit_price: String(t.unit_price),
      max_quantity: String(t.max_quantity),
    })),
    website: event.website ?? '',
    description: event.description ?? '',
  };
}

/** A number typed in a field, or null when it is blank or not a number. */
function typedNumber(text: string): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

/** Spec §9: the price shown for a ticket option is quantity × unit price, with two decimals. */
export function ticketTotal(quantity: number, unitPrice: number): string {
  if (!Number.isFinite(quantity) || !Number.isFinite(unitPrice)) return '';
  return (Math.round(quantity * unitPrice * 100) / 100).toFixed(2);
}

/** The line shown under a ticket option: "up to 4 × 12.50 = 50.00", or '' while it is incomplete. */
export function ticketSummary(ticket: TicketValues): string {
  const price = typedNumber(ticket.unit_price);
  const quantity = typedNumber(ticket.max_quantity);
  if (price === null || quantity === null || !Number.isInteger(quantity) || quantity < 1) return '';
  return `Up to ${quantity} × ${price.toFixed(2)} = ${ticketTotal(quantity, price)}`;
}

/** Checks one date and time: the instant, or a message. */
function checkInstant(value: DateTimeValues): number | string {
  const ms = joinLocal(value);
  if (ms === null) return MESSAGES.badDate;
  if (ms < MIN_DATE_MS) return MESSAGES.before1901;
  if (ms > MAX_DATE_MS) return MESSAGES.tooLate;
  return ms;
}

export interface EventFormContext {
  /** the event belongs to a point (add as child, or an event of a point): it may take the point's place. */
  hasParent: boolean;
}

/**
 * The server's checks, made before sending: title and type, valid dates from 1901 on, the end after
 * the start, openings inside the event, a place, a price for a paid event, complete ticket options.
 * Empty when the form may be sent.
 */
export function validateEventValues(values: EventFormValues, context: EventFormContext): FieldErrors {
  const errors: FieldErrors = {};
  if (values.title.trim() === '') errors.title = MESSAGES.required;
  if (values.type === '') errors.type = MESSAGES.required;
  else if (!findCategory('event', values.type)) errors.type = MESSAGES.unknownType;

  const start = checkInstant(values.start);
  const end = checkInstant(values.end);
  if (typeof start === 'string') errors.start = start;
  if (typeof end === 'string') errors.end = end;
  if (typeof start === 'number' && typeof end === 'number' && end <= start)
    errors.end = MESSAGES.endBeforeStart;

  values.intervals.slice(0, MAX_EVENT_INTERVALS).forEach((interval, index) => {
    const from = checkInstant(interval.start);
    const to = checkInstant(interval.end);
    if (typeof from === 'string') errors[`intervals.${index}.start`] = from;
    if (typeof to === 'string') errors[`intervals.${index}.end`] = to;
    if (typeof from !== 'number' || typeof to !== 'number') return;
    if (to <= from) errors[`intervals.${index}.end`] = MESSAGES.endBeforeStart;
    else if (typeof start === 'number' && typeof end === 'number' && (from < start || to > end))
      errors[`intervals.${index}.start`] = MESSAGES.intervalOutside;
  });

  const lat = typedNumber(values.lat);
  const lon = typedNumber(values.lon);
  const latBlank = values.lat.trim() === '';
  const lonBlank = values.lon.trim() === '';
  if (!latBlank && (lat === null || Math.abs(lat) > 90)) errors.lat = MESSAGES.lat;
  if (!lonBlank && (lon === null || Math.abs(lon) > 180)) errors.lon = MESSAGES.lon;
  if (latBlank !== lonBlank) errors[latBlank ? 'lat' : 'lon'] ??= MESSAGES.bothCoordinates;
  if (latBlank && lonBlank && !context.hasParent) errors.lat = MESSAGES.place;

  const price = typedNumber(values.admissionprice);
  if (values.admissionprice.trim() !== '' && (price === null || price < 0 || price > MAX_PRICE))
    errors.admissionprice = MESSAGES.price;
  else if (values.admission === 'paid' && price === null) errors.admissionprice = MESSAGES.paidNeedsPrice;

  values.tickets.slice(0, MAX_EVENT_TICKETS).forEach((ticket, index) => {
    if (ticket.name.trim() === '') errors[`tickets.${index}.name`] = MESSAGES.required;
    const unit = typedNumber(ticket.unit_price);
    if (unit === null || unit < 0 || unit > MAX_PRICE) errors[`tickets.${index}.unit_price`] = MESSAGES.price;
    const quantity = typedNumber(ticket.max_quantity);
    if (quantity === null || !Number.isInteger(quantity) || quantity < 1 || quantity > TICKET_MAX_QUANTITY)
      errors[`tickets.${index}.max_quantity`] = MESSAGES.quantity;
  });
  return errors;
}

/** The fields of `POST /v1/event/create` and `/update` that the form sends. */
export interface EventBody {
  title: string;
  type: string;
  subtype: string | null;
  start_date: number;
  end_date: number;
  event_opening_intervals_utc: { start: number; end: number }[];
  admission: Admission;
  admissionprice: number | null;
  tickets: { name: string; unit_price: number; max_quantity: number }[];
  website: string | null;
  description: string | null;
  lat?: number;
  lon?: number;
  address?: string | null;
}

const blankToNull = (text: string) => (text.trim() === '' ? null : text.trim());

/**
 * The body for a form that passed `validateEventValues`. `[]` openings mean one opening from start to
 * end (the server's default, which then follows the dates). Without coordinates the event takes its
 * point's place; a blank address is left out on create (the point's or the coordinates are used) and
 * cleared on update (the coordinates stand for it).
 */
export function toEventBody(values: EventFormValues, mode: 'create' | 'update'): EventBody {
  const instant = (value: DateTimeValues) => joinLocal(value) ?? Number.NaN;
  const lat = typedNumber(values.lat);
  const lon = typedNumber(values.lon);
  const admissionprice = typedNumber(values.admissionprice);
  const body: EventBody = {
    title: values.title.trim(),
    type: values.type,
    subtype: blankToNull(values.subtype),
    start_date: instant(values.start),
    end_date: instant(values.end),
    event_opening_intervals_utc: values.intervals.map((i) => ({
      start: instant(i.start),
      end: instant(i.end),
    })),
    admission: values.admission,
    // a price typed for a free event is kept: switching back to paid should not lose it
    admissionprice,
    tickets: values.tickets.map((t) => ({
      name: t.name.trim(),
      unit_price: typedNumber(t.unit_price) ?? Number.NaN,
      max_quantity: typedNumber(t.max_quantity) ?? Number.NaN,
    })),
    website: blankToNull(values.website),
    description: blankToNull(values.description),
  };
  if (lat !== null && lon !== null) {
    body.lat = lat;
    body.lon = lon;
  }
  const address = blankToNull(values.address);
  if (address !== null || mode === 'update') body.address = address;
  return body;
}

/** The form's field for each top-level request field a refusal or the contract may name. */
const SERVER_FIELDS: Record<string, string> = {
  title: 'title',
  type: 'type',
  subtype: 'subtype',
  start_date: 'start',
  end_date: 'end',
  lat: 'lat',
  lon: 'lon',
  address: 'address',
  admission: 'admissionprice',
  admissionprice: 'admissionprice',
  website: 'website',
  description: 'description',
};

/**
 * The form field a request field stands for: `end_date` is the end, `tickets.0.name` that ticket's
 * name, `event_opening_intervals_utc.1.end` that opening's end; null for a field the form does not
 * show (the refusal then stays with the form as a whole).
 */
export function formPathOf(requestField: string): string | null {
  const nested = /^(event_opening_intervals_utc|tickets)\.(\d+)(?:\.(\w+))?/.exec(requestField);
  if (nested) {
    const [, list, index, part] = nested;
    if (list === 'tickets') return `tickets.${index}.${part ?? 'name'}`;
    return `intervals.${index}.${part === 'end' ? 'end' : 'start'}`;
  }
  return SERVER_FIELDS[requestField] ?? null;
}

/**
 * The form's resolver schema: the checks above with their plain messages first; once those pass,
 * the body goes through the contract's own field rules (src/shared/api/points.ts: lengths, the
 * website, ticket names), so nothing the server would refuse for a field is sent.
 */
export function eventFormSchema(context: EventFormContext) {
  return z.custom<EventFormValues>().superRefine((values, ctx) => {
    const errors = Object.entries(validateEventValues(values, context));
    for (const [path, message] of errors) ctx.addIssue({ code: 'custom', path: path.split('.'), message });
    if (errors.length > 0) return;
    const result = eventFieldsSchema.safeParse(toEventBody(values, 'create'));
    for (const issue of result.error?.issues ?? []) {
      const path = formPathOf(issue.path.join('.'));
      if (path !== null) ctx.addIssue({ code: 'custom', path: path.split('.'), message: issue.message });
    }
  });
}
