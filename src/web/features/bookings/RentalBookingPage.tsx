import { useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { DayPicker, type DateRange } from 'react-day-picker';
import { format, startOfMonth } from 'date-fns';
import 'react-day-picker/style.css';
import {
  addDays,
  availabilityMonthSchema,
  availabilitySetResultSchema,
  bookingSchema,
  formatMoney,
  nightsOf,
  rentalBookingsSchema,
  todayIso,
  type AvailabilityDay,
  type Booking,
} from '../../../shared/api/bookings';
import { apiPost } from '../../lib/api';
import { apiQuery, errorText } from '../../lib/query';
import { useShell } from '../../shell/context';
import { PanelLoader, SidePanel } from '../../shell/SidePanel';
import { useSession } from '../accounts/session';
import { isBookingsKey } from './bookingApi';
import { BookingList, dayText, stayText } from './BookingList';
import './bookings.css';

const LOGIN_TO_BOOK = 'You need to sign in to book a rental.';

/** A local calendar Date (as the day picker gives it) as YYYY-MM-DD, and back. */
const isoOf = (date: Date) => format(date, 'yyyy-MM-dd');
const dateOf = (iso: string) => new Date(`${iso}T00:00:00`);
const monthOf = (date: Date) => format(date, 'yyyy-MM');

/**
 * `/rental/{id}/2`, "book a rental" (map-and-search §2; issue 22). A guest sees the calendar of free,
 * taken and closed nights, picks the nights (first to last), sees their number and total and sends a
 * request, then the state of their bookings here. The rental's owner, consultant or an admin sees
 * the same calendar with the availability editor and the requests, with Accept / Decline.
 */
export function RentalBookingPage({ id }: { id: string }) {
  const { navigation } = useShell();
  const { user } = useSession();
  const rental = useQuery(
    apiQuery(`/v1/bookings/rental?rentalid=${encodeURIComponent(id)}`, rentalBookingsSchema, user?.id ?? ''),
  );
  const title = rental.data ? `Book ${rental.data.title}` : 'Book a rental';
  let body;
  if (rental.isPending) body = <PanelLoader label="Loading the calendar…" />;
  else if (rental.isError)
    body = (
      <p className="bookings-error" role="alert">
        {errorText(rental.error)}
      </p>
    );
  else
    body = (
      <RentalBooking
        id={id}
        controls={rental.data.controls}
        bookings={rental.data.bookings}
        key={rental.data.controls ? 'owner' : 'guest'}
      />
    );
  return (
    <SidePanel
      title={title}
      className="bookings-panel"
      onClose={navigation.toMap}
      onBack={navigation.canGoBack ? navigation.back : undefined}
      levelKey={`rental-book/${id}`}
    >
      {body}
    </SidePanel>
  );
}

function RentalBooking({ id, controls, bookings }: { id: string; controls: boolean; bookings: Booking[] }) {
  const today = todayIso();
  const [month, setMonth] = useState(() => startOfMonth(dateOf(today)));
  const [range, setRange] = useState<DateRange | undefined>();
  const first = range?.from ? isoOf(range.from) : null;
  const last = range?.to ? isoOf(range.to) : first;
  // the shown month and every month the picked nights run through
  const months = useMemo(() => {
    const wanted = new Set([monthOf(month)]);
    if (first && last) for (const night of nightsOf(first, addDays(last, 1))) wanted.add(night.slice(0, 7));
    return [...wanted].sort();
  }, [month, first, last]);
  const answers = useQueries({
    queries: months.map((m) =>
      apiQuery(
        `/v1/bookings/availability?rentalid=${encodeURIComponent(id)}&month=${m}`,
        availabilityMonthSchema,
      ),
    ),
  });
  const days = new Map<string, AvailabilityDay>();
  for (const answer of answers) for (const day of answer.data?.days ?? []) days.set(day.date, day);
  const stateOf = (date: Date) => days.get(isoOf(date))?.state;
  const shown = answers[months.indexOf(monthOf(month))];

  const calendar = (
    <div className="bookings-calendar">
      <DayPicker
        mode="range"
        selected={range}
        onSelect={setRange}
        month={month}
        onMonthChange={setMonth}
        startMonth={startOfMonth(dateOf(today))}
        weekStartsOn={1}
        excludeDisabled
        disabled={controls ? { before: dateOf(today) } : (date: Date) => stateOf(date) !== 'free'}
        modifiers={{
          taken: (date: Date) => stateOf(date) === 'taken',
          closed: (date: Date) => stateOf(date) === 'closed',
          free: (date: Date) => stateOf(date) === 'free',
        }}
        modifiersClassNames={{
          taken: 'bookings-day--taken',
          closed: 'bookings-day--closed',
          free: 'bookings-day--free',
        }}
        labels={{
          labelDayButton: (date: Date) => {
            const day = days.get(isoOf(date));
            const text = format(date, 'EEEE d MMMM yyyy');
            if (!day) return text;
            if (day.state === 'free' && day.price !== null)
              return `${text}, free, ${formatMoney(day.price, day.currency ?? '')} a night`;
            return `${text}, ${day.state}`;
          },
        }}
      />
      <ul className="bookings-legend" aria-label="What the colours mean">
        <li className="bookings-legend__free">Free</li>
        <li className="bookings-legend__taken">Taken</li>
        <li className="bookings-legend__closed">Not open</li>
      </ul>
      {shown?.isPending && <p className="bookings-empty">Reading the month…</p>}
      {shown?.isError && (
        <p className="bookings-error" role="alert">
          {errorText(shown.error)}
        </p>
      )}
    </div>
  );

  if (controls)
    return (
      <div className="bookings-owner">
        <section className="bookings-section" aria-labelledby="bookings-owner-requests">
          <h3 id="bookings-owner-requests">Booking requests</h3>
          <BookingList bookings={bookings} as="owner" label="Booking requests" empty="No bookings yet." />
        </section>
        <p className="bookings-hint">
          Pick days on the calendar or type them, then open them at a price (or close them).
        </p>
        {calendar}
        <AvailabilityEditor id={id} first={first} last={last} onSaved={() => setRange(undefined)} />
      </div>
    );

  const open = [...days.values()].filter((d) => d.state === 'free' && d.price !== null);
  const cheapest = open.reduce<AvailabilityDay | undefined>(
    (low, d) => (!low || d.price! < low.price! ? d : low),
    undefined,
  );
  const hourly = open.find((d) => d.hourlyprice !== null);
  return (
    <div className="bookings-guest">
      {cheapest && (
        <p className="bookings-hint">
          From {formatMoney(cheapest.price!, cheapest.currency ?? '')} a night
          {hourly
            ? ` · ${formatMoney(hourly.hourlyprice!, hourly.currency ?? '')} an hour (ask the owner)`
            : ''}
        </p>
      )}
      {calendar}
      <BookingRequestForm id={id} first={first} last={last} days={days} onDone={() => setRange(undefined)} />
      <section className="bookings-section" aria-labelledby="bookings-guest-mine">
        <h3 id="bookings-guest-mine">Your bookings here</h3>
        <BookingList
          bookings={bookings}
          as="guest"
          label="Your bookings here"
          empty="You have not booked this rental yet."
        />
      </section>
    </div>
  );
}

function BookingRequestForm({
  id,
  first,
  last,
  days,
  onDone,
}: {
  id: string;
  first: string | null;
  last: string | null;
  days: Map<string, AvailabilityDay>;
  onDone: () => void;
}) {
  const client = useQueryClient();
  const { requireAccount } = useSession();
  const [sent, setSent] = useState<Booking | null>(null);
  const request = useMutation({
    mutationFn: (stay: { start: string; end: string }) =>
      apiPost('/v1/bookings/request', bookingSchema, { rentalid: id, ...stay }),
    onSuccess: (booking) => {
      setSent(booking);
      onDone();
    },
    // a refusal (nights taken meanwhile) reads the calendar again too, so it shows them taken
    onSettled: () => client.invalidateQueries({ predicate: ({ queryKey }) => isBookingsKey(queryKey[0]) }),
  });
  const nights = first && last ? nightsOf(first, addDays(last, 1)) : [];
  const priced = nights.map((night) => days.get(night));
  const total = priced.every((day) => day?.price !== null && day?.price !== undefined)
    ? priced.reduce((sum, day) => sum + (day?.price ?? 0), 0)
    : null;
  const currency = priced[0]?.currency ?? '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!first || !last) return;
    const stay = { start: first, end: addDays(last, 1) };
    if (!requireAccount(LOGIN_TO_BOOK, () => request.mutate(stay))) return;
    request.mutate(stay);
  };
  return (
    <form className="bookings-form" onSubmit={submit} aria-label="Request a booking">
      {nights.length === 0 ? (
        <p className="bookings-hint">Pick your first and last night on the calendar.</p>
      ) : (
        <p className="bookings-summary" aria-live="polite">
          <span>{stayText({ start: first!, end: addDays(last!, 1), nights: nights.length })}</span>
          <strong>{total === null ? 'Total on request' : `Total ${formatMoney(total, currency)}`}</strong>
        </p>
      )}
      {request.isError && (
        <p className="bookings-error" role="alert">
          {errorText(request.error)}
        </p>
      )}
      {sent && !request.isError && (
        <p className="bookings-notice" role="status">
          Your request for {dayText(sent.start)} is sent: {sent.state}.
        </p>
      )}
      <button
        type="submit"
        className="xp-button xp-button--primary"
        disabled={nights.length === 0 || request.isPending}
      >
        {request.isPending ? 'Sending…' : 'Request booking'}
      </button>
    </form>
  );
}

