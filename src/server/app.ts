import fs from 'node:fs';
import http from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, {
  type ConnectionError,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RouteOptions,
} from 'fastify';
import pino from 'pino';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import { AppError, type ErrorBody } from '../shared/errors';
import type { Config } from './config';
import type { Store } from './store/store';
import { ChangeFollower, type ChangeFeedTrace } from './store/follower';
import { listenForChanges } from './store/notify';
import { healthRoutes } from './features/health/routes';
import { mapRoutes } from './tiles/routes';
import { registerAuth } from './auth/hook';
import { accountRoutes } from './features/accounts/routes';
import { permissionRoutes } from './features/permissions/routes';
import {
  FullScreenPages,
  fullScreenRoutes,
  loadPageRenderer,
  loadFirstPaintRenderers,
  sendPage,
} from './features/details/fullscreen';
import { SEARCH_SUPERTYPES, buildAddress, parseAddress, type SearchSupertype } from '../shared/address';
import type { FirstPaintRenderers, FullScreenRenderer } from '../shared/details/page';
import { basemapCredit } from '../shared/map/contract';
import { registerContracts } from './openapi/plugin';
import { openMedia } from './media/open';
import { mediaRoutes } from './media/serve';
import type { MediaPlace } from './media/store';
import {
  bodyLimitOf,
  DEFAULT_BODY_LIMIT_BYTES,
  formatBytes,
  jsonDeeperThan,
  MAX_HEADER_BYTES,
  MAX_JSON_DEPTH,
  MAX_URL_BYTES,
} from './http/limits';
import { registerHashedAssets } from './http/hashed-assets';
import { openLimits } from './http/rate-limits';
import { JobQueue } from './jobs/queue';
import { SocialEvents } from './features/social/events';
import { CityPages, cityPagesRendererFile, loadCityPagesRenderer } from './features/citypages/pages';
import type { CityPagesRenderer } from '../shared/citypages/page';

export interface AppDeps {
  config: Config;
  store: Store;
  /** a pino logger; tests pass none and get a silent one. */
  logger?: FastifyBaseLogger;
  /** the full-screen page's renderer; by default the built one at config.pageRenderer. */
  pageRenderer?: FullScreenRenderer | null;
  /** the app's first paints (issue 23); by default the built ones, when pageRenderer is the built one too. */
  firstPaint?: FirstPaintRenderers | null;
  /** sees every route as it is added (the OpenAPI test compares them with the document). */
  onRoute?: (route: RouteOptions) => void;
  /** how often the store's change feed is read (a write shows in search and tiles within it); default 500 ms. */
  changeFeedPollMs?: number;
  /**
   * On PostgreSQL, whether a commit's notification wakes the follower at once (store/notify.ts);
   * default true. Off, a write shows at the next poll (the latency test's "before").
   */
  changeFeedListen?: boolean;
  /** told how each change goes through the follower and its subscribers (bench:cluster times it). */
  changeFeedTrace?: ChangeFeedTrace;
  /**
   * Where media is stored (media/open.ts): main.ts opens and checks it before the app is built; by
   * default the one the configuration names, closed with the app.
   */
  media?: MediaPlace;
  /** Redis keys of the per-address limits start with this (http/rate-limits.ts); tests give a unique one. */
  limitsPrefix?: string;
  /**
   * The process's durable job queue (jobs/queue.ts): by default one on the store, started when the app
   * is ready and stopped (running jobs finished or released) when it closes.
   */
  jobs?: JobQueue;
  /** the city and event pages' renderer (issue 19); by default the built one beside config.pageRenderer. */
  cityPagesRenderer?: CityPagesRenderer | null;
}

/** Hashed files never change: a year, immutable. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** How long one plugin may take to register, index builds included (see buildApp). */
export const PLUGIN_START_TIMEOUT_MS = 5 * 60_000;
/** Paths under these prefixes are API calls: a miss is a JSON 404, never the web app. */
const API_PREFIXES = ['/v1/', '/api/', '/socket/', '/tiles/', '/media/'];
/** Methods a route may take: a path that has routes for some answers 405 to the others. */
const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * Responses over 1 KiB are compressed as they go. Brotli at quality 4: Node's default, 11, is for
 * files compressed once (the build does that for its assets) and costs about 10 ms on a 5 KB answer,
 * against 0.16 ms at 4 for 8% more bytes (and still 40% fewer than gzip).
 */
