import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import rateLimit from '@fastify/rate-limit';
import { z } from 'zod';
import { bodyContract, withFieldErrors } from '../../../shared/api/contract';
import {
  inviteReviewQuerySchema,
  inviteReviewResponseSchema,
  reviewDeleteSchema,
  reviewReplyDeleteSchema,
  reviewReplySchema,
  reviewWriteResponseSchema,
  reviewWriteSchema,
  reviewsPageSchema,
  reviewsContract,
  reviewsRequestSchema,
} from '../../../shared/api/reviews';
import { AppError, type ErrorName } from '../../../shared/errors';
import { requireViewer } from '../../auth/hook';
import type { Limits } from '../../http/rate-limits';
import { errorResponses } from '../../openapi/errors';
import type { Store } from '../../store/store';
import type { SocialEvents } from '../social/events';
import { ReviewService } from './service';

/**
 * The reviews API (issue 18; social §2, §3, §7; map-and-search §2, §6). Thin: each route hands the
 * parsed request and the viewer to the service (service.ts holds the rules).
 *
 *   POST /review/reviews            anyone          the modal's JSON: summary, the viewer's rights and review, a page
 *   POST /v1/reviews/add            signed in, not a controller    the viewer's one review of a point
 *   POST /v1/reviews/edit           its author      stars and text
 *   POST /v1/reviews/delete         its author
 *   POST /v1/reviews/reply          controllers     the public answer to a review (again: edits it)
 *   POST /v1/reviews/reply/delete   controllers
 *   GET  /Review/InviteReview?appid=  controllers   JSON when asked for (Accept: application/json); a
 *                                                   browser is sent to the point with the invite box open
 */

/**
 * Review writes per person: 20 an hour across every review call. Reviewing is rare (one per point),
 * so a person fixing a typo or answering a dozen reviews never meets it; a script sweeping points does.
 */
export const REVIEW_WRITES_LIMIT = { max: 20, timeWindow: 3600_000 };

const WRITE_ERRORS: ErrorName[] = ['unauthorized', 'antiforgeryMissing', 'badRequest', 'rateLimited'];

