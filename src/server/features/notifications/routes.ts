import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bodyContract } from '../../../shared/api/contract';
import {
  markReadRequestSchema,
  notificationListQuerySchema,
  notificationPageSchema,
  unreadSchema,
} from '../../../shared/api/notifications';
import { errorResponses } from '../../openapi/errors';
import type { Store } from '../../store/store';
import type { SocialEvents } from '../social/events';
import { NotificationService } from './service';

/**
 * In-app notifications (issue 18), the signed-in person's own:
 *
 *   GET  /v1/notifications?before=&limit=   grouped items, newest first, keyset pages of 20
 *   GET  /v1/notifications/unread           {unread}
 *   POST /v1/notifications/read {upto?}     marks read (all, or ids up to `upto`); answers {unread}
 *
 * The social events' `notify` writes them (service.ts) and pushes each on `user:{recipient}`.
 */
export const notificationRoutes: FastifyPluginAsyncZod<{ store: Store; social: SocialEvents }> = async (
  app,
  { store, social },
) => {
  const service = new NotificationService(store, social, app.log);
  const stop = service.listen();
  app.addHook('onClose', async () => stop());

  app.get(
    '/v1/notifications',
    {
      schema: {
        summary: 'Your notifications, grouped, newest first',
        description:
          'Likes of one object on one day and follows on one day fold into one item ("Ana and 3 others liked your post"). `next` is the cursor of the following page.',
        tags: ['notifications'],
        querystring: notificationListQuerySchema,
        response: {
          200: notificationPageSchema,
          ...errorResponses('invalidField', 'unauthorized', 'notificationCursorInvalid'),
        },
      },
    },
    async (request, reply) =>
      reply.header('Cache-Control', 'no-store').send(await service.list(request.viewer, request.query)),
  );
  app.get(
    '/v1/notifications/unread',
    {
      schema: {
        summary: 'How many of your notifications are unread',
        tags: ['notifications'],
        response: { 200: unreadSchema, ...errorResponses('unauthorized') },
      },
    },
    async (request, reply) =>
      reply.header('Cache-Control', 'no-store').send({ unread: await service.unread(request.viewer) }),
  );
  app.post(
    '/v1/notifications/read',
    {
      schema: {
        summary: 'Mark your notifications read',
        description: 'All of them, or with `upto` those whose id is at most it (an item’s `id`).',
        tags: ['notifications'],
        body: bodyContract(markReadRequestSchema),
        response: { 200: unreadSchema, ...errorResponses('invalidField', 'unauthorized') },
      },
    },
    async (request, reply) =>
      reply
        .header('Cache-Control', 'no-store')
        .send({ unread: await service.markRead(request.viewer, request.body.upto) }),
  );
};
