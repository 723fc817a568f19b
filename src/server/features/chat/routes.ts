import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  chatInboxPageSchema,
  chatInboxQuerySchema,
  chatMarkReadSchema,
  chatMessagesPageSchema,
  chatMessagesQuerySchema,
  chatUnreadSchema,
} from '../../../shared/api/chat';
import { bodyContract } from '../../../shared/api/contract';
import { errorResponses } from '../../openapi/errors';
import type { ChatService } from './service';

const pointParams = z.object({ pointid: z.string().max(64).meta({ description: 'the point id' }) });

/**
 * Chat with a point (issue 22), the signed-in person's own conversations:
 *
 *   GET  /v1/chat/conversations?before=&limit=                 inbox, newest first (keyset)
 *   GET  /v1/chat/unread                                       {unread}
 *   GET  /v1/chat/points/{pointid}?visitor=&before=&after=     lines, paged backwards by id
 *   POST /v1/chat/points/{pointid}/read {visitor?, upto}       read receipt
 *
 * Lines are sent over the realtime socket (`chat:{pointid}`, realtime/hub.ts), never here.
 */
export const chatRoutes: FastifyPluginAsyncZod<{ chat: ChatService }> = async (app, { chat }) => {
  app.get(
    '/v1/chat/conversations',
    {
      schema: {
        summary: 'Your conversations, newest first',
        description:
          'As a visitor of points, and as the owner or consultant of points. `next` is the cursor of the following page.',
        tags: ['chat'],
        querystring: chatInboxQuerySchema,
        response: {
          200: chatInboxPageSchema,
          ...errorResponses('invalidField', 'unauthorized', 'chatInboxCursorInvalid'),
        },
      },
    },
    async (request, reply) =>
      reply.header('Cache-Control', 'no-store').send(await chat.inbox(request.viewer, request.query)),
  );
  app.get(
    '/v1/chat/unread',
    {
      schema: {
        summary: 'How many of your conversations have unread lines',
        tags: ['chat'],
        response: { 200: chatUnreadSchema, ...errorResponses('unauthorized') },
      },
    },
    async (request, reply) =>
      reply.header('Cache-Control', 'no-store').send({ unread: await chat.unread(request.viewer) }),
  );
  app.get(
    '/v1/chat/points/:pointid',
    {
      schema: {
        summary: 'A conversation with a point: its lines, newest page first',
        description:
          'A visitor reads their own conversation; the owner and consultant name the visitor (`visitor`). `before` pages backwards by line id; `after` answers the lines newer than an id, oldest first (catching up after a reconnect).',
        tags: ['chat'],
        params: pointParams,
        querystring: chatMessagesQuerySchema,
        response: {
          200: chatMessagesPageSchema,
          ...errorResponses(
            'invalidField',
            'unauthorized',
            'pointNotFound',
            'chatOwnPoint',
            'chatConversationForbidden',
            'chatConversationNotFound',
          ),
        },
      },
    },
    async (request, reply) =>
      reply
        .header('Cache-Control', 'no-store')
        .send(await chat.messages(request.viewer, request.params.pointid, request.query)),
  );
  app.post(
    '/v1/chat/points/:pointid/read',
    {
      schema: {
        summary: 'Mark a conversation read up to a line',
        description:
          'The other side sees the receipt live (`read` on `chat:{pointid}`). Answers your unread count.',
        tags: ['chat'],
        params: pointParams,
        body: bodyContract(chatMarkReadSchema),
        response: {
          200: chatUnreadSchema,
          ...errorResponses(
            'invalidField',
            'unauthorized',
            'pointNotFound',
            'chatOwnPoint',
            'chatConversationForbidden',
            'chatConversationNotFound',
            'chatReadBeyond',
          ),
        },
      },
    },
    async (request, reply) =>
      reply
        .header('Cache-Control', 'no-store')
        .send(await chat.markRead(request.viewer, request.params.pointid, request.body)),
  );
};
