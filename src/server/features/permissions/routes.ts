import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { eventPermissionsSchema, pointPermissionsSchema } from '../../../shared/api/detail-documents';
import { errorResponses } from '../../openapi/errors';
import type { Store } from '../../store/store';
import { PermissionService } from './service';

/**
 * GET /v1/xpoint/{id}/permissions and GET /v1/event/{id}/permissions: what the current viewer
 * (visitor or user) may do and see on that point or event. The web app shows controls from these;
 * the server's write paths call the same shared functions.
 */
export const permissionRoutes: FastifyPluginAsyncZod<{ store: Store }> = async (app, { store }) => {
  const service = new PermissionService(store);
  const params = z.object({ id: z.string() });
  app.get(
    '/v1/xpoint/:id/permissions',
    {
      schema: {
        summary: 'What the viewer may do on a point',
        tags: ['permissions'],
        params,
        response: { 200: pointPermissionsSchema, ...errorResponses('invalidParam', 'pointNotFound') },
      },
    },
    async (request, reply) => {
      const permissions = await service.forPoint(request.viewer, request.params.id);
      return reply.header('Cache-Control', 'private, no-store').send(permissions);
    },
  );
  app.get(
    '/v1/event/:id/permissions',
    {
      schema: {
        summary: 'What the viewer may do on an event',
        tags: ['permissions'],
        params,
        response: { 200: eventPermissionsSchema, ...errorResponses('invalidEventId', 'eventNotFound') },
      },
    },
    async (request, reply) => {
      const permissions = await service.forEvent(request.viewer, request.params.id);
      return reply.header('Cache-Control', 'private, no-store').send(permissions);
    },
  );
};
