import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  availabilityMonthQuerySchema,
  availabilityMonthSchema,
  availabilitySetRequestSchema,
  availabilitySetResultSchema,
  bookingActionSchema,
  bookingContract,
  bookingRequestSchema,
  bookingSchema,
  myBookingsSchema,
  rentalBookingsQuerySchema,
  rentalBookingsSchema,
} from '../../../shared/api/bookings';
import { requireViewer } from '../../auth/hook';
import { errorResponses } from '../../openapi/errors';
import type { Store } from '../../store/store';
import { BookingService } from './service';

/**
 * Rental bookings (issue 22). Thin: each route hands the parsed request and the viewer to the service
 * (service.ts has the rules, queries.ts the transactions); see src/shared/api/bookings.ts for the calls.
 */
export const bookingRoutes: FastifyPluginAsyncZod<{ store: Store }> = async (app, { store }) => {
  const bookings = new BookingService(store);
  const signedIn = async (request: FastifyRequest) => {
    requireViewer(request.viewer);
  };
  const privately = (reply: FastifyReply) => reply.header('Cache-Control', 'private, no-store');
  const stayErrors = ['bookingEndBeforeStart', 'bookingInPast', 'bookingTooLong'] as const;
  const moveErrors = [
    'unauthorized',
    'antiforgeryMissing',
    'invalidParam',
    'invalidField',
    'bookingNotFound',
    'bookingStateInvalid',
    'conflict',
  ] as const;

  app.post(
    '/v1/bookings/availability/set',
    {
      preValidation: signedIn,
      schema: {
        summary: "Open (or close) a rental's days at a nightly price; the rental's controllers only",
        description:
          'Dates YYYY-MM-DD, end exclusive, from today on, at most 366 days. Prices in cents. On a day several ranges cover, the newest says; open=false closes the days.',
        tags: ['bookings'],
        body: bookingContract(availabilitySetRequestSchema),
        response: {
          200: availabilitySetResultSchema,
          ...errorResponses(
            'unauthorized',
            'antiforgeryMissing',
            'invalidParam',
            'invalidField',
            'pointNotFound',
            'bookingNotRental',
            'availabilityForbidden',
            ...stayErrors,
          ),
        },
      },
    },
    async (request, reply) =>
      privately(reply).send(await bookings.setAvailability(request.viewer, request.body)),
  );

  app.get(
    '/v1/bookings/availability',
    {
      schema: {
        summary: "A rental's month, day by day: free, taken, closed or past, with each open day's price",
        tags: ['bookings'],
        querystring: bookingContract(availabilityMonthQuerySchema),
        response: {
          200: availabilityMonthSchema,
          ...errorResponses('invalidParam', 'invalidField', 'pointNotFound', 'bookingNotRental'),
        },
      },
    },
    async (request, reply) => privately(reply).send(await bookings.month(request.query)),
  );

  app.post(
    '/v1/bookings/request',
    {
      preValidation: signedIn,
      schema: {
        summary: 'Ask to book a rental from start to end (exclusive); the request holds the nights',
        description:
          'Every night must be open and held by nobody: the store keeps one row per (rental, night), so of many requests for a night exactly one is stored. The total is the sum of the nights’ prices.',
        tags: ['bookings'],
        body: bookingContract(bookingRequestSchema),
        response: {
          200: bookingSchema,
          ...errorResponses(
            'unauthorized',
            'antiforgeryMissing',
            'invalidParam',
            'invalidField',
            'pointNotFound',
            'bookingNotRental',
            'bookingOwnRental',
            ...stayErrors,
            'bookingNightsClosed',
            'bookingNightsTaken',
            'bookingMixedCurrency',
          ),
        },
      },
    },
    async (request, reply) => privately(reply).send(await bookings.request(request.viewer, request.body)),
  );

  for (const action of ['accept', 'decline'] as const)
    app.post(
      `/v1/bookings/${action}`,
      {
        preValidation: signedIn,
        schema: {
          summary: `${action === 'accept' ? 'Accept' : 'Decline'} a booking request; the rental's controllers only`,
          description:
            action === 'decline' ? 'Declining frees the nights.' : 'The nights stay held by the booking.',
          tags: ['bookings'],
          body: bookingContract(bookingActionSchema),
          response: { 200: bookingSchema, ...errorResponses(...moveErrors, 'bookingNotController') },
        },
      },
      async (request, reply) => privately(reply).send(await bookings[action](request.viewer, request.body)),
    );

  app.post(
    '/v1/bookings/cancel',
    {
      preValidation: signedIn,
      schema: {
        summary:
          'Cancel a requested or accepted booking (its guest or the rental’s controllers); frees the nights',
        tags: ['bookings'],
        body: bookingContract(bookingActionSchema),
        response: { 200: bookingSchema, ...errorResponses(...moveErrors, 'bookingCancelForbidden') },
      },
    },
    async (request, reply) => privately(reply).send(await bookings.cancel(request.viewer, request.body)),
  );

  app.get(
    '/v1/bookings/rental',
    {
      schema: {
        summary: "A rental's bookings, newest first: all for its controllers, the viewer's own for others",
        tags: ['bookings'],
        querystring: bookingContract(rentalBookingsQuerySchema),
        response: {
          200: rentalBookingsSchema,
          ...errorResponses('invalidParam', 'invalidField', 'pointNotFound', 'bookingNotRental'),
        },
      },
    },
    async (request, reply) =>
      privately(reply).send(await bookings.ofRental(request.viewer, request.query.rentalid)),
  );

  app.get(
    '/v1/bookings/mine',
    {
      preValidation: signedIn,
      schema: {
        summary: "The viewer's bookings as a guest and the bookings of the rentals they own or consult",
        tags: ['bookings'],
        response: { 200: myBookingsSchema, ...errorResponses('unauthorized') },
      },
    },
    async (request, reply) => privately(reply).send(await bookings.mine(request.viewer)),
  );
};
