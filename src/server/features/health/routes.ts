import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../shared/errors';
import { errorResponses } from '../../openapi/errors';
import type { Store } from '../../store/store';

/** `GET /healthz`: 200 {"status":"ok"} only when the store answers, for load balancers and start scripts. */
export const healthRoutes: FastifyPluginAsyncZod<{ store: Store }> = async (app, { store }) => {
  app.get(
    '/healthz',
    {
      schema: {
        summary: 'Whether the server and its store answer',
        tags: ['health'],
        response: { 200: z.object({ status: z.literal('ok') }), ...errorResponses('storeUnavailable') },
      },
    },
    async (_request, reply) => {
      if (!(await store.ping())) throw new AppError('storeUnavailable');
      return reply.header('Cache-Control', 'no-store').send({ status: 'ok' as const });
    },
  );
};
