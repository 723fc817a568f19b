import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import rateLimit from '@fastify/rate-limit';
import {
  LIKES_LIMIT_WINDOW_MS,
  LIKES_PER_DAY,
  LIKES_PER_DAY_NEW_ACCOUNT,
  likeAddRequestSchema,
  likeContract,
  likeChangeTypeRequestSchema,
  likeRemoveRequestSchema,
  likeRemoveResultSchema,
  likeResultSchema,
  likersPageSchema,
  likersRequestSchema,
} from '../../../shared/api/likes';
import { AppError } from '../../../shared/errors';
import { requireViewer } from '../../auth/hook';
import type { Limits } from '../../http/rate-limits';
import { errorResponses } from '../../openapi/errors';
import type { Store } from '../../store/store';
import type { SocialEvents } from '../social/events';
import { LikeService, type LikeHooks, type LikeLimitKind } from './service';

/**
 * The likes API (issue 18; social §3, §4, §7, §8). Thin: each route hands the parsed request and
 * the viewer to the service (service.ts has the rules, queries.ts the transactions).
 *
 *   POST /v1/webonly/like/add         {objectid, objecttype, liketype}  signed in   the like, replid = likeid
 *   POST /v1/webonly/like/remove      {likeid}                          its author  the counts after it
 *   POST /v1/webonly/like/changetype  {likeid, newliketype}             its author  the like after it
 *   POST /likes/list                  {objectid, objecttype, liketype?, before?}  anyone  the likers
 */

/** Discourse's daily like limits, per person: each kind counted under its own key (Redis when set). */
export const LIKE_LIMITS: Record<LikeLimitKind, { max: number; timeWindow: number; account: string }> = {
  new: {
    max: LIKES_PER_DAY_NEW_ACCOUNT,
    timeWindow: LIKES_LIMIT_WINDOW_MS,
    account: 'an account younger than 7 days',
  },
  established: { max: LIKES_PER_DAY, timeWindow: LIKES_LIMIT_WINDOW_MS, account: 'an account' },
};

export const likeRoutes: FastifyPluginAsyncZod<{
  store: Store;
  limits: Limits;
  social?: SocialEvents;
}> = async (app, { store, limits, social }) => {
  const likes = new LikeService(store, social);

  await app.register(
    rateLimit,
    limits.plugin({ keyGenerator: (request) => `user:${request.viewer?.id ?? request.ip}` }),
  );
  const limiters = Object.fromEntries(
    (Object.keys(LIKE_LIMITS) as LikeLimitKind[]).map((kind) => [
      kind,
      app.createRateLimit({
        max: LIKE_LIMITS[kind].max,
        timeWindow: LIKE_LIMITS[kind].timeWindow,
        keyGenerator: (request) => `likes-${kind}:user:${request.viewer?.id ?? request.ip}`,
      }),
    ]),
  ) as Record<LikeLimitKind, ReturnType<typeof app.createRateLimit>>;
  const hooksOf = (request: FastifyRequest, reply: FastifyReply): LikeHooks => ({
    async check(kind) {
      // read, not counted: only a like that is really made counts (count, below), so retries and
      // the same like from two tabs never use up the day
      const read = await limiters[kind](request, { increment: false });
      if (read.isAllowed || read.remaining > 0) return;
      const seconds = Math.max(1, read.ttlInSeconds);
      reply.header('retry-after', String(seconds));
      throw new AppError('likesDailyLimit', {
        max: LIKE_LIMITS[kind].max,
        account: LIKE_LIMITS[kind].account,
        retry: waitText(seconds),
      });
    },
    async count(kind) {
      await limiters[kind](request);
    },
  });
  const signedIn = async (request: FastifyRequest) => {
    requireViewer(request.viewer);
  };
  const privately = (reply: FastifyReply) => reply.header('Cache-Control', 'private, no-store');

  app.post(
    '/v1/webonly/like/add',
    {
      preValidation: signedIn,
      schema: {
        summary: 'Like (0) or dislike (1) a post, review or comment; once per person and object',
        description:
          'Idempotent: a like that stands as asked is answered again (changed: false, counts unchanged); one of the other type is changed. replid is the likeid. At most 50 new likes a day for an account younger than 7 days, 500 for others (429 with Retry-After).',
        tags: ['likes'],
        body: likeContract(likeAddRequestSchema),
        response: {
          200: likeResultSchema,
          ...errorResponses(
            'unauthorized',
            'antiforgeryMissing',
            'invalidParam',
            'likeObjectTypeInvalid',
            'likeTypeInvalid',
            'invalidField',
            'likeObjectNotFound',
            'conflict',
            'likesDailyLimit',
          ),
        },
      },
    },
    async (request, reply) =>
      privately(reply).send(await likes.add(request.viewer, request.body, hooksOf(request, reply))),
  );

  app.post(
    '/v1/webonly/like/remove',
    {
      preValidation: signedIn,
      schema: {
        summary: "Remove one's own like",
        tags: ['likes'],
        body: likeContract(likeRemoveRequestSchema),
        response: {
          200: likeRemoveResultSchema,
          ...errorResponses(
            'unauthorized',
            'antiforgeryMissing',
            'invalidParam',
            'invalidField',
            'likeNotFound',
          ),
        },
      },
    },
    async (request, reply) => privately(reply).send(await likes.remove(request.viewer, request.body)),
  );

  app.post(
    '/v1/webonly/like/changetype',
    {
      preValidation: signedIn,
      schema: {
        summary: "Turn one's own like into a dislike or back",
        tags: ['likes'],
        body: likeContract(likeChangeTypeRequestSchema),
        response: {
          200: likeResultSchema,
          ...errorResponses(
            'unauthorized',
            'antiforgeryMissing',
            'invalidParam',
            'likeTypeInvalid',
            'invalidField',
            'likeNotFound',
          ),
        },
      },
    },
    async (request, reply) => privately(reply).send(await likes.changeType(request.viewer, request.body)),
  );

  // a read sent as POST (social §7): it writes nothing, so it needs no anti-forgery token
  app.post(
    '/likes/list',
    {
      config: { antiforgery: false },
      schema: {
        summary: "An object's likers, newest first, 20 a page",
        description:
          'liketype 0 or 1 lists one kind, absent both. `next` of a page is the `before` of the next one. isfollowed says whether the viewer follows each liker.',
        tags: ['likes'],
        body: likeContract(likersRequestSchema),
        response: {
          200: likersPageSchema,
          ...errorResponses(
            'invalidParam',
            'likeObjectTypeInvalid',
            'likeTypeInvalid',
            'invalidField',
            'likeObjectNotFound',
          ),
        },
      },
    },
    async (request, reply) => privately(reply).send(await likes.likers(request.viewer, request.body)),
  );
};

/** 23 h 59 min, 12 min, 40 s: how long until the day's limit lets another like through. */
function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.ceil((seconds % 3600) / 60);
  if (hours === 0) return `${minutes} min`;
  if (minutes === 60) return `${hours + 1} h`;
  return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`;
}
