import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import rateLimit from '@fastify/rate-limit';
import { ANTIFORGERY_HEADER } from '../../../shared/api/accounts';
import {
  CLOSEST_CITIES_DEFAULT,
  CLOSEST_CITIES_MAX,
  callbackResponseSchema,
  callbackRouteSchema,
  closestRouteSchema,
  healthPhotoRequestSchema,
  healthPhotosResponseSchema,
  inboxQuerySchema,
  inboxResponseSchema,
  nearestCitySchema,
} from '../../../shared/api/details';
import { AppError } from '../../../shared/errors';
import { VISITOR_COOKIE, type Auth } from '../../auth/hook';
import { documentedOnly } from '../../http/contract';
import { errorResponses } from '../../openapi/errors';
import { eventDetailsSchema, pointDetailsSchema } from '../../../shared/api/detail-documents';
import type { Store } from '../../store/store';
import { CallbackService } from './callbacks';
import { ClosestCities } from './closest-cities';
import { DetailService } from './service';
import type { Limits } from '../../http/rate-limits';

/** Callback requests per client address: enough for a person, too few for a flood. */
const CALLBACK_PER_IP = { max: 20, timeWindow: 15 * 60_000 };

/**
 * Point and event details (issue 7, map-and-search §7):
 * - GET  /v1/webonly/xpointdetails/{id}        point JSON (every field of §3, the viewer's controls)
 * - GET  /v1/webonly/eventdetails/{id}         event JSON
 * - POST /v1/map/closestn                      the 5 (or n) nearest cities to lat/lng
 * - POST /v1/webonly/meonmap/requestimmunizationcard   a callback request, delivered to the inbox
 * - POST /v1/webonly/xpointdetails/healthphoto the verified health photos
 * - GET  /v1/account/inbox                     the signed-in user's inbox
 */
