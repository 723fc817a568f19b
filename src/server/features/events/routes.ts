import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bodyContract } from '../../../shared/api/contract';
import {
  createEventRequestSchema,
  editableEventSchema,
  eventIdRequestSchema,
  eventMediaFormSchema,
  eventMediaRequestSchema,
  eventMediaResponseSchema,
  type EventMediaRequest,
  eventWriteResponseSchema,
  updateEventRequestSchema,
} from '../../../shared/api/events';
import { deleteResponseSchema } from '../../../shared/api/writes';
import type { ErrorName } from '../../../shared/errors';
import { errorResponses } from '../../openapi/errors';
import type { Store } from '../../store/store';
import { MAX_IMAGE_BYTES, MEDIA_DESCRIPTION, MEDIA_ROUTE, mediaBody } from '../points/media';
import type { MediaPlace } from '../../media/store';
import { readMultipartUpload } from '../../media/upload';
import { EventService } from './service';

/**
 * The event write API (issue 8). Thin: each route hands the body and the viewer to the service and
 * shapes the answer; the rules (who may, what is valid) are in service.ts and src/shared/api/events.ts.
 * Every call needs a signed-in owner (or an admin), so none has the visitor's anti-forgery check or
 * the create limit that adding points has.
 *
 *   POST /v1/event/create     signed in (and the parent point's controller)  201 {id, url, version, xpoint_id}
 *   GET  /v1/event/{id}/edit  owner, admin   the editable fields and version
 *   POST /v1/event/update     owner, admin   {id, url, version, xpoint_id}
 *   POST /v1/event/delete     owner, admin   {ok, id}
 *   POST /v1/event/media      owner, admin   {id, cover_url, version}
 */
export const eventWriteRoutes: FastifyPluginAsyncZod<{ store: Store; media: MediaPlace }> = async (
  app,
  { store, media },
) => {
  const events = new EventService(store, { media });

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
  const eventRules: ErrorName[] = ['unknownType', 'endBeforeStart', 'dateBefore1901', 'paidNeedsPrice'];

  app.post(
    '/v1/event/create',
    {
      schema: {
        summary: 'Add an event (xpoint_id makes it a child of that point)',
        tags: ['points'],
        body: bodyContract(createEventRequestSchema),
        response: {
          201: eventWriteResponseSchema,
          ...errorResponses(
            ...writeErrors,
            ...eventRules,
            'eventNeedsLocation',
            'forbidden',
            'pointNotFound',
          ),
        },
      },
    },
    async (request, reply) => reply.status(201).send(await events.create(request.viewer, request.body)),
  );
  app.get(
    '/v1/event/:id/edit',
    {
      schema: {
        summary: "An event's editable fields and version, for the edit and copy forms",
        tags: ['points'],
        params: z.object({ id: z.string() }),
        response: {
          200: editableEventSchema,
          ...errorResponses('unauthorized', 'forbidden', 'invalidEventId', 'eventNotFound'),
        },
      },
    },
    async (request, reply) => {
      const event = await events.editable(request.viewer, request.params.id);
      return reply.header('Cache-Control', 'private, no-store').send(event);
    },
  );
  app.post(
    '/v1/event/update',
    {
      schema: write(
        'Change an event (send the version you read; a stale one is a 409)',
        updateEventRequestSchema,
        eventWriteResponseSchema,
        ...eventRules,
        'conflict',
        'forbidden',
        'eventNotFound',
      ),
    },
    async (request) => events.update(request.viewer, request.body),
  );
  app.post(
    '/v1/event/delete',
    {
      schema: write(
        'Delete an event',
        eventIdRequestSchema,
        deleteResponseSchema,
        'forbidden',
        'eventNotFound',
      ),
    },
    async (request) => events.remove(request.viewer, request.body),
  );
  // the cover: JSON (a data URL) or multipart/form-data, streamed; multipart in this route's scope only
  await app.register(async (scope) => {
    await scope.register(multipart);
    const { body: _json, ...schema } = write(
      "Set or remove an event's cover image",
      eventMediaRequestSchema,
      eventMediaResponseSchema,
      'invalidImage',
      'invalidImageSize',
      'forbidden',
      'eventNotFound',
      'conflict',
    );
    scope.post(
      '/v1/event/media',
      {
        ...MEDIA_ROUTE,
        schema: {
          ...schema,
          description: MEDIA_DESCRIPTION,
          body: mediaBody(eventMediaRequestSchema, eventMediaFormSchema),
        },
      },
      async (request) =>
        request.isMultipart()
          ? events.coverUpload(request.viewer, await readMultipartUpload(request, MAX_IMAGE_BYTES))
          : events.cover(request.viewer, request.body as EventMediaRequest),
    );
  });
};
