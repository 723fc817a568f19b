import { describe, expect, test } from 'vitest';
import { createEventRequestSchema, type EditableEvent } from '../../../shared/api/events';
import {
  MESSAGES,
  emptyEventValues,
  eventFormSchema,
  formPathOf,
  joinLocal,
  splitLocal,
  ticketSummary,
  ticketTotal,
  toEventBody,
  validateEventValues,
  valuesFromEditable,
  type EventFormValues,
} from './eventForm';

const local = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min).getTime();

function filled(overrides: Partial<EventFormValues> = {}): EventFormValues {
  return {
    ...emptyEventValues(local(2030, 5, 1, 9, 30)),
    title: 'Harbour Jazz',
    type: 'concert',
    lat: '64.1466',
    lon: '-21.9426',
    ...overrides,
  };
}

describe('dates typed as a local date and time', () => {
  test('a date and a time are one local instant, and back', () => {
    const at = local(2031, 2, 28, 18, 5);
    expect(joinLocal({ date: '2031-02-28', time: '18:05' })).toBe(at);
    expect(splitLocal(at)).toEqual({ date: '2031-02-28', time: '18:05' });
  });

  test('a missing part or a day that does not exist is no date', () => {
    expect(joinLocal({ date: '', time: '10:00' })).toBeNull();
    expect(joinLocal({ date: '2031-02-28', time: '' })).toBeNull();
    expect(joinLocal({ date: '2031-02-30', time: '10:00' })).toBeNull();
    expect(joinLocal({ date: '2031-13-01', time: '10:00' })).toBeNull();
  });

  test('early years are taken as written, not as 19xx', () => {
    expect(new Date(joinLocal({ date: '0099-06-01', time: '12:00' }) ?? 0).getFullYear()).toBe(99);
    expect(splitLocal(local(1899, 12, 31, 23, 0)).date).toBe('1899-12-31');
  });

  test('a new event starts on the next full hour and lasts two hours', () => {
    const values = emptyEventValues(local(2030, 5, 1, 9, 30));
    expect(values.start).toEqual({ date: '2030-05-01', time: '10:00' });
    expect(values.end).toEqual({ date: '2030-05-01', time: '12:00' });
  });
});

describe('validation mirrors the server', () => {
  test('a complete form has no errors', () => {
    expect(validateEventValues(filled(), { hasParent: false })).toEqual({});
  });

  test('the end must come after the start', () => {
    const errors = validateEventValues(
      filled({ start: { date: '2030-05-01', time: '20:00' }, end: { date: '2030-05-01', time: '19:00' } }),
      { hasParent: false },
    );
    expect(errors).toEqual({ end: MESSAGES.endBeforeStart });
    const same = filled({ end: filled().start });
    expect(validateEventValues(same, { hasParent: false }).end).toBe(MESSAGES.endBeforeStart);
  });

  test('nothing before 1901', () => {
    const errors = validateEventValues(filled({ start: { date: '1900-12-31', time: '23:00' } }), {
      hasParent: false,
    });
    expect(errors.start).toBe(MESSAGES.before1901);
  });

  test('title, type and both dates are required, and the type is one of the event types', () => {
    const errors = validateEventValues(filled({ title: ' ', type: '', start: { date: '', time: '10:00' } }), {
      hasParent: false,
    });
    expect(errors).toMatchObject({
      title: MESSAGES.required,
      type: MESSAGES.required,
      start: MESSAGES.badDate,
    });
    expect(validateEventValues(filled({ type: 'bakery' }), { hasParent: false }).type).toBe(
      MESSAGES.unknownType,
    );
  });

  test('an event needs a place unless it belongs to a point', () => {
    const nowhere = filled({ lat: '', lon: '' });
    expect(validateEventValues(nowhere, { hasParent: false }).lat).toBe(MESSAGES.place);
    expect(validateEventValues(nowhere, { hasParent: true })).toEqual({});
    expect(validateEventValues(filled({ lon: '' }), { hasParent: true }).lon).toBe(MESSAGES.bothCoordinates);
    expect(validateEventValues(filled({ lat: '91' }), { hasParent: false }).lat).toBe(MESSAGES.lat);
  });

  test('openings end after they start and lie within the event', () => {
    const values = filled({
      start: { date: '2030-05-01', time: '10:00' },
      end: { date: '2030-05-03', time: '18:00' },
      intervals: [
        { start: { date: '2030-05-01', time: '12:00' }, end: { date: '2030-05-01', time: '11:00' } },
        { start: { date: '2030-04-30', time: '12:00' }, end: { date: '2030-05-01', time: '14:00' } },
        { start: { date: '2030-05-02', time: '10:00' }, end: { date: '2030-05-02', time: '18:00' } },
      ],
    });
    expect(validateEventValues(values, { hasParent: false })).toEqual({
      'intervals.0.end': MESSAGES.endBeforeStart,
      'intervals.1.start': MESSAGES.intervalOutside,
    });
  });

  test('a paid event needs its price; ticket options need a name, a price and a whole quantity', () => {
    expect(validateEventValues(filled({ admission: 'paid' }), { hasParent: false }).admissionprice).toBe(
      MESSAGES.paidNeedsPrice,
    );
    expect(validateEventValues(filled({ admissionprice: '-1' }), { hasParent: false }).admissionprice).toBe(
      MESSAGES.price,
    );
    const errors = validateEventValues(
      filled({ tickets: [{ name: '', unit_price: 'ten', max_quantity: '1.5' }] }),
      { hasParent: false },
    );
    expect(errors).toEqual({
      'tickets.0.name': MESSAGES.required,
      'tickets.0.unit_price': MESSAGES.price,
      'tickets.0.max_quantity': MESSAGES.quantity,
    });
  });
});

