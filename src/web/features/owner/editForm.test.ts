import { describe, expect, test } from 'vitest';
import type { EditablePoint } from '../../../shared/api/points';
import { ApiError } from '../../lib/api';
import {
  changedFields,
  checkCopy,
  checkUpdate,
  copyBody,
  emptyContact,
  fromDateTimeLocal,
  labelOf,
  problemsFromServer,
  saveFailure,
  toDateTimeLocal,
  updateBody,
  valuesFromPoint,
} from './editForm';

function editable(fields: Partial<EditablePoint> = {}): EditablePoint {
  return {
    id: 'hall',
    supertype: 'business',
    type: 'restaurant',
    subtype: null,
    title: 'Atlantic Hall',
    tagline: null,
    description: 'Music and food.',
    lat: -52.25,
    lon: -20.5,
    address: '12 Harbour Road',
    street: null,
    city: null,
    region: null,
    postalcode: null,
    country: null,
    link_email: null,
    link_phone: null,
    link_website: 'https://hall.example/',
    link_facebook: null,
    contacts: [
      {
        roleid: 'CUST',
        roleoverride: 'Chef',
        contact_firstname: 'Ann',
        contact_lastname: null,
        contact_username: null,
      },
    ],
    opening_hours: 'Mo-Fr 09:00-18:00',
    time_zone_name: 'Atlantic/South_Georgia',
    allow_consulting: true,
    meonmap_enabled: false,
    xpointService: null,
    owner_callchat_priceperminute: null,
    helprequestdata: {
      taskduration_minutes: null,
      taskbudget: null,
      taskstart: null,
      canacceptjob: false,
      canquote: false,
    },
    pickup_destination: null,
    pickup_date_time: null,
    delivery_lat: null,
    delivery_lng: null,
    url_icon_or_logo: null,
    url_cover_image: null,
    url_cover_video: null,
    screenshots: [],
    health_status: 0,
    health_photos: [],
    owner_username: 'olivia',
    consultant_username: null,
    version: 4,
    url: '/b/hall',
    ...fields,
  };
}

