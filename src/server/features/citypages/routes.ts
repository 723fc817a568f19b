import fs from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CityPagesData } from '../../../shared/citypages/page';
import { AppError } from '../../../shared/errors';
import { errorResponses } from '../../openapi/errors';
import type { CityPages } from './pages';
import { cityQuerySlug } from './service';

/**
 * The city deals page and the event page (issue 19; social §2, map-and-search §2):
 * - GET /cads/{city_forurl}  the city's live posts by category, hot first; events on now and soon; its
 *                            most visited points. Unknown or malformed: 404 with a city search.
 * - GET /cads?q=             the city search that page offers: cities whose name starts with q.
 * - GET /e/{id}              the event, with its schema.org Event. Unknown: 404.
 * Each is a whole page rendered on the server for people and search engines; a client asking for JSON
 * gets the data the page is rendered from, or the catalogue's error. The app's own links to /e/{id}
 * never reach here: they open the event in its side panel without loading a document.
 */

/** Whether the request's Accept header puts JSON before HTML. */
function prefersJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  const json = accept.indexOf('application/json');
  const html = accept.indexOf('text/html');
  return json >= 0 && (html < 0 || json < html);
}

/** A page the server rendered: no viewer's controls on it, but no cache keeps it past a change either. */
function sendHtml(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.status(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(html);
}

const pageResponse = (what: string) => ({
  description: `${what}; with Accept: application/json the data it is rendered from`,
  content: {
    'text/html': { schema: z.string() },
    'application/json': { schema: z.unknown() },
  },
});

export const cityPageRoutes: FastifyPluginAsync<{ pages: CityPages; webDir: string }> = async (
  root,
  { pages, webDir },
) => {
  const app = root.withTypeProvider<ZodTypeProvider>();

  /** Without the renderer the app answers these addresses itself, as it did before they were rendered. */
  async function sendApp(reply: FastifyReply, status: number): Promise<FastifyReply> {
    let html: string;
    try {
      html = await fs.promises.readFile(path.join(webDir, 'index.html'), 'utf8');
    } catch {
      throw new AppError('webAppNotBuilt');
    }
    return sendHtml(reply, status, html);
  }

  /** The 404 or 400 page for `error`, or the error itself to a JSON client or without a renderer. */
  async function refuse(
    request: FastifyRequest,
    reply: FastifyReply,
    error: unknown,
    page: (error: AppError) => Promise<CityPagesData | null>,
  ): Promise<FastifyReply> {
    if (!(error instanceof AppError) || prefersJson(request)) throw error;
    const data = await page(error);
    if (data === null) throw error;
    if (!pages.available) return sendApp(reply, error.status === 400 ? 404 : error.status);
    return sendHtml(reply, error.status === 400 ? 404 : error.status, await pages.render(data));
  }

  /**
   * The 404 of an unknown or malformed city: the segment as words in the search box, and the most
   * populous cities that start with its first three letters ('lisbn-pt' lists Lisbon).
   */
  async function missingCityPage(segment: string, reason: 'unknown' | 'malformed'): Promise<CityPagesData> {
    const query = segment
      .replace(/-[a-z]{2}(?:-\d+)?$/, '')
      .replace(/[-_.]+/g, ' ')
      .trim()
      .slice(0, 100);
    const start = Array.from(cityQuerySlug(query)).slice(0, 3).join('');
    const cities = start.length > 0 ? await pages.service.searchCities(start) : [];
    return { kind: 'city-search', query, reason, message: null, cities };
  }

  app.get(
    '/cads/:city',
    {
      config: { pageMeta: false },
      schema: {
        summary:
          'The city deals page: its posts by category (hot first), events on now and soon, its most visited places',
        tags: ['pages'],
        params: z.object({
          city: z.string().meta({ description: 'the city_forurl, e.g. new-york-city-us' }),
        }),
        response: {
          200: pageResponse('the page'),
          ...errorResponses('cityPageMalformed', 'cityPageNotFound'),
        },
      },
    },
    async (request, reply) => {
      const { city } = request.params;
      try {
        const data = await pages.cityData(request, city);
        if (prefersJson(request)) return reply.header('Cache-Control', 'no-store').send(data);
        // not rendered here: the app shows the address, as it does every page without a build
        if (!pages.available) return sendApp(reply, 200);
        return sendHtml(reply, 200, await pages.render(data));
      } catch (error) {
        return refuse(request, reply, error, async (refused) =>
          refused.errorName === 'cityPageNotFound' || refused.errorName === 'cityPageMalformed'
            ? missingCityPage(city, refused.errorName === 'cityPageNotFound' ? 'unknown' : 'malformed')
            : null,
        );
      }
    },
  );

  app.get(
    '/cads',
    {
      config: { pageMeta: false },
      schema: {
        summary: 'The city search of the city page: cities whose name starts with q, most populous first',
        tags: ['pages'],
        querystring: z.object({
          q: z
            .string()
            .optional()
            .meta({ description: '1 to 100 characters; without it, the 404 of /cads/' }),
        }),
        response: {
          200: pageResponse('the page listing the cities'),
          ...errorResponses('cityQueryInvalid', 'cityPageMalformed'),
        },
      },
    },
    async (request, reply) => {
      const { q } = request.query;
      try {
        // `/cads/` names no city: the malformed city's 404
        if (q === undefined) throw new AppError('cityPageMalformed');
        const cities = await pages.service.searchCities(q);
        const data: CityPagesData = {
          kind: 'city-search',
          query: q.trim(),
          reason: 'search',
          message: null,
          cities,
        };
        if (prefersJson(request)) return reply.header('Cache-Control', 'no-store').send({ cities });
        // not rendered here: the app shows the address, as it does every page without a build
        if (!pages.available) return sendApp(reply, 200);
        return sendHtml(reply, 200, await pages.render(data));
      } catch (error) {
        if (!(error instanceof AppError) || prefersJson(request)) throw error;
        const data: CityPagesData = {
          kind: 'city-search',
          query: (q ?? '').slice(0, 100),
          reason: error.errorName === 'cityQueryInvalid' ? 'invalid' : 'malformed',
          message: error.errorName === 'cityQueryInvalid' ? error.message : null,
          cities: [],
        };
        if (!pages.available) return sendApp(reply, error.status === 400 && q !== undefined ? 400 : 404);
        return sendHtml(reply, q === undefined ? 404 : error.status, await pages.render(data));
      }
    },
  );

  app.get(
    '/e/:id',
    {
      config: { pageMeta: false },
      schema: {
        summary: 'The event page, with its schema.org Event',
        tags: ['pages'],
        params: z.object({ id: z.string().meta({ description: 'the event id' }) }),
        response: {
          200: pageResponse('the page'),
          ...errorResponses('invalidEventId', 'eventNotFound'),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      try {
        const data = await pages.eventData(request, id);
        if (prefersJson(request)) return reply.header('Cache-Control', 'no-store').send(data);
        // not rendered here: the app opens the event in its side panel, as before
        if (!pages.available) return sendApp(reply, 200);
        return sendHtml(reply, 200, await pages.render(data));
      } catch (error) {
        return refuse(request, reply, error, async (refused) =>
          refused.errorName === 'eventNotFound' || refused.errorName === 'invalidEventId'
            ? { kind: 'event-missing', id: id.slice(0, 100) }
            : null,
        );
      }
    },
  );
};