describe('the request body', () => {
  test('maps every field to its wire name, and the server contract accepts it', () => {
    const values = filled({
      subtype: ' jazz ',
      start: { date: '2030-05-01', time: '19:00' },
      end: { date: '2030-05-01', time: '23:00' },
      intervals: [
        { start: { date: '2030-05-01', time: '19:30' }, end: { date: '2030-05-01', time: '22:00' } },
      ],
      admission: 'paid',
      admissionprice: '12,5',
      tickets: [{ name: 'Standing', unit_price: '12.5', max_quantity: '4' }],
      website: 'hall.example',
      description: '',
      address: '12 Harbour Road',
    });
    const body = toEventBody(values, 'create');
    expect(body).toEqual({
      title: 'Harbour Jazz',
      type: 'concert',
      subtype: 'jazz',
      start_date: local(2030, 5, 1, 19),
      end_date: local(2030, 5, 1, 23),
      event_opening_intervals_utc: [{ start: local(2030, 5, 1, 19, 30), end: local(2030, 5, 1, 22) }],
      admission: 'paid',
      admissionprice: 12.5,
      tickets: [{ name: 'Standing', unit_price: 12.5, max_quantity: 4 }],
      website: 'hall.example',
      description: null,
      lat: 64.1466,
      lon: -21.9426,
      address: '12 Harbour Road',
    });
    expect(createEventRequestSchema.safeParse(body).success).toBe(true);
  });

  test('without coordinates the point’s place is used; a blank address is left out on create, cleared on update', () => {
    const values = filled({ lat: '', lon: '', address: '' });
    const created = toEventBody(values, 'create');
    expect('lat' in created || 'lon' in created || 'address' in created).toBe(false);
    expect(createEventRequestSchema.safeParse({ ...created, xpoint_id: 'hall_1' }).success).toBe(true);
    expect(toEventBody(values, 'update').address).toBeNull();
  });

  test('the form filled from an event sends the same event back', () => {
    const start = local(2030, 7, 1, 18);
    const end = local(2030, 7, 1, 22);
    const event: EditableEvent = {
      id: 'ev_1',
      title: 'Summer Party',
      type: 'party',
      subtype: null,
      start_date: start,
      end_date: end,
      event_opening_intervals_utc: [{ start, end }],
      admission: 'donation',
      admissionprice: null,
      tickets: [{ name: 'Entry', unit_price: 5, max_quantity: 2 }],
      website: null,
      description: 'Bring a friend.',
      lat: 64.1,
      lon: -21.9,
      address: '64.1,-21.9',
      xpoint_id: 'hall_1',
      cover_url: null,
      owner_username: 'olivia',
      version: 3,
      url: '/e/ev_1',
    };
    const values = valuesFromEditable(event);
    // the one default opening follows the dates; an address that is only coordinates is left blank
    expect(values.intervals).toEqual([]);
    expect(values.address).toBe('');
    expect(toEventBody(values, 'update')).toMatchObject({
      title: 'Summer Party',
      start_date: start,
      end_date: end,
      event_opening_intervals_utc: [],
      admission: 'donation',
      tickets: [{ name: 'Entry', unit_price: 5, max_quantity: 2 }],
      description: 'Bring a friend.',
      lat: 64.1,
      lon: -21.9,
      address: null,
    });
  });
});

describe('ticket totals (§9: quantity × unit price, two decimals)', () => {
  test('totals are rounded to cents', () => {
    expect(ticketTotal(3, 12.5)).toBe('37.50');
    expect(ticketTotal(3, 0.1)).toBe('0.30');
    expect(ticketTotal(1, 0)).toBe('0.00');
  });

  test('a ticket option shows its largest order, or nothing while incomplete', () => {
    expect(ticketSummary({ name: 'Standing', unit_price: '12.5', max_quantity: '4' })).toBe(
      'Up to 4 × 12.50 = 50.00',
    );
    expect(ticketSummary({ name: 'Standing', unit_price: '', max_quantity: '4' })).toBe('');
    expect(ticketSummary({ name: 'Standing', unit_price: '3', max_quantity: '0' })).toBe('');
  });
});

describe('server refusals beside their fields', () => {
  test('dates, openings and tickets find their field', () => {
    expect(formPathOf('end_date')).toBe('end');
    expect(formPathOf('start_date')).toBe('start');
    expect(formPathOf('event_opening_intervals_utc.1.end')).toBe('intervals.1.end');
    expect(formPathOf('event_opening_intervals_utc.0')).toBe('intervals.0.start');
    expect(formPathOf('tickets.0.unit_price')).toBe('tickets.0.unit_price');
    expect(formPathOf('admission')).toBe('admissionprice');
  });

  test('a field the form does not show stays with the form', () => {
    expect(formPathOf('version')).toBeNull();
    expect(formPathOf('xpoint_id')).toBeNull();
  });
});

describe('the resolver schema', () => {
  const issues = (values: EventFormValues, hasParent = false) =>
    (eventFormSchema({ hasParent }).safeParse(values).error?.issues ?? []).map((issue) => [
      issue.path.join('.'),
      issue.message,
    ]);

  test('gives the form’s own messages at the form’s field paths', () => {
    expect(issues(filled())).toEqual([]);
    expect(
      issues(
        filled({
          admission: 'paid',
          tickets: [{ name: '', unit_price: '3', max_quantity: '2' }],
        }),
      ),
    ).toEqual([
      ['admissionprice', MESSAGES.paidNeedsPrice],
      ['tickets.0.name', MESSAGES.required],
    ]);
  });

  test('then the contract’s field rules, placed beside the form’s field', () => {
    expect(issues(filled({ title: 'x'.repeat(500) }))).toEqual([
      ['title', expect.stringMatching(/^must be at most \d+ characters long\.$/)],
    ]);
  });
});
