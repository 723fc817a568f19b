import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { ANTIFORGERY_HEADER } from '../../../shared/api/accounts';
import { bodyContract, catalogueParser } from '../../../shared/api/contract';
import {
  claimDecisionRequestSchema,
  claimDecisionResponseSchema,
  claimQueueResponseSchema,
  claimRequestSchema,
  consultantRequestAnswerSchema,
  consultantRequestsResponseSchema,
  createPointRequestSchema,
  duplicateErrorSchema,
  duplicatesRequestSchema,
  duplicatesResponseSchema,
  editablePointSchema,
  myPointsResponseSchema,
  pointIdRequestSchema,
  pointMediaFormSchema,
  pointMediaRequestSchema,
  pointMediaResponseSchema,
  type PointMediaRequest,
  pointPeopleResponseSchema,
  pointWriteResponseSchema,
  updatePointRequestSchema,
  type PointPeopleResponse,
} from '../../../shared/api/points';
import { deleteResponseSchema } from '../../../shared/api/writes';
import { AppError, ERRORS, type ErrorName } from '../../../shared/errors';
import { VISITOR_COOKIE, requireViewer, type Auth } from '../../auth/hook';
import { errorResponses } from '../../openapi/errors';
import type { Store } from '../../store/store';
import { MAX_VIDEO_BYTES, MEDIA_DESCRIPTION, MEDIA_ROUTE, mediaBody } from './media';
import type { MediaPlace } from '../../media/store';
import { readMultipartUpload } from '../../media/upload';
import { PeopleService } from './people';
import { PointService, listMyPoints, parseMyPointsQuery } from './service';
import type { Limits } from '../../http/rate-limits';

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
 *   POST /v1/xpoint/delete            owner, admin      {ok, id}
 *   POST /v1/xpoint/claim             signed in         202 {id, url, owner_username, consultant_username, version, status: pending}
 *   POST /v1/xpoint/becomeconsultant  signed in         same (owned point: 202 pending; unowned: 200 done)
 *   POST /v1/xpoint/clearconsultant   consultant, owner, admin   same, 200 done
 *   GET  /v1/xpoint/consultantrequests?id=             owner, admin   {id, items}
 *   POST /v1/xpoint/consultantrequest/{accept,decline} owner, admin   {id, username} -> the people
 *   GET  /v1/admin/claims                               admins   {items}
 *   POST /v1/admin/claims/{approve,decline}             admins   {id} -> {id, status, point_id, url, owner_username}
 * Who may is the authorisation table's (src/shared/permissions/matrix.ts).
 *   POST /v1/xpoint/media             controllers       {id, slot, position, url, version}
 *   GET  /v1/account/mypoints?supertype=&pagenumber=&pagesize=
 */
