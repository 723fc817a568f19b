import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ANTIFORGERY_HEADER, TOKEN_SCHEME } from '../../shared/api/accounts';
import { AppError } from '../../shared/errors';
import type { Viewer } from '../../shared/permissions';
import type { Config } from '../config';
import type { Store } from '../store/store';
import { sessionSecret } from './secret';
import { deleteDeadSessions, findLiveSession, insertSession, revokeSession, touchSession } from './sessions';
import { TokenSigner, randomVisitorId } from './tokens';

declare module 'fastify' {
  interface FastifyRequest {
    /** who is asking: null for a visitor. Set by the auth hook before any handler runs. */
    viewer: Viewer;
    /** the session behind `viewer`, and whether it came in the Authorization header or the cookie. */
    session: RequestSession | null;
  }
  interface FastifyContextConfig {
    /**
     * false on state-changing routes that only read (a search sent as POST): they skip the
     * anti-forgery check. Every other non-GET route is checked when the session comes from the cookie.
     */
    antiforgery?: boolean;
    /** false on routes that answer an HTML fragment, not a page: no page meta is put in it. */
    pageMeta?: boolean;
  }
}

export interface RequestSession {
  id: string;
  via: 'header' | 'cookie';
}

/** httpOnly session cookie: the browser's credential. */
export const SESSION_COOKIE = 'xp_session';
/** httpOnly random value that a visitor's anti-forgery token is bound to. */
export const VISITOR_COOKIE = 'xp_af';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** `Authorization: appnettoken <token>`; other schemes are not ours and are ignored. */
const TOKEN_HEADER = new RegExp(`^${TOKEN_SCHEME}\\s+(\\S+)\\s*$`, 'i');
/** Files never need to know who asks; skipping them saves a store lookup per asset. */
const UNAUTHENTICATED_PREFIXES = ['/assets/', '/media/', '/tiles/'];
/** Sliding expiry is written at most this often per session. */
const TOUCH_EVERY_MS = 60_000;
/** Dead sessions are forgotten a week after they died. */
const KEEP_DEAD_SESSIONS_MS = 7 * 24 * 3600_000;

