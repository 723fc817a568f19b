import { z } from 'zod';
import { createPointRequestSchema } from '../../../shared/api/points';
import type { NearestCity } from '../../../shared/api/details';
import type { AddNewSupertype } from '../../../shared/address/types';
import { fieldError } from '../../lib/api';

/**
 * The state of the add-new form (map-and-search §3 add-new fields, §4 step 3) and the rules that
 * turn it into a `POST /v1/xpoint/create` body, errors into messages beside fields, and a
 * nearest-city answer into city, region and country. Pure: PlaceStep wires these into react-hook-form,
 * which holds the values; `formReducer` decides how the marker, the lookup and typing change them.
 */

/** Where a point is, in the order both point forms (add-new and edit) show the fields. */
export const PLACE_FIELDS = [
  'lat',
  'lon',
  'address',
  'street',
  'city',
  'region',
  'postalcode',
  'country',
] as const;

export const PLACE_LABELS: Record<(typeof PLACE_FIELDS)[number], string> = {
  lat: 'Latitude',
  lon: 'Longitude',
  address: 'Address',
  street: 'Street',
  city: 'City',
  region: 'Region',
  postalcode: 'Postal code',
  country: 'Country',
};

/** The fields the visitor fills in; supertype and type come from the address. */
export const FORM_FIELDS = ['title', ...PLACE_FIELDS] as const;
export type FormField = (typeof FORM_FIELDS)[number];
export type FormValues = Record<FormField, string>;

export const FIELD_LABELS: Record<FormField, string> = { title: 'Title', ...PLACE_LABELS };

/** Fields the nearest-city lookup fills in, as long as the visitor has not typed their own. */
export const LOOKUP_FIELDS = ['city', 'region', 'country'] as const satisfies readonly FormField[];

/** A city further away than this is not where the point is: the coordinates stand for the address. */
export const NEAR_CITY_MAX_M = 50_000;

/** §9: coordinates are rounded to 6 decimals. */
export function formatCoordinate(value: number): string {
  return String(Math.round(value * 1e6) / 1e6);
}

/** A latitude or longitude typed into the form, or null when it is not one. */
export function parseCoordinate(text: string, axis: 'lat' | 'lon'): number | null {
  const trimmed = text.trim();
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(trimmed)) return null;
  const value = Number(trimmed);
  const limit = axis === 'lat' ? 90 : 180;
  return Number.isFinite(value) && Math.abs(value) <= limit ? value : null;
}

/** What the lookup found near the marker: a city with its region and country, or nothing near. */
export type NearestPlace =
  | { kind: 'city'; city: string; region: string; country: string; distanceM: number }
  | { kind: 'coordinates'; text: string };

/** The nearest of the cities `POST /v1/map/closestn` answered, when it is near enough to name the place. */
export function nearestPlace(cities: readonly NearestCity[], lat: number, lon: number): NearestPlace {
  const nearest = [...cities].sort((a, b) => a.distance_m - b.distance_m)[0];
  if (nearest === undefined || nearest.distance_m > NEAR_CITY_MAX_M)
    return { kind: 'coordinates', text: `${formatCoordinate(lat)}, ${formatCoordinate(lon)}` };
  return {
    kind: 'city',
    city: nearest.city,
    region: nearest.state ?? '',
    country: nearest.country,
    distanceM: nearest.distance_m,
  };
}

export interface FormState {
  values: FormValues;
  /** lookup fields holding text the visitor typed: the lookup leaves them alone. */
  typed: readonly FormField[];
  /** true once the visitor put the marker somewhere (a click, a drag, typed coordinates). */
  placed: boolean;
  /** the last lookup's answer for the marker where it is now, or null while none has come. */
  place: NearestPlace | null;
}

export type FormAction =
  /** the visitor typed into a field. */
  | { type: 'edit'; field: FormField; value: string }
  /** the marker moved: by the visitor (`placed`), or with the view before the visitor placed it. */
  | { type: 'move'; lat: number; lon: number; placed: boolean }
  /** a lookup answered for (lat, lon). */
  | { type: 'place'; lat: number; lon: number; place: NearestPlace };

export function initialFormState(at: { lat: number; lon: number } | null): FormState {
  const values = Object.fromEntries(FORM_FIELDS.map((field) => [field, ''])) as FormValues;
  if (at !== null) {
    values.lat = formatCoordinate(at.lat);
    values.lon = formatCoordinate(at.lon);
  }
  return { values, typed: [], placed: false, place: null };
}

/** The marker's position as the form holds it, or null while a coordinate is not a number. */
export function markerPosition(values: FormValues): { lat: number; lon: number } | null {
  const lat = parseCoordinate(values.lat, 'lat');
  const lon = parseCoordinate(values.lon, 'lon');
  return lat === null || lon === null ? null : { lat, lon };
}

