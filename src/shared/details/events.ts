/**
 * Event timing and event list paging (map-and-search §4, §5, §9).
 *
 * §4: an event is *upcoming* when it starts within 0 to 120 minutes (§9: the window is under 120
 * minutes), and *current* when now lies within its FIRST opening interval. An event is *past* once
 * its end is behind us. Anything else — it starts in more than two hours, or it runs in a later
 * interval after the first one closed — is *later*: not ended, but neither current nor upcoming.
 */

/** §9: the upcoming window, in minutes; an event starting exactly 120 minutes from now is not upcoming. */
export const UPCOMING_WINDOW_MINUTES = 120;
const MINUTE_MS = 60_000;

export type EventStatus = 'current' | 'upcoming' | 'later' | 'past';

export interface EventTiming {
  /** epoch ms */
  start_date: number;
  end_date: number;
  /** the first opening interval (by start), when the event has intervals. */
  first_interval?: { start: number; end: number } | null;
}

/** The interval that decides 'current': the first opening interval, or the whole event when it has none. */
export function firstInterval(event: EventTiming): { start: number; end: number } {
  return event.first_interval ?? { start: event.start_date, end: event.end_date };
}

export function eventStatus(event: EventTiming, now: number): EventStatus {
  const first = firstInterval(event);
  if (now >= first.start && now < first.end) return 'current';
  const untilStart = first.start - now;
  if (untilStart >= 0 && untilStart < UPCOMING_WINDOW_MINUTES * MINUTE_MS) return 'upcoming';
  if (event.end_date <= now) return 'past';
  return 'later';
}

/** Whole minutes until the event starts (negative once started). */
export function minutesUntilStart(event: EventTiming, now: number): number {
  return Math.floor((firstInterval(event).start - now) / MINUTE_MS);
}

export interface EventLists<T> {
  upcoming: T[];
  current: T[];
  later: T[];
  past: T[];
}

/**
 * Splits events into the panel's lists: upcoming and later soonest first, current by start, past most
 * recent first.
 */
export function splitEvents<T extends EventTiming>(events: readonly T[], now: number): EventLists<T> {
  const lists: EventLists<T> = { upcoming: [], current: [], later: [], past: [] };
  for (const event of events) lists[eventStatus(event, now)].push(event);
  const byStart = (a: T, b: T) => firstInterval(a).start - firstInterval(b).start;
  lists.upcoming.sort(byStart);
  lists.current.sort(byStart);
  lists.later.sort(byStart);
  lists.past.sort((a, b) => b.end_date - a.end_date || b.start_date - a.start_date);
  return lists;
}

/** §9: event list page size by viewport width. */
export const EVENT_PAGE_SIZE_DEFAULT = 4;
export const EVENT_PAGE_SIZE_MEDIUM = 6;
export const EVENT_PAGE_SIZE_WIDE = 8;
export const EVENT_PAGE_MEDIUM_MIN_WIDTH_PX = 520;
export const EVENT_PAGE_WIDE_MIN_WIDTH_PX = 1600;

/** 4 by default, 6 at 520 px or more, 8 at 1600 px or more. */
export function eventPageSize(widthPx: number): number {
  if (!Number.isFinite(widthPx)) return EVENT_PAGE_SIZE_DEFAULT;
  if (widthPx >= EVENT_PAGE_WIDE_MIN_WIDTH_PX) return EVENT_PAGE_SIZE_WIDE;
  if (widthPx >= EVENT_PAGE_MEDIUM_MIN_WIDTH_PX) return EVENT_PAGE_SIZE_MEDIUM;
  return EVENT_PAGE_SIZE_DEFAULT;
}

/** §9: paging starts only with more than 4 events. */
export function eventPagingEnabled(count: number): boolean {
  return count > EVENT_PAGE_SIZE_DEFAULT;
}

export interface EventPage<T> {
  items: T[];
  page: number;
  pageSize: number;
  pageCount: number;
  /** false when the list fits without paging (4 events or fewer). */
  paged: boolean;
}

/**
 * One page of an event list. §5: a page size that is not a positive whole number falls back to 4,
 * a page number that is not one falls back to 1; a page past the end shows the last page.
 */
export function eventPage<T>(items: readonly T[], page: unknown, pageSize: unknown): EventPage<T> {
  const size =
    typeof pageSize === 'number' && Number.isInteger(pageSize) && pageSize > 0
      ? pageSize
      : EVENT_PAGE_SIZE_DEFAULT;
  if (!eventPagingEnabled(items.length)) {
    return { items: [...items], page: 1, pageSize: size, pageCount: 1, paged: false };
  }
  const pageCount = Math.max(1, Math.ceil(items.length / size));
  const asked = typeof page === 'number' && Number.isInteger(page) && page >= 1 ? page : 1;
  const current = Math.min(asked, pageCount);
  return {
    items: items.slice((current - 1) * size, current * size),
    page: current,
    pageSize: size,
    pageCount,
    paged: true,
  };
}

/** §4, §9: past events show 8, then 16, then all. */
export const PAST_EVENT_STEPS = [8, 16] as const;

/** How many past events show after `step` presses of 'more' (0 -> 8, 1 -> 16, 2+ -> all). */
export function pastEventsVisible(step: number, total: number): number {
  const limit = PAST_EVENT_STEPS[Math.max(0, Math.floor(step))];
  return limit === undefined ? total : Math.min(limit, total);
}

/** Whether a 'more' button is still needed after `step` presses. */
export function morePastEvents(step: number, total: number): boolean {
  return pastEventsVisible(step, total) < total;
}
