import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import {
  antiforgeryResponseSchema,
  avatarFormSchema,
  avatarRequestSchema,
  type AvatarRequest,
  changePasswordRequestSchema,
  loginRequestSchema,
  loginResponseSchema,
  meResponseSchema,
  okResponseSchema,
  registerRequestSchema,
  registerResponseSchema,
} from '../../../shared/api/accounts';
import { bodyContract } from '../../../shared/api/contract';
import { AppError } from '../../../shared/errors';
import type { PasswordStrength } from '../../../shared/validation/password-strength';
import { requireViewer, type Auth } from '../../auth/hook';
import type { Config } from '../../config';
import { errorResponses } from '../../openapi/errors';
import type { Store } from '../../store/store';
import { MAX_IMAGE_BYTES, MEDIA_ROUTE, mediaBody } from '../points/media';
import { FILE_FIELD, readMultipartUpload } from '../../media/upload';
import type { MediaPlace } from '../../media/store';
import { AccountLockedError, AccountService, SignUpPausedError, toAccountUser } from './service';
import type { Limits } from '../../http/rate-limits';

/**
 * Per-IP limits on the routes (in memory, per process). The sign-in locks per account and address and
 * per account live in the store (service.ts, throttle.ts), so every process agrees on them.
 */
const LOGIN_PER_IP = { max: 30, timeWindow: 60_000 };
const REGISTER_PER_IP = { max: 10, timeWindow: 15 * 60_000 };

/**
 * /v1/account/*: register, login, logout, logout-everywhere, me, antiforgery, password, avatar.
 * Thin: each route hands the body and the viewer to the service and shapes the answer.
 */
