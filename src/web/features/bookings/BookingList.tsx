import type { Booking } from '../../../shared/api/bookings';
import { addDays, formatMoney } from '../../../shared/api/bookings';
import { errorText } from '../../lib/query';
import { STATE_LABELS, useBookingMove, type BookingMove } from './bookingApi';

/** 2027-03-01 → "1 Mar 2027" (calendar days, read in UTC so no time zone moves them). */
export function dayText(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** "1 Mar 2027 – 3 Mar 2027 (3 nights)": the first and the last night. */
export function stayText(booking: Pick<Booking, 'start' | 'end' | 'nights'>): string {
  const last = addDays(booking.end, -1);
  const nights = `${booking.nights} night${booking.nights === 1 ? '' : 's'}`;
  return `${dayText(booking.start)} – ${dayText(last)} (${nights})`;
}

/**
 * Bookings with what the viewer may do to each: `as` owner shows the guest and Accept / Decline on a
 * request, Cancel on a confirmed stay; `as` guest shows the rental and Cancel while it holds nights.
 */
export function BookingList({
  bookings,
  as,
  empty,
  label,
}: {
  bookings: Booking[];
  as: 'owner' | 'guest';
  empty: string;
  label: string;
}) {
  const move = useBookingMove();
  if (bookings.length === 0) return <p className="bookings-empty">{empty}</p>;
  const act = (id: string, what: BookingMove) => move.mutate({ id, move: what });
  const busy = (id: string) => move.isPending && move.variables?.id === id;
  return (
    <>
      {move.isError && (
        <p className="bookings-error" role="alert">
          {errorText(move.error)}
        </p>
      )}
      <ul className="bookings-list" aria-label={label}>
        {bookings.map((booking) => (
          <li key={booking.id} className={`bookings-item bookings-item--${booking.state}`}>
            <div className="bookings-item__main">
              <strong>{as === 'owner' ? booking.guest.username : booking.rentaltitle}</strong>
              {as === 'owner' && <span className="bookings-item__rental">{booking.rentaltitle}</span>}
              <span>{stayText(booking)}</span>
              <span>{formatMoney(booking.total, booking.currency)}</span>
              <span className="bookings-state" data-state={booking.state}>
                {STATE_LABELS[booking.state]}
              </span>
            </div>
            <div className="bookings-item__actions">
              {as === 'owner' && booking.state === 'requested' && (
                <>
                  <button
                    type="button"
                    className="xp-button xp-button--primary"
                    disabled={busy(booking.id)}
                    onClick={() => act(booking.id, 'accept')}
                    aria-label={`Accept ${booking.guest.username}'s booking, ${stayText(booking)}`}
                  >
                    Accept
                  </button>
                  <button
                    type="button"
                    className="xp-button"
                    disabled={busy(booking.id)}
                    onClick={() => act(booking.id, 'decline')}
                    aria-label={`Decline ${booking.guest.username}'s booking, ${stayText(booking)}`}
                  >
                    Decline
                  </button>
                </>
              )}
              {(booking.state === 'accepted' || (as === 'guest' && booking.state === 'requested')) && (
                <button
                  type="button"
                  className="xp-button"
                  disabled={busy(booking.id)}
                  onClick={() => act(booking.id, 'cancel')}
                  aria-label={`Cancel the booking ${stayText(booking)}`}
                >
                  Cancel
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
