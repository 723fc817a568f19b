import type { FastifyPluginAsync } from 'fastify';
import { parseProfileQuery } from '../../../shared/api/profiles';
import type { Store } from '../../store/store';
import { ProfileService } from './service';

/**
 * GET /v1/users/{username}?pagenumber=1&pagesize=12&supertype=: a public profile with one page of the
 * user's points. Paging values that are missing or out of range fall back to the defaults (1 and 12)
 * instead of failing: see parsePagingValue in src/shared/api/profiles.ts.
 */
export const profileRoutes: FastifyPluginAsync<{ store: Store }> = async (app, { store }) => {
  const service = new ProfileService(store);
  app.get<{ Params: { username: string }; Querystring: Record<string, unknown> }>(
    '/v1/users/:username',
    async (request, reply) => {
      const profile = await service.profile(request.params.username, parseProfileQuery(request.query));
      // public, but it changes with every new point or post: always revalidate
      return reply.header('Cache-Control', 'no-cache').send(profile);
    },
  );
};
