import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { formatDate } from '../../../shared/format';
import { eventWhen, type EventTiming } from './format';

/** Where and how times are written: the browser's own by default. */
export interface TimeFormatOptions {
  /** a BCP 47 locale; undefined is the browser's. */
  locale?: string;
  /** an IANA zone; undefined is the browser's. */
  timeZone?: string;
}

export interface TimeFormat {
  /** An instant (epoch ms) as social §9's 'DD MMM YYYY HH:mm (A)', '' when missing. */
  dateTime(ms: number | null | undefined): string;
  /** An instant as a time of day. */
  time(ms: number): string;
  /** §4: when an event happens, in these words and this zone. */
  eventWhen(event: EventTiming): string;
}

/**
 * The formatters for one locale and zone. An unknown locale or zone falls back to the browser's. Dates
 * are §9's one format whatever the locale; the locale words only the time of day.
 */
export function timeFormat({ locale, timeZone }: TimeFormatOptions = {}): TimeFormat {
  const make = (options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat => {
    try {
      return new Intl.DateTimeFormat(locale, { ...options, timeZone });
    } catch {
      return new Intl.DateTimeFormat(undefined, options);
    }
  };
  // made on first use (see format.ts): a page whose render writes no time loads no locale data
  let time: Intl.DateTimeFormat | undefined;
  const timeOfDay = () => (time ??= make({ timeStyle: 'short' }));
  // the zone as the time formatter resolved it: an unknown one became the browser's
  let zone: string | undefined;
  const resolvedZone = () =>
    timeZone === undefined ? undefined : (zone ??= timeOfDay().resolvedOptions().timeZone);
  const format: TimeFormat = {
    dateTime: (ms) => formatDate(ms, resolvedZone()),
    time: (ms) => timeOfDay().format(ms),
    eventWhen: (event) => eventWhen(event, format.dateTime, format.time),
  };
  return format;
}

const BROWSER = timeFormat();
const TimeFormatContext = createContext<TimeFormat>(BROWSER);

/**
 * Fixes the locale and zone of the times below. A page rendered on the server sets both (the
 * reader's language and the point's zone), so the browser writes the very same text when it hydrates.
 */
export function TimeFormatProvider({
  locale,
  timeZone,
  children,
}: TimeFormatOptions & { children: ReactNode }) {
  const value = useMemo(() => timeFormat({ locale, timeZone }), [locale, timeZone]);
  return <TimeFormatContext.Provider value={value}>{children}</TimeFormatContext.Provider>;
}

export function useTimeFormat(): TimeFormat {
  return useContext(TimeFormatContext);
}
