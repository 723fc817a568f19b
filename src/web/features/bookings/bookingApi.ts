import { useMutation, useQueryClient } from '@tanstack/react-query';
import { bookingSchema, type Booking } from '../../../shared/api/bookings';
import { apiPost } from '../../lib/api';

/** Every cached bookings answer (months, a rental's list, one's own lists). */
export function isBookingsKey(key: unknown): boolean {
  return typeof key === 'string' && key.startsWith('/v1/bookings/');
}

export type BookingMove = 'accept' | 'decline' | 'cancel';

/** Accept, decline or cancel a booking; every bookings answer is read again after it. */
export function useBookingMove() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, move }: { id: string; move: BookingMove }): Promise<Booking> =>
      apiPost(`/v1/bookings/${move}`, bookingSchema, { bookingid: id }),
    onSettled: () => client.invalidateQueries({ predicate: ({ queryKey }) => isBookingsKey(queryKey[0]) }),
  });
}

/** What a state reads as to both people. */
export const STATE_LABELS: Record<Booking['state'], string> = {
  requested: 'Requested: waiting for the owner',
  accepted: 'Confirmed',
  declined: 'Declined',
  cancelled: 'Cancelled',
};