export const pointWriteRoutes: FastifyPluginAsyncZod<{
  store: Store;
  auth: Auth;
  media: MediaPlace;
  limits: Limits;
}> = async (app, { store, auth, media, limits }) => {
  const points = new PointService(store, { media });
  const people = new PeopleService(store);

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

  await app.register(
    rateLimit,
    limits.plugin({
      // after the auth hook, so a signed-in person is counted as themselves wherever they connect from;
      // before the body is checked, so refused bodies count too
      hook: 'preValidation',
      keyGenerator: (request) => (request.viewer ? `user:${request.viewer.id}` : `ip:${request.ip}`),
    }),
  );

  const writeErrors = ['badRequest', 'invalidField', 'unauthorized', 'antiforgeryMissing'] as const;
  const write = <B extends z.ZodType, R extends z.ZodType>(
    summary: string,
    body: B,
    ok: R,
    ...errors: ErrorName[]
  ) => ({
    summary,
    tags: ['points'],
    body: bodyContract(body),
    response: { 200: ok, ...errorResponses(...writeErrors, ...errors) },
  });

  app.post(
    '/v1/xpoint/create',
    {
      // before the body is read: a visitor without the token is refused whatever the form holds
      preValidation: visitorAntiforgery,
      config: { rateLimit: CREATE_LIMIT },
      schema: {
        summary: 'Add a point',
        description:
          'Answers 201 with a Location. A similar place within 100 m answers 409 possibleDuplicate with the candidates, unless confirmNotDuplicate is sent.',
        tags: ['points'],
        body: bodyContract(createPointRequestSchema),
        response: {
          201: pointWriteResponseSchema,
          ...errorResponses(
            ...writeErrors,
            'unknownSupertype',
            'unknownType',
            'fieldNotForSupertype',
            'invalidOpeningHours',
            'pickupNeedsTime',
            'helpRequestNeedsAccount',
            'rateLimited',
          ),
          409: duplicateErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const result = await points.create(request.viewer, request.body);
      if ('duplicates' in result) {
        const error = new AppError('possibleDuplicate', {
          titles: result.duplicates.map((c) => `"${c.title}" (${c.distance_m} m)`).join(', '),
        });
        const errorcode = ERRORS.possibleDuplicate.code;
        return reply.status(409).send({ errorcode, error: error.message, candidates: result.duplicates });
      }
      return reply.status(201).header('Location', result.created.url).send(result.created);
    },
  );

  // a search sent as POST: it writes nothing, so it needs no anti-forgery token
  app.post(
    '/v1/xpoint/duplicates',
    {
      config: { antiforgery: false },
      schema: {
        summary: 'Similar places within 100 m of a new one',
        tags: ['points'],
        body: bodyContract(duplicatesRequestSchema),
        response: { 200: duplicatesResponseSchema, ...errorResponses('badRequest', 'invalidField') },
      },
    },
    async (request) => ({ candidates: await points.duplicates(request.body) }),
  );

  app.get(
    '/v1/xpoint/:id/edit',
    {
      schema: {
        summary: "A point's editable fields and version, for the edit and copy forms",
        tags: ['points'],
        params: z.object({ id: z.string() }),
        response: {
          200: editablePointSchema,
          ...errorResponses('unauthorized', 'forbidden', 'invalidParam', 'pointNotFound'),
        },
      },
    },
    async (request, reply) => {
      const point = await points.editable(request.viewer, request.params.id);
      return reply.header('Cache-Control', 'private, no-store').send(point);
    },
  );
  app.post(
    '/v1/xpoint/update',
    {
      schema: write(
        'Change a point (send the version you read; a stale one is a 409)',
        updatePointRequestSchema,
        pointWriteResponseSchema,
        'conflict',
        'forbidden',
        'pointNotFound',
        'supertypeChange',
        'unknownType',
        'fieldNotForSupertype',
        'invalidOpeningHours',
        'pickupNeedsTime',
      ),
    },
    async (request) => points.update(request.viewer, request.body),
  );
  app.post(
    '/v1/xpoint/delete',
    {
      schema: write(
        'Delete a point',
        pointIdRequestSchema,
        deleteResponseSchema,
        'forbidden',
        'pointNotFound',
      ),
    },
    async (request) => points.remove(request.viewer, request.body),
  );
  // a claim, and a request to consult an owned point, are recorded for someone to decide: 202 pending
  const answerPeople = (reply: FastifyReply, answer: PointPeopleResponse) =>
    reply.status(answer.status === 'pending' ? 202 : 200).send(answer);
  const peopleWrite = <B extends z.ZodType>(
    summary: string,
    description: string,
    body: B,
    ...errors: ErrorName[]
  ) => ({
    ...write(summary, body, pointPeopleResponseSchema, ...errors),
    description,
    response: {
      200: pointPeopleResponseSchema,
      202: pointPeopleResponseSchema,
      ...errorResponses(...writeErrors, ...errors),
    },
  });
  app.post(
    '/v1/xpoint/claim',
    {
      schema: peopleWrite(
        'Claim a point as its owner (a request an admin decides)',
        'Records a pending claim (202, status pending) and shows the point as verification pending; the claimant controls nothing until an admin approves it. Claiming again answers the same claim.',
        claimRequestSchema,
        'pointAlreadyOwned',
        'claimTextNotAllowed',
        'pointNotFound',
      ),
    },
    async (request, reply) => answerPeople(reply, await people.claim(request.viewer, request.body)),
  );
  app.post(
    '/v1/xpoint/becomeconsultant',
    {
      schema: peopleWrite(
        "Become a point's consultant (of an owned point: a request its owner answers)",
        'On an owned point, records a request its owner accepts or declines (202, status pending; asking again answers the same request); on an unowned point, takes effect at once (200, status done).',
        pointIdRequestSchema,
        'pointHasConsultant',
        'ownerCannotConsult',
        'consultingNotAllowed',
        'reportHasNoConsultant',
        'pointNotFound',
      ),
    },
    async (request, reply) =>
      answerPeople(reply, await people.becomeConsultant(request.viewer, request.body)),
  );
  app.post(
    '/v1/xpoint/clearconsultant',
    {
      schema: write(
        'End consulting on a point (the consultant, the owner or an admin)',
        pointIdRequestSchema,
        pointPeopleResponseSchema,
        'notConsultant',
        'pointHasNoConsultant',
        'pointNotFound',
      ),
    },
    async (request) => people.clearConsultant(request.viewer, request.body),
  );
  app.get(
    '/v1/xpoint/consultantrequests',
    {
      schema: {
        summary: "The pending requests to consult a point (its owner's or an admin's)",
        tags: ['points'],
        querystring: z.object({ id: z.string() }),
        response: {
          200: consultantRequestsResponseSchema,
          ...errorResponses('unauthorized', 'forbidden', 'invalidParam', 'pointNotFound'),
        },
      },
    },
    async (request, reply) => {
      const list = await people.consultantRequests(request.viewer, request.query.id);
      return reply.header('Cache-Control', 'private, no-store').send(list);
    },
  );
  for (const answer of ['accept', 'decline'] as const)
    app.post(
      `/v1/xpoint/consultantrequest/${answer}`,
      {
        schema: write(
          answer === 'accept'
            ? 'Accept a request to consult (the owner or an admin): its user becomes the consultant'
            : 'Decline a request to consult (the owner or an admin)',
          consultantRequestAnswerSchema,
          pointPeopleResponseSchema,
          'forbidden',
          'pointNotFound',
          'consultantRequestNotFound',
          'pointHasConsultant',
          'consultingNotAllowed',
        ),
      },
      async (request) => people.answerRequest(request.viewer, request.body, answer === 'accept'),
    );
  app.get(
    '/v1/admin/claims',
    {
      schema: {
        summary: 'The pending claims, oldest first (admins only)',
        tags: ['points'],
        response: { 200: claimQueueResponseSchema, ...errorResponses('unauthorized', 'forbidden') },
      },
    },
    async (request, reply) => {
      const queue = await people.claimQueue(request.viewer);
      return reply.header('Cache-Control', 'private, no-store').send(queue);
    },
  );
  for (const decision of ['approve', 'decline'] as const)
    app.post(
      `/v1/admin/claims/${decision}`,
      {
        schema: {
          ...write(
            decision === 'approve'
              ? 'Approve a claim (admins): the claimant owns the point, verified; other claims on it are declined'
              : 'Decline a claim (admins): the point returns to its earlier health status',
            claimDecisionRequestSchema,
            claimDecisionResponseSchema,
            'forbidden',
            'claimNotFound',
            'pointAlreadyOwned',
          ),
          tags: ['admin'],
        },
      },
      async (request) => people.decideClaim(request.viewer, request.body, decision === 'approve'),
    );

  // media: an image as JSON (a data URL, up to 10 MB) or any file as multipart/form-data, streamed;
  // multipart is understood in this route's own scope, nowhere else
  await app.register(async (scope) => {
    await scope.register(multipart);
    const { body: _json, ...schema } = write(
      "Set or remove a point's cover image, cover video, logo, a screenshot or a health photo",
      pointMediaRequestSchema,
      pointMediaResponseSchema,
      'mediaSlotInvalid',
      'invalidImage',
      'invalidImageSize',
      'invalidVideo',
      'invalidVideoSize',
      'videoEmpty',
      'videoNeedsMultipart',
      'forbidden',
      'pointNotFound',
      'conflict',
    );
    scope.post(
      '/v1/xpoint/media',
      {
        ...MEDIA_ROUTE,
        schema: {
          ...schema,
          description: MEDIA_DESCRIPTION,
          body: mediaBody(pointMediaRequestSchema, pointMediaFormSchema),
        },
      },
      async (request) =>
        request.isMultipart()
          ? points.mediaUpload(request.viewer, await readMultipartUpload(request, MAX_VIDEO_BYTES))
          : points.media(request.viewer, request.body as PointMediaRequest),
    );
  });

  // lenient like profiles: a repeated or bad paging value means the default, so any text is taken
  const queryText = z.union([z.string(), z.array(z.string())]).optional();
  const myPointsQuery = z
    .looseObject({
      supertype: queryText.meta({ description: "a point supertype, or 'event'; all or none for every one" }),
      pagenumber: queryText.meta({ description: 'from 1; a bad value means 1' }),
      pagesize: queryText.meta({ description: 'up to 96; a bad value means 12' }),
    })
    .transform(catalogueParser((query) => parseMyPointsQuery(query)));
  app.get(
    '/v1/account/mypoints',
    {
      // a visitor is told to sign in before anything about the query
      preValidation: async (request) => {
        requireViewer(request.viewer);
      },
      schema: {
        summary: "The signed-in user's points (owned or consulted) and events, one page",
        tags: ['points'],
        querystring: myPointsQuery,
        response: { 200: myPointsResponseSchema, ...errorResponses('unauthorized', 'unknownSupertype') },
      },
    },
    async (request, reply) => {
      const page = await listMyPoints(store, request.viewer, request.query);
      return reply.header('Cache-Control', 'private, no-store').send(page);
    },
  );
};
