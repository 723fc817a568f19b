import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { createEventRequestSchema, eventDatesIssue } from './events';
import { parsePointRequest } from './writes';

/** The error a create-event body gets, as the wire shows it. */
function errorOf(body: unknown) {
  try {
    parsePointRequest(createEventRequestSchema, body);
    return null;
  } catch (error) {
    if (error instanceof AppError) return error.toBody();
    throw error;
  }
}

describe('event contract', () => {
  const event = {
    title: 'Open house',
    type: 'open_house',
    start_date: '2030-01-01T10:00:00Z',
    end_date: '2030-01-01T12:00:00Z',
    lat: 1,
    lon: 2,
  };
  it('reads dates and keeps end after start', () => {
    expect(parsePointRequest(createEventRequestSchema, event)).toMatchObject({
      start_date: Date.UTC(2030, 0, 1, 10),
      end_date: Date.UTC(2030, 0, 1, 12),
    });
    expect(errorOf({ ...event, end_date: event.start_date })).toEqual({
      field: 'end_date',
      errorcode: 7010,
      error: 'end_date: must be after start_date.',
    });
    expect(errorOf({ ...event, end_date: '1899-05-05' })).toEqual({
      field: 'end_date',
      errorcode: 7011,
      error: 'end_date: dates before 1901 are invalid.',
    });
  });
  it('keeps opening intervals inside the event', () => {
    const start = Date.UTC(2030, 0, 1, 10);
    const end = Date.UTC(2030, 0, 1, 12);
    expect(eventDatesIssue(start, end, [{ start, end }])).toBeNull();
    expect(eventDatesIssue(start, end, [{ start: start - 1, end }])?.error).toBe('endBeforeStart');
    expect(eventDatesIssue(start, end, [{ start: end, end: start }])?.field).toBe(
      'event_opening_intervals_utc.0.end',
    );
  });
});
