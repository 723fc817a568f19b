import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ANTIFORGERY_HEADER } from '../../../shared/api/accounts';
import { parsePagedSearchRequest, parseSuggestionRequest } from '../../../shared/api/search';
import { AppError } from '../../../shared/errors';
import { VISITOR_COOKIE, type Auth } from '../../auth/hook';
import { SearchEngine } from '../../search/engine';
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
}

/**
 * POST /v1/app/searchsuggestions (form fields or JSON): as-you-type suggestions.
 * POST /v1/webonly/pagedmapsearch (JSON, with the anti-forgery token): one page of map search results.
 * The index build starts when the routes are registered, at app start, and goes on in the background
 * (it yields to the event loop): on a million points it takes seconds, more than Fastify's plugin
 * timeout allows on a busy machine. A search that arrives before it is done waits for it.
 */
export const searchRoutes: FastifyPluginAsync<SearchRoutesOptions> = async (
  app,
  { store, auth, follower, onEngine },
) => {
  const ready = SearchEngine.open(store, {
    follower,
    log: (message, details) => app.log.info(details ?? {}, message),
  }).then((engine) => {
    onEngine?.(engine);
    return { engine, service: new SearchService(engine.index) };
  });
  // a failed build is logged now, and answered as a 500 by every search until a restart
  ready.catch((error: unknown) => app.log.error({ err: error }, 'search: building the index failed'));
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

  app.post('/v1/app/searchsuggestions', { config: { antiforgery: false } }, async (request, reply) => {
    const input = parseSuggestionRequest(request.body);
    const suggestions = (await ready).service.suggest(input);
    // §5: cached results are off
    return reply.header('Cache-Control', 'no-store').send(suggestions);
  });

  app.post(
    '/v1/webonly/pagedmapsearch',
    // before the body is read: a request without the token is refused whatever it carries
    { onRequest: async (request) => requireAntiforgery(request, auth) },
    async (request, reply) => {
      const input = parsePagedSearchRequest(request.body);
      const page = (await ready).service.page(input);
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
