import { z } from 'zod';
import { myPointsResponseSchema } from '../../shared/api/points';
import { errorResponses } from './errors';

/**
 * Documentation of the routes that declare no contract of their own, so that the document lists
 * every call: my points (its query rules still live in listMyPoints, after the sign-in check) and
 * media (static files). Added to the route's schema by the contracts plugin and read only by the
 * document: Fastify does not validate with it.
 */
export interface RouteDocs {
  summary: string;
  description?: string;
  tags: string[];
  body?: z.ZodType;
  querystring?: z.ZodType;
  params?: z.ZodType;
  consumes?: string[];
  response?: Record<number, unknown>;
}

/** A response that is not JSON: tiles, images, pages. */
const binary = (description: string, ...types: string[]) => ({
  description,
  content: Object.fromEntries(types.map((type) => [type, { schema: z.string().meta({ format: 'binary' }) }])),
});

export const EXTERNAL_ROUTE_DOCS: Partial<Record<string, RouteDocs>> = {
  'GET /v1/account/mypoints': {
    summary: "The signed-in user's points and events, one page",
    tags: ['points'],
    querystring: z.object({
      supertype: z.string().optional().meta({ description: "a point supertype, or 'event'" }),
      pagenumber: z.string().optional(),
      pagesize: z.string().optional(),
    }),
    response: { 200: myPointsResponseSchema, ...errorResponses('unauthorized', 'unknownSupertype') },
  },

  'GET /media/*': {
    summary: 'Uploaded and generated media, content-addressed (cached for a year)',
    tags: ['media'],
    response: {
      200: binary('the file', 'image/webp', 'image/png', 'image/jpeg', 'video/mp4'),
      ...errorResponses('notFound'),
    },
  },
};