export const accountRoutes: FastifyPluginAsyncZod<{
  config: Config;
  store: Store;
  auth: Auth;
  media: MediaPlace;
  limits: Limits;
}> = async (app, { config, store, auth, media, limits }) => {
  // zxcvbn's word lists cost ~300 ms and ~35 MB to load: not at start, but before the first body that
  // sets a password is validated (preValidation), after which the contracts call it synchronously
  let loaded: PasswordStrength | undefined;
  const loadStrength = async () => {
    loaded ??= (await import('../../../shared/validation/zxcvbn')).estimatePasswordStrength;
  };
  const estimatePasswordStrength: PasswordStrength = (password, inputs) => {
    if (!loaded) throw new Error('the password strength estimator is not loaded yet');
    return loaded(password, inputs);
  };

  const service = new AccountService(store, {
    passwordRule: config.passwordRule,
    media,
    strength: estimatePasswordStrength,
  });

  await app.register(rateLimit, limits.plugin());

  const rule = config.passwordRule;
  const signedIn = async (request: FastifyRequest) => {
    // a visitor is told to sign in before the body is read (onRequest: before parsing)
    requireViewer(request.viewer);
  };
  const bodyErrors = ['badRequest', 'unsupportedMediaType', 'invalidField'] as const;

  app.post(
    '/v1/account/register',
    {
      config: { rateLimit: REGISTER_PER_IP },
      preValidation: loadStrength,
      schema: {
        summary: 'Create an account and sign in',
        description:
          'Sets the session cookie and answers the token for API clients. An address answered "email taken" 3 times waits 15 min (doubling to an hour) before it may sign up again; 10 sign-ups per address per 15 min.',
        tags: ['accounts'],
        body: bodyContract(registerRequestSchema(rule, estimatePasswordStrength)),
        response: {
          201: registerResponseSchema,
          ...errorResponses(
            ...bodyErrors,
            'passwordTooGuessable',
            'usernameTaken',
            'emailTaken',
            'rateLimited',
          ),
        },
      },
    },
    async (request, reply) => {
      let user;
      try {
        user = await service.register(request.body, request.ip);
      } catch (error) {
        if (error instanceof SignUpPausedError) reply.header('Retry-After', String(error.retryAfterSeconds));
        throw error;
      }
      const { token } = await auth.startSession(request, reply, user.id);
      return reply.status(201).send({ user: toAccountUser(user), token });
    },
  );

  app.post(
    '/v1/account/login',
    {
      config: { rateLimit: LOGIN_PER_IP },
      schema: {
        summary: 'Sign in with a username or email and a password',
        description:
          'Five failures from one address lock that address out of the account (30 s, doubling to 15 min); fifty from anywhere lock the account. A lock answers 429 with Retry-After.',
        tags: ['accounts'],
        body: bodyContract(loginRequestSchema),
        response: {
          200: loginResponseSchema,
          ...errorResponses(...bodyErrors, 'wrongCredentials', 'accountLocked', 'rateLimited'),
        },
      },
    },
    async (request, reply) => {
      try {
        const user = await service.authenticate(request.body, request.ip);
        const { token, antiforgery } = await auth.startSession(request, reply, user.id);
        return { user: toAccountUser(user), token, antiforgery };
      } catch (error) {
        if (error instanceof AccountLockedError) reply.header('Retry-After', String(error.retryAfterSeconds));
        throw error;
      }
    },
  );

  app.post(
    '/v1/account/logout',
    {
      schema: {
        summary: 'Sign out this session',
        tags: ['accounts'],
        response: { 200: okResponseSchema, ...errorResponses('antiforgeryMissing') },
      },
    },
    async (request, reply) => {
      await auth.endSession(request, reply);
      return { ok: true as const };
    },
  );

  app.post(
    '/v1/account/logout-everywhere',
    {
      schema: {
        summary: 'Sign out every session of this account',
        tags: ['accounts'],
        response: { 200: okResponseSchema, ...errorResponses('unauthorized', 'antiforgeryMissing') },
      },
    },
    async (request, reply) => {
      await service.signOutEverywhere(request.viewer);
      auth.clearSessionCookie(request, reply);
      return { ok: true as const };
    },
  );

  app.get(
    '/v1/account/me',
    {
      schema: {
        summary: 'The signed-in user',
        tags: ['accounts'],
        response: { 200: meResponseSchema, ...errorResponses('unauthorized', 'sessionInvalid') },
      },
    },
    async (request, reply) => {
      const user = await service.me(request.viewer);
      return reply.header('Cache-Control', 'no-store').send({ user: toAccountUser(user) });
    },
  );

  app.get(
    '/v1/account/antiforgery',
    {
      schema: {
        summary: 'The anti-forgery token for this browser',
        description: 'Send it as the RequestVerificationToken header on state-changing calls.',
        tags: ['accounts'],
        response: { 200: antiforgeryResponseSchema, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const token = auth.antiforgeryFor(request, reply);
      return reply.header('Cache-Control', 'no-store').send({ token });
    },
  );

  app.post(
    '/v1/account/password',
    {
      onRequest: signedIn,
      preValidation: loadStrength,
      schema: {
        summary: 'Change the password',
        description: 'Signs out every other session.',
        tags: ['accounts'],
        body: bodyContract(changePasswordRequestSchema(rule, estimatePasswordStrength)),
        response: {
          200: meResponseSchema,
          ...errorResponses(
            ...bodyErrors,
            'passwordTooGuessable',
            'unauthorized',
            'wrongCurrentPassword',
            'antiforgeryMissing',
          ),
        },
      },
    },
    async (request) => {
      const user = await service.changePassword(request.viewer, request.session?.id, request.body);
      return { user: toAccountUser(user) };
    },
  );

  // the avatar: JSON (a data URL, the body at most 14.5 MB) or multipart/form-data with the picture in
  // a part named `file`, streamed; multipart is understood in this route's own scope only
  await app.register(async (scope) => {
    await scope.register(multipart);
    scope.post(
      '/v1/account/avatar',
      {
        ...MEDIA_ROUTE,
        schema: {
          summary: 'Set the avatar',
          description:
            'A JPEG, PNG, GIF or WebP picture, at most 10 MB, stored as a 256×256 WebP: as multipart/form-data ' +
            '(the picture in a part named `file`, streamed) or as JSON, a base64 data URL in `image`. A visitor ' +
            'is answered 401 before any of the body is read.',
          tags: ['accounts'],
          body: mediaBody(avatarRequestSchema, avatarFormSchema),
          response: {
            200: meResponseSchema,
            ...errorResponses(
              ...bodyErrors,
              'unauthorized',
              'invalidImage',
              'invalidImageSize',
              'antiforgeryMissing',
            ),
          },
        },
      },
      async (request) => {
        if (!request.isMultipart()) {
          const user = await service.setAvatar(request.viewer, request.body as AvatarRequest);
          return { user: toAccountUser(user) };
        }
        const upload = await readMultipartUpload(request, MAX_IMAGE_BYTES);
        if (upload.file === null)
          throw new AppError('invalidField', { field: FILE_FIELD, reason: 'is required.' });
        const user = await service.setAvatar(request.viewer, { image: upload.file });
        await upload.finish();
        return { user: toAccountUser(user) };
      },
    );
  });
};
