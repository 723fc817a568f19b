import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { bodyContract, multipartContract } from '../../../shared/api/contract';
import {
  POST_RESULT_MODES,
  nearbyRequestSchema,
  nearbyResponseSchema,
  postActionRequestSchema,
  postContract,
  postDeleteResponseSchema,
  postDetailsQuerySchema,
  postEditQuerySchema,
  postFormSchema,
  postFormStateSchema,
  postHideRequestSchema,
  postListQuerySchema,
  postPageSchema,
  postResultSchema,
  postSaveResponseSchema,
  type PostForm,
  type PostResultMode,
} from '../../../shared/api/posts';
import { AppError, type ErrorName } from '../../../shared/errors';
import { requireViewer } from '../../auth/hook';
import { DEFAULT_BODY_LIMIT_BYTES, formatBytes } from '../../http/limits';
import type { Limits } from '../../http/rate-limits';
import { errorBodySchema, errorResponses } from '../../openapi/errors';
import { ensurePlaceholderCovers } from '../../media/placeholders';
import type { MediaPlace } from '../../media/store';
import { readMultipartUpload } from '../../media/upload';
import type { Store } from '../../store/store';
import { MAX_IMAGE_BYTES, MAX_IMAGE_LABEL, MEDIA_JSON_BODY_LIMIT_BYTES } from '../points/media';
import { refuseUnreadBody } from '../../media/upload';
import { PostService, type SaveHooks, type SaveLimit } from './service';

/**
 * The posts API (issue 17; social §3, §7). Thin: each route hands the parsed request and the viewer
 * to the service and shapes the answer per result mode; the rules are in service.ts and
 * src/shared/api/posts.ts.
 *
 *   GET  /myposts/details?id=                          anyone (a hidden post: author, admins)  the post record
 *   GET  /myposts/edit?id=&resultMode=&returnUrl=      author, admins    the form state
 *   POST /myposts/new      {id, resultMode, returnUrl} signed in         the empty form state for the GUID
 *   POST /myposts/save     multipart or JSON           signed in         create / edit / renew, per result mode
 *   POST /myposts/delete   {id, resultMode, returnUrl} author, admins    per result mode
 *   POST /myposts/hide     {id, hidden}                admins            the post record
 *   POST /v1/locations/nearby {lat, lon, max_locations} anyone           nearest points first, with distance
 *   GET  /v1/posts/point/{xpointid}?pagenumber=&pagesize=   anyone      live posts, newest first
 *   GET  /v1/posts/user/{username}?pagenumber=&pagesize=    anyone      every post, expired ones marked
 *
 * The profile (GET /v1/users/{username}, features/profiles) carries page 1 of the user list
 * (`posts`: the same PostPage as GET /v1/posts/user/{username}, 12 per page, expired ones marked
 * `expired`, hidden ones only for their author and admins); the web shows that page with the profile
 * and asks /v1/posts/user/{username}?pagenumber=N&pagesize=M for the others (decided 09:10 UTC).
 *
 * Result modes (social §4): DoRedirect answers 303 to returnUrl (or the post's /post/{id}); ReturnUrl
 * answers 200 text/plain with that address; ReturnJson answers {error_n: 0, error_msg: '', post,
 * redirect}. A refusal is the catalogue's `{errorcode, error, field?}` in every mode, and in
 * ReturnJson mode (the default) also `error_n` and `error_msg` with the same code and message, so the
 * spec's client rule (error_n above 0 shows error_msg) holds too.
 */

/**
 * Per person, as Mastodon counts them: 300 new posts per 3 hours, 30 media uploads per 30 minutes;
 * edits and renews 120 per hour (a person fixing typos never meets it, a script rewriting posts in
 * a loop does).
 */
export const POST_LIMITS: Record<SaveLimit, { max: number; timeWindow: number }> = {
  create: { max: 300, timeWindow: 3 * 3600_000 },
  edit: { max: 120, timeWindow: 3600_000 },
  upload: { max: 30, timeWindow: 30 * 60_000 },
};

/** Fields of the post form in multipart: its longest is a description of 5,000 characters (UTF-8). */
const FORM_FIELD_BYTES = 64 * 1024;
const FORM_FIELDS = 16;
export const COVER_FILE_FIELD = 'cover_file';
const SAVE_PATH = '/myposts/save';