function withPlace(values: FormValues, typed: readonly FormField[], place: NearestPlace): FormValues {
  const next = { ...values };
  for (const field of LOOKUP_FIELDS) {
    if (typed.includes(field)) continue;
    next[field] = place.kind === 'city' ? place[field] : '';
  }
  return next;
}

export function formReducer(state: FormState, action: FormAction): FormState {
  switch (action.type) {
    case 'edit': {
      const values = { ...state.values, [action.field]: action.value };
      const isLookupField = (LOOKUP_FIELDS as readonly FormField[]).includes(action.field);
      // emptied, a lookup field is the lookup's again
      const typed = !isLookupField
        ? state.typed
        : action.value.trim() === ''
          ? state.typed.filter((field) => field !== action.field)
          : state.typed.includes(action.field)
            ? state.typed
            : [...state.typed, action.field];
      const moved = action.field === 'lat' || action.field === 'lon';
      return { ...state, values, typed, placed: state.placed || moved, place: moved ? null : state.place };
    }
    case 'move': {
      if (state.placed && !action.placed) return state;
      const lat = formatCoordinate(action.lat);
      const lon = formatCoordinate(action.lon);
      if (lat === state.values.lat && lon === state.values.lon)
        return action.placed && !state.placed ? { ...state, placed: true } : state;
      return {
        ...state,
        values: { ...state.values, lat, lon },
        placed: state.placed || action.placed,
        place: null,
      };
    }
    case 'place': {
      // an answer for where the marker was before it moved again is stale
      const at = markerPosition(state.values);
      if (at === null || formatCoordinate(at.lat) !== formatCoordinate(action.lat)) return state;
      if (formatCoordinate(at.lon) !== formatCoordinate(action.lon)) return state;
      return { ...state, values: withPlace(state.values, state.typed, action.place), place: action.place };
    }
  }
}

/** The create call's body: the address's supertype and type, the fields, numbers as numbers. */
export interface CreateBody {
  supertype: AddNewSupertype;
  type: string;
  title: string;
  lat: number | string;
  lon: number | string;
  address?: string;
  street?: string;
  city?: string;
  region?: string;
  postalcode?: string;
  country?: string;
  confirmNotDuplicate?: true;
}

export function createBody(
  supertype: AddNewSupertype,
  type: string,
  values: FormValues,
  options: { confirmNotDuplicate?: boolean } = {},
): CreateBody {
  const at = markerPosition(values);
  const body: CreateBody = {
    supertype,
    type,
    title: values.title.trim(),
    // a coordinate that is not one goes as typed, and the check names it
    lat: at?.lat ?? values.lat.trim(),
    lon: at?.lon ?? values.lon.trim(),
  };
  for (const field of ['address', 'street', 'city', 'region', 'postalcode', 'country'] as const) {
    const value = values[field].trim();
    if (value !== '') body[field] = value;
  }
  if (options.confirmNotDuplicate === true) body.confirmNotDuplicate = true;
  return body;
}

export type FieldErrors = Partial<Record<FormField, string>>;

/** A message beside its field reads as a sentence: 'Title is required.' */
export function fieldMessage(field: FormField, reason: string): string {
  return `${FIELD_LABELS[field]} ${reason}`;
}

function isFormField(value: unknown): value is FormField {
  return typeof value === 'string' && (FORM_FIELDS as readonly string[]).includes(value);
}

/**
 * Checks the body with the same contract the server applies (src/shared/api/points.ts), so the
 * visitor sees what is wrong beside the field before anything is sent. Problems that are not about
 * a field of the form (the type, say) come back as `form`.
 */
export function checkBody(body: CreateBody): { fields: FieldErrors; form: string | null } {
  const result = createPointRequestSchema.safeParse(body);
  const fields: FieldErrors = {};
  let form: string | null = null;
  if (result.success) return { fields, form };
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (isFormField(field)) fields[field] ??= fieldMessage(field, issue.message);
    else form ??= `${issue.path.join('.') || 'The form'}: ${issue.message}`;
  }
  return { fields, form };
}

/**
 * The form's resolver schema: the body the form would send, checked with the create contract
 * (`checkBody`); a problem about no field of the form is the form's own, at `root.form`.
 */
export function addNewFormSchema(supertype: AddNewSupertype, type: string) {
  return z.custom<FormValues>().superRefine((values, ctx) => {
    const checked = checkBody(createBody(supertype, type, values));
    for (const [field, message] of Object.entries(checked.fields))
      ctx.addIssue({ code: 'custom', path: [field], message });
    if (checked.form !== null)
      ctx.addIssue({ code: 'custom', path: ['root', 'form'], message: checked.form });
  });
}

/** A server refusal as the form shows it: beside the field it names, else above the buttons. */
export function errorFromServer(error: unknown): { fields: FieldErrors; form: string | null } {
  const named = fieldError(error);
  if (named !== null && isFormField(named.field))
    return { fields: { [named.field]: fieldMessage(named.field, named.reason) }, form: null };
  return { fields: {}, form: error instanceof Error ? error.message : String(error) };
}
