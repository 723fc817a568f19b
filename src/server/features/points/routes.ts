import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { ANTIFORGERY_HEADER } from '../../../shared/api/accounts';
import { AppError } from '../../../shared/errors';
import { VISITOR_COOKIE, type Auth } from '../../auth/hook';
import type { Config } from '../../config';
import type { Store } from '../../store/store';
import { mediaDirOf } from '../accounts/service';
import { MEDIA_ROUTE } from './media';
import { PointService, listMyPoints } from './service';

/**
 * Adding points is open to anyone (spec §1, §6), so it is the write a script would flood: at most this
 * many creates per person (signed in) or per client address (visitors) in the window, per process.
 */
export const CREATE_LIMIT = { max: 60, timeWindow: 10 * 60_000 };

/**
 * The point write API (issue 8). Thin: each route hands the body and the viewer to the service and
 * shapes the answer; the rules (who may, what is valid) are in service.ts and
 * src/shared/api/points.ts. Events have their own routes (features/events/routes.ts).
 *
 *   POST /v1/xpoint/create            anyone            201 {id, supertype, url, version, openingHoursWarnings}
 *   POST /v1/xpoint/duplicates        anyone (reads)    {candidates}
 *   GET  /v1/xpoint/{id}/edit         controllers       the editable fields and version
 *   POST /v1/xpoint/update            controllers       {id, supertype, url, version, openingHoursWarnings}
 *   POST /v1/xpoint/delete            controllers       {ok, id}
 *   POST /v1/xpoint/claim             signed in         {id, url, owner_username, consultant_username, version}
 *   POST /v1/xpoint/becomeconsultant  signed in         same
 *   POST /v1/xpoint/clearconsultant   the consultant    same
 *   POST /v1/xpoint/media             controllers       {id, slot, position, url, version}
 *   GET  /v1/account/mypoints?supertype=&pagenumber=&pagesize=
 */
export const pointWriteRoutes: FastifyPluginAsync<{ config: Config; store: Store; auth: Auth }> = async (
  app,
  { config, store, auth },
) => {
  const points = new PointService(store, { mediaDir: mediaDirOf(config.dataDir) });

  /**
   * A visitor's write carries the anti-forgery token bound to their visitor cookie (GET
   * /v1/account/antiforgery, or the page's csrf-token meta): the auth hook checks signed-in cookie
   * sessions, and a token in the Authorization header needs none; this covers the visitor's create,
   * so a page elsewhere cannot add points in a visitor's name.
   */
  const visitorAntiforgery = async (request: FastifyRequest) => {
    if (request.session) return;
    const visitor = request.cookies[VISITOR_COOKIE];
    const given = request.headers[ANTIFORGERY_HEADER.toLowerCase()];
    if (!visitor || !auth.signer.checkAntiforgery({ visitor }, typeof given === 'string' ? given : undefined))
      throw new AppError('antiforgeryMissing');
  };

  await app.register(rateLimit, {
    global: false,
    // after the auth hook, so a signed-in person is counted as themselves wherever they connect from
    hook: 'preHandler',
    keyGenerator: (request) => (request.viewer ? `user:${request.viewer.id}` : `ip:${request.ip}`),
    errorResponseBuilder: (_request, context) =>
      new AppError('rateLimited', { retry: `${Math.max(1, Math.ceil(context.ttl / 1000))} s` }),
  });

  const createRoute = { preHandler: visitorAntiforgery, config: { rateLimit: CREATE_LIMIT } };
  app.post('/v1/xpoint/create', createRoute, async (request, reply) => {
    const result = await points.create(request.viewer, request.body);
    if ('duplicates' in result) {
      const error = new AppError('possibleDuplicate', {
        titles: result.duplicates.map((c) => `"${c.title}" (${c.distance_m} m)`).join(', '),
      });
      return reply.status(error.status).send({ ...error.toBody(), candidates: result.duplicates });
    }
    return reply.status(201).header('Location', result.created.url).send(result.created);
  });

  // a search sent as POST: it writes nothing, so it needs no anti-forgery token
  app.post('/v1/xpoint/duplicates', { config: { antiforgery: false } }, async (request) => ({
    candidates: await points.duplicates(request.body),
  }));

  app.get<{ Params: { id: string } }>('/v1/xpoint/:id/edit', async (request, reply) => {
    const point = await points.editable(request.viewer, request.params.id);
    return reply.header('Cache-Control', 'private, no-store').send(point);
  });
  app.post('/v1/xpoint/update', async (request) => points.update(request.viewer, request.body));
  app.post('/v1/xpoint/delete', async (request) => points.remove(request.viewer, request.body));
  app.post('/v1/xpoint/claim', async (request) => points.claim(request.viewer, request.body));
  app.post('/v1/xpoint/becomeconsultant', async (request) =>
    points.becomeConsultant(request.viewer, request.body),
  );
  app.post('/v1/xpoint/clearconsultant', async (request) =>
    points.clearConsultant(request.viewer, request.body),
  );

  app.post('/v1/xpoint/media', MEDIA_ROUTE, async (request) => points.media(request.viewer, request.body));

  app.get<{ Querystring: Record<string, unknown> }>('/v1/account/mypoints', async (request, reply) => {
    const page = await listMyPoints(store, request.viewer, request.query);
    return reply.header('Cache-Control', 'private, no-store').send(page);
  });
};
