import type { Store } from '../store/store';
import { addDays, todayIso } from '../../shared/api/bookings';
import type { Viewer } from '../../shared/permissions';
import { BookingService } from '../features/bookings/service';

/**
 * Demo bookings (issue 22): some seeded rentals, olivia's first among them, open the coming half year
 * at a nightly price (a dearer fortnight, a closed week), through the bookings service as their owners
 * would; uma has asked for three nights of olivia's first rental and carlos holds a confirmed stay at
 * another, so the calendar shows taken nights and olivia's inbox a request.
 */
export const OLIVIA_RENTALS = 3;
export const OTHER_RENTALS = 5;

export async function seedBookings(
  store: Store,
  now: number,
  log: (message: string) => void = () => {},
): Promise<number> {
  const people = await store.db
    .selectFrom('users')
    .select(['id', 'username', 'is_admin'])
    .where('username', 'in', ['olivia', 'uma', 'carlos'])
    .execute();
  const viewerOf = (username: string): Viewer => {
    const row = people.find((person) => person.username === username);
    return row ? { id: row.id, username: row.username, isAdmin: Number(row.is_admin) === 1 } : null;
  };
  const olivia = viewerOf('olivia');
  const rentals = store.db
    .selectFrom('points')
    .innerJoin('users', 'users.id', 'points.owner_userid')
    .select([
      'points.id',
      'points.consultant_userid',
      'users.id as owner_id',
      'users.username',
      'users.is_admin',
    ])
    .where('points.supertype', '=', 'rental')
    .orderBy('points.id');
  const [hers, others] = await Promise.all([
    olivia ? rentals.where('points.owner_userid', '=', olivia.id).limit(OLIVIA_RENTALS).execute() : [],
    rentals
      .where('points.owner_userid', '!=', olivia?.id ?? '')
      .limit(OTHER_RENTALS)
      .execute(),
  ]);
  const service = new BookingService(store, () => now);
  const today = todayIso(now);
  const all = [...hers, ...others];
  for (const [n, rental] of all.entries()) {
    const owner: Viewer = {
      id: rental.owner_id,
      username: rental.username,
      isAdmin: Number(rental.is_admin) === 1,
    };
    const price = 6000 + (n % 4) * 2500;
    for (const [start, end, nightlyprice, open] of [
      [0, 180, price, true],
      [40, 54, Math.round(price * 1.3), true],
      [90, 97, price, false],
    ] as const)
      await service.setAvailability(owner, {
        rentalid: rental.id,
        start: addDays(today, start),
        end: addDays(today, end),
        nightlyprice,
        ...(n % 2 === 0 ? { hourlyprice: Math.round(price / 6) } : {}),
        currency: n % 3 === 2 ? 'USD' : 'EUR',
        open,
      });
  }
  let made = 0;
  const uma = viewerOf('uma');
  const carlos = viewerOf('carlos');
  const first = hers[0];
  if (uma && first) {
    await service.request(uma, { rentalid: first.id, start: addDays(today, 14), end: addDays(today, 17) });
    made += 1;
  }
  const other = others.find((rental) => rental.consultant_userid !== carlos?.id);
  if (carlos && other) {
    const stay = await service.request(carlos, {
      rentalid: other.id,
      start: addDays(today, 7),
      end: addDays(today, 9),
    });
    await service.accept(
      { id: other.owner_id, username: other.username, isAdmin: Number(other.is_admin) === 1 },
      {
        bookingid: stay.id,
      },
    );
    made += 1;
  }
  log(`seed: ${all.length} rentals open for booking, ${made} demo bookings`);
  return made;
}
