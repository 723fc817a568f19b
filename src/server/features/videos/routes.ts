import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import rateLimit from '@fastify/rate-limit';
import { Server as TusServer, EVENTS } from '@tus/server';
import { FileStore } from '@tus/file-store';
import {
  VIDEO_MAX_BYTES,
  VIDEO_MAX_LABEL,
  VIDEO_UPLOAD_LIMIT,
  VIDEO_UPLOAD_PATH,
  videoParamsSchema,
  videoResponseSchema,
} from '../../../shared/api/videos';
import { AppError } from '../../../shared/errors';
import { requireViewer } from '../../auth/hook';
import type { Limits } from '../../http/rate-limits';
import type { JobQueue } from '../../jobs/queue';
import type { MediaPlace } from '../../media/store';
import { refuseUnreadBody } from '../../media/upload';
import { errorResponses } from '../../openapi/errors';
import type { Store } from '../../store/store';
import { VideoService } from './service';
import { UPLOAD_ROUTE_DOCS } from './docs';

/**
 * Videos (issue 17): resumable uploads with tus (@tus/server on a FileStore under the media place's
 * upload directory, so a dropped connection resumes where it stopped and nothing is held in memory),
 * and the state call the author polls while the video is probed and, when needed, transcoded.
 *
 *   POST   /v1/uploads/video        signed in     tus creation (Upload-Length 1 byte to 100 MB)
 *   HEAD   /v1/uploads/video/{id}   its author    tus: the offset to resume from
 *   PATCH  /v1/uploads/video/{id}   its author    tus: bytes; the last request probes the video
 *   DELETE /v1/uploads/video/{id}   its author    tus termination (cancel)
 *   GET    /v1/videos/{id}          its author: every state; others: ready ones
 *
 * Who may is checked here, before tus reads a byte: a visitor is answered 401, another user's upload
 * 404 (it is not theirs to know of). tus speaks its protocol (201 with Location, 204s, offsets in
 * headers); every refusal, tus's own plain-text ones included, answers in the catalogue's shape.
 */
export const videoRoutes: FastifyPluginAsyncZod<{
  store: Store;
  media: MediaPlace;
  limits: Limits;
  jobs: JobQueue;
}> = async (app, { store, media, limits, jobs }) => {
  const videos = new VideoService(store, media, jobs, app.log);
  const directory = path.join(media.uploadDir, 'videos');
  /** who sent each request tus is handling (its hooks see only the request) */
  const uploaders = new WeakMap<Request, string>();

  const tus = new TusServer({
    path: VIDEO_UPLOAD_PATH,
    datastore: new FileStore({ directory }),
    relativeLocation: true,
    // the creation route checks Upload-Length first, with the catalogue's message; this is the backstop
    maxSize: VIDEO_MAX_BYTES,
    // same origin only: no CORS header is sent
    allowedOrigins: () => false,
    onUploadCreate: async (request, upload) => {
      const userId = uploaders.get(request as Request);
      if (!userId) throw tusError(new AppError('unauthorized'));
      await videos.created(userId, upload.id, upload.size ?? 0);
      return {};
    },
    onUploadFinish: async (_request, upload) => {
      try {
        const state = await videos.finish(upload.id, path.join(directory, upload.id));
        return { headers: { 'X-Video-State': state } };
      } catch (error) {
        if (!(error instanceof AppError)) app.log.error({ err: error }, 'video: finishing an upload failed');
        throw tusError(error instanceof AppError ? error : new AppError('internal'));
      } finally {
        // the upload's bookkeeping goes with its file
        await fs.promises.rm(path.join(directory, `${upload.id}.json`), { force: true });
      }
    },
  });
  // what uploads leave behind, swept at start and every 10 minutes (service.ts sweepUploads)
  const sweep = () =>
    videos.sweepUploads(directory).catch((error: unknown) => {
      app.log.error({ err: error }, 'video: sweeping the upload directory failed');
    });
  let sweeper: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    void sweep();
    sweeper = setInterval(() => void sweep(), SWEEP_EVERY_MS);
    sweeper.unref();
  });
  app.addHook('onClose', async () => clearInterval(sweeper));
  tus.on(EVENTS.POST_TERMINATE, (_request, _response, id) => {
    videos.cancelled(id).catch((error: unknown) => app.log.error({ err: error }, 'video: cancel failed'));
  });

  /**
   * Hands the request to tus as a web Request (its body streamed, never read here) and answers with
   * what tus says: its headers and statuses as they are, its plain-text refusals in the catalogue's shape.
   */
  const handOver = async (request: FastifyRequest, reply: FastifyReply) => {
    const viewer = requireViewer(request.viewer);
    checkTusHeaders(request);
    const web = webRequestOf(request);
    uploaders.set(web, viewer.id);
    const response = await tus.handleWeb(web);
    for (const [name, value] of response.headers)
      if (!SKIPPED_TUS_HEADERS.has(name)) reply.header(name, value);
    const text = await response.text();
    if (response.status < 400) return reply.code(response.status).send(text === '' ? undefined : text);
    const refused = catalogueBody(text);
    if (refused) return reply.code(response.status).type('application/json; charset=utf-8').send(refused);
    throw fromTus(response.status, text, (message) => app.log.error(`video upload: tus answered ${message}`));
  };

  /** Only its author goes on with an upload: anyone else hears that there is none. */
  const ownUpload = async (request: FastifyRequest) => {
    const viewer = requireViewer(request.viewer);
    const { id } = request.params as { id: string };
    if (!/^[0-9a-f]{32}$/.test(id) || !(await videos.ownsUpload(viewer, id)))
      throw new AppError('videoNotFound', { id: id.slice(0, 64) });
  };

  await app.register(async (uploads) => {
    // tus reads the body itself: it is passed through unread
    uploads.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) =>
      done(null, undefined),
    );
    await uploads.register(
      rateLimit,
      limits.plugin({
        // after the auth hook (the count is the person's), before a byte of the body is read
        hook: 'preValidation',
        keyGenerator: (request) => (request.viewer ? `user:${request.viewer.id}` : `ip:${request.ip}`),
      }),
    );
    const common = {
      // a visitor is refused before any of the body is read, and the rest of it is never read
      onRequest: async (request: FastifyRequest) => {
        requireViewer(request.viewer);
      },
      onSend: refuseUnreadBody,
      bodyLimit: VIDEO_MAX_BYTES + 1024,
    };
    const documented = (key: keyof typeof UPLOAD_ROUTE_DOCS) =>
      ({ hide: false, document: UPLOAD_ROUTE_DOCS[key] }) as unknown as RouteOptions['schema'];

    uploads.post(
      VIDEO_UPLOAD_PATH,
      {
        ...common,
        config: { rateLimit: VIDEO_UPLOAD_LIMIT },
        schema: documented('POST'),
      },
      async (request, reply) => {
        checkUploadLength(request);
        return handOver(request, reply);
      },
    );
    for (const method of ['HEAD', 'PATCH', 'DELETE'] as const)
      uploads.route({
        method,
        url: `${VIDEO_UPLOAD_PATH}/:id`,
        ...common,
        preHandler: ownUpload,
        schema: documented(method),
        handler: handOver,
      });
  });

  app.get(
    '/v1/videos/:id',
    {
      schema: {
        summary: "A video's state: uploading, queued, processing, ready or failed",
        description:
          'Its author sees every state and, when it failed, why (poll it after the upload); anyone else sees a ready video only, and 404 (code 4) otherwise.',
        tags: ['media'],
        params: videoParamsSchema,
        response: { 200: videoResponseSchema, ...errorResponses('invalidField', 'videoNotFound') },
      },
    },
    async (request, reply) => {
      const video = await videos.state(request.viewer, request.params.id);
      // the state changes while it is processed
      return reply.header('Cache-Control', 'no-store').send(video);
    },
  );
};