describe('the edit form values', () => {
  test('given a loaded point, when it becomes form values, then nulls are empty text and numbers are text', () => {
    const values = valuesFromPoint(editable({ owner_callchat_priceperminute: 1.5, supertype: 'service' }));
    expect(values.title).toBe('Atlantic Hall');
    expect(values.tagline).toBe('');
    expect(values.lat).toBe('-52.25');
    expect(values.owner_callchat_priceperminute).toBe('1.5');
    expect(values.contacts).toEqual([
      {
        roleid: 'CUST',
        roleoverride: 'Chef',
        contact_firstname: 'Ann',
        contact_lastname: '',
        contact_username: '',
      },
    ]);
  });

  test('given an untouched form, when the update body is made, then only the id and the loaded version go', () => {
    const values = valuesFromPoint(editable());
    expect(updateBody({ id: 'hall', supertype: 'business', version: 4 }, values, values)).toEqual({
      id: 'hall',
      version: 4,
    });
    // spaces around a value are no change: nothing is rewritten
    expect(changedFields('business', values, { ...values, title: ' Atlantic Hall ' })).toEqual({});
  });

  test('given changed fields, when the update body is made, then each goes once, trimmed, emptied ones as null', () => {
    const loaded = valuesFromPoint(editable());
    const body = changedFields('business', loaded, {
      ...loaded,
      title: '  New Hall ',
      description: '',
      lat: '-52.3',
      opening_hours: 'Mo-Su 00:00-24:00',
    });
    expect(body).toEqual({
      title: 'New Hall',
      description: null,
      lat: -52.3,
      opening_hours: 'Mo-Su 00:00-24:00',
    });
  });

  test('given a consultant who did not touch allow_consulting, when saving, then the owner-only setting is not sent', () => {
    const loaded = valuesFromPoint(editable());
    expect(changedFields('business', loaded, { ...loaded, tagline: 'Tonight' })).toEqual({
      tagline: 'Tonight',
    });
    expect(changedFields('business', loaded, { ...loaded, allow_consulting: false })).toEqual({
      allow_consulting: false,
    });
  });

  test('given a business, when service or help-request fields differ, then they are never sent (7004)', () => {
    const loaded = valuesFromPoint(editable());
    const current = {
      ...loaded,
      meonmap_enabled: true,
      xpointService: 'Walks',
      helprequestdata: { ...loaded.helprequestdata, taskbudget: '20' },
    };
    expect(changedFields('business', loaded, current)).toEqual({});
    expect(changedFields('service', loaded, current)).toEqual({
      meonmap_enabled: true,
      xpointService: 'Walks',
    });
  });

  test('given a help request, when one of its task fields changes, then the whole helprequestdata goes', () => {
    const loaded = valuesFromPoint(editable({ supertype: 'helprequest', type: 'tasks' }));
    const body = changedFields('helprequest', loaded, {
      ...loaded,
      helprequestdata: { ...loaded.helprequestdata, taskduration_minutes: '90', canquote: true },
    });
    expect(body).toEqual({
      helprequestdata: {
        taskduration_minutes: '90',
        taskbudget: null,
        taskstart: null,
        canacceptjob: false,
        canquote: true,
      },
    });
    // incidents and help requests have no consultant: the setting is not theirs
    expect(changedFields('helprequest', loaded, { ...loaded, allow_consulting: false })).toEqual({});
  });

  test('given contacts edited, when saving, then the whole list goes in order, a role name only with CUST', () => {
    const loaded = valuesFromPoint(editable());
    const owner = {
      ...emptyContact(),
      roleid: 'OWNR' as const,
      roleoverride: 'left over',
      contact_lastname: 'Lee',
    };
    const body = changedFields('business', loaded, { ...loaded, contacts: [owner, ...loaded.contacts] });
    expect(body['contacts']).toEqual([
      {
        roleid: 'OWNR',
        roleoverride: null,
        contact_firstname: null,
        contact_lastname: 'Lee',
        contact_username: null,
      },
      {
        roleid: 'CUST',
        roleoverride: 'Chef',
        contact_firstname: 'Ann',
        contact_lastname: null,
        contact_username: null,
      },
    ]);
    expect(changedFields('business', loaded, { ...loaded, contacts: [] })).toEqual({ contacts: [] });
  });

  test('given a datetime-local value, when sent, then it is the browser-time instant in epoch milliseconds', () => {
    const ms = new Date(2030, 4, 6, 7, 8).getTime();
    expect(toDateTimeLocal(ms)).toBe('2030-05-06T07:08');
    expect(fromDateTimeLocal('2030-05-06T07:08')).toBe(ms);
    expect(fromDateTimeLocal('soon')).toBe('soon');
    expect(toDateTimeLocal(null)).toBe('');
  });
});

describe('checks and server errors', () => {
  test('given an empty title, when checked before sending, then the title field says it is required', () => {
    const loaded = valuesFromPoint(editable());
    const body = updateBody({ id: 'hall', supertype: 'business', version: 4 }, loaded, {
      ...loaded,
      title: ' ',
    });
    expect(checkUpdate(body).fields).toEqual({ title: 'Title is required.' });
  });

  test('given a custom role without its name and a bad website, when checked, then each error sits on its field', () => {
    const loaded = valuesFromPoint(editable());
    const body = updateBody({ id: 'hall', supertype: 'business', version: 4 }, loaded, {
      ...loaded,
      link_website: 'not a site',
      contacts: [{ ...emptyContact(), roleid: 'CUST', contact_firstname: 'Bo' }],
    });
    expect(checkUpdate(body).fields).toEqual({
      link_website: 'Website Please enter a valid URL.',
      'contacts.0.roleoverride': 'Contact 1: Role name is required for a custom role (CUST).',
    });
  });

  test('given server refusals, when shown, then one naming a field goes beside it and others at the top', () => {
    const refusal = (code: number, message: string, field?: string) =>
      new ApiError(code, message, 400, field);
    expect(
      problemsFromServer(
        refusal(7012, 'opening_hours: Mo 25:00 <--- (Minutes are greater than 59.)', 'opening_hours'),
      ),
    ).toEqual({
      fields: { opening_hours: 'Opening hours Mo 25:00 <--- (Minutes are greater than 59.)' },
      form: null,
    });
    expect(
      problemsFromServer(
        refusal(
          1002,
          'contacts.1.contact_firstname: a contact needs a name.',
          'contacts.1.contact_firstname',
        ),
      ).fields,
    ).toEqual({ 'contacts.1.contact_firstname': 'Contact 2: First name a contact needs a name.' });
    expect(
      problemsFromServer(refusal(1012, 'This was changed by someone else; reload and try again.')),
    ).toEqual({
      fields: {},
      form: 'This was changed by someone else; reload and try again.',
    });
    // a message that merely looks like `field: reason` names no field: nothing reads it back
    expect(problemsFromServer(refusal(1002, 'title: is required.')).form).toBe('title: is required.');
    expect(problemsFromServer(refusal(1002, 'body: must be a JSON object.')).form).toBe(
      'body: must be a JSON object.',
    );
    expect(labelOf('helprequestdata.taskbudget')).toBe('Budget');
  });
});