export const RESPONSE_COMPRESSION = {
  global: true,
  threshold: 1024,
  brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
};

/** Builds the HTTP application without listening, so tests can `inject` requests with no port. */
export async function buildApp({
  config,
  store,
  logger,
  pageRenderer,
  firstPaint,
  onRoute,
  changeFeedPollMs,
  changeFeedListen = true,
  changeFeedTrace,
  media: givenMedia,
  limitsPrefix,
  jobs: givenJobs,
  cityPagesRenderer,
}: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger ?? (pino({ level: 'silent' }) as FastifyBaseLogger),
    // each route's own limit comes from src/server/http/limits.ts (the onRoute hook below)
    bodyLimit: DEFAULT_BODY_LIMIT_BYTES,
    // Node's own limit on the request line and headers (its default, named): see clientErrorHandler
    http: { maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false },
    // what Node refuses before Fastify sees a request (a malformed request line, headers past the
    // limit) is answered in the catalogue's shape too
    clientErrorHandler,
    // X-Forwarded-For is believed only from the proxies configured (TRUST_PROXY): anyone can send it
    trustProxy: trustProxyOption(config.trustProxy),
    // ids are case-sensitive, and `/b/abc/` means `/b/abc`
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    // keep-alive sockets that are idle close at once on shutdown; busy ones finish first
    forceCloseConnections: 'idle',
    // the router's own refusals (a malformed percent-encoding in the path) answer in the catalogue's shape
    frameworkErrors: (error, _request, reply) => {
      const refused = new AppError('badRequest', { reason: 'the address is not valid percent-encoding.' });
      void sendError(reply, refused.status, refused.toBody());
    },
    return503OnClosing: true,
    // the point tile and search indexes are built while their plugins register: a million points on
    // PostgreSQL, with three processes starting at once on 2 cores, took longer than Fastify's default
    // 10 s and the processes gave up (bench:cluster, issue 25); a plugin that truly hangs still fails
    pluginTimeout: PLUGIN_START_TIMEOUT_MS,
  });

  const pages = new FullScreenPages(
    store,
    pageRenderer === undefined ? await loadPageRenderer(config.pageRenderer, app.log) : pageRenderer,
    path.join(config.webDir, 'fullscreen.html'),
    config.publicUrl,
    firstPaint !== undefined
      ? firstPaint
      : pageRenderer === undefined
        ? await loadFirstPaintRenderers(config.pageRenderer)
        : null,
    basemapCredit(config.basemap),
  );
  // the smallest body limit that fits each route, unless the route sets its own (the media uploads)
  app.addHook('onRoute', (route) => {
    if (route.bodyLimit !== undefined) return;
    const methods = [route.method].flat();
    route.bodyLimit = Math.max(...methods.map((method) => bodyLimitOf(method, route.url)));
  });
  if (onRoute) app.addHook('onRoute', onRoute);
  app.addHook('onRequest', refuseMalformedRequest);
  useBoundedJsonParser(app);
  app.setErrorHandler(errorHandler);
  await registerContracts(app);
  app.setNotFoundHandler(notFoundHandler(config, pages));

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // MapLibre positions markers and popups with inline styles
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        // MapLibre runs its workers from blob: URLs in some builds
        workerSrc: ["'self'", 'blob:'],
        // the API and the live socket: this origin, and the socket's origin as people reach it
        // (PUBLIC_URL's host over ws: or wss:), not any host; an external basemap's style host too
        connectSrc: ["'self'", socketOrigin(config.publicUrl), ...basemapOrigin(config.basemap)],
        // the site viewer shows a point's https sites inside the panel (web/features/details/siteViewer.ts)
        frameSrc: ["'self'", 'https:'],
        fontSrc: ["'self'", 'data:'],
        mediaSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // the map page loads its own tiles and glyphs; no cross-origin isolation needed
    crossOriginEmbedderPolicy: false,
  });
  await app.register(compress, RESPONSE_COMPRESSION);
  await app.register(cookie);

  // one reader of the store's change feed per process, for every index and cache that follows it
  // (store/follower.ts); on close it waits for the batches its subscribers have in hand
  const follower = new ChangeFollower(store, {
    ...(changeFeedPollMs !== undefined ? { intervalMs: changeFeedPollMs } : {}),
    ...(changeFeedTrace !== undefined ? { trace: changeFeedTrace } : {}),
    onError: (error, subscriber) =>
      app.log.error(
        { err: error },
        subscriber ? `${subscriber}: applying store changes failed` : 'change feed: reading failed',
      ),
  });

  // on PostgreSQL a commit anywhere wakes the follower at once (store/notify.ts); polling stays the net
  if (store.dialect === 'postgres' && changeFeedListen) {
    const listener = listenForChanges(store, () => follower.wake(), {
      log: { warn: (message) => app.log.warn(message), info: (message) => app.log.info(message) },
    });
    app.addHook('onClose', async () => listener.close());
  }

  const media = givenMedia ?? (await openMedia(config));
  if (!givenMedia) app.addHook('onClose', async () => media.store.close());

  // per-address limits: counted in Redis and shared by every process when REDIS_URL is set
  const limits = openLimits({
    redisUrl: config.redisUrl,
    log: app.log,
    ...(limitsPrefix !== undefined ? { prefix: limitsPrefix } : {}),
  });
  app.addHook('onClose', async () => limits.close());

  // one job queue per process: features register their jobs while their routes are added
  const jobs =
    givenJobs ??
    new JobQueue(store, {
      graceMs: 5000,
      log: {
        info: (message) => app.log.info(message),
        warn: (message) => app.log.warn(message),
        error: (message) => app.log.error(message),
      },
    });
  app.addHook('onReady', async () => jobs.start());
  app.addHook('onClose', async () => jobs.stop());

  await app.register(healthRoutes, { store });
  const auth = registerAuth(app, { config, store });
  await app.register(accountRoutes, { config, store, auth, media, limits });
  await app.register(permissionRoutes, { store });
  await app.register((await import('./tiles/points/routes')).pointTileRoutes, { store, follower });
  await app.register(mapRoutes, { config });
  await app.register((await import('./features/profiles/routes')).profileRoutes, { store });
  // feature routes: one register line per feature, in this block
  await app.register((await import('./features/points/routes')).pointWriteRoutes, {
    store,
    auth,
    media,
    limits,
  });
  await app.register((await import('./features/events/routes')).eventWriteRoutes, { store, media });
  await app.register((await import('./features/posts/routes')).postRoutes, { store, media, limits });
  await app.register((await import('./features/details/routes')).detailRoutes, { store, auth, limits });
  // the social features' domain events (features/social/events.ts): services emit, the live layer listens
  const social = new SocialEvents((error, event) =>
    app.log.error({ err: error, event: event.kind }, 'social: a listener failed'),
  );
  // chat with a point (issue 22): the socket sends lines through it, the HTTP calls read and mark them
  const chat = new (await import('./features/chat/service')).ChatService(
    store,
    social,
    limits,
    app.log,
    (config as Config & { chat?: { rate: { max: number; windowMs: number } } }).chat?.rate,
  );
  await app.register((await import('./features/beams/routes')).liveRoutes, {
    config,
    store,
    auth,
    follower,
    limits,
    social,
    chat,
  });
  await app.register((await import('./features/chat/routes')).chatRoutes, { chat });
  await app.register((await import('./features/comments/routes')).commentRoutes, { store, limits, social });
  await app.register((await import('./features/notifications/routes')).notificationRoutes, { store, social });
  await app.register((await import('./features/follows/routes')).followRoutes, { store, social, limits });
  await app.register((await import('./features/search/routes')).searchRoutes, {
    store,
    auth,
    follower,
    countLimit: config.searchCountLimit,
    // search pages come painted with its first page (issue 23)
    onService: (service) => pages.searchWith(service),
  });
  await app.register((await import('./features/videos/routes')).videoRoutes, { store, media, limits, jobs });
  await app.register((await import('./features/reviews/routes')).reviewRoutes, {
    store,
    limits,
    social,
    publicUrl: config.publicUrl,
  });
  await app.register((await import('./features/likes/routes')).likeRoutes, { store, limits, social });
  // the connection pinger (issue 19)
  await app.register((await import('./features/ping/routes')).pingRoutes, { store });
  // real-user timings (issue 23): the pages' Core Web Vitals, counted per screen
  await app.register((await import('./features/vitals/routes')).vitalsRoutes, { store, limits });
  // the home page (issue 19, home19): city autocomplete and top destinations, the landing city feed
  await app.register((await import('./features/locations/routes')).locationRoutes, { store });
  await app.register((await import('./features/feeds/routes')).feedRoutes, { store, follower, social });
  // the owner's website (issue 20)
  await app.register((await import('./features/website/routes')).websiteRoutes, { store, media, limits });
  await app.register((await import('./features/bookings/routes')).bookingRoutes, { store });
  await app.register(fullScreenRoutes, { pages });
  // the city deals page /cads/{city} and the event page /e/{id}, rendered on the server (issue 19)
  await app.register((await import('./features/citypages/routes')).cityPageRoutes, {
    pages: new CityPages(
      store,
      cityPagesRenderer === undefined
        ? await loadCityPagesRenderer(cityPagesRendererFile(config.pageRenderer), app.log)
        : cityPagesRenderer,
      path.join(config.webDir, 'citypage.html'),
      config.publicUrl,
    ),
    webDir: config.webDir,
  });
  app.addHook('onClose', async () => follower.stop());

  // uploaded and generated media, streamed from the store whichever it is (media/serve.ts)
  mediaRoutes(app, media.store);
  await serveWebApp(app, config.webDir);
  const sendIndex = webAppIndex(config, pages);
  app.get('/', (request, reply) => sendIndex(request, reply));
  // the search form of a painted first screen, sent before the app took over (or without JavaScript)
  app.get('/search', { config: { pageMeta: false } }, (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const keywords = typeof query['keywords'] === 'string' ? query['keywords'].trim().slice(0, 200) : '';
    const supertype = typeof query['supertype'] === 'string' ? query['supertype'] : '';
    if (supertype !== '' && !(SEARCH_SUPERTYPES as readonly string[]).includes(supertype)) {
      const error = new AppError('searchSupertypeUnknown', {
        value: supertype.slice(0, 40),
        list: SEARCH_SUPERTYPES.join(', '),
      });
      return sendError(reply, error.status, error.toBody());
    }
    if (keywords === '' && supertype === '') return reply.redirect('/maps', 303);
    const search = supertype === '' ? {} : { supertype: supertype as SearchSupertype };
    return reply.redirect(buildAddress({ screen: 'map-search', keywords, data: { search } }), 303);
  });

  return app;
}

