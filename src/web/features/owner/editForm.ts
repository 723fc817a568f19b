import { z } from 'zod';
import {
  createPointRequestSchema,
  updatePointRequestSchema,
  type EditablePoint,
} from '../../../shared/api/points';
import { CONTACT_ROLES, type ContactRole } from '../../../shared/domain/enums';
import { ERRORS } from '../../../shared/errors';
import { ApiError, fieldError } from '../../lib/api';
import { formatCoordinate, PLACE_FIELDS, PLACE_LABELS } from '../addnew/addNewForm';
import { liveOpeningHours, type LivePlace } from './openingHoursLive';

/**
 * The state of the point edit form (issue 8; map-and-search §3 fields, §6 who may change what) and
 * the rules that turn it into a `POST /v1/xpoint/update` body (or, for copy-to-new, a create body),
 * and server errors into messages beside their fields. Pure: the components only wire these up.
 *
 * The form holds text as typed. An update sends only the fields that differ from what was loaded:
 * an untouched field is never rewritten, and a consultant never sends the owner's setting
 * (allow_consulting, which the server refuses from them with 7027).
 */

/** Text fields, in the order the form shows them. */
export const TEXT_FIELDS = [
  'title',
  'type',
  'subtype',
  'tagline',
  'description',
  ...PLACE_FIELDS,
  'link_email',
  'link_phone',
  'link_website',
  'link_facebook',
  'opening_hours',
  'xpointService',
  'owner_callchat_priceperminute',
  'pickup_destination',
  'pickup_date_time',
  'delivery_lat',
  'delivery_lng',
] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

export const FLAG_FIELDS = ['allow_consulting', 'meonmap_enabled'] as const;
export type FlagField = (typeof FLAG_FIELDS)[number];

/** helprequestdata's parts (spec §3), as the form holds them. */
export interface HelpValues {
  taskduration_minutes: string;
  taskbudget: string;
  /** a datetime-local value (the browser's time), or ''. */
  taskstart: string;
  canacceptjob: boolean;
  canquote: boolean;
}

export interface ContactValues {
  roleid: ContactRole;
  /** CUST's own role text. */
  roleoverride: string;
  contact_firstname: string;
  contact_lastname: string;
  contact_username: string;
}

export type EditValues = Record<TextField, string> &
  Record<FlagField, boolean> & { contacts: ContactValues[]; helprequestdata: HelpValues };

export const FIELD_LABELS: Record<TextField | FlagField | 'contacts' | 'helprequestdata', string> = {
  title: 'Title',
  type: 'Type',
  subtype: 'Subtype',
  tagline: 'Tagline',
  description: 'Description',
  ...PLACE_LABELS,
  link_email: 'Email',
  link_phone: 'Phone',
  link_website: 'Website',
  link_facebook: 'Facebook',
  opening_hours: 'Opening hours',
  xpointService: 'Service offered',
  owner_callchat_priceperminute: 'Call and chat price per minute',
  pickup_destination: 'Pickup destination',
  pickup_date_time: 'Pickup date and time',
  delivery_lat: 'Delivery latitude',
  delivery_lng: 'Delivery longitude',
  allow_consulting: 'Allow consultants',
  meonmap_enabled: 'Visible on the map',
  contacts: 'Contacts',
  helprequestdata: 'Help request',
};

export const HELP_LABELS: Record<keyof HelpValues, string> = {
  taskduration_minutes: 'Task duration (minutes)',
  taskbudget: 'Budget',
  taskstart: 'Task starts',
  canacceptjob: 'Helpers can accept the job',
  canquote: 'Helpers can send a quote',
};

export const CONTACT_LABELS: Record<Exclude<keyof ContactValues, 'roleid'>, string> & { roleid: string } = {
  roleid: 'Role',
  roleoverride: 'Role name',
  contact_firstname: 'First name',
  contact_lastname: 'Last name',
  contact_username: 'Username',
};

