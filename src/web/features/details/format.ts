import { formatDate } from '../../../shared/format';

/**
 * Time texts of the point and event panels (map-and-search §4: current and upcoming events), and how
 * long ago a claim or a request to consult was made (issue 16).
 */

/**
 * The formatters are made on first use, not when the module loads: the first Intl formatter a page
 * makes loads the runtime's locale data (60-160 ms of one task on this project's machine, four times
 * that on Lighthouse's phone), which the full-screen page must not pay before it is interactive.
 */
let timeOnly: Intl.DateTimeFormat | undefined;
const timeOfDay = (ms: number): string =>
  (timeOnly ??= new Intl.DateTimeFormat(undefined, { timeStyle: 'short' })).format(ms);

/** An instant (epoch ms) as social §9's 'DD MMM YYYY HH:mm (A)' in the browser's zone, '' when missing. */
export function formatDateTime(ms: number | null | undefined): string {
  return formatDate(ms);
}

export interface EventTiming {
  status: 'current' | 'upcoming' | 'later' | 'past';
  minutes_to_start: number;
  start_date: number;
  end_date: number;
  /** the first opening interval, when the event has intervals. */
  first_interval?: { start: number; end: number } | null;
}

/** The units of timeAgo, each with how many of it make the next. */
const AGO_STEPS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

let agoWords: Intl.RelativeTimeFormat | undefined;

/**
 * How long ago `then` (epoch ms) was, seen from `now`, in words ('5 minutes ago', 'yesterday', '3
 * weeks ago'), in the largest unit that keeps a whole number. Under a minute is 'just now' (a clock a
 * little ahead of the server's makes no 'in 3 seconds').
 */
export function timeAgo(then: number, now: number, words?: Intl.RelativeTimeFormat): string {
  let amount = (now - then) / 1000;
  if (amount < 60) return 'just now';
  const format = words ?? (agoWords ??= new Intl.RelativeTimeFormat('en', { numeric: 'auto' }));
  for (const [unit, size] of AGO_STEPS) {
    if (amount < size) return format.format(-Math.floor(amount), unit);
    amount /= size;
  }
  return format.format(-Math.floor(amount), 'year');
}

/** 'in 1 minute', 'in 45 minutes', 'in 1 h 5 min'. */
export function startsIn(minutes: number): string {
  const m = Math.max(0, Math.round(minutes));
  if (m < 1) return 'now';
  if (m < 60) return `in ${m} minute${m === 1 ? '' : 's'}`;
  const h = Math.floor(m / 60);
  const rest = m % 60;
  return rest === 0 ? `in ${h} h` : `in ${h} h ${rest} min`;
}

/**
 * §4: a current event says it is on now and until when its first interval runs; an upcoming one
 * (within 120 minutes) when it starts; a later one its dates; a past one when it ended.
 */
export function eventWhen(
  event: EventTiming,
  format: (ms: number) => string = formatDateTime,
  formatTime: (ms: number) => string = timeOfDay,
): string {
  switch (event.status) {
    case 'current':
      return `Happening now, until ${formatTime(event.first_interval?.end ?? event.end_date)}`;
    case 'upcoming':
      return `Starts ${startsIn(event.minutes_to_start)}`;
    case 'past':
      return `Ended ${format(event.end_date)}`;
    default:
      return `${format(event.start_date)} – ${format(event.end_date)}`;
  }
}
