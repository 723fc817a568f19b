import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import rateLimit from '@fastify/rate-limit';
import {
  COMMENT_INTERVAL_MS,
  commentContract,
  commentAddRequestSchema,
  commentAddResponseSchema,
  commentEditRequestSchema,
  commentEditResponseSchema,
  commentPageRequestSchema,
  commentPageSchema,
  commentRemoveRequestSchema,
  commentRemoveResponseSchema,
} from '../../../shared/api/comments';
import { AppError } from '../../../shared/errors';
import { requireViewer } from '../../auth/hook';
import type { Limits } from '../../http/rate-limits';
import { errorResponses } from '../../openapi/errors';
import type { Store } from '../../store/store';
import type { SocialEvents } from '../social/events';
import { CommentService, type CommentHooks } from './service';

/**
 * The comments API (issue 18; social §7). Thin: each route hands the parsed body and the viewer to
 * the service (service.ts has the rules).
 *
 *   POST /v1/webonly/comment/loadpage_beforeid  anyone       a page, newest first, keyset on the id
 *   POST /v1/webonly/comment/add                signed in    one comment per 5 s per person
 *   POST /v1/webonly/comment/edit               its author
 *   POST /v1/webonly/comment/remove             its author, the post's author, admins
 *
 * The 5-second rate is counted per person by the rate-limit plugin (in Redis with REDIS_URL, so
 * every process shares it); the same-text rule reads the store.
 */
export const commentRoutes: FastifyPluginAsyncZod<{
  store: Store;
  limits: Limits;
  social?: SocialEvents;
}> = async (app, { store, limits, social }) => {
  const comments = new CommentService(store, social);

  await app.register(
    rateLimit,
    limits.plugin({ keyGenerator: (request) => `user:${request.viewer?.id ?? request.ip}` }),
  );
  const interval = app.createRateLimit({
    max: 1,
    timeWindow: COMMENT_INTERVAL_MS,
    keyGenerator: (request) => `comments-add:user:${request.viewer?.id ?? request.ip}`,
  });
  const hooksOf = (request: FastifyRequest, reply: FastifyReply): CommentHooks => ({
    async limit() {
      const counted = await interval(request);
      if (counted.isAllowed || !counted.isExceeded) return;
      const seconds = Math.max(1, counted.ttlInSeconds);
      reply.header('retry-after', String(seconds));
      throw new AppError('commentTooSoon', { retry: `${seconds} s` });
    },
  });
  const signedIn = async (request: FastifyRequest) => {
    requireViewer(request.viewer);
  };
  const privately = (reply: FastifyReply) => reply.header('Cache-Control', 'private, no-store');

  // reading a page writes nothing: a POST by the spec, without the anti-forgery token
  app.post(
    '/v1/webonly/comment/loadpage_beforeid',
    {
      config: { antiforgery: false },
      schema: {
        summary: "A page of an object's comments, newest first, older than beforeid",
        description:
          'Keyset paging on the comment id (ids are time-ordered): beforeid empty gives the newest page; pass the last replid of a page to get the next. pagesize 10 by default, at most 50; hasmore says whether older comments remain.',
        tags: ['comments'],
        body: commentContract(commentPageRequestSchema),
        response: {
          200: commentPageSchema,
          ...errorResponses('badRequest', 'invalidParam', 'invalidField', 'commentObjectNotFound'),
        },
      },
    },
    async (request, reply) => privately(reply).send(await comments.page(request.viewer, request.body)),
  );

  app.post(
    '/v1/webonly/comment/add',
    {
      preValidation: signedIn,
      schema: {
        summary: 'Comment on an object (a post)',
        description:
          'text is trimmed, 1 to 2000 characters. One comment per person every 5 seconds (429 with Retry-After), and the same text on the same object not twice within 5 minutes (409).',
        tags: ['comments'],
        body: commentContract(commentAddRequestSchema),
        response: {
          200: commentAddResponseSchema,
          ...errorResponses(
            'unauthorized',
            'antiforgeryMissing',
            'badRequest',
            'invalidParam',
            'invalidField',
            'commentObjectNotFound',
            'commentDuplicate',
            'commentTooSoon',
            'payloadTooLarge',
          ),
        },
      },
    },
    async (request, reply) =>
      privately(reply).send(await comments.add(request.viewer, request.body, hooksOf(request, reply))),
  );

  app.post(
    '/v1/webonly/comment/edit',
    {
      preValidation: signedIn,
      schema: {
        summary: "Change a comment's text (its author only)",
        tags: ['comments'],
        body: commentContract(commentEditRequestSchema),
        response: {
          200: commentEditResponseSchema,
          ...errorResponses(
            'unauthorized',
            'antiforgeryMissing',
            'badRequest',
            'invalidParam',
            'invalidField',
            'commentNotFound',
            'commentNotAuthor',
            'payloadTooLarge',
          ),
        },
      },
    },
    async (request, reply) => privately(reply).send(await comments.edit(request.viewer, request.body)),
  );

  app.post(
    '/v1/webonly/comment/remove',
    {
      preValidation: signedIn,
      schema: {
        summary: "Remove a comment (its author, the post's author, or an admin)",
        tags: ['comments'],
        body: commentContract(commentRemoveRequestSchema),
        response: {
          200: commentRemoveResponseSchema,
          ...errorResponses(
            'unauthorized',
            'antiforgeryMissing',
            'badRequest',
            'invalidParam',
            'invalidField',
            'commentNotFound',
            'commentRemoveForbidden',
          ),
        },
      },
    },
    async (request, reply) => privately(reply).send(await comments.remove(request.viewer, request.body)),
  );
};