/** The Vite production build: hashed assets cached for a year, index.html revalidated every time. */
async function serveWebApp(app: FastifyInstance, webDir: string): Promise<void> {
  if (!fs.existsSync(webDir)) {
    app.log.warn({ webDir }, 'the web app is not built; page routes will answer 503 (run `npm run build`)');
    return;
  }
  await app.register(fastifyStatic, {
    root: webDir,
    prefix: '/',
    index: false,
    wildcard: true,
    // the build writes .br and .gz beside hashed assets (vite.config.ts): sent as they are
    preCompressed: true,
    dotfiles: 'deny',
    cacheControl: false,
    setHeaders: (reply, filePath) => {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('Cache-Control', hashed ? IMMUTABLE : 'no-cache');
    },
  });
  // the hashed scripts and stylesheets, from memory (src/server/http/hashed-assets.ts)
  registerHashedAssets(app, path.join(webDir, 'assets'), IMMUTABLE);
}

/** `wss://xpoint.example` for `https://xpoint.example`: where the live socket of the page connects. */
function socketOrigin(publicUrl: string): string {
  const url = new URL(publicUrl);
  return `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`;
}

/** The origin of an external basemap style (BASEMAP=https://...), which the browser fetches itself. */
function basemapOrigin(basemap: string | undefined): string[] {
  return basemap !== undefined && /^https?:\/\//i.test(basemap) ? [new URL(basemap).origin] : [];
}

