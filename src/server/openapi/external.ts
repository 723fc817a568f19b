import { z } from 'zod';
import { promoRequest } from '../../shared/api/live';
import { myPointsResponseSchema } from '../../shared/api/points';
import { errorResponses } from './errors';

/**
 * Documentation of the routes whose files keep their own parsing for now, so that the document
 * lists every call: my points, the promo calls and media. Added to the route's schema by the
 * contracts plugin and read only by the document: Fastify does not validate with it.
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
const id = z.object({ id: z.string() });

const promo = (kind: string): RouteDocs => ({
  summary: `Count a promoted point's ${kind}`,
  tags: ['live'],
  params: id,
  body: promoRequest,
  response: {
    200: z.object({ status: z.literal('ok'), counted: z.boolean() }),
    ...errorResponses('deviceIdInvalid', 'pointNotFound', 'promoNotPromoted'),
  },
});
const postOnly = (summary: string): RouteDocs => ({
  summary: `${summary} (GET answers 405: the call is a POST)`,
  tags: ['live'],
  response: errorResponses('methodNotAllowed'),
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
    response: { 200: myPointsResponseSchema, ...errorResponses('unauthorized') },
  },

  'GET /map/dynamic/bybbox': postOnly('Live map features'),
  'GET /event/rbeamingbybbox': postOnly('Events beaming'),
  'GET /map/promo/:id/:kind': postOnly('Promo counts'),
  'POST /map/promo/:id/impression': promo('impression'),
  'POST /map/promo/:id/click': promo('click'),

  'GET /media/*': {
    summary: 'Uploaded and generated media, content-addressed (cached for a year)',
    tags: ['media'],
    response: {
      200: binary('the file', 'image/webp', 'image/png', 'image/jpeg', 'video/mp4'),
      ...errorResponses('notFound'),
    },
  },
};