/** The result mode a refusal is answered in: the parsed form's, else as the request gave it. */
const modes = new WeakMap<FastifyRequest, unknown>();
function modeOf(request: FastifyRequest): PostResultMode {
  const given =
    modes.get(request) ??
    (request.body as Record<string, unknown> | undefined)?.['resultMode'] ??
    (request.query as Record<string, unknown> | undefined)?.['resultMode'];
  const text = Array.isArray(given) ? given[0] : given;
  return (POST_RESULT_MODES as readonly unknown[]).includes(text) ? (text as PostResultMode) : 'ReturnJson';
}

/** The refusals of the calls with result modes: the catalogue's body, plus error_n and error_msg for ReturnJson. */
function modeErrorHandler(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  // a JSON save past its limit is past the largest cover it may carry; any other body is just too large
  const tooLarge =
    request.routeOptions.url === SAVE_PATH
      ? new AppError('invalidImageSize', { size: MAX_IMAGE_LABEL })
      : new AppError('payloadTooLarge', {
          limit: formatBytes(request.routeOptions.bodyLimit ?? DEFAULT_BODY_LIMIT_BYTES),
        });
  const known =
    error instanceof AppError ? error : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? tooLarge : null;
  if (!known || known.status >= 500) throw error;
  const body = known.toBody();
  const answer =
    modeOf(request) === 'ReturnJson' ? { ...body, error_n: body.errorcode, error_msg: body.error } : body;
  return reply.status(known.status).type('application/json; charset=utf-8').send(answer);
}

/** errorResponses, with the ReturnJson mode's error_n and error_msg in each body. */
function modeErrorResponses(...names: ErrorName[]): Record<number, z.ZodType> {
  const withModes = errorBodySchema.extend({
    error_n: z.number().int().optional().meta({ description: 'ReturnJson mode: the errorcode again' }),
    error_msg: z.string().optional().meta({ description: 'ReturnJson mode: the error again' }),
  });
  return Object.fromEntries(
    Object.entries(errorResponses(...names)).map(([status, schema]) => [
      status,
      withModes.meta(schema.meta() ?? {}),
    ]),
  );
}

