import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../../shared/errors';
import type { Store } from '../../store/store';

/** `GET /healthz`: 200 {"status":"ok"} only when the store answers, for load balancers and start scripts. */
export const healthRoutes: FastifyPluginAsync<{ store: Store }> = async (app, { store }) => {
  app.get('/healthz', async (_request, reply) => {
    if (!(await store.ping())) throw new AppError('storeUnavailable');
    return reply.header('Cache-Control', 'no-store').send({ status: 'ok' });
  });
};
