import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import {
  addDays,
  availabilityMonthSchema,
  bookingSchema,
  myBookingsSchema,
  rentalBookingsSchema,
  todayIso,
  type Booking,
} from '../../src/shared/api/bookings';
import { bearer, createAdmin, freshIp, registerUser, signIn } from '../support/accounts';
import { openTestApp, type TestApp } from '../support/app';
import { newPoint } from '../support/factories';
import { TEST_DIALECTS } from '../support/store';

/**
 * Rental bookings (issue 22) over HTTP on a real store of each dialect: availability and the month
 * view, a request that holds its nights, accept / decline / cancel with who may do each, twenty
 * requests at once for the same night leaving exactly one, and every bad input answered with its
 * catalogue error and nothing stored.
 */
const PASSWORD = 'bookings-password-1';
type Headers = Record<string, string>;
const GUESTS = 20;

describe.each(TEST_DIALECTS)('bookings over HTTP (%s)', (dialect) => {
  let t: TestApp;
  const as: Record<string, Headers> = {};
  const ids: Record<string, string> = {};
  const RENTAL = 'bkRental001';
  const RENTAL2 = 'bkRental002';
  const SHOP = 'bkShop00001';
  const today = todayIso();
  const day = (n: number) => addDays(today, n);

  const post = (url: string, who: Headers, payload?: unknown) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...who, 'x-forwarded-for': freshIp() },
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
  const get = (url: string, who: Headers = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...who, 'x-forwarded-for': freshIp() } });
  const request = (who: Headers, start: string, end: string, rentalid = RENTAL) =>
    post('/v1/bookings/request', who, { rentalid, start, end });
  const booked = (res: LightMyRequestResponse): Booking => {
    expect(res.statusCode, res.body).toBe(200);
    return bookingSchema.parse(res.json());
  };
  const expectError = (res: LightMyRequestResponse, status: number, errorcode: number, error?: RegExp) => {
    expect(res.statusCode, res.body).toBe(status);
    const body = res.json<{ errorcode: number; error: string }>();
    expect(body.errorcode, res.body).toBe(errorcode);
    if (error) expect(body.error).toMatch(error);
  };
  const count = async (table: 'bookings' | 'booking_nights' | 'rental_availability') =>
    Number(
      (
        await t.store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const month = async (rentalid: string, m: string) => {
    const res = await get(`/v1/bookings/availability?rentalid=${rentalid}&month=${m}`);
    expect(res.statusCode, res.body).toBe(200);
    return availabilityMonthSchema.parse(res.json());
  };

  beforeAll(async () => {
    t = await openTestApp({ dialect });
    const names = ['olivia', 'uma', 'carlos', ...Array.from({ length: GUESTS }, (_, i) => `guest${i}`)];
    for (const name of names) expect((await registerUser(t, name, PASSWORD)).statusCode).toBe(201);
    await createAdmin(t, PASSWORD);
    for (const name of [...names, 'admin']) {
      const session = await signIn(t, name, PASSWORD);
      as[name] = bearer(session.token);
      ids[name] = session.id;
    }
    as['visitor'] = {};
    await t.store.db
      .insertInto('points')
      .values([
        newPoint({
          id: RENTAL,
          title: 'Lake cabin',
          supertype: 'rental',
          type: 'cabin',
          owner_userid: ids['olivia']!,
        }),
        newPoint({
          id: RENTAL2,
          title: 'Boat',
          supertype: 'rental',
          type: 'boat',
          owner_userid: ids['olivia']!,
        }),
        newPoint({ id: SHOP, title: 'Corner shop', owner_userid: ids['olivia']! }),
      ])
      .execute();
    const open = await post('/v1/bookings/availability/set', as['olivia']!, {
      rentalid: RENTAL,
      start: day(1),
      end: day(200),
      nightlyprice: 9000,
      hourlyprice: 1500,
      currency: 'eur',
    });
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json()).toMatchObject({ days: 199, open: true });
    // a newer range closes three days and another prices a week differently
    for (const body of [
      { start: day(50), end: day(53), nightlyprice: 0, currency: 'EUR', open: false },
      { start: day(60), end: day(67), nightlyprice: 12000, currency: 'EUR' },
    ])
      expect(
        (await post('/v1/bookings/availability/set', as['olivia']!, { rentalid: RENTAL, ...body }))
          .statusCode,
      ).toBe(200);
  });
  afterAll(async () => t?.close());

  it('shows a month day by day: past, closed, free with its price, and taken once requested', async () => {
    const m = day(60).slice(0, 7);
    const before = await month(RENTAL, m);
    const byDate = new Map(before.days.map((d) => [d.date, d]));
    expect(before.days[0]!.date).toBe(`${m}-01`);
    expect(byDate.get(day(60))).toMatchObject({
      state: 'free',
      price: 12000,
      hourlyprice: null,
      currency: 'EUR',
    });
    const later = (await month(RENTAL, day(67).slice(0, 7))).days.find((d) => d.date === day(67));
    expect(later).toMatchObject({ state: 'free', price: 9000, hourlyprice: 1500 });
    const current = await month(RENTAL, today.slice(0, 7));
    expect(current.days.find((d) => d.date === today)?.state).toBe('closed');
    if (today.slice(8) !== '01') expect(current.days[0]!.state).toBe('past');
    const stay = booked(await request(as['carlos']!, day(60), day(62)));
    expect(stay).toMatchObject({ nights: 2, total: 24000, currency: 'EUR', state: 'requested' });
    const after = new Map((await month(RENTAL, m)).days.map((d) => [d.date, d.state]));
    expect([after.get(day(60)), after.get(day(61)), after.get(day(62))]).toEqual(['taken', 'taken', 'free']);
    // cancelling frees them
    expect(booked(await post('/v1/bookings/cancel', as['carlos']!, { bookingid: stay.id })).state).toBe(
      'cancelled',
    );
    const freed = new Map((await month(RENTAL, m)).days.map((d) => [d.date, d.state]));
    expect(freed.get(day(60))).toBe('free');
  });

  it('uma requests three nights, a second person is refused them, olivia accepts and uma sees it', async () => {
    const stay = booked(await request(as['uma']!, day(10), day(13)));
    expect(stay).toMatchObject({ nights: 3, total: 27000, state: 'requested', guest: { username: 'uma' } });
    const rows = await count('bookings');
    expectError(await request(as['carlos']!, day(12), day(14)), 409, 22205, new RegExp(day(12)));
    expect(await count('bookings')).toBe(rows);
    // carlos cannot accept it, olivia can
    expectError(await post('/v1/bookings/accept', as['carlos']!, { bookingid: stay.id }), 403, 22209);
    expectError(await post('/v1/bookings/accept', as['uma']!, { bookingid: stay.id }), 403, 22209);
    expect(booked(await post('/v1/bookings/accept', as['olivia']!, { bookingid: stay.id })).state).toBe(
      'accepted',
    );
    expectError(await post('/v1/bookings/accept', as['olivia']!, { bookingid: stay.id }), 409, 22211);
    expectError(await post('/v1/bookings/decline', as['olivia']!, { bookingid: stay.id }), 409, 22211);
    const mine = myBookingsSchema.parse((await get('/v1/bookings/mine', as['uma']!)).json());
    expect(mine.asguest.find((b) => b.id === stay.id)?.state).toBe('accepted');
    const owner = myBookingsSchema.parse((await get('/v1/bookings/mine', as['olivia']!)).json());
    expect(owner.asowner.map((b) => b.id)).toContain(stay.id);
    // the rental's list: all for its owner and an admin, one's own for others
    const ofRental = (who: Headers) =>
      get(`/v1/bookings/rental?rentalid=${RENTAL}`, who).then((res) =>
        rentalBookingsSchema.parse(res.json()),
      );
    expect((await ofRental(as['olivia']!)).controls).toBe(true);
    expect((await ofRental(as['admin']!)).bookings.map((b) => b.id)).toContain(stay.id);
    const carlos = await ofRental(as['carlos']!);
    expect(carlos.controls).toBe(false);
    expect(carlos.bookings.every((b) => b.guest.username === 'carlos')).toBe(true);
    expect((await ofRental(as['visitor']!)).bookings).toEqual([]);
  });

  it('declining frees the nights for the next person; the guest or the owner cancels, nobody else', async () => {
    const first = booked(await request(as['uma']!, day(20), day(22)));
    expect(booked(await post('/v1/bookings/decline', as['olivia']!, { bookingid: first.id })).state).toBe(
      'declined',
    );
    const second = booked(await request(as['carlos']!, day(20), day(22)));
    expectError(await post('/v1/bookings/cancel', as['uma']!, { bookingid: second.id }), 403, 22210);
    expect(booked(await post('/v1/bookings/cancel', as['olivia']!, { bookingid: second.id })).state).toBe(
      'cancelled',
    );
    expectError(await post('/v1/bookings/cancel', as['carlos']!, { bookingid: second.id }), 409, 22211);
    const nights = await t.store.db
      .selectFrom('booking_nights')
      .select('night')
      .where('booking_id', 'in', [first.id, second.id])
      .execute();
    expect(nights).toEqual([]);
  });

  it(`${GUESTS} concurrent requests for the same night leave exactly one`, async () => {
    const night = day(30);
    const answers = await Promise.all(
      Array.from({ length: GUESTS }, (_, i) => request(as[`guest${i}`]!, night, day(31))),
    );
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(GUESTS - 1);
    for (const res of answers.filter((r) => r.statusCode === 409))
      expect(res.json()).toMatchObject({ errorcode: 22205 });
    const held = await t.store.db
      .selectFrom('booking_nights')
      .innerJoin('bookings', 'bookings.id', 'booking_nights.booking_id')
      .select(['bookings.guest_userid'])
      .where('booking_nights.rental_id', '=', RENTAL)
      .where('night', '=', night)
      .execute();
    expect(held).toHaveLength(1);
    const stored = await t.store.db
      .selectFrom('bookings')
      .select('id')
      .where('rental_id', '=', RENTAL)
      .where('start_date', '=', night)
      .execute();
    expect(stored).toHaveLength(1);
  });

  it('the store itself refuses a second row for a held night', async () => {
    const stay = booked(await request(as['carlos']!, day(40), day(41)));
    await expect(
      t.store.db
        .insertInto('booking_nights')
        .values({ rental_id: RENTAL, night: day(40), booking_id: stay.id })
        .execute(),
    ).rejects.toThrow();
  });

  it('refuses bad input with a clear error and stores nothing', async () => {
    const cases: Array<[string, Headers, string, unknown, number, number, RegExp?]> = [
      [
        'end before start',
        as['uma']!,
        '/v1/bookings/request',
        { rentalid: RENTAL, start: day(5), end: day(3) },
        400,
        22202,
        /^end: must be after start/,
      ],
      [
        'end on start',
        as['uma']!,
        '/v1/bookings/request',
        { rentalid: RENTAL, start: day(5), end: day(5) },
        400,
        22202,
      ],
      [
        'in the past',
        as['uma']!,
        '/v1/bookings/request',
        { rentalid: RENTAL, start: day(-2), end: day(2) },
        400,
        22203,
        /in the past/,
      ],
      [
        'over a taken night',
        as['carlos']!,
        '/v1/bookings/request',
        { rentalid: RENTAL, start: day(9), end: day(11) },
        409,
        22205,
        /Already taken/,
      ],
      [
        'over closed days',
        as['uma']!,
        '/v1/bookings/request',
        { rentalid: RENTAL, start: day(49), end: day(51) },
        409,
        22206,
        new RegExp(day(50)),
      ],
      [
        'on days never opened',
        as['uma']!,
        '/v1/bookings/request',
        { rentalid: RENTAL2, start: day(5), end: day(6) },
        409,
        22206,
      ],
      [
        'on a point that is not a rental',
        as['uma']!,
        '/v1/bookings/request',
        { rentalid: SHOP, start: day(5), end: day(6) },
        400,
        22201,
        /not a rental/,
      ],
      [
        'on a point that does not exist',
        as['uma']!,
        '/v1/bookings/request',
        { rentalid: 'nothingHere', start: day(5), end: day(6) },
        404,
        2010,
      ],
      [
        'too long',
        as['uma']!,
        '/v1/bookings/request',
        { rentalid: RENTAL, start: day(100), end: day(170) },
        400,
        22204,
      ],
      [
        'a malformed date',
        as['uma']!,
        '/v1/bookings/request',
        { rentalid: RENTAL, start: '2027-02-30', end: day(6) },
        400,
        1003,
        /^start: /,
      ],
      ['no rental id', as['uma']!, '/v1/bookings/request', { start: day(5), end: day(6) }, 400, 6705],
      [
        'by a visitor',
        as['visitor']!,
        '/v1/bookings/request',
        { rentalid: RENTAL, start: day(5), end: day(6) },
        401,
        1010,
      ],
      [
        'by its owner',
        as['olivia']!,
        '/v1/bookings/request',
        { rentalid: RENTAL, start: day(5), end: day(6) },
        400,
        22213,
      ],
      [
        'availability by a stranger',
        as['carlos']!,
        '/v1/bookings/availability/set',
        { rentalid: RENTAL, start: day(5), end: day(6), nightlyprice: 1, currency: 'EUR' },
        403,
        22212,
      ],
      [
        'availability of a shop',
        as['olivia']!,
        '/v1/bookings/availability/set',
        { rentalid: SHOP, start: day(5), end: day(6), nightlyprice: 1, currency: 'EUR' },
        400,
        22201,
      ],
      [
        'availability in the past',
        as['olivia']!,
        '/v1/bookings/availability/set',
        { rentalid: RENTAL, start: day(-5), end: day(6), nightlyprice: 1, currency: 'EUR' },
        400,
        22203,
      ],
      [
        'a negative price',
        as['olivia']!,
        '/v1/bookings/availability/set',
        { rentalid: RENTAL, start: day(5), end: day(6), nightlyprice: -1, currency: 'EUR' },
        400,
        1003,
        /^nightlyprice: /,
      ],
      [
        'a bad currency',
        as['olivia']!,
        '/v1/bookings/availability/set',
        { rentalid: RENTAL, start: day(5), end: day(6), nightlyprice: 1, currency: 'euro' },
        400,
        1003,
        /^currency: /,
      ],
      [
        'accepting a booking that does not exist',
        as['olivia']!,
        '/v1/bookings/accept',
        { bookingid: 'noSuchBooking' },
        404,
        22208,
      ],
    ];
    const before = await Promise.all([
      count('bookings'),
      count('booking_nights'),
      count('rental_availability'),
    ]);
    for (const [what, who, url, payload, status, code, error] of cases) {
      const res = await post(url, who, payload);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
      expect(res.json<{ errorcode: number }>().errorcode, what).toBe(code);
      if (error) expect(res.json<{ error: string }>().error, what).toMatch(error);
    }
    expect(
      await Promise.all([count('bookings'), count('booking_nights'), count('rental_availability')]),
    ).toEqual(before);
    expectError(
      await get(`/v1/bookings/availability?rentalid=${RENTAL}&month=2027-13`),
      400,
      1003,
      /^month: /,
    );
    expectError(await get(`/v1/bookings/availability?rentalid=${SHOP}&month=2027-01`), 400, 22201);
    expectError(await get('/v1/bookings/mine'), 401, 1010);
  });
});