export const postRoutes: FastifyPluginAsyncZod<{
  store: Store;
  media: MediaPlace;
  limits: Limits;
}> = async (app, { store, media, limits }) => {
  const posts = new PostService(store, { media });
  // a post without a cover shows its category's placeholder (media/placeholders.ts): stored in this
  // media store before the server answers; a store that does not answer now is tried again next start
  app.addHook('onReady', async () => {
    try {
      await ensurePlaceholderCovers(media);
    } catch (error) {
      app.log.error({ err: error }, 'posts: the placeholder covers could not be stored');
    }
  });

  await app.register(
    rateLimit,
    limits.plugin({ keyGenerator: (request) => `user:${request.viewer?.id ?? request.ip}` }),
  );
  // one count per kind, each under its own key (the same key shape in Redis for every process)
  const limiters = Object.fromEntries(
    (Object.keys(POST_LIMITS) as SaveLimit[]).map((kind) => [
      kind,
      app.createRateLimit({
        ...POST_LIMITS[kind],
        keyGenerator: (request) => `posts-${kind}:user:${request.viewer?.id ?? request.ip}`,
      }),
    ]),
  ) as Record<SaveLimit, ReturnType<typeof app.createRateLimit>>;
  const hooksOf = (request: FastifyRequest, reply: FastifyReply): SaveHooks => ({
    async limit(kind) {
      const counted = await limiters[kind](request);
      if (counted.isAllowed || !counted.isExceeded) return;
      reply.header('retry-after', String(counted.ttlInSeconds));
      throw new AppError('rateLimited', { retry: `${Math.max(1, counted.ttlInSeconds)} s` });
    },
    retryAfter(seconds) {
      reply.header('retry-after', String(seconds));
    },
    bodyRead: async () => {},
  });
  const signedIn = async (request: FastifyRequest) => {
    requireViewer(request.viewer);
  };
  const privately = (reply: FastifyReply) => reply.header('Cache-Control', 'private, no-store');

  app.get(
    '/myposts/details',
    {
      schema: {
        summary: 'A post: the post result record and what the viewer may do with it',
        description: 'A hidden post is answered to its author and admins only; others get 404.',
        tags: ['posts'],
        querystring: postContract(postDetailsQuerySchema),
        response: { 200: postResultSchema, ...errorResponses('invalidParam', 'postNotFound') },
      },
    },
    async (request, reply) => privately(reply).send(await posts.details(request.viewer, request.query.id)),
  );

  app.get(
    '/myposts/edit',
    {
      preValidation: signedIn,
      schema: {
        summary: "The edit form's state of a post (its author's, or an admin's)",
        tags: ['posts'],
        querystring: postContract(postEditQuerySchema),
        response: {
          200: postFormStateSchema,
          ...errorResponses('unauthorized', 'forbidden', 'invalidParam', 'invalidField', 'postNotFound'),
        },
      },
    },
    async (request, reply) => privately(reply).send(await posts.editForm(request.viewer, request.query)),
  );

  app.post(
    '/myposts/new',
    {
      preValidation: signedIn,
      schema: {
        summary: 'The empty form of a new post with the GUID the client generated',
        tags: ['posts'],
        body: postContract(bodyContract(postActionRequestSchema)),
        response: {
          200: postFormStateSchema,
          ...errorResponses(
            'unauthorized',
            'antiforgeryMissing',
            'badRequest',
            'invalidParam',
            'invalidField',
            'postIdTaken',
          ),
        },
      },
    },
    async (request, reply) => privately(reply).send(await posts.newForm(request.viewer, request.body)),
  );

  app.post(
    '/myposts/delete',
    {
      preValidation: signedIn,
      errorHandler: modeErrorHandler,
      schema: {
        summary: 'Delete a post (its author, or an admin)',
        description:
          'DoRedirect: 303 to returnUrl (or /). ReturnUrl: 200 text/plain with that address. ReturnJson (the default): {error_n: 0, error_msg, id, redirect}.',
        tags: ['posts'],
        body: postContract(bodyContract(postActionRequestSchema), 'delete'),
        response: {
          200: postDeleteResponseSchema,
          303: z.null().meta({ description: 'DoRedirect: the address is in Location' }),
          ...modeErrorResponses(
            'unauthorized',
            'antiforgeryMissing',
            'forbidden',
            'badRequest',
            'invalidPostId',
            'invalidField',
            'postNotFound',
            'payloadTooLarge',
          ),
        },
      },
    },
    async (request, reply) => {
      const deleted = await posts.remove(request.viewer, request.body);
      return answerInMode(reply, request.body.resultMode, deleted.redirect, {
        error_n: 0,
        error_msg: '',
        id: deleted.id,
        redirect: deleted.redirect,
      });
    },
  );

  app.post(
    '/myposts/hide',
    {
      preValidation: signedIn,
      schema: {
        summary: 'Hide a post from everyone but its author, or show it again (admins)',
        tags: ['posts'],
        body: postContract(bodyContract(postHideRequestSchema)),
        response: {
          200: postResultSchema,
          ...errorResponses(
            'unauthorized',
            'antiforgeryMissing',
            'forbidden',
            'badRequest',
            'invalidParam',
            'invalidField',
            'postNotFound',
          ),
        },
      },
    },
    async (request) => posts.hide(request.viewer, request.body),
  );

  // a search sent as POST (social §7): it writes nothing, so it needs no anti-forgery token
  app.post(
    '/v1/locations/nearby',
    {
      config: { antiforgery: false },
      schema: {
        summary: 'The points nearest to a position that a post can be attached to, nearest first',
        description:
          'Points of every supertype but help requests and incidents (a request of the moment, not a place), at most max_locations (30), with their distance in metres.',
        tags: ['posts'],
        body: bodyContract(nearbyRequestSchema),
        response: { 200: nearbyResponseSchema, ...errorResponses('badRequest', 'invalidField') },
      },
    },
    async (request) => posts.nearby(request.body),
  );

  app.get(
    '/v1/posts/point/:xpointid',
    {
      schema: {
        summary: "A point's live posts (not expired), newest first",
        tags: ['posts'],
        params: z.object({ xpointid: z.string() }),
        querystring: postListQuerySchema,
        response: { 200: postPageSchema, ...errorResponses('invalidParam', 'invalidField') },
      },
    },
    async (request, reply) =>
      privately(reply).send(await posts.pointPosts(request.viewer, request.params.xpointid, request.query)),
  );

  app.get(
    '/v1/posts/user/:username',
    {
      schema: {
        summary: "A profile's posts, newest first, expired ones included and marked",
        tags: ['posts'],
        params: z.object({ username: z.string() }),
        querystring: postListQuerySchema,
        response: { 200: postPageSchema, ...errorResponses('invalidField', 'notFound') },
      },
    },
    async (request, reply) =>
      privately(reply).send(await posts.userPosts(request.viewer, request.params.username, request.query)),
  );

  // the form's own action: multipart (the browser's form, its cover a file part) or JSON (an API
  // client, its cover base64); multipart is understood in this route's scope only
  await app.register(async (scope) => {
    await scope.register(multipart);
    scope.post(
      SAVE_PATH,
      {
        bodyLimit: MEDIA_JSON_BODY_LIMIT_BYTES,
        // a visitor is refused before a byte of the body is read, and an answer given before the
        // body's end stops its reading (features/points/media.ts, MEDIA_ROUTE)
        onRequest: signedIn,
        onSend: refuseUnreadBody,
        errorHandler: modeErrorHandler,
        schema: {
          summary: 'Create, edit or renew a post (the post form’s own action)',
          description:
            'multipart/form-data: the text fields first, then optionally one file part named `cover_file` (the cover, at most 10 MB; streamed; who may save the id is checked before it is read). ' +
            'JSON: the same fields, the cover as base64 in `cover_image` (length / 1.3333 at most 10 MB). `cover_image` EMPTY removes the cover, `video_id` EMPTY the video. ' +
            'A new post has no `version`; the same id sent again by its author answers the post it made. An edit sends the `version` it read (a stale one is 409). `torenew` brings the post to the top, once per 48 hours. ' +
            'Answers: DoRedirect 303 to returnUrl (or /post/{id}); ReturnUrl 200 text/plain with that address; ReturnJson (the default) {error_n: 0, error_msg, post, redirect}.',
          tags: ['posts'],
          body: {
            content: {
              'application/json': { schema: postContract(bodyContract(postFormSchema)) },
              'multipart/form-data': { schema: multipartContract(postFormSchema) },
            },
          },
          response: {
            200: postSaveResponseSchema,
            201: postSaveResponseSchema,
            303: z.null().meta({ description: 'DoRedirect: the address is in Location' }),
            ...modeErrorResponses(
              'unauthorized',
              'antiforgeryMissing',
              'forbidden',
              'badRequest',
              'invalidField',
              'invalidParam',
              'dateBefore1901',
              'conflict',
              'postNotFound',
              'postIdTaken',
              'postPointNotFound',
              'postCityNotFound',
              'postRenewTooSoon',
              'postRenewNeedsExpiry',
              'postRenewNotAuthor',
              'postVideoNotFound',
              'postVideoNotYours',
              'invalidImage',
              'invalidImageSize',
              'coverTooManyPixels',
              'rateLimited',
              'unsupportedMediaType',
            ),
          },
        },
      },
      async (request, reply) => {
        const hooks = hooksOf(request, reply);
        let saved;
        if (request.isMultipart()) {
          const upload = await readMultipartUpload(request, MAX_IMAGE_BYTES, {
            fileField: COVER_FILE_FIELD,
            fields: FORM_FIELDS,
            fieldBytes: FORM_FIELD_BYTES,
          });
          modes.set(request, upload.fields['resultMode']);
          saved = await posts.saveUpload(request.viewer, upload, hooks);
        } else if (request.headers['content-type']?.toLowerCase().startsWith('application/json')) {
          saved = await posts.save(request.viewer, request.body as PostForm, hooks);
        } else {
          // only the two bodies above are validated by the route's schema: anything else (text/plain
          // "{}") would reach the store unchecked
          throw new AppError('unsupportedMediaType', {
            type: String(request.headers['content-type'] ?? 'none').slice(0, 60),
          });
        }
        return answerInMode(
          reply,
          saved.mode,
          saved.redirect,
          {
            error_n: 0,
            error_msg: '',
            post: saved.post,
            redirect: saved.redirect,
          },
          saved.created ? 201 : 200,
        );
      },
    );
  });
};

/** Social §4's result modes: a redirect, the address as text, or the JSON answer. */
function answerInMode(
  reply: FastifyReply,
  mode: PostResultMode,
  redirect: string,
  json: object,
  status = 200,
): FastifyReply {
  if (mode === 'DoRedirect') return reply.redirect(redirect, 303);
  if (mode === 'ReturnUrl') return reply.status(200).type('text/plain; charset=utf-8').send(redirect);
  return reply.status(status).send(json);
}
