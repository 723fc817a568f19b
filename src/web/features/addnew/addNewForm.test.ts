import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import type { NearestCity } from '../../../shared/api/details';
import {
  addNewFormSchema,
  checkBody,
  createBody,
  errorFromServer,
  formReducer,
  initialFormState,
  nearestPlace,
  parseCoordinate,
  type FormState,
} from './addNewForm';

const city = (name: string, distance_m: number, state: string | null = 'Höfuðborgarsvæðið'): NearestCity => ({
  id: distance_m,
  city: name,
  city_forurl: name.toLowerCase(),
  state,
  country: 'Iceland',
  lat: 64.1,
  lon: -21.9,
  distance_m,
});

const at = { lat: 64.146582, lon: -21.942635 };
const start = (): FormState => initialFormState(at);

describe('the add-new form', () => {
  it('starts with the marker coordinates rounded to 6 decimals and nothing else', () => {
    const state = initialFormState({ lat: 64.14658234, lon: -21.9426349 });
    expect(state.values).toMatchObject({ lat: '64.146582', lon: '-21.942635', title: '', city: '' });
    expect(state.placed).toBe(false);
  });

  it('turns the form into the create body: trimmed text, numbers, empty fields left out', () => {
    let state = start();
    state = formReducer(state, { type: 'edit', field: 'title', value: '  Harbour Bikes ' });
    state = formReducer(state, { type: 'edit', field: 'street', value: ' Laugavegur 1 ' });
    state = formReducer(state, { type: 'edit', field: 'postalcode', value: '   ' });
    expect(createBody('rental', 'bike', state.values)).toEqual({
      supertype: 'rental',
      type: 'bike',
      title: 'Harbour Bikes',
      lat: 64.146582,
      lon: -21.942635,
      street: 'Laugavegur 1',
    });
    expect(createBody('rental', 'bike', state.values, { confirmNotDuplicate: true })).toMatchObject({
      confirmNotDuplicate: true,
    });
  });

  it('refuses an empty title and a latitude that is not one beside their fields, with the server rules', () => {
    let state = formReducer(start(), { type: 'edit', field: 'lat', value: '95' });
    const body = createBody('service', 'plumber', state.values);
    expect(body.lat).toBe('95');
    expect(checkBody(body)).toEqual({
      fields: { title: 'Title is required.', lat: 'Latitude must be between -90 and 90.' },
      form: null,
    });
    state = formReducer(state, { type: 'edit', field: 'lat', value: '64.1' });
    state = formReducer(state, { type: 'edit', field: 'title', value: 'Pipes' });
    expect(checkBody(createBody('service', 'plumber', state.values))).toEqual({ fields: {}, form: null });
    // a type the supertype does not have is not a field of the form
    expect(checkBody(createBody('service', 'bakery', state.values)).form).toMatch(/^type: /);
  });

  it('shows the server\u2019s field errors beside their fields and other errors above the buttons', () => {
    const refusal = (message: string, field?: string) => new ApiError(1002, message, 400, field);
    expect(errorFromServer(refusal('title: must be at most 120 characters long.', 'title'))).toEqual({
      fields: { title: 'Title must be at most 120 characters long.' },
      form: null,
    });
    expect(errorFromServer(refusal('Too many requests.'))).toEqual({
      fields: {},
      form: 'Too many requests.',
    });
    // a field the form does not show stays above the buttons, whole
    expect(errorFromServer(refusal('type: is unknown.', 'type'))).toEqual({
      fields: {},
      form: 'type: is unknown.',
    });
  });

  it('gives the resolver the same problems at the form\u2019s fields, and one about no field as the form\u2019s', () => {
    const issues = (type: string, values: FormState['values']) =>
      (addNewFormSchema('service', type).safeParse(values).error?.issues ?? []).map((issue) => [
        issue.path.join('.'),
        issue.message,
      ]);
    const state = formReducer(start(), { type: 'edit', field: 'lat', value: '95' });
    expect(issues('plumber', state.values)).toEqual([
      ['title', 'Title is required.'],
      ['lat', 'Latitude must be between -90 and 90.'],
    ]);
    const named = formReducer(start(), { type: 'edit', field: 'title', value: 'Pipes' });
    expect(issues('plumber', named.values)).toEqual([]);
    expect(issues('bakery', named.values)).toEqual([['root.form', expect.stringMatching(/^type: /)]]);
  });

  it('reads coordinates only when they are numbers in range', () => {
    expect(parseCoordinate(' -21.5 ', 'lon')).toBe(-21.5);
    expect(parseCoordinate('181', 'lon')).toBeNull();
    expect(parseCoordinate('91', 'lat')).toBeNull();
    expect(parseCoordinate('1e3', 'lat')).toBeNull();
    expect(parseCoordinate('', 'lat')).toBeNull();
  });
});

describe('the nearest-city lookup', () => {
  it('names the nearest city with its region and country, or the coordinates when none is near', () => {
    expect(nearestPlace([city('Kópavogur', 4200), city('Reykjavík', 1200)], at.lat, at.lon)).toEqual({
      kind: 'city',
      city: 'Reykjavík',
      region: 'Höfuðborgarsvæðið',
      country: 'Iceland',
      distanceM: 1200,
    });
    expect(nearestPlace([city('Far', 80_000, null)], -49.35, 70.2212345)).toEqual({
      kind: 'coordinates',
      text: '-49.35, 70.221235',
    });
    expect(nearestPlace([], 1, 2)).toEqual({ kind: 'coordinates', text: '1, 2' });
  });

  it('fills city, region and country without overwriting what the visitor typed', () => {
    let state = formReducer(start(), { type: 'edit', field: 'city', value: 'Reykjavik centre' });
    const place = nearestPlace([city('Reykjavík', 1200)], at.lat, at.lon);
    state = formReducer(state, { type: 'place', ...at, place });
    expect(state.values).toMatchObject({
      city: 'Reykjavik centre',
      region: 'Höfuðborgarsvæðið',
      country: 'Iceland',
    });
    expect(state.place).toEqual(place);

    // emptied, the field is the lookup's again; a place with nothing near clears what the lookup filled
    state = formReducer(state, { type: 'edit', field: 'city', value: '' });
    state = formReducer(state, { type: 'move', lat: -49.35, lon: 70.22, placed: true });
    expect(state.place).toBeNull();
    state = formReducer(state, {
      type: 'place',
      lat: -49.35,
      lon: 70.22,
      place: nearestPlace([], -49.35, 70.22),
    });
    expect(state.values).toMatchObject({ city: '', region: '', country: '' });
  });

  it('ignores an answer for where the marker no longer is', () => {
    const moved = formReducer(start(), { type: 'move', lat: 10, lon: 20, placed: true });
    const stale = formReducer(moved, {
      type: 'place',
      ...at,
      place: nearestPlace([city('Reykjavík', 1)], at.lat, at.lon),
    });
    expect(stale).toBe(moved);
  });

  it('lets the view move the marker only until the visitor places it', () => {
    let state = formReducer(start(), { type: 'move', lat: 1, lon: 2, placed: false });
    expect(state.values).toMatchObject({ lat: '1', lon: '2' });
    state = formReducer(state, { type: 'move', lat: 3, lon: 4, placed: true });
    state = formReducer(state, { type: 'move', lat: 5, lon: 6, placed: false });
    expect(state.values).toMatchObject({ lat: '3', lon: '4' });
    // typed coordinates place it too
    const typed = formReducer(start(), { type: 'edit', field: 'lon', value: '-21.9' });
    expect(formReducer(typed, { type: 'move', lat: 0, lon: 0, placed: false })).toBe(typed);
  });
});
