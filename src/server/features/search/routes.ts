import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ANTIFORGERY_HEADER } from '../../../shared/api/accounts';
import {
  pagedSearchRequestSchema,
  pagedSearchResponseSchema,
  suggestionRequestSchema,
  suggestionsResponseSchema,
} from '../../../shared/api/search';
import { AppError } from '../../../shared/errors';
import { VISITOR_COOKIE, type Auth } from '../../auth/hook';
import { SearchEngine } from '../../search/engine';
import { errorResponses } from '../../openapi/errors';
import type { ChangeFollower } from '../../store/follower';
import type { Store } from '../../store/store';
import { SearchService } from './service';

export interface SearchRoutesOptions {
  store: Store;
  auth: Auth;
  /** the process's one change feed follower (app.ts), which keeps the index current. */
  follower: ChangeFollower;
  /** called once the index is built (the benchmark measures the build with it). */
  onEngine?: (engine: SearchEngine) => void;
  /** called at once with the paged search to come (the search pages' first paint uses it, app.ts). */
  onService?: (service: Promise<SearchService>) => void;
  /** SEARCH_COUNT_LIMIT: candidates counted one by one before a total is estimated. */
  countLimit?: number | undefined;
}

/**
 * POST /v1/app/searchsuggestions (form fields or JSON): as-you-type suggestions.
 * POST /v1/webonly/pagedmapsearch (JSON, with the anti-forgery token): one page of map search results.
 * The index build starts when the routes are registered, at app start, and goes on in the background
 * (it yields to the event loop): on a million points it takes seconds, more than Fastify's plugin
 * timeout allows on a busy machine. A search that arrives before it is done waits for it.
 */
export const searchRoutes: FastifyPluginAsyncZod<SearchRoutesOptions> = async (
  app,
  { store, auth, follower, onEngine, onService, countLimit },
) => {
  const ready = SearchEngine.open(store, {
    follower,
    log: (message, details) => app.log.info(details ?? {}, message),
  }).then((engine) => {
    onEngine?.(engine);
    return { engine, service: new SearchService(engine.index, undefined, countLimit) };
  });
  // a failed build is logged now, and answered as a 500 by every search until a restart
  ready.catch((error: unknown) => app.log.error({ err: error }, 'search: building the index failed'));
  onService?.(ready.then(({ service }) => service));
  app.addHook('onClose', async () => {
    const built = await ready.catch(() => null);
    await built?.engine.close();
  });

  // the spec posts suggestions as form fields (this parser is scoped to the search routes)
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      // no prototype: a field named __proto__ or constructor is just a field
      const fields = Object.create(null) as Record<string, string>;
      for (const [key, value] of new URLSearchParams(body as string))
        if (!Object.hasOwn(fields, key)) fields[key] = value;
      done(null, fields);
    },
  );

  const requestErrors = errorResponses(
    'badRequest',
    'unsupportedMediaType',
    'payloadTooLarge',
    'searchQueryInvalid',
    'searchMaxResultsInvalid',
    'searchBoundsInvalid',
    'searchPageNumberInvalid',
    'searchSupertypeUnknown',
    'searchKeywordsInvalid',
    'searchFieldInvalid',
  );

  app.post(
    '/v1/app/searchsuggestions',
    {
      config: { antiforgery: false },
      schema: {
        summary: 'As-you-type suggestions',
        description:
          'Up to `maxresults` (at most 10) points within the area, and with `includeevents` the events running now or starting within 120 minutes, where every word typed is a prefix of a word of the title, the type or the address (one typo tolerated in longer words when exact words find few). Ranked: exact title, title prefix, promoted, hot, rating, then distance from the centre of the area. Form fields (`southwest[lat]=…` or `southwest=lat,lon`) or JSON.',
        tags: ['search'],
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        body: suggestionRequestSchema,
        response: { 200: suggestionsResponseSchema, ...requestErrors },
      },
    },
    async (request, reply) => {
      const suggestions = (await ready).service.suggest(request.body);
      // §5: cached results are off
      return reply.header('Cache-Control', 'no-store').send(suggestions);
    },
  );

  app.post(
    '/v1/webonly/pagedmapsearch',
    {
      // before the body is read: a request without the token is refused whatever it carries
      onRequest: async (request) => requireAntiforgery(request, auth),
      schema: {
        summary: 'One page of map search results',
        description:
          'Points and events matching the keywords within the area, best first. Needs the anti-forgery token (header RequestVerificationToken) unless the call carries `Authorization: appnettoken`.',
        tags: ['search'],
        body: pagedSearchRequestSchema,
        response: {
          200: pagedSearchResponseSchema,
          ...requestErrors,
          ...errorResponses('antiforgeryMissing'),
        },
      },
    },
    async (request, reply) => {
      const page = (await ready).service.page(request.body);
      return reply.header('Cache-Control', 'no-store').send(page);
    },
  );
};

/**
 * §7: the paged search carries the anti-forgery token, for visitors too. The auth hook already checks
 * it for a cookie session; API clients with `Authorization: appnettoken` need none (a browser never
 * adds that header by itself); a visitor's token is bound to the visitor cookie.
 */
function requireAntiforgery(request: FastifyRequest, auth: Auth): void {
  if (request.session) return;
  const given = request.headers[ANTIFORGERY_HEADER.toLowerCase()];
  const visitor = request.cookies[VISITOR_COOKIE];
  const ok =
    typeof visitor === 'string' &&
    auth.signer.checkAntiforgery({ visitor }, typeof given === 'string' ? given : undefined);
  if (!ok) throw new AppError('antiforgeryMissing');
}