function AvailabilityEditor({
  id,
  first,
  last,
  onSaved,
}: {
  id: string;
  first: string | null;
  last: string | null;
  onSaved: () => void;
}) {
  const client = useQueryClient();
  const [typed, setTyped] = useState<{ first: string; last: string }>({ first: '', last: '' });
  const [picked, setPicked] = useState<{ first: string | null; last: string | null }>({ first, last });
  // days picked on the calendar fill the fields (typing over them still works)
  if (picked.first !== first || picked.last !== last) {
    setPicked({ first, last });
    if (first) setTyped({ first, last: last ?? first });
  }
  const [price, setPrice] = useState('');
  const [hourly, setHourly] = useState('');
  const [currency, setCurrency] = useState('EUR');
  const [open, setOpen] = useState(true);
  const [saved, setSaved] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () =>
      apiPost('/v1/bookings/availability/set', availabilitySetResultSchema, {
        rentalid: id,
        start: typed.first,
        end: typed.last ? addDays(typed.last, 1) : '',
        nightlyprice: price.trim() === '' ? (open ? '' : 0) : cents(price),
        ...(hourly.trim() === '' ? {} : { hourlyprice: cents(hourly) }),
        currency,
        open,
      }),
    onSuccess: (result) => {
      setSaved(
        `${result.open ? 'Opened' : 'Closed'} ${result.days} day${result.days === 1 ? '' : 's'} from ${dayText(result.start)}.`,
      );
      onSaved();
    },
    onSettled: () => client.invalidateQueries({ predicate: ({ queryKey }) => isBookingsKey(queryKey[0]) }),
  });
  return (
    <form
      className="bookings-editor"
      aria-label="Availability"
      onSubmit={(event) => {
        event.preventDefault();
        setSaved(null);
        save.mutate();
      }}
    >
      <h3>Availability</h3>
      <div className="bookings-editor__row">
        <label>
          First night
          <input
            type="date"
            value={typed.first}
            onChange={(event) => setTyped({ ...typed, first: event.target.value })}
            required
          />
        </label>
        <label>
          Last night
          <input
            type="date"
            value={typed.last}
            onChange={(event) => setTyped({ ...typed, last: event.target.value })}
            required
          />
        </label>
      </div>
      <div className="bookings-editor__row">
        <label>
          Price a night
          <input inputMode="decimal" value={price} onChange={(event) => setPrice(event.target.value)} />
        </label>
        <label>
          Price an hour (optional)
          <input inputMode="decimal" value={hourly} onChange={(event) => setHourly(event.target.value)} />
        </label>
        <label>
          Currency
          <input
            value={currency}
            maxLength={3}
            onChange={(event) => setCurrency(event.target.value.toUpperCase())}
          />
        </label>
      </div>
      <fieldset className="bookings-editor__open">
        <legend>These days are</legend>
        <label>
          <input type="radio" name="bookings-open" checked={open} onChange={() => setOpen(true)} /> open
        </label>
        <label>
          <input type="radio" name="bookings-open" checked={!open} onChange={() => setOpen(false)} /> closed
        </label>
      </fieldset>
      {save.isError && (
        <p className="bookings-error" role="alert">
          {errorText(save.error)}
        </p>
      )}
      {saved && (
        <p className="bookings-notice" role="status">
          {saved}
        </p>
      )}
      <button type="submit" className="xp-button xp-button--primary" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save availability'}
      </button>
    </form>
  );
}

/** "90" or "90.5" (currency units) as cents; anything else goes as typed, for the server to name. */
function cents(text: string): number | string {
  const value = Number(text.replace(',', '.'));
  return Number.isFinite(value) ? Math.round(value * 100) : text;
}