export const detailRoutes: FastifyPluginAsyncZod<{ store: Store; auth: Auth; limits: Limits }> = async (
  app,
  { store, auth, limits },
) => {
  const service = new DetailService(store);
  const callbacks = new CallbackService(store);
  const cities = new ClosestCities(store);

  await app.register(rateLimit, limits.plugin());

  /*
   * The detail JSON is the panel's hot path (p99 ≤ 5 ms over HTTP): encoding it through zod cost
   * 0.09 ms a request at the median (2,000 in-process injects of a 3.5 KB point: 0.26 ms against
   * 0.17 ms with JSON.stringify), over the 0.05 ms a check may cost, so the schema documents the
   * answer and detail-documents.ts checks it against the service's types at compile time instead.
   * Suggestions cost under 0.01 ms more and keep the check.
   */
  const pointDetails = documentedOnly(pointDetailsSchema);
  const eventDetails = documentedOnly(eventDetailsSchema);
  const idParams = z.object({ id: z.string().meta({ description: 'the point or event id' }) });

  app.get(
    '/v1/webonly/xpointdetails/:id',
    {
      schema: {
        summary: 'Point details',
        description:
          'Every field of the point (§3) with its display values, and the controls the viewer may use. Not cached: the controls depend on who asks.',
        tags: ['details'],
        params: idParams,
        response: { 200: pointDetails, ...errorResponses('pointNotFound', 'invalidParam') },
      },
    },
    async (request, reply) => {
      const details = await service.pointDetails(request.viewer, request.params.id, Date.now(), request.log);
      // the controls depend on who asks
      return reply.header('Cache-Control', 'private, no-store').send(details);
    },
  );

  app.get(
    '/v1/webonly/eventdetails/:id',
    {
      schema: {
        summary: 'Event details',
        tags: ['details'],
        params: idParams,
        response: { 200: eventDetails, ...errorResponses('eventNotFound', 'invalidEventId') },
      },
    },
    async (request, reply) => {
      const details = await service.eventDetails(request.viewer, request.params.id, Date.now());
      return reply.header('Cache-Control', 'private, no-store').send(details);
    },
  );

  // a read sent as POST (§7): no anti-forgery token needed
  app.post(
    '/v1/map/closestn',
    {
      config: { antiforgery: false },
      schema: {
        summary: 'The nearest cities',
        description: `The ${CLOSEST_CITIES_DEFAULT} (or n, at most ${CLOSEST_CITIES_MAX}) cities nearest to lat/lng. Numbers may be sent as text.`,
        tags: ['details'],
        body: closestRouteSchema,
        response: {
          200: z.array(nearestCitySchema),
          ...errorResponses('badRequest', 'invalidCoordinates', 'invalidCityCount'),
        },
      },
    },
    async (request) => {
      const { lat, lng, n } = request.body;
      return cities.closest(lat, lng, n ?? CLOSEST_CITIES_DEFAULT);
    },
  );

  app.post(
    '/v1/webonly/xpointdetails/healthphoto',
    {
      config: { antiforgery: false },
      schema: {
        summary: "A point's verified health photos",
        tags: ['details'],
        body: healthPhotoRequestSchema,
        response: {
          200: healthPhotosResponseSchema,
          ...errorResponses('badRequest', 'healthPhotoIdMissing', 'invalidParam', 'pointNotFound'),
        },
      },
    },
    async (request) => service.healthPhotos(request.body.id),
  );

  app.post(
    '/v1/webonly/meonmap/requestimmunizationcard',
    {
      config: { rateLimit: CALLBACK_PER_IP },
      // before the body is checked: a visitor without the token is refused whatever it carries
      preValidation: async (request) => requireVisitorAntiforgery(request, auth),
      schema: {
        summary: 'Ask a service provider to call back',
        description:
          "Delivered to the provider's inbox. A visitor sends the anti-forgery token and a phone or an email. The same request within a minute answers 200 with the first one.",
        tags: ['details'],
        body: callbackRouteSchema,
        response: {
          200: callbackResponseSchema,
          201: callbackResponseSchema,
          ...errorResponses(
            'badRequest',
            'invalidCallbackField',
            'callbackUserIdMissing',
            'serviceNameMissing',
            'serviceXpointIdMissing',
            'invalidParam',
            'callbackUserNotFound',
            'pointNotFound',
            'callbackPointMismatch',
            'callbackToSelf',
            'callbackContactMissing',
            'callbackAntiforgery',
            'rateLimited',
          ),
        },
      },
    },
    async (request, reply) => {
      const result = await callbacks.requestCallback(
        request.viewer,
        request.body,
        request.ip ?? null,
        Date.now(),
      );
      return reply.status(result.duplicate ? 200 : 201).send(result);
    },
  );

  app.get(
    '/v1/account/inbox',
    {
      // a visitor is told to sign in before anything about the query
      preValidation: async (request) => {
        if (!request.viewer) throw new AppError('unauthorized');
      },
      schema: {
        summary: "The signed-in user's inbox, newest first",
        tags: ['details'],
        querystring: inboxQuerySchema,
        response: { 200: inboxResponseSchema, ...errorResponses('unauthorized', 'invalidInboxPaging') },
      },
    },
    async (request, reply) => {
      const inbox = await callbacks.inbox(request.viewer, request.query);
      return reply.header('Cache-Control', 'private, no-store').send(inbox);
    },
  );
};

/**
 * A visitor may request a callback (§6), so the auth hook's cookie-session check does not cover
 * them: a visitor's write must carry the anti-forgery token bound to their xp_af cookie (the one the
 * page's <meta name="csrf-token"> holds). Signed-in cookie sessions were checked by the hook; API
 * clients with an Authorization token need none.
 */
function requireVisitorAntiforgery(request: FastifyRequest, auth: Auth): void {
  if (request.session) return;
  const visitor = request.cookies[VISITOR_COOKIE];
  const given = request.headers[ANTIFORGERY_HEADER.toLowerCase()];
  if (!visitor || !auth.signer.checkAntiforgery({ visitor }, typeof given === 'string' ? given : undefined))
    throw new AppError('callbackAntiforgery');
}
