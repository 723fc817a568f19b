import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { profileQuerySchema, profileResponseSchema } from '../../../shared/api/profiles';
import { errorResponses } from '../../openapi/errors';
import type { Store } from '../../store/store';
import { ProfileService } from './service';

/**
 * GET /v1/users/{username}?pagenumber=1&pagesize=12&supertype=: a public profile with one page of the
 * user's points. Paging values that are missing or out of range fall back to the defaults (1 and 12)
 * instead of failing: see parsePagingValue in src/shared/api/profiles.ts.
 */
export const profileRoutes: FastifyPluginAsyncZod<{ store: Store }> = async (app, { store }) => {
  const service = new ProfileService(store);
  app.get(
    '/v1/users/:username',
    {
      schema: {
        summary: 'A public profile with one page of its points',
        description: 'Never an email address: this is what anyone may see of a person.',
        tags: ['profiles'],
        params: z.object({ username: z.string() }),
        querystring: profileQuerySchema,
        response: { 200: profileResponseSchema, ...errorResponses('invalidField', 'notFound') },
      },
    },
    async (request, reply) => {
      const profile = await service.profile(request.viewer, request.params.username, request.query);
      // it changes with every new point or post, and its posts with who asks (a hidden post is shown
      // to its author): revalidated every time, never kept by a shared cache
      return reply.header('Cache-Control', 'private, no-cache').send(profile);
    },
  );
};
