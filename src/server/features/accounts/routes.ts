import type { FastifyError, FastifyPluginAsync } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { AppError } from '../../../shared/errors';
import type { Auth } from '../../auth/hook';
import type { Config } from '../../config';
import type { Store } from '../../store/store';
import { AVATAR_BODY_LIMIT_BYTES } from './avatar';
import { AccountLockedError, AccountService, mediaDirOf, toAccountUser } from './service';

/** Per-IP limits (in memory, per process; the per-account lock lives in the store). */
const LOGIN_PER_IP = { max: 30, timeWindow: 60_000 };
const REGISTER_PER_IP = { max: 10, timeWindow: 15 * 60_000 };

/**
 * /v1/account/*: register, login, logout, logout-everywhere, me, antiforgery, password, avatar.
 * Thin: each route hands the body and the viewer to the service and shapes the answer.
 */
export const accountRoutes: FastifyPluginAsync<{ config: Config; store: Store; auth: Auth }> = async (
  app,
  { config, store, auth },
) => {
  const service = new AccountService(store, {
    passwordRule: config.passwordRule,
    mediaDir: mediaDirOf(config.dataDir),
  });

  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new AppError('rateLimited', { retry: `${Math.max(1, Math.ceil(context.ttl / 1000))} s` }),
  });

  app.post('/v1/account/register', { config: { rateLimit: REGISTER_PER_IP } }, async (request, reply) => {
    const user = await service.register(request.body);
    const { token } = await auth.startSession(request, reply, user.id);
    return reply.status(201).send({ user: toAccountUser(user), token });
  });

  app.post('/v1/account/login', { config: { rateLimit: LOGIN_PER_IP } }, async (request, reply) => {
    try {
      const user = await service.authenticate(request.body, request.ip);
      const { token, antiforgery } = await auth.startSession(request, reply, user.id);
      return { user: toAccountUser(user), token, antiforgery };
    } catch (error) {
      if (error instanceof AccountLockedError) reply.header('Retry-After', String(error.retryAfterSeconds));
      throw error;
    }
  });

  app.post('/v1/account/logout', async (request, reply) => {
    await auth.endSession(request, reply);
    return { ok: true };
  });

  app.post('/v1/account/logout-everywhere', async (request, reply) => {
    await service.signOutEverywhere(request.viewer);
    auth.clearSessionCookie(request, reply);
    return { ok: true };
  });

  app.get('/v1/account/me', async (request, reply) => {
    const user = await service.me(request.viewer);
    return reply.header('Cache-Control', 'no-store').send({ user: toAccountUser(user) });
  });

  app.get('/v1/account/antiforgery', async (request, reply) => {
    const token = auth.antiforgeryFor(request, reply);
    return reply.header('Cache-Control', 'no-store').send({ token });
  });

  app.post('/v1/account/password', async (request) => {
    const user = await service.changePassword(request.viewer, request.session?.id, request.body);
    return { user: toAccountUser(user) };
  });

  const avatarRoute = {
    bodyLimit: AVATAR_BODY_LIMIT_BYTES,
    // a body past the route's limit is an image past 10 MB: say so in the spec's words
    errorHandler: (error: FastifyError) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        throw new AppError('invalidImageSize', { size: '10 MB' });
      throw error;
    },
  };
  app.post('/v1/account/avatar', avatarRoute, async (request) => {
    const user = await service.setAvatar(request.viewer, request.body);
    return { user: toAccountUser(user) };
  });
};