describe('copy to new', () => {
  test('given a help request, when copied, then every filled field goes to create with confirmNotDuplicate', () => {
    const point = editable({
      supertype: 'helprequest',
      type: 'tasks',
      opening_hours: null,
      helprequestdata: {
        taskduration_minutes: 120,
        taskbudget: 40,
        taskstart: null,
        canacceptjob: true,
        canquote: false,
      },
    });
    const body = copyBody('helprequest', valuesFromPoint(point));
    expect(body).toMatchObject({
      supertype: 'helprequest',
      type: 'tasks',
      title: 'Atlantic Hall',
      lat: -52.25,
      lon: -20.5,
      address: '12 Harbour Road',
      helprequestdata: { taskduration_minutes: '120', taskbudget: '40', canacceptjob: true, canquote: false },
      confirmNotDuplicate: true,
    });
    expect(body).not.toHaveProperty('opening_hours');
    expect(body).not.toHaveProperty('allow_consulting');
    expect(checkCopy(body)).toEqual({ fields: {}, form: null });
  });

  test('given a copy whose title was emptied, when checked, then the title is required', () => {
    const values = valuesFromPoint(editable({ supertype: 'helprequest', type: 'tasks' }));
    expect(checkCopy(copyBody('helprequest', { ...values, title: '' })).fields['title']).toBe(
      'Title is required.',
    );
  });
});

describe('a refused save', () => {
  test('given a stale version (409, 1012), then it is a conflict: shown, not retried, nothing beside a field', () => {
    const stale = new ApiError(1012, 'This was changed by someone else; reload and try again.', 409);
    expect(saveFailure(stale)).toEqual({ kind: 'conflict' });
  });

  test('given an ended session, then the form asks to sign in and keeps its message at the top', () => {
    expect(saveFailure(new ApiError(1010, 'You need to sign in to do this.', 401))).toEqual({
      kind: 'signIn',
      problems: { fields: {}, form: 'You need to sign in to do this.' },
    });
  });

  test('given a field refused by the server, then its message goes beside the field', () => {
    const hours = new ApiError(
      7012,
      'opening_hours: Mo 25:00 <--- (Time range starts outside of the current day)',
      400,
      'opening_hours',
    );
    expect(saveFailure(hours)).toEqual({
      kind: 'refused',
      problems: {
        fields: {
          opening_hours: 'Opening hours Mo 25:00 <--- (Time range starts outside of the current day)',
        },
        form: null,
      },
    });
    expect(saveFailure(new ApiError(1011, 'You are not allowed to do this.', 403))).toEqual({
      kind: 'refused',
      problems: { fields: {}, form: 'You are not allowed to do this.' },
    });
    expect(
      saveFailure(new ApiError(0, 'Internet Connection lost or server is not responding!', 0)).kind,
    ).toBe('refused');
  });
});
