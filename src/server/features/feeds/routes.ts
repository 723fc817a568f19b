import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  FEED_MAX_PAGE_SIZE,
  FEED_PAGE_SIZE,
  landingFeedPageSchema,
  landingFeedRequestSchema,
} from '../../../shared/api/home';
import { documentedOnly } from '../../http/contract';
import { errorResponses } from '../../openapi/errors';
import type { ChangeFollower } from '../../store/follower';
import type { Store } from '../../store/store';
import { acceptFormFields } from '../locations/formFields';
import type { SocialEvents } from '../social/events';
import { feedFragment } from './html';
import { followNewPosts } from './live';
import { LandingFeedService } from './service';

/**
 * The home page's city news feed (issue 19; social §2, §3, §7, §9):
 *
 *   POST /asidelandingfeed {cityid, before, beforeid, limit}  anyone  a keyset page of the city's posts
 *
 * Form fields or JSON. The answer is social §7's HTML feed fragment (html.ts), or the same page as JSON
 * (`landingFeedPageSchema`) when the request's Accept names application/json: the web app asks for
 * JSON and renders the items with the posts' own cards and menu.
 *
 * With the change follower and the social events, new posts of a city are pushed live on
 * `social:T:{cityid}` (live.ts).
 */
export const feedRoutes: FastifyPluginAsyncZod<{
  store: Store;
  follower?: ChangeFollower;
  social?: SocialEvents;
}> = async (app, { store, follower, social }) => {
  const feeds = new LandingFeedService(store);
  acceptFormFields(app);

  if (follower && social) {
    const subscription = followNewPosts(store, follower, social);
    subscription.catch((error: unknown) =>
      app.log.error({ err: error }, 'feeds: following new posts failed'),
    );
    app.addHook('onClose', async () => {
      await (await subscription.catch(() => null))?.close();
    });
  }

  /**
   * The JSON page is sent as the service builds it, not encoded through zod again: encoding ten feed
   * items cost more than a third of the JSON answer's time over HTTP (p50 2.1 ms against 1.6 for the
   * HTML fragment, 0.8 in process; `bench:feeds`, 1,000,000 posts), and the page's p99 sat at 5.3 ms
   * against its 5 ms budget. The service's return type is the contract's, and the server suite checks
   * that an answer is exactly what the contract would encode (test/server/feeds.test.ts).
   */
  const pageSchema = documentedOnly(landingFeedPageSchema);

  const wantsJson = (request: FastifyRequest) => /\bapplication\/json\b/i.test(request.headers.accept ?? '');

  // a read sent as POST (§7): no anti-forgery token needed
  app.post(
    '/asidelandingfeed',
    {
      config: { antiforgery: false },
      schema: {
        summary: 'The landing page city feed',
        description:
          `A keyset page (newest first by listing time, then id) of a city's live posts: \`cityid\`, and for ` +
          'the next pages `before` (a UTC time, ISO 8601 or epoch ms) and `beforeid` from the previous ' +
          `page's \`next\`; \`limit\` ${FEED_PAGE_SIZE} (at most ${FEED_MAX_PAGE_SIZE}). Answers social §7's ` +
          'HTML feed fragment (text/html), or this JSON page when Accept names application/json.',
        tags: ['feeds'],
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        produces: ['text/html', 'application/json'],
        body: landingFeedRequestSchema,
        response: {
          200: pageSchema,
          ...errorResponses(
            'badRequest',
            'unsupportedMediaType',
            'feedCityInvalid',
            'feedBeforeInvalid',
            'feedLimitInvalid',
            'feedCityNotFound',
          ),
        },
      },
    },
    async (request, reply) => {
      const page = await feeds.page(request.viewer, request.body);
      // likes and follows are the viewer's own
      reply.header('Cache-Control', 'private, no-store').header('Vary', 'Accept');
      if (wantsJson(request)) return page;
      return (
        reply
          .type('text/html; charset=utf-8')
          .serializer((payload: unknown) => String(payload))
          // the fragment is text: its own serializer replaces the JSON schema's (documented as produces)
          .send(feedFragment(page) as unknown as typeof page)
      );
    },
  );
};
