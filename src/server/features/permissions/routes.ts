import type { FastifyPluginAsync } from 'fastify';
import type { Store } from '../../store/store';
import { PermissionService } from './service';

/**
 * GET /v1/xpoint/{id}/permissions and GET /v1/event/{id}/permissions: what the current viewer
 * (visitor or user) may do and see on that point or event. The web app shows controls from these;
 * the server's write paths call the same shared functions.
 */
export const permissionRoutes: FastifyPluginAsync<{ store: Store }> = async (app, { store }) => {
  const service = new PermissionService(store);
  app.get<{ Params: { id: string } }>('/v1/xpoint/:id/permissions', async (request, reply) => {
    const permissions = await service.forPoint(request.viewer, request.params.id);
    return reply.header('Cache-Control', 'private, no-store').send(permissions);
  });
  app.get<{ Params: { id: string } }>('/v1/event/:id/permissions', async (request, reply) => {
    const permissions = await service.forEvent(request.viewer, request.params.id);
    return reply.header('Cache-Control', 'private, no-store').send(permissions);
  });
};
