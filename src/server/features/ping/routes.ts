import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PING_PATH, pingAnswerSchema, pingRequestSchema } from '../../../shared/api/ping';
import { AppError } from '../../../shared/errors';
import { errorResponses } from '../../openapi/errors';
import type { Store } from '../../store/store';
import { StoreProbe } from './probe';

/**
 * `POST /v1/webonly/ping` (social §4, §7): the browser's connection pinger asks every 27 s (17 s after
 * a failure) whether the server answers. Answered from memory but for the store's health, which is
 * asked at most once a second for all pings (probe.ts): a server whose store is gone is "not
 * responding" for its users, and the 503's text is what the banner shows as the detail.
 */
export const pingRoutes: FastifyPluginAsyncZod<{ store: Store }> = async (app, { store }) => {
  const probe = new StoreProbe(store);
  app.post(
    PING_PATH,
    {
      // reads nothing a visitor could be tricked into, writes nothing: no anti-forgery token
      config: { antiforgery: false },
      schema: {
        summary: 'The connection pinger: whether the server and its store answer',
        description:
          'Sent by every open page every 27 s (every 17 s after a failure) with an empty JSON body. Answers the server time; never cached.',
        tags: ['health'],
        body: pingRequestSchema,
        response: {
          200: pingAnswerSchema,
          ...errorResponses('pingBodyNotEmpty', 'invalidField', 'storeUnavailable'),
        },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      if (!(await probe.ok())) throw new AppError('storeUnavailable');
      return { status: 'ok' as const, time: new Date().toISOString() };
    },
  );
};
