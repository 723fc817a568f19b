import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';
import { isMediaKey, type ByteRange, type MediaStore } from './store';

/** Content-addressed files never change: a year, immutable. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * GET (and HEAD) /media/<key>: a stored file streamed from the media store, whichever it is (the
 * disk, a bucket), so that media URLs are the same on every store and every process. A single byte
 * range is answered 206 (video players seek with it); the ETag is the key's hash, so a revalidation
 * never reads the store. A missing or malformed key is the catalogue's 404.
 */
export function mediaRoutes(app: FastifyInstance, store: MediaStore): void {
  // HEAD is its own method here, not Fastify's automatic twin of the GET, which would read the whole
  // body to throw it away
  app.route({
    method: ['GET', 'HEAD'],
    url: '/media/:key',
    compress: false,
    handler: async (request, reply) => {
      const { key } = request.params as { key: string };
      if (!isMediaKey(key)) throw new AppError('notFound');
      const etag = `"${key.slice(0, key.indexOf('.'))}"`;
      if (matches(request.headers['if-none-match'], etag)) return cached(reply, etag).code(304).send();
      const info = await reading(() => store.head(key));
      if (!info) throw new AppError('notFound');
      const range = rangeOf(request, info.size, etag);
      if (range === 'unsatisfiable') {
        reply.header('Content-Range', `bytes */${info.size}`);
        throw new AppError('rangeNotSatisfiable', {
          range: String(request.headers.range),
          size: String(info.size),
        });
      }
      cached(reply, etag).type(info.contentType);
      if (range) {
        reply
          .code(206)
          .header('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`)
          .header('Content-Length', range.end - range.start + 1);
      } else reply.header('Content-Length', info.size);
      if (request.method === 'HEAD') return reply.send();
      const object = await reading(() => store.get(key, range ?? undefined));
      if (!object) throw new AppError('notFound');
      return reply.send(object.body);
    },
  });
}

function cached(reply: FastifyReply, etag: string): FastifyReply {
  return reply.header('Cache-Control', IMMUTABLE).header('ETag', etag).header('Accept-Ranges', 'bytes');
}

/** A store that fails (a bucket that went away) answers 503 in the catalogue's shape, logged. */
async function reading<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new AppError('mediaUnavailable', {}, { cause: error });
  }
}

function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * The one byte range asked for (RFC 9110 §14: `bytes=a-b`, `bytes=a-`, `bytes=-n`), null for the whole
 * file (no Range, an If-Range that no longer matches, several ranges, another unit), or
 * 'unsatisfiable' when it starts past the end.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const [, from = '', to = ''] = match;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}

function rangeOf(request: FastifyRequest, size: number, etag: string): ByteRange | null | 'unsatisfiable' {
  const ifRange = request.headers['if-range'];
  if (ifRange !== undefined && String(ifRange).trim() !== etag) return null;
  return parseRange(request.headers.range, size);
}
