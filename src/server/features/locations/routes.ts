import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  STARTING_WITH_LIMIT,
  STARTING_WITH_MAX_CHARS,
  TOP_DESTINATIONS,
  cityOptionSchema,
  startingWithRequestSchema,
} from '../../../shared/api/home';
import { errorResponses } from '../../openapi/errors';
import type { Store } from '../../store/store';
import { CityIndex } from './cityIndex';
import { acceptFormFields } from './formFields';

/**
 * The city pickers (issue 19; social §2, §7, §9):
 *
 *   POST /v1/locations/startingwith {query, limit}  anyone  up to 10 cities whose name starts with query
 *   GET  /v1/locations/top                          anyone  the top destinations of the home page's modal
 *
 * Both read the in-memory CityIndex (cityIndex.ts), built once from the loaded places.
 */
export const locationRoutes: FastifyPluginAsyncZod<{ store: Store; cities?: CityIndex }> = async (
  app,
  { store, cities = new CityIndex(store) },
) => {
  acceptFormFields(app);
  app.addHook('onReady', () => {
    cities
      .ready()
      .catch((error: unknown) => app.log.error({ err: error }, 'locations: loading the cities failed'));
  });

  // a read sent as POST (§7): no anti-forgery token needed
  app.post(
    '/v1/locations/startingwith',
    {
      config: { antiforgery: false },
      schema: {
        summary: 'Cities starting with the typed text',
        description:
          `Up to ${STARTING_WITH_LIMIT} places whose name starts with \`query\` (1 to ${STARTING_WITH_MAX_CHARS} ` +
          'characters), ignoring case, accents and punctuation, most populous first. JSON or form fields.',
        tags: ['locations'],
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        body: startingWithRequestSchema,
        response: {
          200: z.array(cityOptionSchema),
          ...errorResponses(
            'badRequest',
            'unsupportedMediaType',
            'locationQueryInvalid',
            'locationLimitInvalid',
          ),
        },
      },
    },
    async (request) => cities.startingWith(request.body.query, request.body.limit),
  );

  app.get(
    '/v1/locations/top',
    {
      schema: {
        summary: 'Top destinations',
        description: `The ${TOP_DESTINATIONS} most populous places: the home page's top-destinations list.`,
        tags: ['locations'],
        response: { 200: z.array(cityOptionSchema), ...errorResponses() },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      return cities.mostPopulous(TOP_DESTINATIONS);
    },
  );
};
