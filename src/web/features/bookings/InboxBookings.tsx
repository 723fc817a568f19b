import { useQuery } from '@tanstack/react-query';
import { myBookingsSchema } from '../../../shared/api/bookings';
import { apiQuery, errorText } from '../../lib/query';
import { useSession } from '../accounts/session';
import { BookingList } from './BookingList';
import './bookings.css';

/**
 * The inbox's "Bookings" tab (issue 22): requests on the rentals the signed-in user owns or consults,
 * with Accept / Decline, and their own bookings with their state and Cancel.
 */
export default function InboxBookings() {
  const { user, loading } = useSession();
  const mine = useQuery({ ...apiQuery(user ? '/v1/bookings/mine' : null, myBookingsSchema, user?.id ?? '') });
  if (loading) return <p className="bookings-empty">Loading…</p>;
  if (!user) return <p className="bookings-empty">Sign in to see your bookings.</p>;
  if (mine.isPending) return <p className="bookings-empty">Loading your bookings…</p>;
  if (mine.isError)
    return (
      <p className="bookings-error" role="alert">
        {errorText(mine.error)}
      </p>
    );
  return (
    <div className="bookings-inbox">
      <section className="bookings-section" aria-labelledby="bookings-inbox-requests">
        <h3 id="bookings-inbox-requests">Requests on your rentals</h3>
        <BookingList
          bookings={mine.data.asowner}
          as="owner"
          label="Requests on your rentals"
          empty="Nobody has asked to book your rentals yet."
        />
      </section>
      <section className="bookings-section" aria-labelledby="bookings-inbox-mine">
        <h3 id="bookings-inbox-mine">Your bookings</h3>
        <BookingList
          bookings={mine.data.asguest}
          as="guest"
          label="Your bookings"
          empty="You have not booked anything yet."
        />
      </section>
    </div>
  );
}