/** A hop count becomes the function Fastify's types take for it (the nearest `hops` proxies are believed). */
function trustProxyOption(
  setting: Config['trustProxy'],
): string | boolean | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  return (_address, hop) => hop < setting;
}

function sendError(reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

/** The one place where errors become responses: `{"errorcode", "error"}` with a fitting status. */
function errorHandler(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    if (error.status >= 500) request.log.error({ err: error.cause ?? error }, error.message);
    return sendError(reply, error.status, error.toBody());
  }
  const known = fromFastifyError(error, request);
  if (known) {
    request.log.info({ code: error.code, message: error.message }, 'rejected request');
    return sendError(reply, known.status, known.toBody());
  }
  request.log.error({ err: error }, 'unhandled error');
  const internal = new AppError('internal');
  return sendError(reply, internal.status, internal.toBody());
}

/**
 * Translates Fastify's own 4xx errors (bad JSON, body too large, wrong content type) into the catalogue.
 * A request that breaks its route's contract arrives as an AppError already (src/server/http/contract.ts).
 */
function fromFastifyError(error: FastifyError, request: FastifyRequest): AppError | null {
  const status = error.statusCode ?? 500;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payloadTooLarge', {
        limit: formatBytes(request.routeOptions.bodyLimit ?? DEFAULT_BODY_LIMIT_BYTES),
      });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupportedMediaType', { type: 'of this request' });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('badRequest', { reason: 'the JSON body is empty.' });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('badRequest', { reason: 'Content-Length does not match the body.' });
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return new AppError('badRequest', { reason: 'the body is not valid JSON.' });
  }
  // the file server refuses a name the file system cannot hold (past 255 bytes) or a dotfile with a
  // 403: to the client that file does not exist (a route parameter past the router's 2,048 lands here too)
  if (status === 403 || status === 404) {
    const urlPath = request.url.split('?')[0] ?? '/';
    return isApiPath(urlPath)
      ? new AppError('routeNotFound', { method: request.method, path: urlPath.slice(0, 200) })
      : new AppError('notFound');
  }
  if (status >= 400 && status < 500) return new AppError('badRequest', { reason: error.message });
  return null;
}