/** Upload-Length is needed at creation (no deferred length), from 1 byte to 100 MB (social §5). */
function checkUploadLength(request: FastifyRequest): void {
  const header = request.headers['upload-length'];
  if (header === undefined) {
    throw new AppError('videoUploadLength', {
      reason: "the video's size is needed before it is sent (Upload-Defer-Length is not accepted).",
    });
  }
  if (!/^\d{1,20}$/.test(String(header)))
    throw new AppError('videoUploadLength', { reason: 'must be a whole number of bytes.' });
  const length = Number(header);
  if (length === 0) throw new AppError('videoEmpty', { size: VIDEO_MAX_LABEL });
  if (length > VIDEO_MAX_BYTES) throw new AppError('invalidVideoSize', { size: VIDEO_MAX_LABEL });
}

const SWEEP_EVERY_MS = 10 * 60_000;

/** Headers of tus's answer that Fastify sets itself (the body's) or that say nothing to a same-origin page. */
const SKIPPED_TUS_HEADERS = new Set([
  'content-length',
  'content-type',
  'access-control-expose-headers',
  'access-control-allow-origin',
]);

/**
 * What tus would refuse in its own words, refused first in the catalogue's: the protocol's version,
 * and a PATCH's offset and type.
 */
function checkTusHeaders(request: FastifyRequest): void {
  if (request.headers['tus-resumable'] !== '1.0.0') throw new AppError('tusVersionMissing');
  if (request.method !== 'PATCH') return;
  if (!String(request.headers['content-type'] ?? '').startsWith('application/offset+octet-stream'))
    throw new AppError('unsupportedMediaType', {
      type: `${String(request.headers['content-type'] ?? '(none)').slice(0, 60)} (send application/offset+octet-stream)`,
    });
  if (!/^\d{1,20}$/.test(String(request.headers['upload-offset'] ?? '')))
    throw new AppError('badRequest', { reason: 'Upload-Offset must be the number of bytes the server has.' });
}

/** The request as tus takes it: a web Request whose body is the request's stream, unread. */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  const withBody = request.method === 'PATCH' || request.method === 'POST';
  return new Request(`http://localhost${request.raw.url ?? '/'}`, {
    method: request.method,
    headers,
    ...(withBody ? { body: Readable.toWeb(request.raw) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
}

/** An answer of ours that went through tus (a hook's refusal): already the catalogue's JSON. */
function catalogueBody(text: string): string | null {
  try {
    const body = JSON.parse(text) as { errorcode?: unknown };
    return typeof body.errorcode === 'number' ? text : null;
  } catch {
    return null;
  }
}

/** tus's own refusals (a status and a line of text) as the catalogue's errors. */
function fromTus(status: number, text: string, logError: (message: string) => void): AppError {
  const reason = text.trim().slice(0, 200);
  switch (status) {
    case 404:
    case 410:
      return new AppError('videoNotFound', { id: 'at this address' });
    case 409:
      return new AppError('uploadOffsetConflict');
    case 413:
      return new AppError('invalidVideoSize', { size: VIDEO_MAX_LABEL });
  }
  if (status >= 500 && status !== 501) {
    logError(`${status} ${reason}`);
    return new AppError('internal');
  }
  return new AppError('badRequest', { reason: reason.endsWith('.') ? reason : `${reason}.` });
}

/** An error tus answers with: the catalogue's status and body. */
function tusError(error: AppError): { status_code: number; body: string } {
  return { status_code: error.status, body: JSON.stringify(error.toBody()) };
}
