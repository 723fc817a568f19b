import { z } from 'zod';
import { errorResponses } from './errors';

/**
 * Documentation of the routes that declare no contract of their own, so that the document lists
 * every call: media (files streamed from the media store, media/serve.ts). Added to the route's schema by the
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

export const EXTERNAL_ROUTE_DOCS: Partial<Record<string, RouteDocs>> = {
  'GET /media/:key': {
    summary: 'Uploaded and generated media, content-addressed (cached for a year)',
    description:
      'Streamed from the media store (the disk, or the bucket MEDIA_URL names). A single `Range: bytes=` range is answered 206; the ETag is the content hash (If-None-Match answers 304).',
    tags: ['media'],
    params: z.object({ key: z.string().meta({ description: '`<sha256>.<ext>`' }) }),
    response: {
      200: binary('the file', 'image/webp', 'image/png', 'image/jpeg', 'video/mp4', 'video/webm'),
      206: binary('the byte range asked for', 'image/webp', 'video/mp4', 'video/webm'),
      ...errorResponses('notFound', 'rangeNotSatisfiable', 'mediaUnavailable'),
    },
  },
};