export interface Auth {
  readonly signer: TokenSigner;
  readonly ttlMs: number;
  /** creates a session for `userId`, sets the session cookie, and returns the API token and anti-forgery token. */
  startSession(
    request: FastifyRequest,
    reply: FastifyReply,
    userId: string,
  ): Promise<{ token: string; antiforgery: string; sessionId: string }>;
  /** revokes the request's session and clears the cookie. */
  endSession(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void;
  /** the anti-forgery token for this request: bound to its session, or to a visitor cookie it sets. */
  antiforgeryFor(request: FastifyRequest, reply: FastifyReply): string;
}

/**
 * Resolves the viewer of every request and enforces anti-forgery; call from app.ts before the feature
 * routes (not encapsulated, so every route sees `request.viewer`).
 *
 * - `Authorization: appnettoken <token>` (API clients): a bad, revoked or expired token is a 401.
 *   No anti-forgery token is needed: a browser never attaches this header by itself, so a cross-site
 *   page cannot forge a request that carries it (standard practice for bearer-style tokens).
 * - the `xp_session` cookie (the browser): a dead cookie is cleared and the request goes on as a
 *   visitor; a state-changing request must carry the session's anti-forgery token in the
 *   RequestVerificationToken header, or it is refused with 403 before the handler runs.
 */
export function registerAuth(app: FastifyInstance, deps: { config: Config; store: Store }): Auth {
  const { config, store } = deps;
  const signer = new TokenSigner(sessionSecret(config.sessionSecret, config.dataDir));
  const ttlMs = config.sessionTtlDays * 24 * 3600_000;

  const cookieOptions = (request: FastifyRequest, maxAgeSeconds: number) => ({
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    // behind a TLS-terminating proxy, trustProxy makes X-Forwarded-Proto count
    secure: request.protocol === 'https',
    maxAge: maxAgeSeconds,
  });
  const setSessionCookie = (request: FastifyRequest, reply: FastifyReply, token: string) =>
    reply.setCookie(SESSION_COOKIE, token, cookieOptions(request, Math.floor(ttlMs / 1000)));
  const clearSessionCookie = (request: FastifyRequest, reply: FastifyReply) => {
    reply.clearCookie(SESSION_COOKIE, { ...cookieOptions(request, 0), maxAge: undefined });
  };

  app.decorateRequest('viewer', null);
  app.decorateRequest('session', null);

  app.addHook('onRequest', async (request, reply) => {
    if (UNAUTHENTICATED_PREFIXES.some((prefix) => request.url.startsWith(prefix))) return;
    const now = Date.now();

    const header = request.headers.authorization;
    const bearer = header ? TOKEN_HEADER.exec(header) : null;
    if (bearer) {
      const sessionId = signer.verify(bearer[1] ?? '');
      const live = sessionId ? await findLiveSession(store, sessionId, now) : undefined;
      if (!live) throw new AppError('sessionInvalid');
      if (now - live.lastSeenAt >= TOUCH_EVERY_MS)
        await touchSession(store, live.sessionId, now, now + ttlMs);
      request.viewer = live.user;
      request.session = { id: live.sessionId, via: 'header' };
      return;
    }

    const cookie = request.cookies[SESSION_COOKIE];
    if (!cookie) return;
    const sessionId = signer.verify(cookie);
    const live = sessionId ? await findLiveSession(store, sessionId, now) : undefined;
    if (!live) {
      clearSessionCookie(request, reply);
      return;
    }
    if (now - live.lastSeenAt >= TOUCH_EVERY_MS) {
      await touchSession(store, live.sessionId, now, now + ttlMs);
      setSessionCookie(request, reply, cookie);
    }
    request.viewer = live.user;
    request.session = { id: live.sessionId, via: 'cookie' };
    if (SAFE_METHODS.has(request.method) || request.routeOptions.config?.antiforgery === false) return;
    const given = request.headers[ANTIFORGERY_HEADER.toLowerCase()];
    if (
      !signer.checkAntiforgery({ sessionId: live.sessionId }, typeof given === 'string' ? given : undefined)
    ) {
      throw new AppError('antiforgeryMissing');
    }
  });

  /**
   * The token for this request: bound to its session, or to the visitor cookie (created if missing).
   * `late` is for onSend, after @fastify/cookie has written its headers: the cookie goes in directly.
   */
  const antiforgeryFor = (request: FastifyRequest, reply: FastifyReply, late = false): string => {
    if (request.session) return signer.antiforgery({ sessionId: request.session.id });
    let visitor = request.cookies[VISITOR_COOKIE];
    if (!visitor || !/^[A-Za-z0-9_-]{32}$/.test(visitor)) {
      visitor = randomVisitorId();
      request.cookies[VISITOR_COOKIE] = visitor;
      const options = { ...cookieOptions(request, 0), maxAge: undefined };
      if (late) reply.header('set-cookie', app.serializeCookie(VISITOR_COOKIE, visitor, options));
      else reply.setCookie(VISITOR_COOKIE, visitor, options);
    }
    return signer.antiforgery({ visitor });
  };

  // The web app's page carries the token in <meta name="csrf-token">, so its first write needs no extra
  // call, and the signed-in user's id in <meta name="xp-user-id"> (the spec's global user data: empty for
  // a visitor), so a visitor's page never asks /v1/account/me just to hear 401.
  // An application-level onSend runs before @fastify/compress's route-level one: the HTML is still a string.
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' || reply.statusCode !== 200) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('text/html')) return payload;
    // no caching of a page that names its viewer
    reply.header('Cache-Control', 'no-store');
    if (request.routeOptions.config.pageMeta === false) return payload;
    return withPageMeta(payload, {
      csrfToken: antiforgeryFor(request, reply, true),
      userId: request.viewer?.id ?? '',
    });
  });

  return {
    signer,
    ttlMs,
    async startSession(request, reply, userId) {
      const now = Date.now();
      const { token, sessionId } = signer.issue();
      await deleteDeadSessions(store, userId, now - KEEP_DEAD_SESSIONS_MS);
      await insertSession(store, {
        id: sessionId,
        userId,
        now,
        expiresAt: now + ttlMs,
        userAgent: request.headers['user-agent']?.slice(0, 300) ?? null,
        ip: request.ip,
      });
      setSessionCookie(request, reply, token);
      return { token, sessionId, antiforgery: signer.antiforgery({ sessionId }) };
    },
    async endSession(request, reply) {
      if (request.session) await revokeSession(store, request.session.id, Date.now());
      clearSessionCookie(request, reply);
    },
    clearSessionCookie,
    antiforgeryFor: (request, reply) => antiforgeryFor(request, reply),
  };
}

/**
 * Puts `<meta name="csrf-token">` and `<meta name="xp-user-id">` first in <head>, or after the doctype
 * when the page has no head tag. Both values are base64url or id characters: nothing to escape.
 */
export function withPageMeta(
  html: string,
  { csrfToken, userId }: { csrfToken: string; userId: string },
): string {
  const meta = `<meta name="csrf-token" content="${csrfToken}"><meta name="xp-user-id" content="${userId}">`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head)
    return html.slice(0, head.index + head[0].length) + meta + html.slice(head.index + head[0].length);
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  if (doctype) return doctype[0] + meta + html.slice(doctype[0].length);
  return meta + html;
}

/** The signed-in viewer, or a 401: the first line of every service method that needs one. */
export function requireViewer(viewer: Viewer): NonNullable<Viewer> {
  if (!viewer) throw new AppError('unauthorized');
  return viewer;
}
