import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { ANTIFORGERY_HEADER } from '../../../shared/api/accounts';
import {
  CLOSEST_CITIES_DEFAULT,
  CLOSEST_CITIES_MAX,
  closestRequestSchema,
} from '../../../shared/api/details';
import { AppError } from '../../../shared/errors';
import { VISITOR_COOKIE, type Auth } from '../../auth/hook';
import type { Store } from '../../store/store';
import { CallbackService } from './callbacks';
import { ClosestCities } from './closest-cities';
import { DetailService } from './service';

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
export const detailRoutes: FastifyPluginAsync<{ store: Store; auth: Auth }> = async (
  app,
  { store, auth },
) => {
  const service = new DetailService(store);
  const callbacks = new CallbackService(store);
  const cities = new ClosestCities(store);

  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new AppError('rateLimited', { retry: `${Math.max(1, Math.ceil(context.ttl / 1000))} s` }),
  });

  app.get<{ Params: { id: string } }>('/v1/webonly/xpointdetails/:id', async (request, reply) => {
    const details = await service.pointDetails(request.viewer, request.params.id, Date.now(), request.log);
    // the controls depend on who asks
    return reply.header('Cache-Control', 'private, no-store').send(details);
  });

  app.get<{ Params: { id: string } }>('/v1/webonly/eventdetails/:id', async (request, reply) => {
    const details = await service.eventDetails(request.viewer, request.params.id, Date.now());
    return reply.header('Cache-Control', 'private, no-store').send(details);
  });

  // a read sent as POST (§7): no anti-forgery token needed
  app.post('/v1/map/closestn', { config: { antiforgery: false } }, async (request) => {
    const parsed = closestRequestSchema.safeParse(request.body ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = String(issue?.path[0] ?? 'body');
      if (field === 'n') throw new AppError('invalidCityCount', { max: CLOSEST_CITIES_MAX });
      throw new AppError('invalidCoordinates', {
        field,
        reason:
          field === 'lat'
            ? 'must be a number from -90 to 90.'
            : field === 'lng'
              ? 'must be a number (a longitude).'
              : 'must be a JSON object with lat and lng.',
      });
    }
    const { lat, lng, n } = parsed.data;
    return cities.closest(lat, lng, n ?? CLOSEST_CITIES_DEFAULT);
  });

  app.post('/v1/webonly/xpointdetails/healthphoto', { config: { antiforgery: false } }, async (request) =>
    service.healthPhotos(request.body),
  );

  app.post(
    '/v1/webonly/meonmap/requestimmunizationcard',
    { config: { rateLimit: CALLBACK_PER_IP } },
    async (request, reply) => {
      requireVisitorAntiforgery(request, auth);
      const result = await callbacks.requestCallback(
        request.viewer,
        request.body,
        request.ip ?? null,
        Date.now(),
      );
      return reply.status(result.duplicate ? 200 : 201).send(result);
    },
  );

  app.get<{ Querystring: Record<string, unknown> }>('/v1/account/inbox', async (request, reply) => {
    const inbox = await callbacks.inbox(request.viewer, request.query);
    return reply.header('Cache-Control', 'private, no-store').send(inbox);
  });
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
