import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import type { Store } from '../../store/store';
import { mediaDirOf } from '../accounts/service';
import { MEDIA_ROUTE } from '../points/media';
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
export const eventWriteRoutes: FastifyPluginAsync<{ config: Config; store: Store }> = async (
  app,
  { config, store },
) => {
  const events = new EventService(store, { mediaDir: mediaDirOf(config.dataDir) });

  app.post('/v1/event/create', async (request, reply) =>
    reply.status(201).send(await events.create(request.viewer, request.body)),
  );
  app.get<{ Params: { id: string } }>('/v1/event/:id/edit', async (request, reply) => {
    const event = await events.editable(request.viewer, request.params.id);
    return reply.header('Cache-Control', 'private, no-store').send(event);
  });
  app.post('/v1/event/update', async (request) => events.update(request.viewer, request.body));
  app.post('/v1/event/delete', async (request) => events.remove(request.viewer, request.body));
  app.post('/v1/event/media', MEDIA_ROUTE, async (request) => events.cover(request.viewer, request.body));
};
