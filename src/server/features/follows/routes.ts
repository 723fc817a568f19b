import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import rateLimit from '@fastify/rate-limit';
import { z } from 'zod';
import { bodyContract } from '../../../shared/api/contract';
import {
  followErrorBodySchema,
  followListQuerySchema,
  followListSchema,
  followRequestSchema,
  followResultSchema,
} from '../../../shared/api/follows';
import { AppError, type ErrorName } from '../../../shared/errors';
import type { Limits } from '../../http/rate-limits';
import { errorResponses } from '../../openapi/errors';
import type { Store } from '../../store/store';
import type { SocialEvents } from '../social/events';
import { FollowService } from './service';

/**
 * Follows (issue 18; social §7):
 *
 *   POST /v1/follow/add      {user_id}   signed in   the person's follower count, or a refusal
 *   POST /v1/follow/unfollow {user_id}   signed in   the person's follower count (idempotent)
 *   GET  /v1/users/{username}/followers?pagenumber=&pagesize=   anyone
 *   GET  /v1/users/{username}/following?pagenumber=&pagesize=   anyone
 *
 * A refusal of the two writes is the catalogue's {errorcode, error} with its status, plus the spec's
 * {isSuccess: false, errorMessage} (the same message), so both the project's clients and the spec's
 * rule ("an object with isSuccess, errorcode, errorMessage") read it.
 */

/** Per person: 100 new follows an hour (Mastodon allows 400 a day); a person never meets it, a script does. */
export const FOLLOW_LIMIT = { max: 100, timeWindow: 3600_000 };

const FOLLOW_ERRORS: ErrorName[] = [
  'unauthorized',
  'followMissingUserId',
  'followSelf',
  'followUserNotFound',
  'alreadyFollowed',
  'rateLimited',
];

/** errorResponses' documentation, with the follow refusal's body. */
function followErrorResponses(names: ErrorName[]): Record<number, z.ZodType> {
  return Object.fromEntries(
    Object.entries(errorResponses(...names)).map(([status, schema]) => [
      status,
      followErrorBodySchema.meta({ description: z.globalRegistry.get(schema)?.description ?? '' }),
    ]),
  );
}

export const followRoutes: FastifyPluginAsyncZod<{
  store: Store;
  social: SocialEvents;
  limits: Limits;
}> = async (app, { store, social, limits }) => {
  const service = new FollowService(store, social);
  await app.register(
    rateLimit,
    limits.plugin({ keyGenerator: (request) => `user:${request.viewer?.id ?? request.ip}` }),
  );
  const limiter = app.createRateLimit({
    ...FOLLOW_LIMIT,
    keyGenerator: (request) => `follows:user:${request.viewer?.id ?? request.ip}`,
  });

  const refuse = (reply: FastifyReply, error: unknown) => {
    if (!(error instanceof AppError)) throw error;
    const body = error.toBody();
    return reply.status(error.status).send({ ...body, isSuccess: false as const, errorMessage: body.error });
  };

  const writeSchema = (summary: string, description: string, names: ErrorName[]) => ({
    summary,
    description,
    tags: ['follows'],
    body: bodyContract(followRequestSchema),
    response: { 200: followResultSchema, ...followErrorResponses(names) },
  });

  app.post(
    '/v1/follow/add',
    {
      schema: writeSchema(
        'Follow a person',
        'Answers their follower count. 122: already followed (the web shows them as followed). At most 100 new follows an hour.',
        FOLLOW_ERRORS,
      ),
    },
    async (request, reply) => {
      try {
        const followers = await service.follow(request.viewer, request.body.user_id, async () => {
          const counted = await limiter(request);
          if (counted.isAllowed || !counted.isExceeded) return;
          reply.header('retry-after', String(counted.ttlInSeconds));
          throw new AppError('rateLimited', { retry: `${Math.max(1, counted.ttlInSeconds)} s` });
        });
        return reply.header('Cache-Control', 'no-store').send(followers);
      } catch (error) {
        return refuse(reply, error);
      }
    },
  );
  app.post(
    '/v1/follow/unfollow',
    {
      schema: writeSchema(
        'Stop following a person',
        'Answers their follower count; unfollowing someone you do not follow answers it too (idempotent).',
        FOLLOW_ERRORS.filter((name) => name !== 'alreadyFollowed' && name !== 'rateLimited'),
      ),
    },
    async (request, reply) => {
      try {
        const followers = await service.unfollow(request.viewer, request.body.user_id);
        return reply.header('Cache-Control', 'no-store').send(followers);
      } catch (error) {
        return refuse(reply, error);
      }
    },
  );

  for (const side of ['followers', 'following'] as const) {
    app.get(
      `/v1/users/:username/${side}`,
      {
        schema: {
          summary: side === 'followers' ? "A person's followers" : 'Whom a person follows',
          description: 'Newest first, with whether you follow each of them.',
          tags: ['follows'],
          params: z.object({ username: z.string().max(64) }),
          querystring: followListQuerySchema,
          response: { 200: followListSchema, ...errorResponses('invalidField', 'notFound') },
        },
      },
      async (request, reply) =>
        reply
          .header('Cache-Control', 'private, no-cache')
          .send(await service.list(request.viewer, request.params.username, side, request.query)),
    );
  }
};