export const reviewRoutes: FastifyPluginAsyncZod<{
  store: Store;
  limits: Limits;
  social: SocialEvents;
  publicUrl: string;
}> = async (app, { store, limits, social, publicUrl }) => {
  const reviews = new ReviewService(store, { social, publicUrl });

  await app.register(
    rateLimit,
    limits.plugin({ keyGenerator: (request) => `user:${request.viewer?.id ?? request.ip}` }),
  );
  const writes = app.createRateLimit({
    ...REVIEW_WRITES_LIMIT,
    keyGenerator: (request) => `reviews-write:user:${request.viewer?.id ?? request.ip}`,
  });
  const signedIn = async (request: FastifyRequest) => {
    requireViewer(request.viewer);
  };
  // counted once the request is known to be well formed: a typo in a form does not use up the hour
  const counted = async (request: FastifyRequest, reply: FastifyReply) => {
    const count = await writes(request);
    if (count.isAllowed || !count.isExceeded) return;
    reply.header('retry-after', String(count.ttlInSeconds));
    throw new AppError('rateLimited', { retry: `${Math.max(1, count.ttlInSeconds)} s` });
  };
  const privately = (reply: FastifyReply) => reply.header('Cache-Control', 'private, no-store');

  // a read sent as POST (social §7): it writes nothing, so it needs no anti-forgery token
  app.post(
    '/review/reviews',
    {
      config: { antiforgery: false },
      schema: {
        summary: "A point's reviews: its rating, the viewer's review and rights, and a page newest first",
        description:
          "The reviews modal renders this answer (the spec sends an HTML fragment; this is its JSON). `pagesize` 20 by default, at most 50. Pages go newest first: by the spec's `pagenumber` (an offset), or by `before`, the answer's `next` (a keyset on created_at and id: a page deep in the list costs what page one costs). A `before` this list did not give, or `before` with a `pagenumber` above 1, is 18501. A missing or malformed `appid` is 6705.",
        tags: ['reviews'],
        body: withFieldErrors(bodyContract(reviewsRequestSchema), {
          appid: 'invalidParam',
          before: 'reviewsCursorInvalid',
        }),
        response: {
          200: reviewsPageSchema,
          ...errorResponses(
            'badRequest',
            'invalidParam',
            'invalidField',
            'pointNotFound',
            'reviewsCursorInvalid',
          ),
        },
      },
    },
    async (request, reply) => privately(reply).send(await reviews.page(request.viewer, request.body)),
  );

  app.post(
    '/v1/reviews/add',
    {
      preValidation: signedIn,
      preHandler: counted,
      schema: {
        summary: 'Write the viewer’s review of a point (1-5 stars and text)',
        description:
          'One review per person and point: a second is 409 (18102), edit it instead. The point’s owner, consultant and admins cannot review it (18103). Answers the reviews change event (social §3) and the review.',
        tags: ['reviews'],
        body: reviewsContract(bodyContract(reviewWriteSchema)),
        response: {
          201: reviewWriteResponseSchema,
          ...errorResponses(
            ...WRITE_ERRORS,
            'invalidParam',
            'invalidField',
            'pointNotFound',
            'reviewByController',
            'reviewAlreadyWritten',
          ),
        },
      },
    },
    async (request, reply) => reply.status(201).send(await reviews.add(request.viewer, request.body)),
  );

  app.post(
    '/v1/reviews/edit',
    {
      preValidation: signedIn,
      preHandler: counted,
      schema: {
        summary: 'Change the viewer’s review of a point',
        tags: ['reviews'],
        body: reviewsContract(bodyContract(reviewWriteSchema)),
        response: {
          200: reviewWriteResponseSchema,
          ...errorResponses(
            ...WRITE_ERRORS,
            'invalidParam',
            'invalidField',
            'pointNotFound',
            'reviewByController',
            'reviewNotFound',
          ),
        },
      },
    },
    async (request) => reviews.edit(request.viewer, request.body),
  );

  app.post(
    '/v1/reviews/delete',
    {
      preValidation: signedIn,
      preHandler: counted,
      schema: {
        summary: 'Delete the viewer’s review of a point',
        tags: ['reviews'],
        body: reviewsContract(bodyContract(reviewDeleteSchema)),
        response: {
          200: reviewWriteResponseSchema,
          ...errorResponses(...WRITE_ERRORS, 'invalidParam', 'pointNotFound', 'reviewNotFound'),
        },
      },
    },
    async (request) => reviews.remove(request.viewer, request.body.appid),
  );

  app.post(
    '/v1/reviews/reply',
    {
      preValidation: signedIn,
      preHandler: counted,
      schema: {
        summary: 'Answer a review in public (the point’s owner, consultant or an admin)',
        description: 'One answer per review; sending another edits it. Its author is told.',
        tags: ['reviews'],
        body: bodyContract(reviewReplySchema),
        response: {
          200: reviewWriteResponseSchema,
          ...errorResponses(
            ...WRITE_ERRORS,
            'invalidField',
            'reviewNotFound',
            'pointNotFound',
            'reviewReplyNotController',
          ),
        },
      },
    },
    async (request) => reviews.reply(request.viewer, request.body),
  );

  app.post(
    '/v1/reviews/reply/delete',
    {
      preValidation: signedIn,
      preHandler: counted,
      schema: {
        summary: 'Delete the public answer to a review',
        tags: ['reviews'],
        body: bodyContract(reviewReplyDeleteSchema),
        response: {
          200: reviewWriteResponseSchema,
          ...errorResponses(
            ...WRITE_ERRORS,
            'invalidField',
            'reviewNotFound',
            'pointNotFound',
            'reviewReplyNotController',
            'reviewReplyNotFound',
          ),
        },
      },
    },
    async (request) => reviews.deleteReply(request.viewer, request.body.reviewid),
  );

  app.get(
    '/Review/InviteReview',
    {
      schema: {
        summary: 'The link that opens a point with the review form ready, and its QR code (controllers)',
        description:
          'Answers JSON to a request that accepts application/json; a browser opening the address (text/html) is sent (303) to the point with its reviews and this link open (`?review=invite`).',
        tags: ['reviews'],
        querystring: inviteReviewQuerySchema,
        response: {
          200: inviteReviewResponseSchema,
          303: z.null().meta({ description: 'A browser: the point with its reviews open, in Location' }),
          ...errorResponses(
            'unauthorized',
            'invalidParam',
            'invalidField',
            'pointNotFound',
            'reviewInviteNotController',
          ),
        },
      },
    },
    async (request, reply) => {
      if (!wantsJson(request)) {
        // a person following the controls' link: the point's panel with the reviews and the invite box
        const page = await reviews.invitePage(request.query.appid);
        return page === null ? reply.callNotFound() : reply.redirect(page, 303);
      }
      return privately(reply).send(await reviews.invite(request.viewer, request.query.appid));
    },
  );
};

/** A browser's navigation asks for text/html first; the API client asks for JSON. */
function wantsJson(request: FastifyRequest): boolean {
  const accept = String(request.headers.accept ?? '').toLowerCase();
  if (accept.includes('application/json')) return true;
  return !accept.includes('text/html');
}
