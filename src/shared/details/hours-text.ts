/**
 * The next opening or closing as people read it on a map (issue 21, item 10): 'Closes 6 PM',
 * 'Opens 9 AM tomorrow', 'Opens 9:30 AM Tue', never '2026-11-25 09:00'. Times are wall clocks in
 * the point's zone, so "today" is the date in that zone too.
 */

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const DAY_MS = 86_400_000;

/** '09:00' → '9 AM', '21:30' → '9:30 PM', '00:00' → '12 AM', '12:00' → '12 PM'. */
export function clockText(hours: number, minutes: number): string {
  const half = hours >= 12 ? 'PM' : 'AM';
  const h12 = hours % 12 === 0 ? 12 : hours % 12;
  return minutes === 0 ? `${h12} ${half}` : `${h12}:${String(minutes).padStart(2, '0')} ${half}`;
}

/** Today's date in `timeZone` as 'YYYY-MM-DD' (the zone's own calendar); UTC for an unknown zone. */
export function todayIn(timeZone: string, now: number = Date.now()): string {
  const format = (zone: string) =>
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(now);
  try {
    return format(timeZone);
  } catch {
    return format('UTC');
  }
}

/**
 * 'Opens 9 AM tomorrow' for state closed and next change '2026-11-25T09:00' when today is
 * '2026-11-24'; the wall clock as given when it cannot be read.
 */
export function nextChangeSentence(state: 'open' | 'closed', wallClock: string, today: string): string {
  const verb = state === 'open' ? 'Closes' : 'Opens';
  const at = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(wallClock);
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(today);
  if (!at || !day) return `${verb} ${wallClock}`;
  const when = Date.UTC(Number(at[1]), Number(at[2]) - 1, Number(at[3]));
  const days = Math.round((when - Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))) / DAY_MS);
  const clock = clockText(Number(at[4]), Number(at[5]));
  const date = new Date(when);
  const weekday = WEEKDAYS[date.getUTCDay()] ?? '';
  if (days === 0) return `${verb} ${clock}`;
  if (days === 1) return `${verb} ${clock} tomorrow`;
  if (days > 1 && days < 7) return `${verb} ${clock} ${weekday}`;
  return `${verb} ${clock} ${weekday}, ${MONTHS[date.getUTCMonth()] ?? ''} ${date.getUTCDate()}`;
}

/** The opening hours a point's details carry: the server's open-now answer and the value as written. */
export interface OpeningHoursState {
  opening_hours_string: string;
  state: 'open' | 'closed' | 'unknown';
  time_zone_name: string;
  comment?: string | null;
  next_change?: string | null;
  error?: string | null;
}

/**
 * The opening hours of a point as its pages write them (map-and-search §3, §5): computed by the
 * server for the full-screen page (it travels in the page's data, so the browser hydrates the same
 * words without the `opening_hours` library or its own clock), and in the browser for the side panel.
 */
export interface OpeningHoursText {
  /** 'Open now' or 'Closed now'; null when the state is unknown. */
  badge: string | null;
  /** the next change as people read it ('Closes 6 PM', 'Opens 9 AM tomorrow'), or null. */
  next: string | null;
  /** the value one rule a line ('Mo-Fr 08:00-18:00\nSa 10:00-14:00'); as written when it cannot be read. */
  text: string;
  /** 'Open now (by appointment) · times in America/New York'; null when the value cannot be read. */
  note: string | null;
}

export function openingHoursText(hours: OpeningHoursState, now: number = Date.now()): OpeningHoursText {
  const badge = hours.state === 'open' ? 'Open now' : hours.state === 'closed' ? 'Closed now' : null;
  const next =
    hours.state !== 'unknown' && hours.next_change
      ? nextChangeSentence(hours.state, hours.next_change, todayIn(hours.time_zone_name, now))
      : null;
  if (hours.error) return { badge, next, text: hours.opening_hours_string, note: null };
  return {
    badge,
    next,
    text: hours.opening_hours_string.split(/;\s*/).join('\n'),
    note:
      `${badge ?? 'Open state unknown'}${hours.comment ? ` (${hours.comment})` : ''} · times in ` +
      hours.time_zone_name.replaceAll('_', ' '),
  };
}
