import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { createPointRequestSchema, pointMediaRequestSchema, updatePointRequestSchema } from './points';
import { parsePointRequest } from './writes';

/** The error a body gets from parsePointRequest, as the wire shows it. */
function errorOf(schema: Parameters<typeof parsePointRequest>[0], body: unknown) {
  try {
    parsePointRequest(schema, body);
  } catch (error) {
    if (error instanceof AppError) return error.toBody();
    throw error;
  }
  return null;
}

const addNew = {
  supertype: 'rental',
  type: 'bike',
  title: 'Bikes by the bridge',
  lat: 52.5,
  lon: 13.4,
};

describe('create point contract', () => {
  it('takes the add-new fields, trims text, reads numbers from form strings and clears blanks', () => {
    expect(
      parsePointRequest(createPointRequestSchema, {
        ...addNew,
        supertype: ' Rental ',
        title: '  Bikes by the bridge ',
        lat: '52.5',
        address: '   ',
        postalcode: ' 10115 ',
      }),
    ).toEqual({ ...addNew, address: null, postalcode: '10115' });
  });
  it.each([
    [{ title: undefined }, { field: 'title', errorcode: 1003, error: 'title: is required.' }],
    [{ title: 7 }, { field: 'title', errorcode: 1003, error: 'title: must be text.' }],
    [
      { title: 'x'.repeat(121) },
      { field: 'title', errorcode: 1003, error: 'title: must be at most 120 characters long.' },
    ],
    [{ lat: -90.000001 }, { field: 'lat', errorcode: 1003, error: 'lat: must be between -90 and 90.' }],
    [{ lon: 180.5 }, { field: 'lon', errorcode: 1003, error: 'lon: must be between -180 and 180.' }],
    [{ lon: undefined }, { field: 'lon', errorcode: 1003, error: 'lon: is required.' }],
    [
      { supertype: 'event' },
      { field: 'supertype', errorcode: 7002, error: expect.stringMatching(/^supertype: "event"/) },
    ],
    [
      { type: 'apartmentz' },
      { field: 'type', errorcode: 7003, error: 'type: "apartmentz" is not a type of rental.' },
    ],
    [
      { meonmap_enabled: true },
      {
        field: 'meonmap_enabled',
        errorcode: 7004,
        error: 'meonmap_enabled: only service points have this field.',
      },
    ],
    [
      { meonmap_enabled: 'perhaps' },
      { field: 'meonmap_enabled', errorcode: 1003, error: 'meonmap_enabled: must be true or false.' },
    ],
  ])('refuses %j', (fields, expected) => {
    expect(errorOf(createPointRequestSchema, { ...addNew, ...fields })).toEqual(expected);
  });
  it('accepts every supertype’s custom type', () => {
    for (const [supertype, type] of [
      ['business', 'custom'],
      ['poi', 'custom_poi'],
      ['virtualstore', 'custom_vs'],
      ['incident', 'custom'],
    ])
      expect(errorOf(createPointRequestSchema, { ...addNew, supertype, type })).toBeNull();
  });
});

describe('update point contract', () => {
  it('needs the id and the version loaded', () => {
    expect(errorOf(updatePointRequestSchema, { version: 1 })).toEqual({
      field: 'id',
      errorcode: 1003,
      error: 'id: is required.',
    });
    expect(errorOf(updatePointRequestSchema, { id: 'a/b', version: 1 })).toMatchObject({ errorcode: 1003 });
    expect(errorOf(updatePointRequestSchema, { id: 'ab', version: 0 })).toEqual({
      field: 'version',
      errorcode: 1003,
      error: 'version: must be at least 1.',
    });
  });
  it('keeps contacts in order and needs CUST text', () => {
    const parsed = parsePointRequest(updatePointRequestSchema, {
      id: 'p1',
      version: 3,
      contacts: [
        { roleid: '_CEO', contact_lastname: 'Ng' },
        { roleid: 'CUST', roleoverride: 'Sommelier', contact_firstname: 'Ana' },
      ],
    });
    expect(parsed.contacts?.map((c) => c.roleid)).toEqual(['_CEO', 'CUST']);
    expect(
      errorOf(updatePointRequestSchema, { id: 'p1', version: 3, contacts: [{ roleid: 'ADMN' }] }),
    ).toEqual({
      field: 'contacts.0.contact_firstname',
      errorcode: 1003,
      error: 'contacts.0.contact_firstname: a contact needs a first name, a last name or a username.',
    });
  });
});

describe('media contract', () => {
  it('takes a position only for screenshots and health photos, and needs one to remove either', () => {
    expect(
      errorOf(pointMediaRequestSchema, { id: 'p', version: 1, slot: 'logo', position: 2, data: 'data:,' }),
    ).toEqual({
      field: 'position',
      errorcode: 1003,
      error: 'position: only screenshots and health photos have a position.',
    });
    expect(errorOf(pointMediaRequestSchema, { id: 'p', version: 1, slot: 'health', data: null })).toEqual({
      field: 'position',
      errorcode: 1003,
      error: 'position: is required to remove a health photo.',
    });
    // screenshots stop at 14, health photos at 20
    expect(
      errorOf(pointMediaRequestSchema, { id: 'p', version: 1, slot: 'screenshot', position: 15, data: null }),
    ).toMatchObject({ error: 'position: must be between 1 and 14.' });
    expect(
      pointMediaRequestSchema.safeParse({ id: 'p', version: 1, slot: 'health', position: 15, data: null })
        .success,
    ).toBe(true);
    expect(
      errorOf(pointMediaRequestSchema, { id: 'p', version: 1, slot: 'health', position: 21, data: null }),
    ).toMatchObject({ error: 'position: must be between 1 and 20.' });
    expect(errorOf(pointMediaRequestSchema, { id: 'p', version: 1, slot: 'screenshot', data: null })).toEqual(
      {
        field: 'position',
        errorcode: 1003,
        error: 'position: is required to remove a screenshot.',
      },
    );
    expect(
      errorOf(pointMediaRequestSchema, { id: 'p', version: 1, slot: 'banner', data: null }),
    ).toMatchObject({
      errorcode: 1003,
      error: expect.stringMatching(
        /^slot: must be one of cover_image, cover_video, logo, screenshot, health/,
      ),
    });
  });
});