/** Which of the supertype-only parts (spec §3, §6) a point of this supertype has. */
export function partsFor(supertype: string): {
  service: boolean;
  helpRequest: boolean;
  consulting: boolean;
} {
  return {
    service: supertype === 'service',
    helpRequest: supertype === 'helprequest',
    // help requests and incidents have no consultant (§5), so the setting means nothing there
    consulting: supertype !== 'helprequest' && supertype !== 'incident',
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Epoch milliseconds as a datetime-local value in the browser's time zone ('' for none). */
export function toDateTimeLocal(ms: number | null): string {
  if (ms === null) return '';
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value (the browser's time) as epoch milliseconds; the text itself when it is not one. */
export function fromDateTimeLocal(value: string): number | string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value.trim());
  if (!match) return value.trim();
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  return new Date(y, mo - 1, d, h, mi).getTime();
}

const textOf = (value: string | number | null): string =>
  value === null ? '' : typeof value === 'number' ? String(value) : value;

/** The form's values for a point as GET /v1/xpoint/{id}/edit answers it. */
export function valuesFromPoint(point: EditablePoint): EditValues {
  return {
    title: point.title,
    type: point.type,
    subtype: textOf(point.subtype),
    tagline: textOf(point.tagline),
    description: textOf(point.description),
    lat: formatCoordinate(point.lat),
    lon: formatCoordinate(point.lon),
    address: textOf(point.address),
    street: textOf(point.street),
    city: textOf(point.city),
    region: textOf(point.region),
    postalcode: textOf(point.postalcode),
    country: textOf(point.country),
    link_email: textOf(point.link_email),
    link_phone: textOf(point.link_phone),
    link_website: textOf(point.link_website),
    link_facebook: textOf(point.link_facebook),
    opening_hours: textOf(point.opening_hours),
    xpointService: textOf(point.xpointService),
    owner_callchat_priceperminute: textOf(point.owner_callchat_priceperminute),
    pickup_destination: textOf(point.pickup_destination),
    pickup_date_time: toDateTimeLocal(point.pickup_date_time),
    delivery_lat: textOf(point.delivery_lat),
    delivery_lng: textOf(point.delivery_lng),
    allow_consulting: point.allow_consulting,
    meonmap_enabled: point.meonmap_enabled,
    contacts: point.contacts.map((contact) => ({
      roleid: contact.roleid in CONTACT_ROLES ? (contact.roleid as ContactRole) : 'CUST',
      roleoverride: textOf(contact.roleoverride),
      contact_firstname: textOf(contact.contact_firstname),
      contact_lastname: textOf(contact.contact_lastname),
      contact_username: textOf(contact.contact_username),
    })),
    helprequestdata: {
      taskduration_minutes: textOf(point.helprequestdata.taskduration_minutes),
      taskbudget: textOf(point.helprequestdata.taskbudget),
      taskstart: toDateTimeLocal(point.helprequestdata.taskstart),
      canacceptjob: point.helprequestdata.canacceptjob,
      canquote: point.helprequestdata.canquote,
    },
  };
}

export function emptyContact(): ContactValues {
  return {
    roleid: 'OWNR',
    roleoverride: '',
    contact_firstname: '',
    contact_lastname: '',
    contact_username: '',
  };
}

const REQUIRED_FIELDS: ReadonlySet<TextField> = new Set(['title', 'type', 'lat', 'lon']);

/** The wire value of a text field: trimmed, '' clears (null), dates as epoch milliseconds. */
function wireText(field: TextField, value: string): string | number | null {
  const text = field === 'description' ? value.replace(/\s+$/, '').replace(/^\s*\n/, '') : value.trim();
  // a title, type or coordinate cannot be cleared: an empty one is sent as typed, and refused by name
  if (text === '') return REQUIRED_FIELDS.has(field) ? '' : null;
  if (field === 'pickup_date_time') return fromDateTimeLocal(text);
  if (field === 'lat' || field === 'lon') return Number.isFinite(Number(text)) ? Number(text) : text;
  return text;
}

function wireContacts(contacts: readonly ContactValues[]) {
  return contacts.map((contact) => ({
    roleid: contact.roleid,
    // a role name belongs to custom roles only; another role's leftover text is not sent
    roleoverride: contact.roleid === 'CUST' ? contact.roleoverride.trim() || null : null,
    contact_firstname: contact.contact_firstname.trim() || null,
    contact_lastname: contact.contact_lastname.trim() || null,
    contact_username: contact.contact_username.trim() || null,
  }));
}

function wireHelp(help: HelpValues) {
  return {
    taskduration_minutes: help.taskduration_minutes.trim() || null,
    taskbudget: help.taskbudget.trim() || null,
    taskstart: help.taskstart.trim() === '' ? null : fromDateTimeLocal(help.taskstart),
    canacceptjob: help.canacceptjob,
    canquote: help.canquote,
  };
}

/** Fields a point of this supertype may not carry (the server answers 7004 for them). */
function notForSupertype(field: string, supertype: string): boolean {
  const parts = partsFor(supertype);
  if (field === 'meonmap_enabled' || field === 'xpointService' || field === 'owner_callchat_priceperminute')
    return !parts.service;
  if (field === 'helprequestdata') return !parts.helpRequest;
  if (field === 'allow_consulting') return !parts.consulting;
  return false;
}

export type FieldsBody = Record<string, unknown>;

/** The fields that differ from `loaded`, as the update call takes them. */
export function changedFields(supertype: string, loaded: EditValues, current: EditValues): FieldsBody {
  const body: FieldsBody = {};
  for (const field of TEXT_FIELDS) {
    if (notForSupertype(field, supertype)) continue;
    const before = wireText(field, loaded[field]);
    const after = wireText(field, current[field]);
    if (before !== after) body[field] = after;
  }
  for (const field of FLAG_FIELDS) {
    if (notForSupertype(field, supertype)) continue;
    if (loaded[field] !== current[field]) body[field] = current[field];
  }
  const contacts = wireContacts(current.contacts);
  if (JSON.stringify(wireContacts(loaded.contacts)) !== JSON.stringify(contacts)) body['contacts'] = contacts;
  if (!notForSupertype('helprequestdata', supertype)) {
    const help = wireHelp(current.helprequestdata);
    if (JSON.stringify(wireHelp(loaded.helprequestdata)) !== JSON.stringify(help))
      body['helprequestdata'] = help;
  }
  return body;
}

/** POST /v1/xpoint/update: the point, the version the editor loaded, and what changed. */
export function updateBody(
  point: { id: string; supertype: string; version: number },
  loaded: EditValues,
  current: EditValues,
): FieldsBody & { id: string; version: number } {
  return { id: point.id, version: point.version, ...changedFields(point.supertype, loaded, current) };
}

/**
 * POST /v1/xpoint/create for copy-to-new (spec §2 /h/{id}/CopyToNew): every filled field of the
 * form, at the same place on purpose, so the duplicate check is answered in advance.
 */
export function copyBody(supertype: string, values: EditValues): FieldsBody {
  const body: FieldsBody = { supertype };
  for (const field of TEXT_FIELDS) {
    if (notForSupertype(field, supertype)) continue;
    const value = wireText(field, values[field]);
    if (value !== null) body[field] = value;
  }
  for (const field of FLAG_FIELDS) if (!notForSupertype(field, supertype)) body[field] = values[field];
  if (values.contacts.length > 0) body['contacts'] = wireContacts(values.contacts);
  if (!notForSupertype('helprequestdata', supertype))
    body['helprequestdata'] = wireHelp(values.helprequestdata);
  body['confirmNotDuplicate'] = true;
  return body;
}

/** Problems keyed by the field path the server uses (`title`, `contacts.0.roleoverride`), plus the form's own. */
export interface Problems {
  fields: Record<string, string>;
  form: string | null;
}

export const NO_PROBLEMS: Problems = { fields: {}, form: null };

/** The label of a field path, for a message read as a sentence: 'Title is required.' */
export function labelOf(path: string): string {
  const [head, index, part] = path.split('.');
  if (head === 'contacts' && index !== undefined) {
    const label = part !== undefined && part in CONTACT_LABELS ? CONTACT_LABELS[part as 'roleid'] : 'Contact';
    return `Contact ${Number(index) + 1}: ${label}`;
  }
  if (head === 'helprequestdata' && index !== undefined && index in HELP_LABELS)
    return HELP_LABELS[index as keyof HelpValues];
  if (head !== undefined && head in FIELD_LABELS) return FIELD_LABELS[head as TextField];
  return path;
}

function problemsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Problems {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const path = issue.path.map(String).join('.');
    if (path === '' || path === 'id' || path === 'version' || path === 'supertype') continue;
    fields[path] ??= `${labelOf(path)} ${issue.message}`;
  }
  return { fields, form: null };
}

/** Checks an update body with the contract the server applies, before anything is sent. */
export function checkUpdate(body: FieldsBody): Problems {
  const result = updatePointRequestSchema.safeParse(body);
  return result.success ? NO_PROBLEMS : problemsOf(result.error.issues);
}

/** Checks a copy-to-new body with the create contract. */
export function checkCopy(body: FieldsBody): Problems {
  const result = createPointRequestSchema.safeParse(body);
  return result.success ? NO_PROBLEMS : problemsOf(result.error.issues);
}

/**
 * The form's resolver schema: the body a save would send (an update: only what changed; a copy:
 * every filled field), checked with the contract the server applies, and opening hours the library
 * cannot read. Each problem comes back at the form's field path, its label in front.
 */
export function editFormSchema(
  point: { id: string; supertype: string; version: number },
  loaded: EditValues,
  copy: boolean,
  placeOf: (values: EditValues) => LivePlace,
) {
  return z.custom<EditValues>().superRefine((values, ctx) => {
    const checked = copy
      ? checkCopy(copyBody(point.supertype, values))
      : checkUpdate(updateBody(point, loaded, values));
    const live = liveOpeningHours(values.opening_hours, placeOf(values), Date.now());
    const hours = live.kind === 'error' ? { opening_hours: `Opening hours: ${live.error}` } : {};
    for (const [path, message] of Object.entries({ ...hours, ...checked.fields }))
      ctx.addIssue({ code: 'custom', path: path.split('.'), message });
  });
}

/** Every field path a refusal may name that the form shows. */
function knownPath(path: string): boolean {
  const [head, index, part] = path.split('.');
  if (head === 'contacts')
    return index === undefined || (/^\d+$/.test(index) && (part ?? '') in CONTACT_LABELS);
  if (head === 'helprequestdata') return index === undefined || index in HELP_LABELS;
  return head !== undefined && head in FIELD_LABELS && index === undefined;
}

/**
 * A server refusal as the form shows it: the reason beside the field the body names (its label
 * replacing the wire name), anything else at the top of the form.
 */
export function problemsFromServer(error: unknown): Problems {
  const named = fieldError(error);
  if (named !== null && knownPath(named.field))
    return { fields: { [named.field]: `${labelOf(named.field)} ${named.reason}` }, form: null };
  return { fields: {}, form: error instanceof Error ? error.message : String(error) };
}

/**
 * What the form does with a refused save: a stale version (409, 1012) is a conflict, shown as such
 * with nothing written and a reload offered, never retried over the newer save; an ended session
 * asks to sign in again (the form stays as it is); anything else is shown beside its field or at
 * the top.
 */
export type SaveFailure =
  { kind: 'conflict' } | { kind: 'signIn'; problems: Problems } | { kind: 'refused'; problems: Problems };

export function saveFailure(error: unknown): SaveFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ApiError && error.code === ERRORS.conflict.code) return { kind: 'conflict' };
  if (error instanceof ApiError && error.code === ERRORS.unauthorized.code)
    return { kind: 'signIn', problems: { fields: {}, form: message } };
  return { kind: 'refused', problems: problemsFromServer(error) };
}