/**
 * The methods some route of `path` takes, besides the catch-all file routes: a request with another
 * method is answered 405 with them in Allow, rather than a 404 that says the path does not exist.
 */
function methodsOf(app: FastifyInstance, path: string): string[] {
  return HTTP_METHODS.filter((method) => {
    const route = app.findRoute({ method, url: path });
    return route !== null && !('*' in (route.params as Record<string, string>));
  });
}

/**
 * JSON bodies are parsed by Fastify's own parser (prototype poisoning refused), after one linear scan
 * that refuses a body nested deeper than MAX_JSON_DEPTH: JSON.parse and what reads its result recurse,
 * and 5,000 levels overflowed the stack (a 500).
 */
function useBoundedJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && jsonDeeperThan(body, MAX_JSON_DEPTH)) {
      done(new AppError('jsonTooDeep', { max: MAX_JSON_DEPTH }), undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
}

/**
 * What Node's parser lets through but no route should see: an address past MAX_URL_BYTES (414), an
 * HTTP/1.1 request without Host (RFC 9112 §3.2: 400; Node's own refusal has no body, so it is ours).
 */
async function refuseMalformedRequest(request: FastifyRequest, reply: FastifyReply) {
  let refused: AppError | null = null;
  if (request.url.length > MAX_URL_BYTES)
    refused = new AppError('uriTooLong', { limit: formatBytes(MAX_URL_BYTES) });
  else if (request.raw.httpVersion === '1.1' && !request.headers.host)
    refused = new AppError('badRequest', { reason: 'an HTTP/1.1 request needs a Host header.' });
  if (refused) return sendError(reply.header('Connection', 'close'), refused.status, refused.toBody());
}

/**
 * Node's refusals before a request exists (Fastify's clientErrorHandler): a malformed request line or
 * header, headers past MAX_HEADER_BYTES, a request that took too long to arrive. Written on the socket
 * in the catalogue's shape, then the connection is closed (its state is unknown).
 */
function clientErrorHandler(error: ConnectionError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const refused = clientRefusal(error);
  const body = JSON.stringify(refused.toBody());
  socket.end(
    `HTTP/1.1 ${refused.status} ${http.STATUS_CODES[refused.status] ?? ''}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

function clientRefusal(error: ConnectionError): AppError {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || error.code === 'ERR_HTTP_HEADERS_TIMEOUT')
    return new AppError('requestTimeout');
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    // the request line alone past the address limit is a long address (414), otherwise the headers (431)
    const packet: unknown = error.rawPacket;
    const lineEnd = Buffer.isBuffer(packet) ? packet.indexOf('\r\n') : -1;
    return lineEnd < 0 || lineEnd > MAX_URL_BYTES
      ? new AppError('uriTooLong', { limit: formatBytes(MAX_URL_BYTES) })
      : new AppError('headersTooLarge', { limit: formatBytes(MAX_HEADER_BYTES) });
  }
  return new AppError('badRequest', { reason: 'it is not a well-formed HTTP request.' });
}

function isApiPath(urlPath: string): boolean {
  return API_PREFIXES.some((prefix) => urlPath.startsWith(prefix)) || urlPath === '/v1';
}

function notFoundHandler(config: Config, pages: FullScreenPages) {
  const sendIndex = webAppIndex(config, pages);
  return async function onNotFound(request: FastifyRequest, reply: FastifyReply) {
    const urlPath = request.url.split('?')[0] ?? '/';
    const isApi = isApiPath(urlPath);
    const isPageRoute =
      (request.method === 'GET' || request.method === 'HEAD') && !isApi && !/\.\w+$/.test(urlPath);
    if (!isPageRoute) {
      const allowed = isApi ? methodsOf(request.server, urlPath) : [];
      if (allowed.length > 0) {
        const refused = new AppError('methodNotAllowed', { method: request.method, path: urlPath });
        return sendError(reply.header('Allow', allowed.join(', ')), refused.status, refused.toBody());
      }
      const error = isApi
        ? new AppError('routeNotFound', { method: request.method, path: urlPath.slice(0, 200) })
        : new AppError('notFound');
      return sendError(reply, error.status, error.toBody());
    }
    return sendIndex(request, reply);
  };
}

/**
 * Page routes belong to the web app: it reads the address and shows the screen. The full-screen
 * point page (/f/{id}, /{id}) comes rendered from the server; a point that does not exist gets the
 * app with a 404, and the app says so. A point's level in the app (/b/{id}) comes with its first
 * paint for a visitor (FullScreenPages.appPage).
 */
function webAppIndex(config: Config, pages: FullScreenPages) {
  const indexFile = path.join(config.webDir, 'index.html');
  return async function sendIndex(request: FastifyRequest, reply: FastifyReply) {
    const [pathname = '/', search = ''] = request.url.split('?', 2);
    const { route } = parseAddress(pathname, search);
    let status = 200;
    if (route.screen === 'fullscreen') {
      try {
        const page = await pages.page(request, route.id);
        if (page !== null) return sendPage(reply, page);
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 404) throw error;
        status = 404;
      }
    }
    let html: string;
    try {
      html = await fs.promises.readFile(indexFile, 'utf8');
    } catch {
      const error = new AppError('webAppNotBuilt');
      return sendError(reply, error.status, error.toBody());
    }
    // a point's level comes painted, for a visitor (issue 23): its text shows before the app's scripts run
    if (route.screen === 'point') {
      const painted = await pages.appPage(request, route.id, request.url, html);
      if (painted !== null) return sendPage(reply, painted);
    }
    // and a search's first page (from the map or the landing page), or the point opened over it (a result's link)
    if (
      (route.screen === 'map-search' || route.screen === 'landing-search') &&
      route.data.event === undefined
    ) {
      const opened = route.data.xpoint?.id;
      const painted =
        opened === undefined
          ? await pages.searchPage(request, route, request.url, html)
          : await pages.appPage(request, opened, request.url, html);
      if (painted !== null) return sendPage(reply, painted);
    }
    // and so do the landing card and the map with no panel
    if ((route.screen === 'landing' || route.screen === 'map') && status === 200) {
      const painted = pages.framePage(request, route.screen, request.url, html);
      if (painted !== null) return sendPage(reply, painted);
    }
    return reply
      .status(status)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .send(html);
  };
}
